#!/usr/bin/env python3
"""What one change costs on the `storehost` demo server, driven by ordinary clients (wrk and
plain sockets): big states, many streams on one session, many sessions sharing a value, and
what fast durability loses at kill -9.

Usage: bench.py STOREHOST_BINARY [scenario ...]
Scenarios: todos, streams, sessions, durability, history (default: all). See run.sh.
"""
import argparse
import json
import os
import select
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
# The demo's limits are for browsers; a benchmark lifts the per-session ones it measures past.
UNLIMITED = ["--actions-per-second", "1000000", "--action-burst", "1000000"]


# MARK: A quiet machine

def wait_for_quiet_machine():
    """Waits for the 1-minute load average to fall under QUIET_LOAD (0.5), at most
    QUIET_WAIT_SECONDS (300), as quiet-machine.sh does; then prints it. A figure measured
    beside other work says little, so past the wait the benchmark gives up."""
    limit = float(os.environ.get("QUIET_LOAD", "0.5"))
    wait = int(os.environ.get("QUIET_WAIT_SECONDS", "300"))
    waited = 0
    while os.getloadavg()[0] >= limit:
        if waited >= wait:
            sys.exit(f"the 1-minute load average is {os.getloadavg()[0]:.2f}, not under {limit}, after {wait} s: "
                     "something else is running; stop it and run this again")
        if waited == 0:
            print(f"waiting for a quiet machine (load {os.getloadavg()[0]:.2f}, needs < {limit})...", file=sys.stderr)
        time.sleep(10)
        waited += 10
    print(f"load before: {os.getloadavg()[0]:.2f} ({time.strftime('%Y-%m-%dT%H:%M:%SZ', time.gmtime())})")


# MARK: The server under test

class Server:
    def __init__(self, binary, *flags, data=None):
        self.binary = binary
        self.flags = list(flags)
        self.data = data or tempfile.mkdtemp(prefix="storehost-changes-")

    def start(self):
        self.process = subprocess.Popen(
            [self.binary, "--port", "0", "--data", self.data, "--log-level", "warning", *self.flags],
            stdout=subprocess.PIPE, text=True)
        line = self.process.stdout.readline()
        self.port = int(line.split("//", 1)[1].split(" ", 1)[0].rsplit(":", 1)[1])
        return self

    def stop(self):
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            self.process.wait(timeout=120)

    def kill(self):
        self.process.kill()
        self.process.wait()

    def cpu_seconds(self):
        """The CPU time of the server (see process_cpu_seconds)."""
        return process_cpu_seconds(self.process.pid)

    def rss_kib(self):
        with open(f"/proc/{self.process.pid}/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
        raise RuntimeError("no VmRSS")


class Client:
    """One keep-alive HTTP/1.1 connection with blocking calls."""

    def __init__(self, port, source="127.0.0.1"):
        self.socket = socket.create_connection(("127.0.0.1", port), source_address=(source, 0))
        self.socket.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.file = self.socket.makefile("rb")

    def request(self, method, path, body=b"", headers=()):
        head = f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: {len(body)}\r\n"
        head += "".join(f"{name}: {value}\r\n" for name, value in headers)
        self.socket.sendall(head.encode() + b"\r\n" + body)
        status = int(self.file.readline().split()[1])
        length = 0
        while (line := self.file.readline()) not in (b"\r\n", b""):
            name, _, value = line.decode().partition(":")
            if name.lower() == "content-length":
                length = int(value)
        return status, self.file.read(length)

    def create_session(self):
        status, body = self.request("POST", "/api/sessions")
        assert status == 201, body
        created = json.loads(body)
        return created["id"], created["token"]

    def send(self, session, action):
        body = action if isinstance(action, bytes) else json.dumps(action).encode()
        status, answer = self.request(
            "POST", f"/api/sessions/{session[0]}/actions", body,
            [("Authorization", f"Bearer {session[1]}"), ("Content-Type", "application/json")])
        assert status == 202, answer
        return json.loads(answer)["version"]

    def state(self, session):
        status, body = self.request(
            "GET", f"/api/sessions/{session[0]}", headers=[("Authorization", f"Bearer {session[1]}")])
        assert status == 200, body
        return body

    def close(self):
        self.socket.close()


def open_stream(port, session, patches=False, source="127.0.0.1"):
    """Opens an event stream and reads up to its first event; returns the non-blocking socket."""
    stream = socket.create_connection(("127.0.0.1", port), source_address=(source, 0))
    query = "?patch=1" if patches else ""
    stream.sendall(
        f"GET /api/sessions/{session[0]}/events{query} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        f"Authorization: Bearer {session[1]}\r\n\r\n".encode())
    received = b""
    while b"\ndata:" not in received:
        chunk = stream.recv(65536)
        assert chunk, "stream closed before its first event"
        received += chunk
    stream.setblocking(False)
    return stream


class Drain(threading.Thread):
    """Reads every stream as fast as it can with one epoll loop, counting bytes."""

    def __init__(self, streams):
        super().__init__(daemon=True)
        self.streams = streams
        self.bytes = 0
        self.running = True

    def run(self):
        poller = select.epoll()
        for stream in self.streams:
            poller.register(stream.fileno(), select.EPOLLIN)
        while self.running:
            for fd, _ in poller.poll(0.1):
                try:
                    self.bytes += len(os.read(fd, 1 << 20))
                except BlockingIOError:
                    pass
        poller.close()

    def stop(self):
        self.running = False
        self.join()


def process_cpu_seconds(pid):
    """The CPU time of process `pid`, every thread it ran included (those that ended too),
    to the nanosecond: its process CPU clock (clock_getcpuclockid), whose id Linux makes
    from the pid."""
    return time.clock_gettime(((~pid) << 3) | 2)


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * fraction))]


