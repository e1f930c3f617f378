"""Session history against the storehost binary, as a developer uses it: the demo driven
through Counter, Todos (add, edit, toggle, delete), Number fact, Timer and Contacts over
HTTP; its history exported as a Swift Testing test (by the route and by `storehost history
export-test`), compiled in a package of its own against this checkout and run (it passes),
then run again with one recorded value changed (it fails, naming the field). Forks, replays
and deleting a session's history, over HTTP.

The test package is built in .build/history-test, so later runs build only what changed."""
import re
import sqlite3
import subprocess
import time
from pathlib import Path

import httpx
import pytest

from storehost_server import BINARY, ROOT, StorehostServer

PACKAGE = ROOT / ".build" / "history-test"

MANIFEST = """// swift-tools-version: 6.0
import PackageDescription

let package = Package(
  name: "HistoryTest",
  platforms: [.macOS(.v15)],
  dependencies: [.package(name: "StoreHost", path: "%(root)s")],
  targets: [
    .testTarget(
      name: "RecordedSessionTests",
      dependencies: [
        .product(name: "StoreHostDemo", package: "StoreHost"),
        .product(name: "ComposableArchitecture", package: "StoreHost"),
        .product(name: "ComposableTesting", package: "StoreHost"),
      ])
  ]
)
"""


class Session:
    """A demo session driven over HTTP with its token."""

    def __init__(self, client, created):
        self.client = client
        self.id = created["id"]
        self.headers = {"Authorization": f"Bearer {created['token']}"}

    def send(self, *actions, wait=False):
        response = self.client.post(f"/api/sessions/{self.id}/actions", json=list(actions), headers=self.headers,
                                    params={"wait": "effects"} if wait else None)
        assert response.status_code == 202, response.text
        return response.json()["version"]

    def state(self):
        return self.client.get(f"/api/sessions/{self.id}", headers=self.headers).json()["state"]

    def get(self, path, **kwargs):
        return self.client.get(f"/api/sessions/{self.id}{path}", headers=self.headers, **kwargs)

    def post(self, path, **kwargs):
        return self.client.post(f"/api/sessions/{self.id}{path}", headers=self.headers, **kwargs)


@pytest.fixture
def server():
    server = StorehostServer().start()
    yield server
    server.stop()


def new_session(client):
    return Session(client, client.post("/api/sessions").json())


def drive_the_demo(session):
    """Counter, Todos, Number fact, Timer and Contacts, as the pages send them."""
    session.send({"counter": "incrementButtonTapped"}, {"counter": "incrementButtonTapped"})
    session.send({"counter": "decrementButtonTapped"})
    for title in ("Buy milk", "Call mom"):
        session.send({"todos": {"binding": {"newTodoText": title}}}, {"todos": "addButtonTapped"})
    milk, mom = (todo["id"] for todo in session.state()["todos"]["todos"])
    session.send({"todos": {"todos": {"element": {"id": milk, "action": {"binding": {"title": "Buy oat milk"}}}}}})
    session.send({"todos": {"todos": {"element": {"id": milk, "action": {"binding": {"isComplete": True}}}}}})
    session.send({"todos": {"deleteButtonTapped": {"id": mom}}})
    session.send({"numberFact": "incrementButtonTapped"}, {"numberFact": "incrementButtonTapped"})
    session.send({"numberFact": "factButtonTapped"}, wait=True)
    session.send({"timer": "toggleButtonTapped"})
    deadline = time.monotonic() + 10
    while session.state()["timer"]["secondsElapsed"] < 2 and time.monotonic() < deadline:
        time.sleep(0.1)
    session.send({"timer": "toggleButtonTapped"})
    # A contact added in the sheet, opened, and deleted from its page: that delete returns
    # the delegate action that asks for the alert, two actions in one version.
    session.send({"contacts": "addButtonTapped"})
    session.send({"contacts": {"destination": {"presented": {"addContact": {"binding": {"name": "Ada"}}}}}})
    session.send({"contacts": {"destination": {"presented": {"addContact": "saveButtonTapped"}}}}, wait=True)
    ada = session.state()["contacts"]["contacts"][0]["id"]
    session.send({"contacts": {"contactTapped": {"id": ada}}})
    page = session.state()["contacts"]["path"][0]["id"]
    session.send({"contacts": {"path": {"element": {"id": page, "action": "deleteButtonTapped"}}}})
    session.send({"contacts": {"destination": {"presented": {"alert": {"confirmDeletion": {"id": ada}}}}}})
    state = session.state()
    assert state["timer"]["secondsElapsed"] >= 2 and state["numberFact"]["fact"].startswith("2 is")
    assert [todo["title"] for todo in state["todos"]["todos"]] == ["Buy oat milk"]
    assert state["contacts"]["contacts"] == [] and state["contacts"]["destination"] is None


