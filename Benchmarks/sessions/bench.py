#!/usr/bin/env python3
"""Session benchmarks: actions per second over HTTP (fast and strict), POST-to-SSE latency,
and 10,000 sessions each with an open event stream: memory per session, and the time for
one change of a value they all share to reach every stream.

Usage: bench.py SERVER_BINARY [--sessions 10000] [--seconds 10]
Needs `wrk` on PATH and a high open-files limit (run.sh sets it).
"""
import argparse
import asyncio
import json
import os
import signal
import subprocess
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def start(binary, *flags):
    data = tempfile.mkdtemp(prefix="storehost-bench-")
    process = subprocess.Popen([binary, "--port", "0", "--data", data, *flags], stdout=subprocess.PIPE, text=True)
    line = process.stdout.readline()
    port = int(line.split("//", 1)[1].split(" ", 1)[0].rsplit(":", 1)[1])
    return process, port


def stop(process):
    process.send_signal(signal.SIGTERM)
    process.wait(timeout=60)


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise RuntimeError("no VmRSS")


async def http(reader, writer, method, path, body=b"", headers=()):
    """One request on a keep-alive connection; returns (status, body bytes)."""
    head = f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: {len(body)}\r\n"
    head += "".join(f"{name}: {value}\r\n" for name, value in headers)
    writer.write(head.encode() + b"\r\n" + body)
    await writer.drain()
    status_line = await reader.readline()
    length = 0
    while (line := await reader.readline()) not in (b"\r\n", b""):
        name, _, value = line.decode().partition(":")
        if name.lower() == "content-length":
            length = int(value)
    return int(status_line.split()[1]), await reader.readexactly(length)