LOREM = ("Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut "
         "labore et dolore magna aliqua. Ut enim ad minim veniam, quis nostrud exercitation ullamco laboris")


def add_todos(client, session, count, title="Todo"):
    """Adds `count` to-dos one request each (set the text, then add), each titled with 200
    characters (the demo's longest); returns the seconds taken."""
    started = time.perf_counter()
    for number in range(count):
        text = f"{title} {number}: {LOREM}"[:200]
        client.send(session, [
            {"todos": {"binding": {"newTodoText": text}}},
            {"todos": "addButtonTapped"},
        ])
    return time.perf_counter() - started


def counter_action_lines(client, count=64):
    """Creates `count` demo sessions and writes wrk_actions.lua's request lines for them ("id
    token body", one Counter increment each) to a new temporary file; returns its path."""
    sessions = [client.create_session() for _ in range(count)]
    path = os.path.join(tempfile.mkdtemp(prefix="counter-actions-"), "requests.txt")
    with open(path, "w") as file:
        file.writelines(f"{id} {token} {{\"counter\":\"incrementButtonTapped\"}}\n" for id, token in sessions)
    return path


def wrk_rate(port, lines, connections, seconds):
    """Actions per second that wrk reaches cycling through `lines` ("id token body")."""
    path = os.path.join(tempfile.mkdtemp(), "requests.txt")
    with open(path, "w") as file:
        file.writelines(f"{id} {token} {body}\n" for id, token, body in lines)
    output = subprocess.run(
        ["wrk", "-t", "2", "-c", str(connections), "-d", f"{seconds}s", "-s",
         os.path.join(HERE, "wrk_actions.lua"), f"http://127.0.0.1:{port}", "--", path],
        capture_output=True, text=True, check=True).stdout
    rate = next(line for line in output.splitlines() if line.startswith("Requests/sec"))
    return float(rate.split()[1])


def row(label, value):
    print(f"| {label} | {value} |", flush=True)


# MARK: Scenarios

