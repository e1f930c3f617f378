#!/usr/bin/env python3
"""Three storehost processes on one PostgreSQL: the answers, takeovers and shared changes
that must hold when processes forward, stall, drain and die.

Usage: cluster_takeover_check.py BINARY DATABASE_URL

Each check prints one line with what it measured:
- a DELETE sent to a process that does not own the session answers 204, and the session is gone;
- a stream resumed with Last-Event-ID on a process whose notifications lag behind (it was
  stopped for 0.6 s while the owner committed) never shows an older version than it named;
- concurrent increments of the shared counter through all three processes all count;
- after kill -9, another process serves the dead one's sessions within a second, and a
  timer that was running there keeps ticking without any request;
- after SIGTERM, the others take the drained process's sessions over at once;
- behind nginx hashing sessions over the processes, actions stop being forwarded.
"""
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time

import httpx
from httpx_sse import connect_sse

from cluster_support import INCREMENT, post, start, stop_all

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def auth(session):
    return {"Authorization": "Bearer " + session["token"]}


def check_delete_through_another_process(client, urls):
    session = client.post(urls[0] + "/api/sessions").json()
    assert post(client, urls[0], session) == 1
    response = client.delete(f"{urls[1]}/api/sessions/{session['id']}", headers=auth(session))
    assert response.status_code == 204, (response.status_code, response.text)
    gone = client.get(f"{urls[2]}/api/sessions/{session['id']}", headers=auth(session))
    assert gone.status_code == 404, gone.text
    print("ok: DELETE through a process that does not own the session: 204, then 404")


def check_resume_never_goes_back(client, urls, processes):
    session = client.post(urls[0] + "/api/sessions").json()
    for _ in range(3):
        post(client, urls[0], session)
    # Process 1 follows the session (a stream), so it keeps a feed of its versions.
    follower = threading.Thread(target=read_versions, args=(urls[1], session, None, 1.0, []), daemon=True)
    follower.start()
    time.sleep(0.3)
    for _ in range(5):
        processes[1].send_signal(signal.SIGSTOP)
        latest = 0
        started = time.time()
        while time.time() - started < 0.6:
            latest = post(client, urls[0], session)
        processes[1].send_signal(signal.SIGCONT)
        seen = []
        read_versions(urls[1], session, latest, 1.5, seen)
        assert all(version >= latest for version in seen), f"resumed at {latest}, then got {seen}"
    print(f"ok: 5 resumes at the owner's latest version on a process stopped 0.6 s: none went back")


def read_versions(url, session, last_event_id, seconds, versions):
    """Reads a stream for `seconds`, appending the version of every event."""
    headers = auth(session) | ({"Last-Event-ID": str(last_event_id)} if last_event_id is not None else {})
    deadline = time.time() + seconds
    try:
        with httpx.Client(timeout=httpx.Timeout(5, read=seconds)) as client:
            with connect_sse(client, "GET", f"{url}/api/sessions/{session['id']}/events?patch=1",
                             headers=headers) as source:
                for event in source.iter_sse():
                    if event.event in ("state", "patch"):
                        versions.append(json.loads(event.data)["version"])
                    if time.time() > deadline:
                        return
    except httpx.ReadTimeout:
        return


