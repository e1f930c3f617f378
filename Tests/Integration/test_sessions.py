"""The session API (Sources/StoreHost/StoreHost.docc/WireProtocol.md), driven with curl against a running storehost."""
import json
import signal
import socket
import subprocess
import time

import pytest

from storehost_server import StorehostServer, curl

JSON = "Content-Type: application/json"


@pytest.fixture(scope="module")
def server():
    server = StorehostServer("--max-action-bytes", "2048", "--max-batch", "4").start()
    yield server
    server.stop()


def create(server):
    status, headers, body = curl(server.url + "/api/sessions", method="POST", body="")
    assert status == 201, body
    return json.loads(body), headers


def act(server, session, action, query="", headers=None):
    status, _, body = curl(
        f"{server.url}/api/sessions/{session['id']}/actions{query}",
        body=action,
        headers=headers if headers is not None else [f"Authorization: Bearer {session['token']}", JSON])
    return status, json.loads(body) if body else None


def get_state(server, session):
    status, _, body = curl(
        f"{server.url}/api/sessions/{session['id']}",
        headers=[f"Authorization: Bearer {session['token']}"])
    return status, json.loads(body)


def error_code(body):
    return body["error"]["code"]


# MARK: Routes

def test_create_answers_201_with_id_token_state_and_an_httponly_cookie(server):
    session, headers = create(server)
    assert session["version"] == 0
    assert session["state"]["counter"] == {"count": 0}
    assert session["state"]["twoCounters"] == {"first": {"count": 0}, "second": {"count": 0}}
    assert len(session["token"]) >= 40
    cookie = headers["set-cookie"][0]
    assert cookie.startswith(f"storehost_token={session['token']};")
    assert "HttpOnly" in cookie and "SameSite=Strict" in cookie


def test_get_returns_state_and_version(server):
    session, _ = create(server)
    status, body = get_state(server, session)
    assert status == 200
    assert body["id"] == session["id"] and body["version"] == 0
    assert body["state"] == session["state"]


def test_actions_apply_in_order_and_answer_202_with_the_version(server):
    session, _ = create(server)
    assert act(server, session, {"counter": "incrementButtonTapped"}) == (202, {"version": 1})
    status, body = act(server, session, [
        {"counter": "incrementButtonTapped"},
        {"twoCounters": {"first": "incrementButtonTapped"}},
        {"counter": "decrementButtonTapped"},
    ])
    assert (status, body) == (202, {"version": 4})
    _, state = get_state(server, session)
    assert state["state"]["counter"]["count"] == 1
    assert state["state"]["twoCounters"]["first"]["count"] == 1


def test_a_batch_is_all_or_nothing(server):
    session, _ = create(server)
    status, body = act(server, session, [{"counter": "incrementButtonTapped"}, {"counter": "explode"}])
    assert status == 400 and error_code(body) == "invalid_action"
    assert "[1]" in body["error"]["message"] or "explode" in body["error"]["message"]
    _, state = get_state(server, session)
    assert state["version"] == 0 and state["state"]["counter"]["count"] == 0


def test_wait_for_effects_answers_after_the_effect_finished(server):
    session, _ = create(server)
    status, body = act(server, session, {"numberFact": "factButtonTapped"}, query="?wait=effects")
    assert status == 202 and body["version"] == 2
    _, state = get_state(server, session)
    assert state["state"]["numberFact"]["fact"]
    assert state["state"]["numberFact"]["isLoading"] is False


def test_delete_ends_the_session(server):
    session, _ = create(server)
    status, _, _ = curl(
        f"{server.url}/api/sessions/{session['id']}", method="DELETE",
        headers=[f"Authorization: Bearer {session['token']}"])
    assert status == 204
    status, body = get_state(server, session)
    assert status == 404 and error_code(body) == "session_not_found"


def test_healthz_and_metrics(server):
    status, _, body = curl(server.url + "/healthz")
    assert status == 200 and json.loads(body) == {"status": "ok"}
    session, _ = create(server)
    act(server, session, {"counter": "incrementButtonTapped"})
    status, headers, body = curl(server.url + "/metrics")
    assert status == 200 and headers["content-type"][0].startswith("text/plain")
    metrics = dict(line.rsplit(" ", 1) for line in body.splitlines() if line and not line.startswith("#"))
    assert int(metrics["storehost_sessions"]) >= 1
    assert int(metrics["storehost_actions_total"]) >= 1
    assert int(metrics["storehost_action_request_seconds_count"]) >= 1