def todos(binary, args):
    """One session grows to 1,000 to-dos one by one; then actions on it, sequential and by wrk."""
    server = Server(binary, *UNLIMITED).start()
    try:
        client = Client(server.port)
        session = client.create_session()
        cpu = server.cpu_seconds()
        first = add_todos(client, session, 256)
        rest = add_todos(client, session, args.todos - 256, title="Later todo")
        cpu_adding = server.cpu_seconds() - cpu
        state = json.loads(client.state(session))
        size = len(json.dumps(state["state"], separators=(",", ":")))
        row(f"adding {args.todos:,} to-dos one request each: first 256 / all", f"{first:.2f} s / {first + rest:.2f} s")
        row("server CPU per to-do added (average)", f"{cpu_adding / args.todos * 1000:.2f} ms")
        row(f"state with {args.todos:,} to-dos", f"{size / 1024:.0f} KiB")
        increment = b'{"counter":"incrementButtonTapped"}'
        cpu = server.cpu_seconds()
        started = time.perf_counter()
        for _ in range(1000):
            client.send(session, increment)
        elapsed = time.perf_counter() - started
        cpu_sequential = server.cpu_seconds() - cpu
        row("1,000 sequential increments on it: server CPU per action / round trip",
            f"{cpu_sequential:.3f} ms / {elapsed:.3f} ms")
        ids = [todo["id"] for todo in state["state"]["todos"]["todos"]]
        toggles = [(session[0], session[1], json.dumps(
            {"todos": {"todos": {"element": {"id": id, "action": {"binding": {"isComplete": done}}}}}},
            separators=(",", ":"))) for id in ids[:100] for done in (True, False)]
        rate = wrk_rate(server.port, [(session[0], session[1], increment.decode())], 16, args.seconds)
        row(f"actions/s on it, counter increments, wrk 16 connections, fast", f"{rate:,.0f}")
        rate = wrk_rate(server.port, toggles, 16, args.seconds)
        row(f"actions/s on it, to-do toggles, wrk 16 connections, fast", f"{rate:,.0f}")
        row("server RSS with that one session", f"{server.rss_kib() / 1024:.0f} MiB")
        client.close()
    finally:
        server.stop()


def streams(binary, args):
    """An 18 KB state watched by 100 streams: CPU per action, and another session's latency."""
    for patches in (False, True):
        server = Server(binary, *UNLIMITED, "--max-streams-per-session", "200").start()
        try:
            client = Client(server.port)
            watched = client.create_session()
            while len(client.state(watched)) < args.state_bytes:
                add_todos(client, watched, 10)
            size = len(client.state(watched))
            other = client.create_session()
            other_client = Client(server.port)

            def other_latencies(count=400, interval=0.005):
                latencies = []
                for _ in range(count):
                    started = time.perf_counter()
                    other_client.send(other, b'{"counter":"incrementButtonTapped"}')
                    latencies.append(time.perf_counter() - started)
                    time.sleep(interval)
                return latencies

            quiet = other_latencies()

            def cpu_per_action():
                cpu = server.cpu_seconds()
                for _ in range(args.actions):
                    client.send(watched, b'{"counter":"incrementButtonTapped"}')
                time.sleep(0.5)
                return (server.cpu_seconds() - cpu) / args.actions

            unwatched = cpu_per_action()
            opened = [open_stream(server.port, watched, patches) for _ in range(args.streams)]
            drain = Drain(opened)
            drain.start()
            time.sleep(0.5)
            kind = "patch" if patches else "state"
            received = drain.bytes
            watched_cost = cpu_per_action()
            sent_per_action = (drain.bytes - received) / args.actions
            row(f"{size / 1024:.0f} KiB state, {args.streams} {kind} streams: server CPU per action "
                f"(events {sent_per_action / 1024:.1f} KiB per action)", f"{watched_cost * 1000:.2f} ms")
            row(f"  per event per subscriber: (CPU per action with the streams - without) / {args.streams}",
                f"{(watched_cost - unwatched) / args.streams * 1e6:.1f} µs")
            # Another session's latency while the watched one takes 20 actions/s (the default rate).
            busy = threading.Event()

            def watched_load():
                while not busy.is_set():
                    client.send(watched, b'{"counter":"incrementButtonTapped"}')
                    time.sleep(0.05)

            load = threading.Thread(target=watched_load, daemon=True)
            load.start()
            loaded = other_latencies()
            busy.set()
            load.join()
            row(f"  another session's action, p50 / p99: no streams vs {args.streams} {kind} streams at 20 actions/s",
                f"{percentile(quiet, 0.5) * 1000:.2f} / {percentile(quiet, 0.99) * 1000:.2f} ms vs "
                f"{percentile(loaded, 0.5) * 1000:.2f} / {percentile(loaded, 0.99) * 1000:.2f} ms")
            drain.stop()
            for stream in opened:
                stream.close()
            client.close()
            other_client.close()
        finally:
            server.stop()


