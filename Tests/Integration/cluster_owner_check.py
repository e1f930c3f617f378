#!/usr/bin/env python3
"""Three storehost processes on one PostgreSQL, strict: owners that pause or hang, forged
forwarding headers, and `?log=1` streams on a process that does not own the session.

Usage: cluster_owner_check.py BINARY DATABASE_URL

Each check prints one line with what it measured:
- a paused owner (SIGSTOP for longer than its lease, then SIGCONT): the others serve its
  session within a bounded wait; once it runs again it gives no stale answer, neither to a
  request that waited in its socket during the pause nor to later ones, and no action is
  applied twice or lost;
- a hung owner (stopped for good): a request forwarded to it is answered within a bounded
  wait by the process that took the session over, applied once although the hung owner
  received it too;
- a forged `X-StoreHost-Forwarded` header changes nothing: the request is forwarded as any
  client's, and a run of them does not move the session;
- a `?log=1` stream on a process that does not own the session gets its actions.
"""
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import uuid

import httpx
from httpx_sse import connect_sse

from cluster_support import INCREMENT, start, stop_all

LEASE = 1.5  # seconds: PostgresCluster.defaultLeaseDuration


def auth(session, key=None):
    headers = {"Authorization": "Bearer " + session["token"]}
    if key:
        headers["Idempotency-Key"] = key
    return headers


def act(client, url, session, key=None):
    return client.post(f"{url}/api/sessions/{session['id']}/actions", json=INCREMENT, headers=auth(session, key))


def state(client, url, session):
    response = client.get(f"{url}/api/sessions/{session['id']}", headers=auth(session))
    assert response.status_code == 200, response.text
    body = response.json()
    return body["version"], body["state"]["counter"]["count"]


def owner(database, session):
    return subprocess.run(["psql", database, "-Atc", f"SELECT owner FROM storehost_sessions WHERE id = '{session['id']}'"],
                          capture_output=True, text=True, check=True).stdout.strip()


class Versions(threading.Thread):
    """Records the versions a session's stream on one process shows."""

    def __init__(self, url, session):
        super().__init__(daemon=True)
        self.url, self.session, self.versions = url, session, []
        self.stop = threading.Event()

    def run(self):
        with httpx.Client(timeout=httpx.Timeout(5, read=None)) as client:
            with connect_sse(client, "GET", f"{self.url}/api/sessions/{self.session['id']}/events",
                             headers=auth(self.session)) as source:
                for event in source.iter_sse():
                    if event.event == "state":
                        self.versions.append(json.loads(event.data)["version"])
                    if self.stop.is_set():
                        return


def check_paused_owner(client, urls, processes):
    session = client.post(urls[0] + "/api/sessions").json()
    for _ in range(2):
        assert act(client, urls[0], session).status_code == 202
    stream = Versions(urls[1], session)
    stream.start()
    time.sleep(0.3)
    processes[0].send_signal(signal.SIGSTOP)
    paused = time.time()
    # A request that reaches the paused owner itself waits in its socket.
    waiting = {}

    def to_paused_owner():
        with httpx.Client(timeout=30) as own:
            waiting["response"] = act(own, urls[0], session, key="waited-" + uuid.uuid4().hex)

    waiter = threading.Thread(target=to_paused_owner)
    waiter.start()
    started = time.time()
    first = act(client, urls[1], session, key="first-" + uuid.uuid4().hex)
    waited = time.time() - started
    assert first.status_code == 202, first.text
    assert waited < LEASE + 1.5, f"a request for the paused owner's session waited {waited:.2f} s"
    later = [act(client, urls[index % 2 + 1], session).json()["version"] for index in range(3)]
    time.sleep(max(0, LEASE * 2 - (time.time() - paused)))
    processes[0].send_signal(signal.SIGCONT)
    waiter.join(timeout=30)
    last = later[-1]
    waited_answer = waiting["response"]
    assert waited_answer.status_code == 202, waited_answer.text
    assert waited_answer.json()["version"] > last, (
        f"the request that waited at the paused owner answered version {waited_answer.json()['version']}, "
        f"after {last} was acknowledged elsewhere")
    read = state(client, urls[0], session)
    assert read[0] >= last + 1 and read[1] == read[0], f"the resumed owner read {read} after version {last + 1}"
    after = act(client, urls[0], session).json()["version"]
    assert after == read[0] + 1, f"an action through the resumed owner answered {after} after {read[0]}"
    final = state(client, urls[2], session)
    acknowledged = 2 + 1 + len(later) + 1 + 1
    assert final == (acknowledged, acknowledged), f"{acknowledged} actions acknowledged, the session holds {final}"
    deadline = time.time() + 10
    while (not stream.versions or stream.versions[-1] < final[0]) and time.time() < deadline:
        time.sleep(0.05)
    stream.stop.set()
    versions = list(stream.versions)
    assert versions and versions[-1] == final[0], f"the stream on process 1 reached {versions[-1:]}, not {final[0]}"
    assert versions == sorted(set(versions)), f"the stream went back or repeated: {versions}"
    print(f"ok: owner paused {LEASE * 2:.1f} s: its session served elsewhere after {waited:.2f} s; once resumed, "
          f"no stale answer (the request that waited there answered {waited_answer.json()['version']} after {last}); "
          f"{acknowledged} acknowledged, {final[1]} applied; the stream never went back")