def test_static_files_are_served_and_contained(server):
    status, headers, _ = curl(server.url + "/")
    assert status in (200, 404)
    status, _, _ = curl("--path-as-is", server.url + "/../Package.swift")
    assert status in (400, 404)


# MARK: Errors

def test_bad_json_and_unknown_cases_are_400_naming_the_valid_cases(server):
    session, _ = create(server)
    status, body = act(server, session, "{not json")
    assert status == 400 and error_code(body) == "invalid_action"
    status, body = act(server, session, {"counter": "incrementButtonTappd"})
    assert status == 400
    message = body["error"]["message"]
    assert "incrementButtonTapped" in message and "decrementButtonTapped" in message


def test_the_schema_describes_the_state_and_the_actions_clients_may_send(server):
    status, headers, body = curl(server.url + "/api/schema")
    assert status == 200 and "application/json" in headers["content-type"][0]
    schema = json.loads(body)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    state, action = schema["$defs"]["State"], schema["$defs"]["Action"]
    count = state["properties"]["counter"]["properties"]["count"]
    assert count == {"type": "integer", "minimum": -2**63, "maximum": 2**63 - 1}
    assert "fact" not in state["properties"]["numberFact"]["required"]
    cases = {next(iter(alternative["properties"])): alternative["properties"]
             for alternative in action["oneOf"] if "properties" in alternative}
    number_fact = [alternative.get("const") for alternative in cases["numberFact"]["numberFact"]["oneOf"]]
    assert number_fact == ["decrementButtonTapped", "factButtonTapped", "incrementButtonTapped"]
    assert "sessionResumed" not in json.dumps(action) and "factResponse" not in json.dumps(action)
    # What the schema allows is what the server accepts; a 400 points at it.
    session, _ = create(server)
    assert act(server, session, {"counter": number_fact[1]})[0] == 400
    status, body = act(server, session, {"numberFact": number_fact[1]})
    assert status == 202
    status, body = act(server, session, {"counter": "nope"})
    assert status == 400 and "GET /api/schema" in body["error"]["message"]


def test_clients_cannot_send_internal_actions(server):
    session, _ = create(server)
    status, body = act(server, session, {"numberFact": {"factResponse": "forged"}})
    assert status == 400 and "internal" in body["error"]["message"]
    status, body = act(server, session, {"timer": "tick"})
    assert status == 400 and "internal" in body["error"]["message"]
    _, state = get_state(server, session)
    assert state["version"] == 0


def test_clients_can_set_only_bindable_fields(server):
    session, _ = create(server)
    assert act(server, session, {"todos": {"binding": {"newTodoText": "Milk"}}})[0] == 202
    status, body = act(server, session, {"todos": {"binding": {"todos": []}}})
    assert status == 400 and "not a bindable field" in body["error"]["message"]
    status, body = act(server, session, {"timer": {"binding": {"secondsElapsed": 99}}})
    assert status == 400
    _, state = get_state(server, session)
    assert state["state"]["todos"]["newTodoText"] == "Milk"
    assert state["state"]["timer"]["secondsElapsed"] == 0


def test_missing_forged_or_foreign_tokens_are_401(server):
    one, _ = create(server)
    two, _ = create(server)
    status, body = act(server, one, {"counter": "incrementButtonTapped"}, headers=[JSON])
    assert status == 401 and error_code(body) == "unauthorized"
    forged = one["token"][:-4] + ("AAAA" if not one["token"].endswith("AAAA") else "BBBB")
    status, _ = act(server, one, {"counter": "incrementButtonTapped"},
                    headers=[f"Authorization: Bearer {forged}", JSON])
    assert status == 401
    status, _ = act(server, one, {"counter": "incrementButtonTapped"},
                    headers=[f"Authorization: Bearer {two['token']}", JSON])
    assert status == 401
    _, state = get_state(server, one)
    assert state["version"] == 0


def test_cookie_requests_must_pass_csrf_checks(server):
    session, _ = create(server)
    cookie = f"Cookie: storehost_token={session['token']}"
    status, _ = act(server, session, {"counter": "incrementButtonTapped"}, headers=[cookie, JSON])
    assert status == 202
    status, body = act(server, session, {"counter": "incrementButtonTapped"},
                       headers=[cookie, JSON, "Origin: http://evil.example"])
    assert status == 403 and error_code(body) == "csrf_rejected"
    status, _ = act(server, session, {"counter": "incrementButtonTapped"},
                    headers=[cookie, JSON, f"Origin: http://127.0.0.1:{server.port}"])
    assert status == 202
    for site in ("cross-site", "same-site"):
        status, body = act(server, session, {"counter": "incrementButtonTapped"},
                           headers=[cookie, JSON, f"Sec-Fetch-Site: {site}"])
        assert status == 403 and error_code(body) == "csrf_rejected"
    status, _ = act(server, session, {"counter": "incrementButtonTapped"},
                    headers=[cookie, JSON, "Sec-Fetch-Site: same-origin"])
    assert status == 202
    _, state = get_state(server, session)
    assert state["state"]["counter"]["count"] == 3