def shared_change_round(server, client, session, streams):
    """Sends one change of the demo's shared counter from `session` and waits (up to 30 s) for
    each of `streams` to hear of it: the arrival times, in seconds after the send, and the
    server CPU seconds it took."""
    for stream in streams:  # the heartbeats and earlier changes
        try:
            while stream.recv(65536):
                pass
        except BlockingIOError:
            pass
    poller = select.epoll()
    for stream in streams:
        poller.register(stream.fileno(), select.EPOLLIN)
    cpu = server.cpu_seconds()
    started = time.perf_counter()
    client.send(session, b'{"shared":"incrementButtonTapped"}')
    arrivals = []
    while len(arrivals) < len(streams) and time.perf_counter() < started + 30:
        for fd, _ in poller.poll(0.5):
            arrivals.append(time.perf_counter() - started)
            os.read(fd, 65536)
            poller.unregister(fd)
    poller.close()
    time.sleep(0.5)
    return arrivals, server.cpu_seconds() - cpu


def sessions(binary, args):
    """Many demo sessions, each with one open stream: memory per session, and one change of the
    counter they all share reaching every stream."""
    count = args.sessions
    sources = [f"127.0.0.{2 + index}" for index in range(max(1, count // 20000 + 1))]
    server = Server(
        binary, "--max-sessions", str(count + 10), "--max-connections", str(count + 100)).start()
    try:
        time.sleep(0.5)
        before = server.rss_kib()
        client = Client(server.port)
        created = [client.create_session() for _ in range(count)]
        opened = [open_stream(server.port, session, args.patches, sources[index % len(sources)])
                  for index, session in enumerate(created)]
        time.sleep(1)
        after = server.rss_kib()
        kind = "patch" if args.patches else "state"
        row(f"{count:,} demo sessions, each with an open {kind} stream: server RSS before / after",
            f"{before / 1024:.1f} MiB / {after / 1024:.1f} MiB")
        row("memory per session (RSS delta / sessions)", f"{(after - before) / count:.2f} KiB")
        # Opening the streams can outlast the server's keep-alive idle timeout (60 s), which
        # closes the connection that created the sessions: the changes go on a new one.
        client = Client(server.port)
        for round in range(args.rounds):
            arrivals, cpu = shared_change_round(server, client, created[0], opened)
            assert len(arrivals) == count, f"only {len(arrivals)} of {count} streams got the change"
            row(f"one shared change reaching all {count:,} streams (round {round + 1}), p50 / p99 / last",
                f"{percentile(arrivals, 0.5) * 1000:.0f} ms / {percentile(arrivals, 0.99) * 1000:.0f} ms / "
                f"{arrivals[-1] * 1000:.0f} ms")
            row(f"  server CPU for it, per session", f"{cpu / count * 1e6:.1f} µs")
        for stream in opened:
            stream.close()
        client.close()
    finally:
        server.stop()


def history(binary, args):
    """What keeping each session's history costs, with --history 0 and 500: memory per
    session (new; right after 525 actions each, while steps wait for their save; and after a
    restart, once a request brought each session back, as a session with a full history is
    kept), and server CPU per action (actions sent 25 to a request, so that the HTTP work per
    action is small beside the history's)."""
    count = args.history_sessions
    batch = 25
    requests = 520 // batch + 1
    typing = [{"todos": {"binding": {"newTodoText": f"Buy {word}"}}} for word in LOREM.split()[:batch - 1]]
    actions = json.dumps(typing + [{"counter": "incrementButtonTapped"}]).encode()
    for length in [0, 500] * args.history_rounds:
        flags = ["--history", str(length), "--max-sessions", str(count + 10), *UNLIMITED]
        server = Server(binary, *flags).start()
        try:
            time.sleep(0.5)
            client = Client(server.port)
            before = server.rss_kib()
            created = [client.create_session() for _ in range(count)]
            time.sleep(1)
            fresh = server.rss_kib()
            cpu = server.cpu_seconds()
            for session in created:
                for _ in range(requests):
                    client.send(session, actions)
            cpu = server.cpu_seconds() - cpu
            sent = count * requests * batch
            time.sleep(1)
            after = server.rss_kib()
            client.close()
        finally:
            server.stop()
        server = Server(binary, *flags, data=server.data).start()
        try:
            time.sleep(2)
            client = Client(server.port)
            for session in created:
                client.state(session)
            time.sleep(1)
            restarted = server.rss_kib()
            client.close()
        finally:
            server.stop()
        row(f"--history {length}: {count:,} demo sessions, server RSS before / new / after {sent // count} actions "
            f"each / after a restart and a request to each", f"{before / 1024:.1f} / {fresh / 1024:.1f} / {after / 1024:.1f} / "
            f"{restarted / 1024:.1f} MiB")
        row(f"--history {length}: memory per session (RSS delta / sessions), new / after the actions / after a restart",
            f"{(fresh - before) / count:.1f} / {(after - before) / count:.1f} / {(restarted - before) / count:.1f} KiB")
        row(f"--history {length}: server CPU per action ({sent:,} actions, {batch} a request)",
            f"{cpu / sent * 1e6:.1f} µs")
        disk = sum(os.path.getsize(os.path.join(server.data, name)) for name in os.listdir(server.data)
                   if name.startswith("sessions.sqlite"))
        row(f"--history {length}: session database on disk, per session", f"{disk / count / 1024:.1f} KiB")


def durability(binary, args):
    """Fast mode under saturation, killed with SIGKILL: how long before the kill the earliest
    acknowledged action that the restarted server does not have was answered."""
    worst = 0.0
    for run in range(args.kills):
        server = Server(binary, *UNLIMITED, "--durability", "fast").start()
        client = Client(server.port)
        load = [client.create_session() for _ in range(64)]
        probe = client.create_session()
        acks = []
        stop = threading.Event()

        def probe_load():
            probe_client = Client(server.port)
            try:
                while not stop.is_set():
                    version = probe_client.send(probe, b'{"counter":"incrementButtonTapped"}')
                    acks.append((version, time.perf_counter()))
            except (AssertionError, OSError, ValueError, IndexError):
                pass

        lines = [(id, token, '{"counter":"incrementButtonTapped"}') for id, token in load]
        path = os.path.join(tempfile.mkdtemp(), "requests.txt")
        with open(path, "w") as file:
            file.writelines(f"{id} {token} {body}\n" for id, token, body in lines)
        wrk = subprocess.Popen(
            ["wrk", "-t", "2", "-c", "64", "-d", "30s", "-s", os.path.join(HERE, "wrk_actions.lua"),
             f"http://127.0.0.1:{server.port}", "--", path],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        prober = threading.Thread(target=probe_load, daemon=True)
        prober.start()
        time.sleep(2 + run * 0.37)
        killed_at = time.perf_counter()
        server.kill()
        stop.set()
        prober.join()
        wrk.kill()
        wrk.wait()
        restarted = Server(binary, data=server.data).start()
        saved = json.loads(Client(restarted.port).state(probe))["version"]
        restarted.stop()
        lost = [at for version, at in acks if version > saved]
        window = killed_at - min(lost) if lost else 0.0
        worst = max(worst, window)
        row(f"kill -9 under saturation, run {run + 1}: acknowledged / restored version, lost window",
            f"{acks[-1][0] if acks else 0} / {saved}, {window * 1000:.0f} ms")
    row("fast durability: most acknowledged time lost at kill -9 (promise: 100 ms)", f"{worst * 1000:.0f} ms")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("binary")
    parser.add_argument("scenarios", nargs="*", default=["todos", "streams", "sessions", "durability", "history"])
    parser.add_argument("--seconds", type=int, default=5)
    parser.add_argument("--todos", type=int, default=1000)
    parser.add_argument("--state-bytes", type=int, default=18 * 1024)
    parser.add_argument("--streams", type=int, default=100)
    parser.add_argument("--actions", type=int, default=1000)
    parser.add_argument("--sessions", type=int, default=10_000)
    parser.add_argument("--patches", action="store_true", help="sessions scenario: patch streams")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--kills", type=int, default=5)
    parser.add_argument("--history-sessions", type=int, default=1000)
    parser.add_argument("--history-rounds", type=int, default=2, help="history scenario: runs of each setting, alternating")
    args = parser.parse_args()
    wait_for_quiet_machine()
    print("| benchmark | result |")
    print("| --- | --- |")
    for scenario in args.scenarios:
        globals()[scenario](args.binary, args)
    print(f"load after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
