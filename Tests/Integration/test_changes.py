"""What one change costs, seen from outside: strict action JSON, the state size limit, and
patch streams that rebuild the state exactly, shared changes included."""
import json
import threading

import httpx
import jsonpatch
import pytest
from httpx_sse import connect_sse

from storehost_server import StorehostServer, curl

JSON = "Content-Type: application/json"


@pytest.fixture(scope="module")
def server():
    server = StorehostServer("--max-state-bytes", "2048", "--actions-per-second", "1000", "--action-burst", "1000").start()
    yield server
    server.stop()


def create(server):
    status, _, body = curl(server.url + "/api/sessions", method="POST", body="")
    assert status == 201, body
    return json.loads(body)


def act(server, session, action):
    status, _, body = curl(
        f"{server.url}/api/sessions/{session['id']}/actions", body=action,
        headers=[f"Authorization: Bearer {session['token']}", JSON])
    return status, json.loads(body)


def get_state(server, session):
    status, _, body = curl(
        f"{server.url}/api/sessions/{session['id']}", headers=[f"Authorization: Bearer {session['token']}"])
    assert status == 200, body
    return json.loads(body)


def test_an_action_naming_a_member_twice_is_refused_and_changes_nothing(server):
    session = create(server)
    status, body = act(server, session, '{"counter":"decrementButtonTapped","counter":"incrementButtonTapped"}')
    assert status == 400 and body["error"]["code"] == "invalid_action"
    assert "duplicate" in body["error"]["message"] and '"counter"' in body["error"]["message"]
    state = get_state(server, session)
    assert state["version"] == 0 and state["state"]["counter"] == {"count": 0}


def test_an_action_past_the_state_size_limit_answers_413_and_leaves_the_state(server):
    session = create(server)

    def size():
        return len(json.dumps(get_state(server, session)["state"], separators=(",", ":"), sort_keys=True))

    # Small to-dos until the state is near its 2048-byte limit.
    version = 0
    while size() < 1800:
        status, body = act(server, session, [{"todos": {"binding": {"newTodoText": "todo"}}}, {"todos": "addButtonTapped"}])
        assert status == 202, body
        version = body["version"]
    # A text that brings the state to the limit exactly, then an add that would pass it.
    text = "x" * (2048 - size())
    status, body = act(server, session, [{"todos": {"binding": {"newTodoText": text}}}, {"todos": "addButtonTapped"}])
    assert status == 413 and body["error"]["code"] == "state_too_large", body
    message = body["error"]["message"]
    assert "over the limit of 2048" in message and f"version {version + 1}" in message
    state = get_state(server, session)
    # The batch's first action (setting the text) stayed; the add was refused.
    assert state["version"] == version + 1
    assert len(json.dumps(state["state"], separators=(",", ":"))) == 2048
    assert state["state"]["todos"]["newTodoText"] == text
    # Actions that keep the state small still work.
    assert act(server, session, {"counter": "incrementButtonTapped"}) == (202, {"version": version + 2})


def test_patch_streams_rebuild_the_state_exactly_through_shared_changes(server):
    watched = create(server)
    other = create(server)
    url = f"{server.url}/api/sessions/{watched['id']}/events?patch=1"
    received = []
    ready = threading.Event()

    def follow():
        state = None
        with httpx.Client(timeout=20) as client:
            with connect_sse(client, "GET", url, headers={"Authorization": f"Bearer {watched['token']}"}) as source:
                for event in source.iter_sse():
                    if not event.data:
                        continue
                    data = json.loads(event.data)
                    state = data["state"] if event.event == "state" else jsonpatch.apply_patch(state, data["ops"])
                    received.append((data["version"], event.event, state))
                    ready.set()

    watcher = threading.Thread(target=follow, daemon=True)
    watcher.start()
    assert ready.wait(10)
    for number in range(12):
        if number % 3 == 0:
            act(server, other, {"shared": "incrementButtonTapped"})  # changes the watched session too
        else:
            act(server, watched, [{"todos": {"binding": {"newTodoText": f"n{number}"}}}, {"todos": "addButtonTapped"}])
    final = get_state(server, watched)
    for _ in range(200):
        if received[-1][0] >= final["version"]:
            break
        threading.Event().wait(0.05)
    versions = [version for version, _, _ in received]
    assert versions == sorted(set(versions)), "versions only grow"
    assert any(kind == "patch" for _, kind, _ in received)
    # The latest version always reaches the stream, and the patches rebuilt its state.
    assert received[-1][0] == final["version"]
    assert received[-1][2] == final["state"]
