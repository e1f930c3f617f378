#!/usr/bin/env python3
"""What a browser's tabs cost the server: memory and CPU per tab and per browser, with a
stream per tab (each tab its own `GET /api/sessions/{id}/events`, as the client did before
tabs shared a stream) and with one stream per browser (`GET /api/events` watching its
tabs' sessions, as the browser client does now).

Each tab is a Counter session. For each layout, on a fresh server: the sessions are
created (and their watch tickets issued), then the streams opened at the version they are
at (so they start quiet); the RSS delta is their memory. Then every session gets
`--actions` increments over 16 keep-alive connections while every stream is read: the
server's CPU time (utime + stime) per action is what an action costs with its event
delivered. Last, with one stream per browser, every stream is closed and opened again
(what a browser does when a tab opens or closes): CPU per reopened stream.

Usage: bench.py SERVER_BINARY [--tabs 2400] [--per-browser 12] [--actions 3]
"""
import argparse
import asyncio
import importlib.util
import json
import os
import time

HERE = os.path.dirname(os.path.abspath(__file__))
# Starting servers, keep-alive requests and RSS as the session benchmarks do.
_spec = importlib.util.spec_from_file_location("sessions_bench", os.path.join(HERE, "..", "sessions", "bench.py"))
sessions_bench = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(sessions_bench)
start, stop, rss_kib, http, create_sessions = (
    sessions_bench.start, sessions_bench.stop, sessions_bench.rss_kib, sessions_bench.http, sessions_bench.create_sessions)

TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


async def on_connections(port, items, work, connections=16):
    """Runs `work(reader, writer, item)` for every item over a few keep-alive connections."""
    async def worker(share):
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        for item in share:
            await work(reader, writer, item)
        writer.close()
    await asyncio.gather(*(worker(items[index::connections]) for index in range(connections)))


async def issue_tickets(port, sessions):
    tickets = {}

    async def issue(reader, writer, session):
        status, body = await http(reader, writer, "POST", f"/api/sessions/{session[0]}/tickets", b"",
                                  [("Authorization", f"Bearer {session[1]}")])
        assert status == 200, body
        tickets[session[0]] = json.loads(body)["ticket"]
    await on_connections(port, sessions, issue)
    return tickets


class Stream:
    """One open event stream, read to the end by a task, counting its events."""

    def __init__(self, reader, writer):
        self.reader, self.writer, self.events = reader, writer, 0
        self.task = asyncio.ensure_future(self.read())

    async def read(self):
        while line := await self.reader.readline():
            if line.startswith(b"data:"):
                self.events += 1

    def close(self):
        self.task.cancel()
        self.writer.close()


async def open_stream(port, target, headers=()):
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    head = f"GET {target} HTTP/1.1\r\nHost: 127.0.0.1\r\n" + "".join(f"{n}: {v}\r\n" for n, v in headers)
    writer.write(head.encode() + b"\r\n")
    await writer.drain()
    status = await reader.readline()
    assert b" 200 " in status, status
    while (await reader.readline()) != b"\r\n":
        pass
    assert (await reader.readline()).startswith(b"retry:")
    await reader.readline()
    return Stream(reader, writer)


async def open_all(openers, batch=200):
    streams = []
    for index in range(0, len(openers), batch):
        streams += await asyncio.gather(*(opener() for opener in openers[index:index + batch]))
    return streams


def layouts(sessions, tickets, per_browser, versions):
    """The stream openers of each layout: one per tab, and one per browser."""
    single = [
        (lambda port, s=s: open_stream(port, f"/api/sessions/{s[0]}/events?patch=1&lastEventId={versions.get(s[0], 0)}",
                                       [("Authorization", f"Bearer {s[1]}")]))
        for s in sessions]
    shared = []
    for index in range(0, len(sessions), per_browser):
        watch = "&".join(f"watch={tickets[s[0]]}.{versions.get(s[0], 0)}" for s in sessions[index:index + per_browser])
        shared.append(lambda port, watch=watch: open_stream(port, f"/api/events?patch=1&{watch}"))
    return single, shared