def check_hung_owner(client, urls, processes, database):
    session = client.post(urls[0] + "/api/sessions").json()
    assert act(client, urls[0], session).status_code == 202
    key = "hung-" + uuid.uuid4().hex
    hung = owner(database, session)
    assert hung != "", "process 0 does not own the session it created"
    processes[0].send_signal(signal.SIGSTOP)
    try:
        started = time.time()
        response = act(client, urls[1], session, key=key)
        waited = time.time() - started
        assert response.status_code == 202, response.text
        assert waited < LEASE + 1.5, f"a request forwarded to a hung owner waited {waited:.2f} s"
        taken = owner(database, session)
        assert taken not in ("", hung), f"the session was not taken over: its owner is {taken!r}, the hung one {hung!r}"
        again = act(client, urls[2], session, key=key)
        assert again.status_code == 202 and again.headers.get("idempotent-replayed") == "true", again.text
    finally:
        processes[0].send_signal(signal.SIGCONT)
    # The hung owner received the forwarded request too; running again, it must not apply it.
    time.sleep(1)
    version, count = state(client, urls[1], session)
    assert count == 2, f"the action sent once through a hung owner was applied {count - 1} times"
    print(f"ok: a request forwarded to a hung owner answered 202 after {waited:.2f} s by the process that took "
          f"the session over; applied once, though the hung owner received it")


def check_forged_forwarding_header(client, urls, database):
    session = client.post(urls[0] + "/api/sessions").json()
    first_owner = owner(database, session)
    forged = auth(session) | {"X-StoreHost-Forwarded": first_owner}
    response = client.post(f"{urls[1]}/api/sessions/{session['id']}/actions", json=INCREMENT, headers=forged)
    assert response.status_code == 202, f"a forged header at another process: {response.status_code} {response.text}"
    for _ in range(4):
        response = client.post(f"{urls[0]}/api/sessions/{session['id']}/actions", json=INCREMENT,
                               headers=auth(session) | {"X-StoreHost-Forwarded": "4242-forged 1 AAAA"})
        assert response.status_code == 202, response.text
    time.sleep(0.5)
    assert owner(database, session) == first_owner, "a run of forged forwarded requests moved the session"
    assert state(client, urls[2], session) == (5, 5)
    print("ok: forged X-StoreHost-Forwarded headers change nothing: forwarded as a client's request (202), "
          "and four of them at the owner did not move the session")


def check_action_log_elsewhere(client, urls):
    session = client.post(urls[0] + "/api/sessions").json()
    events = []
    connected = threading.Event()

    def follow():
        with httpx.Client(timeout=httpx.Timeout(5, read=5)) as own:
            with connect_sse(own, "GET", f"{urls[1]}/api/sessions/{session['id']}/events?log=1",
                             headers=auth(session)) as source:
                for event in source.iter_sse():
                    if not event.data:
                        continue
                    events.append((event.event, json.loads(event.data)))
                    connected.set()
                    # Actions are announced apart from the versions, so either may come first.
                    versions = [data["version"] for kind, data in events if kind == "state"]
                    if versions and versions[-1] >= 2 and sum(kind == "action" for kind, _ in events) >= 2:
                        return

    follower = threading.Thread(target=follow, daemon=True)
    follower.start()
    assert connected.wait(10), "the stream did not start"
    time.sleep(0.2)  # the watch reaches the owner through the database
    for _ in range(2):
        assert act(client, urls[0], session).status_code == 202
    follower.join(timeout=10)
    actions = [data for kind, data in events if kind == "action"]
    assert actions == [{"action": INCREMENT}] * 2, f"the ?log=1 stream on another process got {events}"
    print("ok: a ?log=1 stream on a process that does not own the session got both of its actions")


def main():
    binary, database = sys.argv[1], sys.argv[2]
    data = tempfile.mkdtemp(prefix="storehost-owner-")
    processes = []
    try:
        for index in range(3):
            processes.append(start(binary, database, os.path.join(data, str(index))))
        urls = [url for _, url in processes]
        children = [process for process, _ in processes]
        with httpx.Client(timeout=30) as client:
            check_forged_forwarding_header(client, urls, database)
            check_action_log_elsewhere(client, urls)
            check_paused_owner(client, urls, children)
            check_hung_owner(client, urls, children, database)
    finally:
        stop_all(processes)
        shutil.rmtree(data, ignore_errors=True)


if __name__ == "__main__":
    main()
