"""Several sessions on one event stream (watch tickets and `GET /api/events`), and the browser
client StoreHost serves at /storehost/v1/, driven with curl against a running storehost."""
import base64
import json
import subprocess
import threading
from pathlib import Path

import pytest

from storehost_server import StorehostServer, curl
from test_sessions import act, create, error_code, read_events

CLIENT = Path(__file__).resolve().parents[2] / "Sources" / "StoreHost" / "BrowserClient"
CLIENT_FILES = ["json-patch.d.ts", "json-patch.js", "storehost.d.ts", "storehost.js", "stream-hub.js", "stream-worker.js"]


@pytest.fixture(scope="module")
def server():
    server = StorehostServer().start()
    yield server
    server.stop()


def ticket(server, session, headers=None):
    status, response_headers, body = curl(
        f"{server.url}/api/sessions/{session['id']}/tickets", method="POST", body="",
        headers=headers if headers is not None else [f"Authorization: Bearer {session['token']}"])
    return status, response_headers, json.loads(body)


def watch_item(server, session, version=None):
    status, _, body = ticket(server, session)
    assert status == 200, body
    return body["ticket"] if version is None else f"{body['ticket']}.{version}"


def events_of(server, items, count, query="patch=1", timeout=5):
    """The first `count` events of a stream watching `items`: [(event, id, data)]."""
    url = f"{server.url}/api/events?{query}&" + "&".join(f"watch={item}" for item in items)
    return read_events(url, "unused", count, timeout=timeout)


def forge(ticket_text):
    """The ticket with its MAC changed: the session it names is only a claim now."""
    raw = bytearray(base64.urlsafe_b64decode(ticket_text + "=" * (-len(ticket_text) % 4)))
    raw[-1] ^= 1
    return base64.urlsafe_b64encode(bytes(raw)).decode().rstrip("=")


# MARK: Tickets

def test_a_ticket_takes_the_sessions_token_and_is_kept_by_nobody(server):
    one, _ = create(server)
    two, _ = create(server)
    status, headers, body = ticket(server, one)
    assert status == 200 and body["expiresIn"] == 300 and len(body["ticket"]) >= 40
    assert headers["cache-control"] == ["no-store"]
    assert ticket(server, one, headers=[])[0] == 401
    assert ticket(server, one, headers=[f"Authorization: Bearer {two['token']}"])[0] == 401
    cookie = f"Cookie: storehost_token={one['token']}"
    assert ticket(server, one, headers=[cookie])[0] == 200
    status, _, body = ticket(server, one, headers=[cookie, "Origin: http://evil.example"])
    assert status == 403 and error_code(body) == "csrf_rejected"


def test_a_ticket_only_watches(server):
    session, _ = create(server)
    _, _, body = ticket(server, session)
    status, answer = act(server, session, {"counter": "incrementButtonTapped"},
                         headers=[f"Authorization: Bearer {body['ticket']}", "Content-Type: application/json"])
    assert status == 401 and error_code(answer) == "unauthorized"
    # Nor is a session token a ticket.
    status, _, text = curl(f"{server.url}/api/events?watch={session['token']}")
    assert status == 400 and error_code(json.loads(text)) == "invalid_watch"


def test_a_ticket_of_an_ended_session_is_404(server):
    session, _ = create(server)
    assert curl(f"{server.url}/api/sessions/{session['id']}", method="DELETE",
                headers=[f"Authorization: Bearer {session['token']}"])[0] == 204
    status, _, body = ticket(server, session)
    assert status == 404 and error_code(body) == "session_not_found"


# MARK: Streams of several sessions

def test_one_stream_carries_several_sessions_each_event_naming_its_own(server):
    one, _ = create(server)
    two, _ = create(server)
    act(server, one, {"counter": "incrementButtonTapped"})
    items = [watch_item(server, one, version=1), watch_item(server, two)]
    # `one` is up to date (nothing sent); `two` named no version (its state). Then a change each.
    changes = threading.Timer(0.5, lambda: (act(server, two, {"counter": "incrementButtonTapped"}),
                                            act(server, one, {"counter": "decrementButtonTapped"})))
    changes.start()
    events = events_of(server, items, 3)
    changes.join()
    assert [(event, event_id) for event, event_id, _ in events] == [("state", None), ("patch", None), ("patch", None)]
    (_, _, first), (_, _, second), (_, _, third) = events
    assert first["id"] == two["id"] and first["version"] == 0 and first["state"]["counter"] == {"count": 0}
    assert second == {"id": two["id"], "version": 1, "from": 0,
                      "ops": [{"op": "replace", "path": "/counter/count", "value": 1}]}
    assert third["id"] == one["id"] and (third["from"], third["version"]) == (1, 2)


