#!/usr/bin/env python3
"""storehost beside nginx on equal work, in one run: the two servers alternate, round
after round, and the medians are printed with the machine's load average.

Equal work means the same bytes: the same 15-byte answer from memory (the demo's
`GET /healthz`; nginx `return 200 '{"status":"ok"}'`), the same files (Public/index.html,
17 KB, and a 1 MB file in a copy of Public/), and the same security headers (nginx
`add_header ... always` with the values storehost sends). nginx runs as its users run it:
Debian's package, one worker per core, `sendfile`, `tcp_nopush`, `open_file_cache`,
keep-alive, no access log. storehost is the `storehost` demo server itself.

Figures:
- requests/s with wrk (64 keep-alive connections) for each work, and the ratio;
- Counter actions/s on the demo (64 sessions on 64 connections) against its own tiny GETs;
- each server's CPU per request at a fixed 100, 1,000 and 10,000 requests/s (wrk paced
  by wrk_paced.lua), from the CPU time of its processes (each one's CPU clock: every thread,
  those that ended included);
- each server's CPU over 5 idle seconds.

Usage: compare.py STOREHOST_BINARY [--seconds 5] [--rounds 3] [--only NAME ...] [--storehost-flags '...']
"""
import argparse
import glob
import os
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(HERE, "..", "changes"))
import bench  # noqa: E402  (the Server and Client helpers)

BIG_FILE = "big.bin"
# (requests/s, connections): each connection waits connections * 1000 / rate ms.
RATES = [(100, 10), (1000, 10), (10000, 100)]


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def public_copy():
    """Public/ and a 1 MB file, readable by nginx's unprivileged workers."""
    directory = tempfile.mkdtemp(prefix="compare-public-")
    os.chmod(directory, 0o755)
    shutil.copytree(os.path.join(ROOT, "Public"), directory, dirs_exist_ok=True)
    with open(os.path.join(directory, BIG_FILE), "wb") as file:
        file.write(os.urandom(1 << 20))
    for path in glob.glob(directory + "/**", recursive=True):
        os.chmod(path, 0o755 if os.path.isdir(path) else 0o644)
    return directory


def security_headers(port):
    """The security headers the demo server sends, as (name, value) pairs."""
    with socket.create_connection(("127.0.0.1", port)) as connection:
        connection.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        answer = b""
        while chunk := connection.recv(65536):
            answer += chunk
    head = answer.split(b"\r\n\r\n", 1)[0].decode().split("\r\n")[1:]
    names = ("content-security-policy", "x-content-type-options", "x-frame-options", "referrer-policy",
             "cross-origin-opener-policy", "strict-transport-security")
    return [tuple(line.split(": ", 1)) for line in head if line.split(":", 1)[0].lower() in names]


class Nginx:
    def __init__(self, public, headers):
        self.root = tempfile.mkdtemp(prefix="nginx-compare-")
        os.chmod(self.root, 0o755)
        self.port = free_port()
        add = "".join(f"    add_header {name} \"{value}\" always;\n" for name, value in headers)
        with open(os.path.join(self.root, "nginx.conf"), "w") as conf:
            conf.write(f"""
worker_processes {os.cpu_count()};
daemon off;
pid {self.root}/nginx.pid;
error_log {self.root}/error.log;
events {{ worker_connections 4096; }}
http {{
  include /etc/nginx/mime.types;
  access_log off;
  charset utf-8;
  charset_types text/css text/javascript application/javascript application/json;
  sendfile on;
  tcp_nopush on;
  keepalive_requests 1000000;
  open_file_cache max=1000 inactive=60s;
  open_file_cache_valid 60s;
  server {{
    listen 127.0.0.1:{self.port} reuseport;
    root {public};
{add}
    location = /healthz {{ default_type "application/json; charset=utf-8"; return 200 '{{"status":"ok"}}'; }}
  }}
}}
""")

    def start(self):
        self.process = subprocess.Popen(
            ["nginx", "-c", os.path.join(self.root, "nginx.conf"), "-p", self.root],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.1).close()
                return self
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("nginx did not start")

    def pids(self):
        return [self.process.pid] + children(self.process.pid)

    def stop(self):
        self.process.send_signal(signal.SIGQUIT)
        self.process.wait(timeout=10)
        shutil.rmtree(self.root, ignore_errors=True)