def check_shared_increments_all_count(client, urls):
    sessions = [client.post(url + "/api/sessions").json() for url in urls]
    before = client.get(f"{urls[0]}/api/sessions/{sessions[0]['id']}", headers=auth(sessions[0])).json()
    start_count = before["state"]["shared"]["count"]
    per_client = 100

    def increments(index):
        with httpx.Client(timeout=20) as own:
            for _ in range(per_client):
                response = own.post(f"{urls[index]}/api/sessions/{sessions[index]['id']}/actions",
                                    json={"shared": "incrementButtonTapped"}, headers=auth(sessions[index]))
                assert response.status_code == 202, response.text

    threads = [threading.Thread(target=increments, args=(index,)) for index in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    expected = start_count + 3 * per_client
    deadline = time.time() + 10
    counts = []
    while time.time() < deadline:
        counts = [client.get(f"{url}/api/sessions/{session['id']}", headers=auth(session)).json()["state"]["shared"]["count"]
                  for url, session in zip(urls, sessions)]
        if all(count == expected for count in counts):
            break
        time.sleep(0.1)
    assert all(count == expected for count in counts), f"expected {expected} everywhere, got {counts}"
    print(f"ok: {3 * per_client} increments of the shared counter through 3 processes at once: 0 lost")


def check_kill_and_takeover(client, urls, processes):
    """kill -9 process 0: its sessions are served elsewhere within a second, and its
    running timer keeps ticking."""
    owned = [client.post(urls[0] + "/api/sessions").json() for _ in range(3)]
    timed = owned[0]
    response = client.post(f"{urls[0]}/api/sessions/{timed['id']}/actions", json={"timer": "toggleButtonTapped"},
                           headers=auth(timed))
    assert response.status_code == 202
    for session in owned[1:]:
        post(client, urls[0], session)
    time.sleep(1.2)
    processes[0].send_signal(signal.SIGKILL)
    processes[0].wait()
    killed = time.time()
    waits = []
    for session in owned[1:]:
        started = time.time()
        post(client, urls[1], session)
        waits.append(time.time() - started)
    assert max(waits) < 1.0, f"takeover after kill -9 took {max(waits):.2f} s"
    # Nobody sends the timer's session anything: another process adopts it by itself.
    ticks = []
    reader = threading.Thread(target=read_timer, args=(urls[2], timed, 4.0, ticks), daemon=True)
    reader.start()
    reader.join(timeout=10)
    assert len(set(ticks)) >= 2 and ticks == sorted(ticks), f"the timer did not go on: {ticks}"
    print(f"ok: after kill -9, requests served elsewhere within {max(waits) * 1000:.0f} ms "
          f"({time.time() - killed:.1f} s in all); the dead process's timer kept ticking: {ticks[0]} -> {ticks[-1]}")


def read_timer(url, session, seconds, ticks):
    deadline = time.time() + seconds
    try:
        with httpx.Client(timeout=httpx.Timeout(5, read=seconds)) as client:
            with connect_sse(client, "GET", f"{url}/api/sessions/{session['id']}/events", headers=auth(session)) as source:
                for event in source.iter_sse():
                    if event.event == "state":
                        ticks.append(json.loads(event.data)["state"]["timer"]["secondsElapsed"])
                    if time.time() > deadline:
                        return
    except httpx.ReadTimeout:
        return


def check_drain_hands_over_at_once(client, urls, processes):
    owned = [client.post(urls[1] + "/api/sessions").json() for _ in range(3)]
    for session in owned:
        post(client, urls[1], session)
    signalled = time.time()
    processes[1].send_signal(signal.SIGTERM)
    waits = []
    for session in owned:
        while True:
            response = client.post(f"{urls[2]}/api/sessions/{session['id']}/actions", json=INCREMENT,
                                   headers=auth(session))
            if response.status_code == 202:
                break
            time.sleep(0.01)
        waits.append(time.time() - signalled)
    assert processes[1].wait(timeout=15) == 0
    assert max(waits) < 1.0, f"sessions waited {max(waits):.2f} s after SIGTERM"
    print(f"ok: after SIGTERM, the last process served every drained session within {max(waits) * 1000:.0f} ms")


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def check_nginx_routes_sessions_to_their_owner(binary, database, data):
    """Three fresh processes behind nginx with scripts/nginx/storehost-cluster.conf."""
    ports = [free_port() for _ in range(3)]
    processes = [start(binary, database, os.path.join(data, f"n{index}"), port=port)[0]
                 for index, port in enumerate(ports)]
    front = free_port()
    root = tempfile.mkdtemp(prefix="nginx-cluster-")
    with open(os.path.join(ROOT, "scripts", "nginx", "storehost-cluster.conf")) as file:
        site = file.read()
    site = re.sub(r"(upstream storehost \{\n  hash [^\n]*\n)(  server [^\n]*\n)+",
                  lambda match: match.group(1) + "".join(f"  server 127.0.0.1:{port};\n" for port in ports), site)
    site = site.replace("listen 8080;", f"listen 127.0.0.1:{front};")
    with open(os.path.join(root, "nginx.conf"), "w") as conf:
        conf.write(f"daemon off;\npid {root}/nginx.pid;\nerror_log {root}/error.log;\nevents {{}}\n"
                   f"http {{\naccess_log off;\n{site}\n}}\n")
    nginx = subprocess.Popen(["nginx", "-c", os.path.join(root, "nginx.conf"), "-p", root],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        url = f"http://127.0.0.1:{front}"
        with httpx.Client(timeout=20) as client:
            for _ in range(100):
                try:
                    client.get(url + "/healthz")
                    break
                except httpx.TransportError:
                    time.sleep(0.05)
            sessions = [client.post(url + "/api/sessions").json() for _ in range(12)]
            forwarded_before = forwarded(client, ports)
            warmup = 3  # the requests after which a session created elsewhere has moved
            for _ in range(warmup):
                for session in sessions:
                    post(client, url, session)
            time.sleep(0.5)
            middle = forwarded(client, ports)
            rounds = 10
            for _ in range(rounds):
                for session in sessions:
                    post(client, url, session)
            after = forwarded(client, ports)
            # The counter counts: one action sent straight to each process is forwarded by
            # the two that do not own the session (and moves no session: one from each).
            probe = sessions[0]
            for port in ports:
                post(client, f"http://127.0.0.1:{port}", probe)
            probed = forwarded(client, ports)
        assert probed - after >= 2, f"an action sent to each of 3 processes moved the forwarding counter by {probed - after}"
        moved = after - middle
        total = rounds * len(sessions)
        print(f"ok: behind nginx's session hash, {moved} of {total} actions were forwarded after the first "
              f"{warmup} per session ({middle - forwarded_before} of {warmup * len(sessions)} before); one action sent "
              f"straight to each process was forwarded {probed - after} times")
        assert moved <= total // 10, f"{moved} of {total} actions were still forwarded"
    finally:
        nginx.terminate()
        nginx.wait(timeout=10)
        for process in processes:
            process.send_signal(signal.SIGTERM)
        for process in processes:
            process.wait(timeout=15)
        shutil.rmtree(root, ignore_errors=True)


def forwarded(client, ports):
    """Requests the processes forwarded to another one, from their metrics."""
    total = 0
    for port in ports:
        metrics = client.get(f"http://127.0.0.1:{port}/metrics").text
        match = re.search(r"^storehost_requests_forwarded_total (\d+)$", metrics, re.MULTILINE)
        assert match, "storehost_requests_forwarded_total is missing from /metrics"
        total += int(match.group(1))
    return total


def main():
    binary, database = sys.argv[1], sys.argv[2]
    data = tempfile.mkdtemp(prefix="storehost-takeover-")
    processes = []
    try:
        for index in range(3):
            processes.append(start(binary, database, os.path.join(data, str(index))))
        urls = [url for _, url in processes]
        with httpx.Client(timeout=20) as client:
            check_delete_through_another_process(client, urls)
            check_resume_never_goes_back(client, urls, [process for process, _ in processes])
            check_shared_increments_all_count(client, urls)
            check_kill_and_takeover(client, urls, [process for process, _ in processes])
            check_drain_hands_over_at_once(client, urls, [process for process, _ in processes])
        check_nginx_routes_sessions_to_their_owner(binary, database, data)
    finally:
        stop_all(processes)
        shutil.rmtree(data, ignore_errors=True)


if __name__ == "__main__":
    main()