def test_each_session_resumes_from_its_own_version(server):
    one, _ = create(server)
    two, _ = create(server)
    for _ in range(3):
        act(server, one, {"counter": "incrementButtonTapped"})
    act(server, two, {"counter": "incrementButtonTapped"})
    events = events_of(server, [watch_item(server, one, version=2), watch_item(server, two, version=1)], 1)
    (event, _, data), = events
    assert event == "patch" and data["id"] == one["id"] and (data["from"], data["version"]) == (2, 3)
    assert events_of(server, [watch_item(server, one, version=3), watch_item(server, two, version=1)], 1,
                     timeout=2) == []


def test_a_session_the_stream_cannot_watch_is_dropped_and_the_others_go_on(server):
    kept, _ = create(server)
    ended, _ = create(server)
    forged_one, _ = create(server)
    ended_item = watch_item(server, ended)
    curl(f"{server.url}/api/sessions/{ended['id']}", method="DELETE", headers=[f"Authorization: Bearer {ended['token']}"])
    items = [forge(watch_item(server, forged_one)), ended_item, watch_item(server, kept, version=0)]
    later = threading.Timer(0.5, lambda: act(server, kept, {"counter": "incrementButtonTapped"}))
    later.start()
    events = events_of(server, items, 3)
    later.join()
    assert [(event, data["id"]) for event, _, data in events] == [
        ("dropped", forged_one["id"]), ("dropped", ended["id"]), ("patch", kept["id"])]
    assert events[0][2]["status"] == 401 and events[0][2]["error"]["code"] == "invalid_ticket"
    assert events[1][2]["status"] == 404 and events[1][2]["error"]["code"] == "session_not_found"


def test_a_session_ended_while_watched_is_dropped(server):
    watched, _ = create(server)
    other, _ = create(server)
    delete = threading.Timer(0.5, lambda: curl(f"{server.url}/api/sessions/{watched['id']}", method="DELETE",
                                               headers=[f"Authorization: Bearer {watched['token']}"]))
    later = threading.Timer(1.0, lambda: act(server, other, {"counter": "incrementButtonTapped"}))
    delete.start()
    later.start()
    events = events_of(server, [watch_item(server, watched, version=0), watch_item(server, other, version=0)], 2)
    delete.join()
    later.join()
    assert [(event, data["id"]) for event, _, data in events] == [("dropped", watched["id"]), ("patch", other["id"])]
    assert events[0][2]["status"] == 404


def test_presence_on_a_stream_of_several_names_the_session(server):
    one, _ = create(server)
    events = events_of(server, [watch_item(server, one, version=0)], 1, query="presence=1")
    (event, _, data), = events
    assert event == "presence" and data["id"] == one["id"] and data["session"] == 1 and data["everyone"] >= 1


def test_bad_watch_lists_are_400(server):
    one, _ = create(server)
    item = watch_item(server, one)
    for query in ["", "?watch=", "?watch=not-a-ticket", f"?watch={item}.x", f"?watch={item}.-1",
                  f"?watch={item}&watch={item}.3", "?" + "&".join([f"watch={item}"] * 65)]:
        status, _, body = curl(f"{server.url}/api/events{query}")
        assert status == 400 and error_code(json.loads(body)) == "invalid_watch", (query[:40], body)


def test_a_stream_of_several_counts_once_per_session_toward_its_stream_limit():
    server = StorehostServer("--max-streams-per-session", "1").start()
    try:
        session, _ = create(server)
        item = watch_item(server, session, version=0)
        single = subprocess.Popen(
            ["curl", "-sS", "-N", "--max-time", "5", "-H", f"Authorization: Bearer {session['token']}",
             f"{server.url}/api/sessions/{session['id']}/events"], stdout=subprocess.PIPE, text=True)
        try:
            assert single.stdout.readline().startswith("retry:")
            (event, _, data), = events_of(server, [item], 1)
            assert event == "dropped" and data["status"] == 429 and data["error"]["code"] == "rate_limited"
        finally:
            single.kill()
            single.wait()
    finally:
        server.stop()


# MARK: The browser client

def test_the_browser_client_is_served_as_built_with_a_validator(server):
    for name in CLIENT_FILES:
        status, headers, body = curl(f"{server.url}/storehost/v1/{name}")
        assert status == 200, name
        assert body == (CLIENT / name).read_text(), f"{name} differs from the library's"
        assert headers["content-type"][0].startswith(
            "application/typescript" if name.endswith(".ts") else "text/javascript")
        assert headers["cache-control"] == ["no-cache"]
        etag = headers["etag"][0]
        assert etag.startswith('"') and len(etag) > 4
        status, again, body = curl(f"{server.url}/storehost/v1/{name}", headers=[f"If-None-Match: {etag}"])
        assert (status, body, again["etag"]) == (304, "", [etag])
    status, _, body = curl(f"{server.url}/storehost/v1/nothing.js")
    assert status == 404 and "storehost.js" in json.loads(body)["error"]["message"]