def test_each_session_gets_a_cookie_for_its_own_path_and_several_can_be_held(server):
    one, headers = create(server)
    two, _ = create(server)
    assert f"Path=/api/sessions/{one['id']};" in headers["set-cookie"][0]
    # Sent both cookies (a browser sends only the one whose path matches), each session
    # accepts its own; another session's token alone is refused.
    both = f"Cookie: storehost_token={two['token']}; storehost_token={one['token']}"
    for session in (one, two):
        status, _ = act(server, session, {"counter": "incrementButtonTapped"}, headers=[both, JSON])
        assert status == 202
    status, _ = act(server, one, {"counter": "incrementButtonTapped"},
                    headers=[f"Cookie: storehost_token={two['token']}", JSON])
    assert status == 401


def test_unknown_session_is_404(server):
    session, _ = create(server)
    curl(f"{server.url}/api/sessions/{session['id']}", method="DELETE",
         headers=[f"Authorization: Bearer {session['token']}"])
    status, body = act(server, session, {"counter": "incrementButtonTapped"})
    assert status == 404 and error_code(body) == "session_not_found"


def test_wrong_method_is_405_with_allow(server):
    session, _ = create(server)
    status, headers, body = curl(f"{server.url}/api/sessions/{session['id']}", method="PUT", body="{}",
                                 headers=[JSON])
    assert status == 405 and "allow" in headers
    assert error_code(json.loads(body)) == "method_not_allowed"


def test_missing_length_is_411_and_sizes_are_413_and_431(server):
    session, _ = create(server)
    status, _, body = curl(server.url + "/api/sessions", method="POST")
    assert status == 411 and error_code(json.loads(body)) == "length_required"
    status, body = act(server, session, {"todos": {"binding": {"newTodoText": "x" * 4000}}})
    assert status == 413 and error_code(body) == "payload_too_large"
    status, body = act(server, session, [{"counter": "incrementButtonTapped"}] * 5)
    assert status == 413
    status, _, _ = curl(server.url + "/healthz", headers=["X-Big: " + "y" * 20000])
    assert status == 431
    _, state = get_state(server, session)
    assert state["version"] == 0


def test_wrong_content_type_is_415(server):
    session, _ = create(server)
    status, body = act(server, session, {"counter": "incrementButtonTapped"},
                       headers=[f"Authorization: Bearer {session['token']}", "Content-Type: text/plain"])
    assert status == 415 and error_code(body) == "unsupported_media_type"


def test_slow_request_head_is_408():
    server = StorehostServer().start()
    try:
        with socket.create_connection(("127.0.0.1", server.port)) as connection:
            connection.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n")
            connection.settimeout(20)
            data = connection.recv(4096)
        assert data.startswith(b"HTTP/1.1 408"), data[:40]
    finally:
        server.stop()


def test_rate_limit_is_429_with_retry_after_and_spares_other_sessions():
    server = StorehostServer("--actions-per-second", "1", "--action-burst", "2").start()
    try:
        one, _ = create(server)
        two, _ = create(server)
        assert act(server, one, {"counter": "incrementButtonTapped"})[0] == 202
        assert act(server, one, {"counter": "incrementButtonTapped"})[0] == 202
        status, _, body = curl(f"{server.url}/api/sessions/{one['id']}/actions",
                               body={"counter": "incrementButtonTapped"},
                               headers=[f"Authorization: Bearer {one['token']}", JSON])
        assert status == 429 and error_code(json.loads(body)) == "rate_limited"
        assert act(server, two, {"counter": "incrementButtonTapped"})[0] == 202
        _, state = get_state(server, one)
        assert state["state"]["counter"]["count"] == 2
    finally:
        server.stop()


def test_at_capacity_is_503_and_existing_sessions_keep_working():
    server = StorehostServer("--max-sessions", "2").start()
    try:
        one, _ = create(server)
        create(server)
        status, headers, body = curl(server.url + "/api/sessions", method="POST", body="")
        assert status == 503 and error_code(json.loads(body)) == "at_capacity"
        assert "retry-after" in headers
        assert act(server, one, {"counter": "incrementButtonTapped"})[0] == 202
    finally:
        server.stop()