class Storehost(bench.Server):
    def pids(self):
        return [self.process.pid]


def children(pid):
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as file:
            return [int(child) for child in file.read().split()]
    except OSError:
        return []


def cpu_seconds(server):
    """The CPU time of the server's processes, every thread they ran included."""
    return sum(bench.process_cpu_seconds(pid) for pid in server.pids())


def wrk(url, connections, seconds, script=None, script_args=(), threads=None):
    threads = threads or min(2, connections)
    command = ["wrk", "-t", str(threads), "-c", str(connections), "-d", f"{seconds}s", "--latency"]
    if script:
        command += ["-s", script]
    command.append(url)
    if script_args:
        command += ["--", *script_args]
    output = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    failed = re.search(r"Non-2xx or 3xx responses: (\d+)", output)
    if failed:
        raise RuntimeError(f"{failed.group(1)} answers were not 2xx: {url}")
    rate = float(re.search(r"Requests/sec:\s+([\d.]+)", output).group(1))
    requests = int(re.search(r"(\d+) requests in", output).group(1))
    return rate, requests


def measured(server, url, connections, seconds, **options):
    """wrk's rate and the server's CPU per request (µs) over the run."""
    before = cpu_seconds(server)
    rate, requests = wrk(url, connections, seconds, **options)
    return rate, (cpu_seconds(server) - before) / max(requests, 1) * 1e6


def paced(server, url, rate, connections, seconds):
    interval = connections * 1000 // rate
    return measured(server, url, connections, seconds, script=os.path.join(HERE, "wrk_paced.lua"),
                    script_args=(str(interval),), threads=1)


def idle_cpu_percent(server, seconds):
    before = cpu_seconds(server)
    time.sleep(seconds)
    return (cpu_seconds(server) - before) / seconds * 100


