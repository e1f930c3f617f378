"""What a client sees when `storehost` dies with kill -9 at the worst moment, and what a
restart on the same data brings back: driven with an SSE client library and httpx."""
import json
import random
import signal
import threading
import time

import httpx
import jsonpatch
from httpx_sse import connect_sse

from storehost_server import StorehostServer

INCREMENT = {"counter": "incrementButtonTapped"}


class Tab:
    """An event stream client as a browser tab keeps one: it applies full states and
    patches, resumes with Last-Event-ID, and records every version it held with its state."""

    def __init__(self):
        self.state = None
        self.version = None
        self.seen = {}
        self.lock = threading.Lock()

    def follow(self, url, token, stop):
        headers = {"Authorization": f"Bearer {token}"}
        if self.version is not None:
            headers["Last-Event-ID"] = str(self.version)
        try:
            with httpx.Client(timeout=None) as client:
                with connect_sse(client, "GET", url + "?patch=1", headers=headers) as source:
                    for event in source.iter_sse():
                        if stop.is_set():
                            return
                        if event.data:
                            self.apply(event.event, json.loads(event.data))
        except httpx.HTTPError:
            return  # The server died under the stream.

    def apply(self, kind, data):
        with self.lock:
            if kind == "state":
                self.state = data["state"]
            elif kind == "patch":
                assert data["from"] == self.version, f"a patch from {data['from']} reached a tab at {self.version}"
                self.state = jsonpatch.apply_patch(self.state, data["ops"])
            else:
                return
            self.version = data["version"]
            earlier = self.seen.setdefault(self.version, self.state)
            assert earlier == self.state, f"version {self.version} named two states: {earlier} and {self.state}"


def watch(tab, server, session):
    stop = threading.Event()
    url = f"{server.url}/api/sessions/{session['id']}/events"
    thread = threading.Thread(target=tab.follow, args=(url, session["token"], stop), daemon=True)
    thread.start()
    return stop


def wait_until(condition, seconds=10):
    deadline = time.monotonic() + seconds
    while not condition() and time.monotonic() < deadline:
        time.sleep(0.01)
    return condition()


def test_a_tab_resuming_after_kill_9_in_fast_mode_ends_on_the_servers_state():
    for trial in range(8):
        server = StorehostServer().start()
        try:
            with httpx.Client(base_url=server.url, timeout=10) as client:
                session = client.post("/api/sessions").json()
                headers = {"Authorization": f"Bearer {session['token']}"}
                tab = Tab()
                stop = watch(tab, server, session)
                assert wait_until(lambda: tab.version == 0)
                bumps = random.randint(5, 35)
                for _ in range(bumps):
                    response = client.post(f"/api/sessions/{session['id']}/actions", json=INCREMENT, headers=headers)
                    assert response.status_code == 202
                # Right after the last answer, before the fast save's batch is written.
                server.stop(signal.SIGKILL)
                stop.set()
                before = tab.version
                server.start()
                for _ in range(3):
                    response = client.post(f"/api/sessions/{session['id']}/actions", json=INCREMENT, headers=headers)
                    assert response.status_code == 202
                final = client.get(f"/api/sessions/{session['id']}", headers=headers).json()
                stop = watch(tab, server, session)
                assert wait_until(lambda: tab.version == final["version"]), (
                    f"trial {trial}: the tab stayed at {tab.version}, the server is at {final['version']}")
                stop.set()
                assert tab.state == final["state"], f"trial {trial}: the tab's state differs from the server's"
                # Versions the crash may have lost are never given again.
                assert final["version"] > before
        finally:
            server.stop(signal.SIGKILL)


def test_a_keyed_retry_after_kill_9_in_strict_mode_is_applied_once():
    for trial in range(3):
        server = StorehostServer("--durability", "strict", "--actions-per-second", "1000",
                                 "--action-burst", "1000").start()
        try:
            with httpx.Client(base_url=server.url, timeout=10) as client:
                session = client.post("/api/sessions").json()
            auth = {"Authorization": f"Bearer {session['token']}"}
            path = f"/api/sessions/{session['id']}/actions"
            keys = []
            answered = set()
            lock = threading.Lock()
            crashed = threading.Event()

            def sender(worker):
                with httpx.Client(base_url=server.url, timeout=10) as client:
                    for number in range(10_000):
                        if crashed.is_set():
                            return
                        key = f"t{trial}-w{worker}-{number}"
                        with lock:
                            keys.append(key)
                        try:
                            response = client.post(path, json=INCREMENT, headers={**auth, "Idempotency-Key": key})
                        except httpx.HTTPError:
                            return  # No answer: the process died with the request.
                        if response.status_code == 202:
                            with lock:
                                answered.add(key)

            workers = [threading.Thread(target=sender, args=(worker,), daemon=True) for worker in range(4)]
            for worker in workers:
                worker.start()
            assert wait_until(lambda: len(answered) >= 20)
            time.sleep(random.uniform(0, 0.2))
            server.stop(signal.SIGKILL)
            crashed.set()
            for worker in workers:
                worker.join(timeout=15)
            server.start()
            # Every request is sent again with its key until it is answered, as a client does
            # when it lost an answer: each must count exactly once.
            with httpx.Client(base_url=server.url, timeout=10) as client:
                for key in keys:
                    response = client.post(path, json=INCREMENT, headers={**auth, "Idempotency-Key": key})
                    assert response.status_code == 202, response.text
                    if key in answered:
                        assert response.headers.get("idempotent-replayed") == "true", f"{key} was acknowledged and lost"
                count = client.get(f"/api/sessions/{session['id']}", headers=auth).json()["state"]["counter"]["count"]
            assert count == len(keys), f"trial {trial}: {len(keys)} distinct requests, counted {count}"
        finally:
            server.stop(signal.SIGKILL)
