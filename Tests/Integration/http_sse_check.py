#!/usr/bin/env python3
"""Checks the HTTP module's event streams with a real SSE client (httpx-sse).

Usage: http_sse_check.py BINARY
Starts BINARY (http-example-server) on a free port, reads a stream, checks headers and
the first event, checks that many concurrent streams all open, and that SIGTERM ends
open streams and stops the server within a few seconds.
"""
import signal
import subprocess
import sys
import threading
import time

import httpx
from httpx_sse import connect_sse


def start(binary):
    process = subprocess.Popen([binary, "--port", "0"], stdout=subprocess.PIPE, text=True)
    line = process.stdout.readline().strip()
    assert line.startswith("listening on "), line
    return process, line.removeprefix("listening on ")


def first_event(client, url):
    with connect_sse(client, "GET", url + "/events") as source:
        response = source.response
        assert response.headers["content-type"] == "text/event-stream"
        assert response.headers["cache-control"] == "no-cache, no-transform"
        assert response.headers["x-accel-buffering"] == "no"
        assert "content-length" not in response.headers
        for event in source.iter_sse():
            if event.data:  # the leading `retry:` hint arrives as an event without data
                return event
    raise AssertionError("the stream ended without an event")


def main():
    process, url = start(sys.argv[1])
    try:
        with httpx.Client(timeout=5) as client:
            event = first_event(client, url)
            assert event.event == "hello" and event.data == "{}", event
            assert client.get(url + "/healthz").text == "ok\n"

        # 200 streams at once, each answered.
        results = []
        def one():
            with httpx.Client(timeout=10) as client:
                results.append(first_event(client, url).event)
        threads = [threading.Thread(target=one) for _ in range(200)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert results == ["hello"] * 200, len(results)

        # An open stream ends when the server drains.
        ended = threading.Event()
        def hold():
            with httpx.Client(timeout=10) as client, connect_sse(client, "GET", url + "/events") as source:
                for _ in source.iter_sse():
                    pass
            ended.set()
        threading.Thread(target=hold, daemon=True).start()
        time.sleep(0.5)
        started = time.monotonic()
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=5) == 0
        assert ended.wait(timeout=5), "the stream did not end on shutdown"
        assert time.monotonic() - started < 5
    finally:
        if process.poll() is None:
            process.kill()
    print("http_sse_check: ok")


if __name__ == "__main__":
    main()