async def create_sessions(port, count, connections=16):
    """Creates `count` sessions over a few keep-alive connections; returns [(id, token)]."""
    sessions = []

    async def worker(share):
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        for _ in range(share):
            status, body = await http(reader, writer, "POST", "/api/sessions")
            assert status == 201, body
            created = json.loads(body)
            sessions.append((created["id"], created["token"]))
        writer.close()

    shares = [count // connections + (1 if i < count % connections else 0) for i in range(connections)]
    await asyncio.gather(*(worker(share) for share in shares))
    return sessions


async def open_stream(port, session):
    """Opens a session's event stream and reads its first event; returns the connection."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(
        f"GET /api/sessions/{session[0]}/events HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        f"Authorization: Bearer {session[1]}\r\n\r\n".encode())
    await writer.drain()
    while not (await reader.readline()).startswith(b"data:"):
        pass
    return reader, writer


def actions_per_second(binary, durability, seconds):
    process, port = start(binary, "--durability", durability)
    try:
        sessions = asyncio.run(create_sessions(port, 64))
        path = os.path.join(tempfile.mkdtemp(), "sessions.txt")
        with open(path, "w") as file:
            file.writelines(f"{id} {token}\n" for id, token in sessions)
        output = subprocess.run(
            ["wrk", "-t", "2", "-c", "64", "-d", f"{seconds}s", "-s", os.path.join(HERE, "actions.lua"),
             f"http://127.0.0.1:{port}", "--", path],
            capture_output=True, text=True, check=True).stdout
        rate = next(line for line in output.splitlines() if line.startswith("Requests/sec"))
        return float(rate.split()[1])
    finally:
        stop(process)


async def post_to_event_latency(port, samples):
    session = (await create_sessions(port, 1))[0]
    stream_reader, stream_writer = await open_stream(port, session)
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    headers = [("Authorization", f"Bearer {session[1]}"), ("Content-Type", "application/json")]
    latencies = []
    for _ in range(samples):
        started = time.perf_counter()
        status, body = await http(
            reader, writer, "POST", f"/api/sessions/{session[0]}/actions",
            b'"incrementButtonTapped"', headers)
        assert status == 202, body
        version = json.loads(body)["version"]
        while True:
            line = await stream_reader.readline()
            if line.startswith(b"data:") and json.loads(line[5:])["version"] >= version:
                break
        latencies.append(time.perf_counter() - started)
    stream_writer.close()
    writer.close()
    latencies.sort()
    return latencies[len(latencies) // 2], latencies[int(len(latencies) * 0.99)]


def arrival_times(descriptors, deadline):
    """Waits with epoll for bytes on every descriptor; returns when each first got some.

    A plain epoll loop rather than asyncio tasks, so that reading 10,000 streams costs the
    client little next to the server it measures."""
    import select
    poller = select.epoll()
    for fd in descriptors:
        poller.register(fd, select.EPOLLIN)
    arrivals = {}
    while len(arrivals) < len(descriptors) and time.perf_counter() < deadline:
        for fd, _ in poller.poll(0.5):
            now = time.perf_counter()
            os.read(fd, 65536)
            arrivals[fd] = now
            poller.unregister(fd)
    poller.close()
    return list(arrivals.values())


async def many_sessions(binary, count):
    """Opens `count` sessions with a stream each; returns RSS before and after, and the
    delays from one shared change to its arrival on every stream."""
    process, port = start(binary)
    try:
        await asyncio.sleep(0.5)
        before = rss_kib(process.pid)
        sessions = await create_sessions(port, count)
        streams = []
        for start_index in range(0, count, 500):
            streams += await asyncio.gather(*(open_stream(port, s) for s in sessions[start_index:start_index + 500]))
        await asyncio.sleep(1)
        after = rss_kib(process.pid)
        # Hand the streams' descriptors (non-blocking, drained of earlier bytes) to a plain
        # epoll loop; asyncio is not running while it waits.
        descriptors = []
        for _, stream_writer in streams:
            stream_writer.transport.pause_reading()  # asyncio must not take the bytes first
            descriptors.append(stream_writer.get_extra_info("socket").fileno())
        await asyncio.sleep(0.5)
        for fd in descriptors:
            try:
                os.read(fd, 65536)
            except BlockingIOError:
                pass
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        started = time.perf_counter()
        status, body = await http(
            reader, writer, "POST", f"/api/sessions/{sessions[0][0]}/actions", b'"everyoneIncrementButtonTapped"',
            [("Authorization", f"Bearer {sessions[0][1]}"), ("Content-Type", "application/json")])
        assert status == 202, body
        arrivals = arrival_times(descriptors, started + 30)
        assert len(arrivals) == count, f"only {len(arrivals)} of {count} streams got the change"
        delays = sorted(arrival - started for arrival in arrivals)
        for _, stream_writer in streams:
            stream_writer.close()
        writer.close()
        return before, after, delays
    finally:
        stop(process)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("binary")
    parser.add_argument("--sessions", type=int, default=10_000)
    parser.add_argument("--seconds", type=int, default=10)
    parser.add_argument("--samples", type=int, default=2000)
    args = parser.parse_args()

    print("| benchmark | result |")
    print("| --- | --- |")
    for durability in ("fast", "strict"):
        rate = actions_per_second(args.binary, durability, args.seconds)
        print(f"| actions/s over HTTP keep-alive, {durability}, 64 connections on 64 sessions | {rate:,.0f} |")
    process, port = start(args.binary)
    try:
        p50, p99 = asyncio.run(post_to_event_latency(port, args.samples))
    finally:
        stop(process)
    print(f"| POST to SSE event on another connection, p50 / p99 | {p50 * 1000:.2f} ms / {p99 * 1000:.2f} ms |")
    before, after, delays = asyncio.run(many_sessions(args.binary, args.sessions))
    per_session = (after - before) * 1024 / args.sessions
    print(f"| {args.sessions:,} Counter sessions each with an open SSE stream: RSS before / after | "
          f"{before / 1024:.1f} MiB / {after / 1024:.1f} MiB |")
    print(f"| memory per session (RSS delta / sessions) | {per_session / 1024:.2f} KiB |")
    p50, p99, last = delays[len(delays) // 2], delays[int(len(delays) * 0.99)], delays[-1]
    print(f"| one shared change reaching all {args.sessions:,} streams, p50 / p99 / last | "
          f"{p50 * 1000:.0f} ms / {p99 * 1000:.0f} ms / {last * 1000:.0f} ms |")


if __name__ == "__main__":
    main()
