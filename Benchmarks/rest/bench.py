"""Sessions at rest: a restart with many saved sessions, and the first request to each.

Writes N demo sessions straight into a fresh data directory's SQLite file (after one start of
`storehost` made its tables and token secret), then starts `storehost` on it and reports:
how long until /healthz answers, the process's memory then, the latency of the first request
to sessions picked at random (each brought back from storage) and of a second one, and the
memory once those sessions are in memory.

    Benchmarks/rest/run.sh [--sessions 1000000] [--sample 2000]
"""
import argparse
import base64
import hashlib
import hmac
import os
import random
import signal
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time

import httpx


def start(binary, data, port=0):
    process = subprocess.Popen(
        [binary, "--port", str(port), "--data", data, "--log-level", "warning"],
        stdout=subprocess.PIPE, text=True)
    line = process.stdout.readline()
    port = int(line.split("//", 1)[1].split(" ", 1)[0].rsplit(":", 1)[1])
    return process, port


def rss_mib(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024


def token(secret, session_id):
    """A session token as SessionTokenSigner issues it: 0x01, a nonce, the id, HMAC-SHA256."""
    signed = b"\x01" + os.urandom(16) + session_id.encode()
    mac = hmac.new(secret, signed, hashlib.sha256).digest()
    return base64.urlsafe_b64encode(signed + mac).decode().rstrip("=")


def fill(data, count, state):
    database = sqlite3.connect(os.path.join(data, "sessions.sqlite"))
    now_ms = int(time.time() * 1000)
    # Used ten minutes ago: at rest, and not yet expired.
    active_ms = now_ms - 600_000
    ids = []
    batch = []
    for _ in range(count):
        session_id = base64.urlsafe_b64encode(os.urandom(16)).decode().rstrip("=")
        ids.append(session_id)
        batch.append((session_id, 3, state, now_ms - 3_600_000, active_ms, 1, 3))
        if len(batch) == 50_000:
            database.executemany("INSERT INTO sessions VALUES (?, ?, ?, ?, ?, ?, ?)", batch)
            batch.clear()
    if batch:
        database.executemany("INSERT INTO sessions VALUES (?, ?, ?, ?, ?, ?, ?)", batch)
    database.commit()
    database.close()
    return ids


def healthy(port):
    try:
        with socket.create_connection(("127.0.0.1", port)) as connection:
            connection.sendall(b"GET /healthz HTTP/1.1\r\nHost: storehost\r\n\r\n")
            return connection.recv(64).startswith(b"HTTP/1.1 200")
    except OSError:
        return False


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def main():
    arguments = argparse.ArgumentParser()
    arguments.add_argument("binary")
    arguments.add_argument("--sessions", type=int, default=1_000_000)
    arguments.add_argument("--sample", type=int, default=2_000)
    options = arguments.parse_args()

    data = tempfile.mkdtemp(prefix="storehost-rest-")
    process, port = start(options.binary, data)
    state = httpx.post(f"http://127.0.0.1:{port}/api/sessions").json()["state"]
    process.send_signal(signal.SIGTERM)
    process.wait()
    started = time.monotonic()
    ids = fill(data, options.sessions, httpx.Response(200, json=state).content)
    size = os.path.getsize(os.path.join(data, "sessions.sqlite")) / 2**20
    print(f"{options.sessions:,} sessions written in {time.monotonic() - started:.1f} s ({size:.0f} MiB of SQLite)")
    secret = open(os.path.join(data, "session-secret"), "rb").read()

    spawned = time.monotonic()
    process, port = start(options.binary, data)
    base = f"http://127.0.0.1:{port}"
    # A raw request, so the time is the server's, not an HTTP client's setting up.
    while not healthy(port):
        pass
    ready = time.monotonic() - spawned
    with httpx.Client(base_url=base, timeout=10) as client:
        print(f"restart: /healthz answered {ready * 1000:.0f} ms after the process started; RSS {rss_mib(process.pid):.1f} MiB")

        first, second = [], []
        for session_id in random.sample(ids, options.sample):
            headers = {"Authorization": f"Bearer {token(secret, session_id)}"}
            for latencies in (first, second):
                before = time.perf_counter()
                response = client.get(f"/api/sessions/{session_id}", headers=headers)
                latencies.append((time.perf_counter() - before) * 1000)
                assert response.status_code == 200, response.text
        for name, latencies in (("first request (brought back)", first), ("second request (in memory)", second)):
            print(f"{name}: p50 {statistics.median(latencies):.2f} ms, p99 {percentile(latencies, 0.99):.2f} ms, "
                  f"max {max(latencies):.2f} ms")
        print(f"{options.sample:,} sessions in memory: RSS {rss_mib(process.pid):.1f} MiB")
    process.send_signal(signal.SIGTERM)
    process.wait()
    subprocess.run(["rm", "-rf", data], check=True)


if __name__ == "__main__":
    sys.exit(main())