async def measure(binary, layout, tabs, per_browser, rounds):
    process, port = start(binary)
    try:
        sessions = await create_sessions(port, tabs)
        tickets = await issue_tickets(port, sessions)
        single, shared = layouts(sessions, tickets, per_browser, {})
        openers = single if layout == "tab" else shared
        await asyncio.sleep(1)
        before = rss_kib(process.pid)
        streams = await open_all([lambda opener=opener: opener(port) for opener in openers])
        await asyncio.sleep(1)
        after = rss_kib(process.pid)

        async def increment(reader, writer, session):
            status, body = await http(reader, writer, "POST", f"/api/sessions/{session[0]}/actions",
                                      b'"incrementButtonTapped"',
                                      [("Authorization", f"Bearer {session[1]}"), ("Content-Type", "application/json")])
            assert status == 202, body
        cpu = cpu_seconds(process.pid)
        for _ in range(rounds):
            await on_connections(port, sessions, increment)
        deadline = time.time() + 30
        while sum(stream.events for stream in streams) < tabs * rounds and time.time() < deadline:
            await asyncio.sleep(0.05)
        delivered = sum(stream.events for stream in streams)
        assert delivered == tabs * rounds, f"{delivered} of {tabs * rounds} events arrived"
        action_cpu = (cpu_seconds(process.pid) - cpu) / (tabs * rounds)

        reopen_cpu = None
        if layout == "browser":
            for stream in streams:
                stream.close()
            await asyncio.sleep(1)
            _, shared = layouts(sessions, tickets, per_browser, {s[0]: rounds for s in sessions})
            cpu = cpu_seconds(process.pid)
            streams = await open_all([lambda opener=opener: opener(port) for opener in shared])
            reopen_cpu = (cpu_seconds(process.pid) - cpu) / len(shared)
        for stream in streams:
            stream.close()
        return len(openers), (after - before) * 1024, action_cpu, reopen_cpu
    finally:
        stop(process)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("binary")
    parser.add_argument("--tabs", type=int, default=2400)
    parser.add_argument("--per-browser", type=int, default=12)
    parser.add_argument("--actions", type=int, default=3)
    args = parser.parse_args()
    tabs, per_browser = args.tabs, args.per_browser
    browsers = -(-tabs // per_browser)

    per_tab = asyncio.run(measure(args.binary, "tab", tabs, per_browser, args.actions))
    per_browser_stream = asyncio.run(measure(args.binary, "browser", tabs, per_browser, args.actions))
    one_each = asyncio.run(measure(args.binary, "browser", tabs, 1, args.actions))
    # RSS = streams * stream + tabs * watch: two layouts with as many tabs, different stream counts.
    stream_bytes = (one_each[1] - per_browser_stream[1]) / (one_each[0] - per_browser_stream[0])
    watch_bytes = (per_browser_stream[1] - per_browser_stream[0] * stream_bytes) / tabs

    print(f"| {tabs:,} tabs (one session each), {per_browser} per browser | stream per tab | one stream per browser |")
    print("| --- | --- | --- |")
    print(f"| event streams (connections held) | {per_tab[0]:,} | {per_browser_stream[0]:,} |")
    print(f"| server memory per tab (RSS delta / tabs) | {per_tab[1] / tabs / 1024:.2f} KiB | "
          f"{per_browser_stream[1] / tabs / 1024:.2f} KiB |")
    print(f"| server memory per browser of {per_browser} tabs | {per_tab[1] / tabs * per_browser / 1024:.1f} KiB | "
          f"{per_browser_stream[1] / browsers / 1024:.1f} KiB |")
    print(f"| server CPU per action, its event delivered | {per_tab[2] * 1e6:.0f} µs | {per_browser_stream[2] * 1e6:.0f} µs |")
    print(f"| server CPU per stream reopened with its {per_browser} sessions up to date (a tab opened or closed) | – | "
          f"{per_browser_stream[3] * 1e6:.0f} µs |")
    print()
    print(f"Fitted over stream-per-browser layouts of 1 and {per_browser} sessions: "
          f"{stream_bytes / 1024:.2f} KiB per stream (connection), {watch_bytes / 1024:.2f} KiB per watched session.")


if __name__ == "__main__":
    main()
