"""`storehost deploy-check` on what a server saved: it passes on the build that recorded the
sessions, fails naming the action and field where the recorded behaviour differs (passing
with `--allow`), fails listing sessions it cannot read, and changes nothing in the file."""
import json
import sqlite3
import struct
import subprocess

import httpx

from storehost_server import BINARY, StorehostServer


def deploy_check(data, *flags):
    result = subprocess.run([str(BINARY), "deploy-check", "--data", data, "--json", *flags],
                            capture_output=True, text=True, timeout=120)
    return result.returncode, json.loads(result.stdout)


def run_steps(blob):
    """The (version, JSON) of each step in a `history_runs` row's `steps` blob: per step, its
    version (8 bytes) and JSON length (4 bytes), little-endian, then the JSON."""
    steps, offset = [], 0
    while offset < len(blob):
        version, length = struct.unpack_from("<qI", blob, offset)
        offset += 12
        steps.append((version, blob[offset:offset + length]))
        offset += length
    return steps


def run_blob(steps):
    return b"".join(struct.pack("<qI", version, len(step_json)) + step_json for version, step_json in steps)


def file_bytes(data):
    with open(data + "/sessions.sqlite", "rb") as file:
        return file.read()


def test_deploy_check_on_saved_sessions():
    server = StorehostServer().start()
    with httpx.Client(base_url=server.url, timeout=10) as client:
        sessions = [client.post("/api/sessions").json() for _ in range(4)]
        for session in sessions:
            headers = {"Authorization": f"Bearer {session['token']}"}
            for action in [{"counter": "incrementButtonTapped"}, {"counter": "incrementButtonTapped"},
                           {"counter": "decrementButtonTapped"}]:
                assert client.post(f"/api/sessions/{session['id']}/actions", headers=headers,
                                   json=action).status_code == 202
    assert server.stop() == 0
    ids = {session["id"] for session in sessions}

    status, report = deploy_check(server.data)
    assert status == 0, report
    assert report["passed"] and report["sessions"]["readable"] == 4
    assert report["replay"]["replayed"] == 4 and report["replay"]["actions"] == 12
    assert report["replay"]["differences"] == []

    # As if the build that recorded them had counted by 100: this build differs on increments.
    database = sqlite3.connect(server.data + "/sessions.sqlite")
    runs = database.execute("SELECT session_id, first_step, steps FROM history_runs").fetchall()
    for session_id, first_step, steps in runs:
        changed = []
        for version, step_json in run_steps(steps):
            recorded = json.loads(step_json)
            for operation in recorded.get("patch") or []:
                if operation.get("path") == "/counter/count":
                    operation["value"] += 100
            changed.append((version, json.dumps(recorded, separators=(",", ":")).encode()))
        database.execute("UPDATE history_runs SET steps = ? WHERE session_id = ? AND first_step = ?",
                         (run_blob(changed), session_id, first_step))
    database.commit()
    database.close()
    before = file_bytes(server.data)

    status, report = deploy_check(server.data)
    assert status == 1
    [difference] = report["replay"]["differences"]
    assert difference["action"] == "counter.incrementButtonTapped"
    assert difference["field"] == "counter.count"
    assert difference["exampleSession"] in ids and difference["sessions"] == 4
    assert not difference["allowed"]

    status, report = deploy_check(server.data, "--allow", "counter.incrementButtonTapped")
    assert status == 0, report
    assert [difference["allowed"] for difference in report["replay"]["differences"]] == [True]

    # A session a newer build saved: unreadable here, listed, and left as it was.
    database = sqlite3.connect(server.data + "/sessions.sqlite")
    unreadable = sessions[0]["id"]
    database.execute("UPDATE sessions SET state_version = 99 WHERE id = ?", (unreadable,))
    database.commit()
    database.close()
    before = file_bytes(server.data)
    status, report = deploy_check(server.data, "--allow", "counter")
    assert status == 1
    assert report["sessions"]["unreadableCount"] == 1
    assert [session["id"] for session in report["sessions"]["unreadable"]] == [unreadable]
    assert "newer build" in report["sessions"]["causes"][0]["reason"]
    assert file_bytes(server.data) == before

    text = subprocess.run([str(BINARY), "deploy-check", "--data", server.data], capture_output=True, text=True)
    assert text.returncode == 1 and "FAILED" in text.stdout and unreadable in text.stdout