# MARK: Event streams

def read_events(url, token, count, extra_headers=(), timeout=5):
    """Reads `count` events from an event stream with curl; returns [(event, id, data)].
    The stream must open (200, text/event-stream), so that no events means none were sent,
    not an error answer."""
    command = ["curl", "-sS", "-N", "-i", "--max-time", str(timeout), "-H", f"Authorization: Bearer {token}"]
    for header in extra_headers:
        command += ["-H", header]
    process = subprocess.Popen(command + [url], stdout=subprocess.PIPE, text=True)
    events, current = [], {}
    try:
        head = []
        for line in process.stdout:
            line = line.rstrip("\r\n")
            if line == "":
                break
            head.append(line)
        assert head and head[0].split(" ")[1] == "200", f"the stream did not open: {head}"
        assert any(line.lower().startswith("content-type: text/event-stream") for line in head), head
        for line in process.stdout:
            line = line.rstrip("\n")
            if line == "":
                if "data" in current:
                    events.append((current.get("event"), current.get("id"), json.loads(current["data"])))
                    if len(events) == count:
                        break
                current = {}
            elif not line.startswith(":") and ":" in line:
                field, _, value = line.partition(":")
                current[field] = value.removeprefix(" ")
    finally:
        process.kill()
        process.wait()
    return events


def test_events_start_with_a_snapshot_then_follow_changes(server):
    session, _ = create(server)
    url = f"{server.url}/api/sessions/{session['id']}/events"
    act(server, session, {"counter": "incrementButtonTapped"})
    (event, event_id, data), = read_events(url, session["token"], 1)
    assert event == "state" and event_id == "1"
    assert data == {"version": 1, "state": get_state(server, session)[1]["state"]}


def test_presence_counts_the_streams_of_the_session_and_of_the_server(server):
    import queue
    import threading
    session, _ = create(server)
    url = f"{server.url}/api/sessions/{session['id']}/events?presence=1"
    first = subprocess.Popen(
        ["curl", "-sS", "-N", "--max-time", "10", "-H", f"Authorization: Bearer {session['token']}", url],
        stdout=subprocess.PIPE, text=True)
    seen = queue.Queue()

    def collect():
        for line in first.stdout:
            if line.startswith("data:") and '"session"' in line:
                seen.put(json.loads(line.partition(":")[2]))
    threading.Thread(target=collect, daemon=True).start()
    def next_with(count):
        """The first presence event of the first stream that counts `count` session streams
        (the server-wide count may change meanwhile and send others)."""
        while True:
            presence = seen.get(timeout=5)
            if presence["session"] == count:
                return presence

    try:
        next_with(1)
        events = read_events(url, session["token"], 2)
        assert [event for event, _, _ in events] == ["state", "presence"]
        second = events[1][2]
        assert second["session"] == 2 and second["everyone"] >= 2
        assert next_with(2)["everyone"] >= 2
        # The second stream went away: the first hears of it.
        next_with(1)
    finally:
        first.kill()
        first.wait()


def test_patches_carry_only_the_change(server):
    import jsonpatch
    session, _ = create(server)
    url = f"{server.url}/api/sessions/{session['id']}/events?patch=1"
    act(server, session, {"counter": "incrementButtonTapped"})
    act(server, session, {"todos": {"binding": {"newTodoText": "Milk"}}})
    events = read_events(url, session["token"], 1, extra_headers=["Last-Event-ID: 1"])
    (event, event_id, data), = events
    assert event == "patch" and event_id == "2" and data["from"] == 1 and data["version"] == 2
    assert data["ops"] == [{"op": "replace", "path": "/todos/newTodoText", "value": "Milk"}]
    _, at_one = get_state(server, session)
    before = dict(at_one["state"], todos=dict(at_one["state"]["todos"], newTodoText=""))
    assert jsonpatch.apply_patch(before, data["ops"]) == at_one["state"]


def test_resume_sends_only_versions_after_last_event_id(server):
    session, _ = create(server)
    url = f"{server.url}/api/sessions/{session['id']}/events"
    for _ in range(3):
        act(server, session, {"counter": "incrementButtonTapped"})
    assert read_events(url, session["token"], 1, extra_headers=["Last-Event-ID: 3"], timeout=2) == []
    (event, event_id, data), = read_events(url, session["token"], 1, extra_headers=["Last-Event-ID: 2"])
    assert event == "state" and event_id == "3" and data["state"]["counter"]["count"] == 3
    (event, event_id, _), = read_events(url, session["token"], 1, extra_headers=["Last-Event-ID: 999"])
    assert event == "state" and event_id == "3"
    # Not a version at all: as if none was given, a full state.
    (event, event_id, _), = read_events(url, session["token"], 1, extra_headers=["Last-Event-ID: 2; DROP"])
    assert event == "state" and event_id == "3"