def head_bytes(port, path):
    with socket.create_connection(("127.0.0.1", port)) as connection:
        connection.sendall(f"GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".encode())
        answer = b""
        while chunk := connection.recv(1 << 20):
            answer += chunk
    head, body = answer.split(b"\r\n\r\n", 1)
    return len(head) + 4, len(body)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("binary")
    parser.add_argument("--seconds", type=int, default=5)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--only", nargs="*", default=None, help="healthz, index, big, actions, rates, idle")
    parser.add_argument("--storehost-flags", default="", help="more flags for storehost, e.g. '--busy-poll 0'")
    args = parser.parse_args()
    bench.wait_for_quiet_machine()
    wanted = set(args.only or ["healthz", "index", "big", "actions", "rates", "idle"])
    public = public_copy()
    storehost = Storehost(args.binary, *bench.UNLIMITED, "--public", public, *args.storehost_flags.split()).start()
    nginx = Nginx(public, security_headers(storehost.port)).start()
    servers = {"nginx": nginx, "storehost": storehost}
    works = {"healthz": "/healthz", "index": "/index.html", "big": "/" + BIG_FILE}
    try:
        for name, path in works.items():
            sizes = {server: head_bytes(servers[server].port, path) for server in servers}
            print(f"{name} {path}: " + ", ".join(f"{server} head {head} + body {body} bytes"
                                                 for server, (head, body) in sizes.items()))
        lines = bench.counter_action_lines(bench.Client(storehost.port))
        actions = os.path.join(HERE, "..", "changes", "wrk_actions.lua")
        for server in servers.values():
            wrk(f"http://127.0.0.1:{server.port}/healthz", 64, 1)
        results = {}

        def record(key, value):
            results.setdefault(key, []).append(value)

        for round in range(1, args.rounds + 1):
            load = os.getloadavg()[0]
            record("load", load)
            line = [f"round {round} (load {load:.1f}):"]
            for name, path in works.items():
                if name not in wanted:
                    continue
                rates = {}
                for server in ("nginx", "storehost") if round % 2 else ("storehost", "nginx"):
                    rates[server] = measured(servers[server], f"http://127.0.0.1:{servers[server].port}{path}", 64,
                                             args.seconds)
                    record((name, server), rates[server])
                line.append(f"{name} {rates['nginx'][0]:,.0f} / {rates['storehost'][0]:,.0f}")
            if "actions" in wanted:
                rate, cpu = measured(storehost, f"http://127.0.0.1:{storehost.port}", 64, args.seconds,
                                     script=actions, script_args=(lines, "unchecked"))
                record(("actions", "storehost"), (rate, cpu))
                line.append(f"actions {rate:,.0f} ({cpu:.0f} µs of server CPU each)")
            if "rates" in wanted:
                for rate, connections in RATES:
                    for server in ("nginx", "storehost") if round % 2 else ("storehost", "nginx"):
                        record((f"paced {rate}", server),
                               paced(servers[server], f"http://127.0.0.1:{servers[server].port}/healthz", rate,
                                     connections, args.seconds))
            if "idle" in wanted:
                for server in servers:
                    record(("idle", server), idle_cpu_percent(servers[server], 5))
            print(" ".join(line), flush=True)

        def median(key, index=0):
            return statistics.median(value[index] if isinstance(value, tuple) else value for value in results[key])

        def spread(key, index=0):
            values = [value[index] for value in results[key]]
            return f"{min(values):,.0f}-{max(values):,.0f}"

        print()
        print(f"Medians of {args.rounds} rounds, {args.seconds} s each; load average "
              f"{min(results['load']):.1f}-{max(results['load']):.1f}.")
        print()
        print("| work | nginx req/s | storehost req/s | ratio | CPU per request nginx / storehost |")
        print("| --- | --- | --- | --- | --- |")
        labels = {"healthz": "15-byte answer from memory", "index": "17 KB file (index.html)", "big": "1 MB file"}
        for name in works:
            if name in wanted:
                n, s = median((name, "nginx")), median((name, "storehost"))
                print(f"| {labels[name]} | {n:,.0f} ({spread((name, 'nginx'))}) | {s:,.0f} ({spread((name, 'storehost'))}) "
                      f"| {s / n:.2f} | {median((name, 'nginx'), 1):.1f} / {median((name, 'storehost'), 1):.1f} µs |")
        if "actions" in wanted and "healthz" in wanted:
            a = median(("actions", "storehost"))
            g = median(("healthz", "storehost"))
            print(f"| Counter actions, 64 sessions (vs storehost's GETs) | | {a:,.0f} ({spread(('actions', 'storehost'))}) "
                  f"| {a / g:.2f} | {median(('actions', 'storehost'), 1):.1f} µs |")
        if "rates" in wanted:
            print()
            print("| fixed rate | nginx req/s | storehost req/s | CPU per request nginx | storehost | ratio |")
            print("| --- | --- | --- | --- | --- | --- |")
            for rate, _ in RATES:
                n_rate, s_rate = median((f"paced {rate}", "nginx")), median((f"paced {rate}", "storehost"))
                n_cpu, s_cpu = median((f"paced {rate}", "nginx"), 1), median((f"paced {rate}", "storehost"), 1)
                print(f"| {rate:,}/s | {n_rate:,.0f} | {s_rate:,.0f} | {n_cpu:.1f} µs | {s_cpu:.1f} µs | {s_cpu / n_cpu:.2f} |")
        if "idle" in wanted:
            print()
            print(f"Idle CPU over 5 s: nginx {median(('idle', 'nginx')):.2f}%, storehost {median(('idle', 'storehost')):.2f}%")
    finally:
        nginx.stop()
        storehost.stop()
        shutil.rmtree(public, ignore_errors=True)
        print(f"load after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