def run_package_tests(source):
    """Writes `source` as the package's test, builds and runs it; returns (status, output)."""
    tests = PACKAGE / "Tests" / "RecordedSessionTests"
    tests.mkdir(parents=True, exist_ok=True)
    for stale in tests.glob("*.swift"):
        stale.unlink()
    (PACKAGE / "Package.swift").write_text(MANIFEST % {"root": ROOT})
    (tests / "RecordedSession.swift").write_text(source)
    built = subprocess.run(["swift", "build", "--build-tests"], cwd=PACKAGE, capture_output=True, text=True)
    assert built.returncode == 0, built.stdout[-4000:] + built.stderr[-4000:]
    ran = subprocess.run(["swift", "test", "--skip-build"], cwd=PACKAGE, capture_output=True, text=True)
    return ran.returncode, ran.stdout + ran.stderr


def test_an_exported_session_test_passes_in_a_package_of_its_own_and_fails_when_a_recorded_value_changes(server):
    with httpx.Client(base_url=server.url, timeout=30) as client:
        session = new_session(client)
        drive_the_demo(session)
        exported = session.get("/history/test.swift")
        assert exported.status_code == 200
        assert exported.headers["content-type"] == "text/x-swift; charset=utf-8"
        source = exported.text
    assert server.stop() == 0

    # The operator's command reads the same history from the data directory.
    command = subprocess.run([str(BINARY), "history", "export-test", "--data", server.data, session.id],
                             capture_output=True, text=True)
    assert command.returncode == 0, command.stderr
    header, _, body = command.stdout.partition("\nimport ")
    assert body == source.partition("\nimport ")[2]
    assert "exported by storehost history export-test." in " ".join(header.replace("//", "").split())

    # Every kind of step is there: effects' actions sent as recorded, UUIDs given back, and
    # the contact's delete with its delegate action checked as one version.
    assert '{"numberFact":{"factResponse":"2 is a prime number (up to its sign)."}}' in source
    assert source.count('Recorded.action(#"{"timer":"tick"}"#)') >= 2
    assert source.count("store.dependencies.uuid = .constant(UUID(uuidString: ") == 3
    assert "store.exhaustivity = .off" in source and "// Sent by an effect." in source

    status, output = run_package_tests(source)
    assert status == 0, output[-6000:]
    assert re.search(r"Test replaySession_\w+\(\) passed", output), output[-3000:]

    # One recorded value changed: the edited title. The step fails with TestStore's diff.
    changed = source.replace('"value":"Buy oat milk"', '"value":"Buy rice milk"')
    assert changed != source
    status, output = run_package_tests(changed)
    assert status != 0
    assert "A state change does not match expectation" in output, output[-6000:]
    assert '−         title: "Buy rice milk",' in output and '+         title: "Buy oat milk",' in output, output[-6000:]


def test_a_fork_starts_a_new_session_at_a_kept_version(server):
    with httpx.Client(base_url=server.url, timeout=10) as client:
        session = new_session(client)
        for _ in range(3):
            version = session.send({"counter": "incrementButtonTapped"})
        kept = session.get("/history/1").json()
        assert kept["state"]["counter"]["count"] == 1
        forked = session.post("/fork", json={"version": 1})
        assert forked.status_code == 201
        fork = forked.json()
        assert fork["id"] != session.id and fork["version"] == 0 and fork["state"] == kept["state"]
        cookie = forked.headers["set-cookie"]
        assert cookie.startswith("storehost_token=") and f"Path=/api/sessions/{fork['id']}" in cookie
        # The fork is a session like any other; the original did not move.
        forked_session = Session(client, fork)
        assert forked_session.send({"counter": "incrementButtonTapped"}) == 1
        assert forked_session.state()["counter"]["count"] == 2
        assert session.state()["counter"]["count"] == 3
        assert session.get("/history").json()["last"] == version
        # Only with the session's own credentials, for a version the history keeps.
        assert httpx.post(f"{server.url}/api/sessions/{session.id}/fork", json={"version": 1}).status_code == 401
        missing = session.post("/fork", json={"version": 40})
        assert missing.status_code == 404 and missing.json()["error"]["code"] == "version_not_kept"
        assert session.post("/fork", json={"at": 1}).status_code == 400