# MARK: Restarts

def test_a_restarted_server_resumes_every_session():
    server = StorehostServer().start()
    try:
        one, _ = create(server)
        two, _ = create(server)
        for _ in range(3):
            act(server, one, {"counter": "incrementButtonTapped"})
        act(server, two, {"todos": {"binding": {"newTodoText": "Bread"}}})
        server.restart()
        status, state = get_state(server, one)
        assert status == 200 and state["version"] == 3 and state["state"]["counter"]["count"] == 3
        _, state = get_state(server, two)
        assert state["version"] == 1 and state["state"]["todos"]["newTodoText"] == "Bread"
        assert act(server, one, {"counter": "incrementButtonTapped"}) == (202, {"version": 4})
    finally:
        server.stop()


def test_a_running_timer_keeps_ticking_after_a_restart():
    server = StorehostServer().start()
    try:
        session, _ = create(server)
        assert act(server, session, {"timer": "toggleButtonTapped"})[0] == 202
        server.restart()
        # The host sends the demo's sessionResumed action; its timer starts again.
        start = get_state(server, session)[1]["state"]["timer"]["secondsElapsed"]
        deadline = time.monotonic() + 10
        seconds = start
        while seconds < start + 2 and time.monotonic() < deadline:
            time.sleep(0.2)
            seconds = get_state(server, session)[1]["state"]["timer"]["secondsElapsed"]
        _, state = get_state(server, session)
        assert state["state"]["timer"]["isRunning"] and seconds >= start + 2
    finally:
        server.stop()


def test_strict_mode_loses_nothing_acknowledged_on_sigkill():
    server = StorehostServer("--durability", "strict").start()
    try:
        session, _ = create(server)
        acknowledged = 0
        for _ in range(20):
            status, body = act(server, session, {"counter": "incrementButtonTapped"})
            assert status == 202
            acknowledged = body["version"]
        assert server.stop(signal.SIGKILL) == -signal.SIGKILL
        server.start()
        status, state = get_state(server, session)
        assert status == 200
        assert state["version"] >= acknowledged
        assert state["state"]["counter"]["count"] == acknowledged
    finally:
        server.stop()


# MARK: Lifecycle and the command

def test_idle_sessions_are_evicted_and_their_effects_cancelled():
    server = StorehostServer("--idle-timeout", "1").start()
    try:
        session, _ = create(server)
        assert act(server, session, {"timer": "toggleButtonTapped"})[0] == 202
        status, _, body = curl(server.url + "/metrics")
        assert "storehost_effects_running 1" in body
        time.sleep(2.5)  # Reading the state would count as activity; wait untouched.
        assert get_state(server, session)[0] == 404
        _, _, body = curl(server.url + "/metrics")
        assert "storehost_effects_running 0" in body
        assert "storehost_sessions 0" in body
    finally:
        server.stop()


def test_running_effects_per_session_are_bounded():
    server = StorehostServer("--max-effects-per-session", "1").start()
    try:
        session, _ = create(server)
        assert act(server, session, {"timer": "toggleButtonTapped"})[0] == 202
        status, body = act(server, session, {"numberFact": "factButtonTapped"})
        assert status == 429 and "effects" in body["error"]["message"]
        _, state = get_state(server, session)
        assert state["version"] == 1 and state["state"]["numberFact"]["isLoading"] is False
        other, _ = create(server)
        assert act(server, other, {"numberFact": "factButtonTapped"})[0] == 202
    finally:
        server.stop()


def test_help_lists_every_option_with_its_variable_and_default():
    from storehost_server import BINARY
    output = subprocess.run([str(BINARY), "--help"], capture_output=True, text=True, check=True).stdout
    for flag, variable in [("--host", "STOREHOST_HOST"), ("--port", "STOREHOST_PORT"),
                           ("--data", "STOREHOST_DATA"), ("--public", "STOREHOST_PUBLIC"),
                           ("--tls-cert", "STOREHOST_TLS_CERT"), ("--durability", "STOREHOST_DURABILITY"),
                           ("--max-sessions", "STOREHOST_MAX_SESSIONS")]:
        assert flag in output and variable in output
    assert "default: 8080" in output
    bad = subprocess.run([str(BINARY), "--durability", "sometimes"], capture_output=True, text=True)
    assert bad.returncode == 2 and "--durability must be fast or strict" in bad.stderr
