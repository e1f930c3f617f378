"""Event streams read by a real SSE client library (httpx-sse), as a browser tab would."""
import json
import threading

import httpx
import jsonpatch
from httpx_sse import connect_sse

from storehost_server import StorehostServer


def watch(url, token, until_version, received, patches=False):
    """Follows a session's events until `until_version`, applying patches; records
    (version, state) for each event into `received`."""
    state = None
    headers = {"Authorization": f"Bearer {token}"}
    with httpx.Client(timeout=20) as client:
        with connect_sse(client, "GET", url + ("?patch=1" if patches else ""), headers=headers) as source:
            assert source.response.headers["content-type"] == "text/event-stream"
            assert source.response.headers["x-accel-buffering"] == "no"
            for event in source.iter_sse():
                if not event.data:
                    continue  # httpx-sse yields the `retry:` hint as an empty event.
                data = json.loads(event.data)
                if event.event == "state":
                    state = data["state"]
                else:
                    assert event.event == "patch" and data["from"] == received[-1][0]
                    state = jsonpatch.apply_patch(state, data["ops"])
                assert event.id == str(data["version"])
                received.append((data["version"], state))
                if data["version"] >= until_version:
                    return


def test_every_tab_sees_every_change_in_order():
    server = StorehostServer().start()
    try:
        with httpx.Client(base_url=server.url, timeout=10) as client:
            session = client.post("/api/sessions", content=b"").json()
            headers = {"Authorization": f"Bearer {session['token']}"}
            url = f"{server.url}/api/sessions/{session['id']}/events"
            total = 30
            tabs = [[] for _ in range(3)]
            watchers = [
                threading.Thread(daemon=True, target=watch, args=(url, session["token"], total, tabs[i]),
                                 kwargs={"patches": i > 0})
                for i in range(3)
            ]
            for watcher in watchers:
                watcher.start()
            # Wait until every tab holds its snapshot, then act.
            for _ in range(200):
                if all(tabs):
                    break
                threading.Event().wait(0.05)
            assert all(tabs), "every tab received its snapshot"

            for index in range(total):
                action = {"counter": "incrementButtonTapped"} if index % 2 else {"twoCounters": {"second": "incrementButtonTapped"}}
                response = client.post(f"/api/sessions/{session['id']}/actions", json=action, headers=headers)
                assert response.status_code == 202
            for watcher in watchers:
                watcher.join(timeout=20)
            final = client.get(f"/api/sessions/{session['id']}", headers=headers).json()
        assert final["version"] == total
        for tab in tabs:
            versions = [version for version, _ in tab]
            assert versions == sorted(set(versions)), "versions only grow, none twice"
            assert versions[-1] == total
            assert tab[-1][1] == final["state"]
    finally:
        server.stop()
