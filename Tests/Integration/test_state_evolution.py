"""Saved sessions across builds: rows this build cannot read are kept and reported, never
deleted, and `storehost sessions check` finds them before a deploy."""
import json
import sqlite3
import subprocess

import httpx

from storehost_server import BINARY, StorehostServer


def make_sessions(server, count):
    with httpx.Client(base_url=server.url, timeout=10) as client:
        sessions = [client.post("/api/sessions").json() for _ in range(count)]
        for index, session in enumerate(sessions):
            headers = {"Authorization": f"Bearer {session['token']}"}
            for _ in range(index + 1):
                assert client.post(f"/api/sessions/{session['id']}/actions", headers=headers,
                                   json={"counter": "incrementButtonTapped"}).status_code == 202
    return sessions


def check(data):
    return subprocess.run([str(BINARY), "sessions", "check", "--data", data], capture_output=True, text=True)


def test_unreadable_sessions_are_reported_kept_and_never_deleted():
    server = StorehostServer().start()
    sessions = make_sessions(server, 6)
    assert server.stop() == 0

    result = check(server.data)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "6 saved sessions" in result.stdout and "6 readable, 0 unreadable" in result.stdout

    # Three rows a build could not read: not JSON, a wrong type, and a newer build's state.
    database = sqlite3.connect(server.data + "/sessions.sqlite")
    broken = {
        sessions[0]["id"]: ("UPDATE sessions SET state = 'not json' WHERE id = ?", "not valid JSON"),
        sessions[1]["id"]: (
            """UPDATE sessions SET state = json_set(state, '$.counter.count', 'many') WHERE id = ?""",
            "counter.count"),
        sessions[2]["id"]: ("UPDATE sessions SET state_version = 99 WHERE id = ?", "newer build"),
    }
    for id, (sql, _) in broken.items():
        assert database.execute(sql, (id,)).rowcount == 1
    database.commit()
    rows_before = dict(database.execute("SELECT id, state FROM sessions").fetchall())
    database.close()

    result = check(server.data)
    assert result.returncode == 1
    assert "3 readable, 3 unreadable" in result.stdout
    for id, (_, reason) in broken.items():
        line = next(line for line in result.stdout.splitlines() if id in line)
        assert reason in line, line

    server.start()
    try:
        with httpx.Client(base_url=server.url, timeout=10) as client:
            metrics = client.get("/metrics").text
            assert "storehost_sessions_unreadable 3" in metrics
            for session in sessions:
                headers = {"Authorization": f"Bearer {session['token']}"}
                response = client.get(f"/api/sessions/{session['id']}", headers=headers)
                if session["id"] in broken:
                    assert response.status_code == 503
                    assert response.json()["error"]["code"] == "session_unreadable"
                    assert response.headers["retry-after"]
                else:
                    assert response.status_code == 200
                    assert response.json()["state"]["counter"]["count"] == sessions.index(session) + 1
    finally:
        assert server.stop() == 0
    # Nothing was deleted or rewritten.
    database = sqlite3.connect(server.data + "/sessions.sqlite")
    rows_after = dict(database.execute("SELECT id, state FROM sessions").fetchall())
    database.close()
    for id in broken:
        assert rows_after[id] == rows_before[id]
    assert set(rows_after) == set(rows_before)


def test_a_check_of_a_directory_without_sessions_passes():
    server = StorehostServer()
    result = check(server.data)
    assert result.returncode == 0
    assert "0 saved sessions" in result.stdout
