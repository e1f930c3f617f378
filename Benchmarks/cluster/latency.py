#!/usr/bin/env python3
"""POST-to-SSE latency: posts an action to one process and times its `state` event on
another process's stream (the same process when only one is given).

Usage: latency.py POST_URL STREAM_URL SAMPLES
Prints "median_ms p99_ms".
"""
import json
import statistics
import sys
import threading
import time

import httpx
from httpx_sse import connect_sse

post_url, stream_url, samples = sys.argv[1], sys.argv[2], int(sys.argv[3])
client = httpx.Client(timeout=20)
session = client.post(post_url + "/api/sessions").json()
headers = {"Authorization": "Bearer " + session["token"]}
seen = {}
ready = threading.Event()


def read_stream():
    with httpx.Client(timeout=httpx.Timeout(5, read=None)) as own:
        with connect_sse(own, "GET", f"{stream_url}/api/sessions/{session['id']}/events", headers=headers) as source:
            for event in source.iter_sse():
                if event.event == "state":
                    seen[json.loads(event.data)["version"]] = time.perf_counter()
                    ready.set()


threading.Thread(target=read_stream, daemon=True).start()
ready.wait(10)
latencies = []
for _ in range(samples):
    started = time.perf_counter()
    version = client.post(f"{post_url}/api/sessions/{session['id']}/actions", headers=headers,
                          json={"counter": "incrementButtonTapped"}).json()["version"]
    while version not in seen:
        time.sleep(0.0002)
    latencies.append((seen[version] - started) * 1000)
latencies.sort()
print(f"{statistics.median(latencies):.2f} {latencies[int(len(latencies) * 0.99) - 1]:.2f}")