def test_a_replay_runs_the_recorded_actions_in_a_new_session_and_reports_no_difference(server):
    with httpx.Client(base_url=server.url, timeout=30) as client:
        session = new_session(client)
        session.send({"todos": {"binding": {"newTodoText": "Tea"}}}, {"todos": "addButtonTapped"})
        session.send({"numberFact": "factButtonTapped"}, wait=True)
        replayed = session.post("/replay")
        assert replayed.status_code == 201
        answer = replayed.json()
        assert answer["replay"] == {"from": 0, "to": 4, "steps": 4, "actions": 4, "skippedSteps": 0, "issues": [],
                                    "firstDifference": None}
        # The new session holds the replayed state: the same as the recorded one.
        assert answer["id"] != session.id and answer["state"] == session.state()
        assert f"Path=/api/sessions/{answer['id']}" in replayed.headers["set-cookie"]


def test_deleting_a_session_or_its_history_deletes_what_was_kept(server):
    with httpx.Client(base_url=server.url, timeout=10) as client:
        session = new_session(client)
        session.send({"counter": "incrementButtonTapped"})
        cleared = client.delete(f"/api/sessions/{session.id}/history", headers=session.headers)
        assert cleared.status_code == 204
        steps = session.get("/history").json()["steps"]
        assert [step["kind"] for step in steps] == ["cleared"]
        assert client.delete(f"/api/sessions/{session.id}", headers=session.headers).status_code == 204
    assert server.stop() == 0
    command = subprocess.run([str(BINARY), "history", "export-test", "--data", server.data, session.id],
                             capture_output=True, text=True)
    assert command.returncode == 1 and f"no session {session.id} is saved" in command.stderr


def stored_steps(server, session_id):
    """The steps of the session's history in the server's database, read-only."""
    database = sqlite3.connect(f"file:{server.data}/sessions.sqlite?mode=ro", uri=True)
    try:
        return database.execute("SELECT coalesce(sum(last_step - first_step + 1), 0) FROM history_runs "
                                "WHERE session_id = ?", (session_id,)).fetchone()[0]
    finally:
        database.close()


def test_a_resting_sessions_history_stays_in_the_database_and_comes_back_with_it():
    server = StorehostServer("--rest-after", "1").start()
    try:
        with httpx.Client(base_url=server.url, timeout=10) as client:
            session = new_session(client)
            session.send({"counter": "incrementButtonTapped"})
            session.send({"counter": "incrementButtonTapped"})
            before = session.get("/history").json()["steps"]
            deadline = time.monotonic() + 15
            while "storehost_sessions_rested_total 0" in client.get("/metrics").text and time.monotonic() < deadline:
                time.sleep(0.2)
            assert "storehost_sessions_rested_total 1" in client.get("/metrics").text
            # At rest: every step in the database.
            assert stored_steps(server, session.id) == len(before) == 3
            # The history's request brings the session back, its steps whole; it marks where,
            # then records the demo's resumed action.
            after = session.get("/history").json()["steps"]
            assert after[:3] == before and [step["kind"] for step in after[3:]] == ["resumed", "actions"]
            assert [action["action"] for action in after[4]["actions"]] == ["sessionResumed", {"timer": "resumed"}]
            assert client.delete(f"/api/sessions/{session.id}", headers=session.headers).status_code == 204
        assert server.stop() == 0
        assert stored_steps(server, session.id) == 0
    finally:
        server.stop()


def test_with_history_off_nothing_is_kept_and_the_routes_say_so():
    server = StorehostServer("--history", "0").start()
    try:
        with httpx.Client(base_url=server.url, timeout=10) as client:
            session = new_session(client)
            session.send({"counter": "incrementButtonTapped"})
            answer = session.get("/history")
            assert answer.status_code == 404 and answer.json()["error"]["code"] == "history_off"
    finally:
        server.stop()
