"""`Idempotency-Key` on actions, and sessions that outlive a restart, driven with curl
against a running storehost in strict durability."""
import json
import threading
import time

import pytest

from storehost_server import StorehostServer, curl

JSON = "Content-Type: application/json"
INCREMENT = {"counter": "incrementButtonTapped"}


@pytest.fixture(scope="module")
def server():
    server = StorehostServer("--durability", "strict", "--idempotency-keys", "4").start()
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


def test_only_the_most_recent_keys_are_kept(server):
    session = create(server)
    for number in range(5):
        assert act(server, session, INCREMENT, key=f"n{number}")[0] == 202
    # Kept: the last 4 (--idempotency-keys 4); the first is forgotten and applies again.
    assert act(server, session, INCREMENT, key="n4")[1].get("idempotent-replayed") == ["true"]
    assert act(server, session, INCREMENT, key="n0")[1].get("idempotent-replayed") is None
    assert count(server, session) == 6


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
