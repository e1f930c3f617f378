"""`Idempotency-Key` on actions, and sessions that outlive a restart, driven with curl
against a running storehost in strict durability."""
import json
import threading
import time

import httpx
import pytest

from storehost_server import StorehostServer, curl

JSON = "Content-Type: application/json"
INCREMENT = {"counter": "incrementButtonTapped"}


@pytest.fixture(scope="module")
def server():
    server = StorehostServer("--durability", "strict").start()
    yield server
    server.stop()


def create(server):
    status, _, body = curl(server.url + "/api/sessions", method="POST", body="")
    assert status == 201, body
    return json.loads(body)


def act(server, session, action, key=None, query=""):
    headers = [f"Authorization: Bearer {session['token']}", JSON]
    if key is not None:
        headers.append(f"Idempotency-Key: {key}")
    status, headers, body = curl(
        f"{server.url}/api/sessions/{session['id']}/actions{query}", body=action, headers=headers)
    return status, headers, json.loads(body) if body else None


def state(server, session):
    status, _, body = curl(
        f"{server.url}/api/sessions/{session['id']}", headers=[f"Authorization: Bearer {session['token']}"])
    assert status == 200, body
    return json.loads(body)["state"]


def count(server, session):
    return state(server, session)["counter"]["count"]


def test_a_repeat_gets_the_first_answer_and_applies_nothing(server):
    session = create(server)
    status, headers, first = act(server, session, INCREMENT, key="click-1")
    assert status == 202 and "idempotent-replayed" not in headers
    status, headers, again = act(server, session, INCREMENT, key="click-1")
    assert status == 202 and again == first
    assert headers["idempotent-replayed"] == ["true"]
    assert count(server, session) == 1


def test_another_key_applies_again_and_keys_are_per_session(server):
    one, two = create(server), create(server)
    assert act(server, one, INCREMENT, key="a")[0] == 202
    assert act(server, one, INCREMENT, key="b")[0] == 202
    assert act(server, two, INCREMENT, key="a")[0] == 202
    assert count(server, one) == 2 and count(server, two) == 1


def test_the_same_key_with_another_body_is_422(server):
    session = create(server)
    assert act(server, session, INCREMENT, key="k")[0] == 202
    status, _, body = act(server, session, {"counter": "decrementButtonTapped"}, key="k")
    assert status == 422 and body["error"]["code"] == "idempotency_key_reused"
    assert count(server, session) == 1


def test_a_malformed_key_is_400_and_applies_nothing(server):
    session = create(server)
    for key in ['""', "has space", "x" * 65, "ключ"]:
        status, _, body = act(server, session, INCREMENT, key=key)
        assert status == 400 and body["error"]["code"] == "invalid_idempotency_key", key
    assert count(server, session) == 0


def test_a_request_that_applied_nothing_is_not_remembered(server):
    session = create(server)
    status, _, _ = act(server, session, {"counter": "noSuchCase"}, key="retry-me")
    assert status == 400
    assert act(server, session, INCREMENT, key="retry-me")[0] == 202
    assert count(server, session) == 1


def test_a_repeat_while_the_first_is_answered_is_409(server):
    session = create(server)
    toggle = {"timer": "toggleButtonTapped"}
    # The timer's effect runs until toggled off, so this answer waits for the next toggle.
    first = {}
    waiting = threading.Thread(
        target=lambda: first.update(answer=act(server, session, toggle, key="slow", query="?wait=effects")))
    waiting.start()
    deadline = time.monotonic() + 10
    while not state(server, session)["timer"]["isRunning"] and time.monotonic() < deadline:
        time.sleep(0.02)
    status, headers, body = act(server, session, toggle, key="slow")
    assert status == 409 and body["error"]["code"] == "idempotency_key_in_use"
    assert headers["retry-after"] == ["1"]
    assert act(server, session, toggle, key="stop")[0] == 202
    waiting.join(timeout=10)
    assert first["answer"][0] == 202
    assert act(server, session, toggle, key="slow")[2] == first["answer"][2]


def test_answers_are_kept_for_their_window_however_many_there_are():
    window = 8
    server = StorehostServer(
        "--idempotency-ttl", str(window), "--actions-per-second", "500", "--action-burst", "500").start()
    try:
        session = create(server)
        url = f"{server.url}/api/sessions/{session['id']}/actions"
        auth = {"Authorization": f"Bearer {session['token']}", "Content-Type": "application/json"}
        with httpx.Client() as client:
            def send(key):
                response = client.post(url, json=INCREMENT, headers={**auth, "Idempotency-Key": key})
                assert response.status_code == 202, response.text
                return response.headers.get("idempotent-replayed")
            started = time.monotonic()
            # More keys than a session ever held by count before.
            for number in range(100):
                assert send(f"n{number}") is None
            # The first of a hundred is still replayed within the window...
            assert send("n0") == "true"
            assert time.monotonic() - started < window, "the machine is too slow for this window"
            assert count(server, session) == 100
            # ...and applied anew once the window has passed.
            time.sleep(max(0, started + window + 0.5 - time.monotonic()))
            assert send("n0") is None
        assert count(server, session) == 101
    finally:
        server.stop()


def test_sessions_and_their_answers_outlive_a_restart(server):
    untouched = create(server)
    session = create(server)
    status, _, first = act(server, session, INCREMENT, key="before-restart")
    assert status == 202
    server.restart()
    # A session never changed is still there, at version 0.
    status, _, body = curl(
        f"{server.url}/api/sessions/{untouched['id']}", headers=[f"Authorization: Bearer {untouched['token']}"])
    assert status == 200 and json.loads(body)["version"] == 0
    status, headers, again = act(server, session, INCREMENT, key="before-restart")
    assert status == 202 and again == first and headers["idempotent-replayed"] == ["true"]
    assert count(server, session) == 1
