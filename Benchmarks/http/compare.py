#!/usr/bin/env python3
"""storehost beside nginx in one run, with the same wrk settings, alternating.

Tiny GET /healthz on the storehost demo server against a tiny static file on nginx
(Debian's package, 2 workers); the CPU each server used per request (from /proc); the
latency of one connection; and actions per second on the demo (64 sessions on 64
connections, fast and strict durability) against the tiny GETs of the same run.

Usage: compare.py STOREHOST_BINARY [--seconds 5] [--rounds 3]
"""
import argparse
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "changes"))
import bench  # noqa: E402  (the Server and Client helpers)

UNLIMITED = ["--actions-per-second", "1000000", "--action-burst", "1000000"]


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Nginx:
    def __init__(self):
        self.root = tempfile.mkdtemp(prefix="nginx-compare-")
        self.port = free_port()
        # The workers run as an unprivileged user: they must be able to read the file.
        os.chmod(self.root, 0o755)
        with open(os.path.join(self.root, "healthz"), "w") as file:
            file.write('{"status":"ok"}')
        with open(os.path.join(self.root, "nginx.conf"), "w") as conf:
            conf.write(f"""
worker_processes 2;
daemon off;
pid {self.root}/nginx.pid;
error_log {self.root}/error.log;
events {{ worker_connections 4096; }}
http {{
  access_log off;
  keepalive_requests 1000000;
  server {{
    listen 127.0.0.1:{self.port} reuseport;
    root {self.root};
    location / {{ default_type application/json; }}
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

    def cpu_seconds(self):
        """The master and its workers."""
        total = 0.0
        for pid in [self.process.pid] + children(self.process.pid):
            total += process_cpu(pid)
        return total

    def stop(self):
        self.process.send_signal(signal.SIGQUIT)
        self.process.wait(timeout=10)
        shutil.rmtree(self.root, ignore_errors=True)


def children(pid):
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as file:
            return [int(child) for child in file.read().split()]
    except OSError:
        return []


def process_cpu(pid):
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def wrk(url, connections, seconds, script=None, script_args=()):
    command = ["wrk", "-t", str(min(2, connections)), "-c", str(connections), "-d", f"{seconds}s", "--latency"]
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
    p50 = re.search(r"50%\s+([\d.]+)(us|ms|s)", output)
    p50_us = float(p50.group(1)) * {"us": 1, "ms": 1000, "s": 1e6}[p50.group(2)]
    return rate, requests, p50_us


def measured(server_cpu, url, connections, seconds, **wrk_options):
    """wrk's rate and median latency, and the server's CPU per request over the run."""
    cpu = server_cpu()
    rate, requests, p50 = wrk(url, connections, seconds, **wrk_options)
    return rate, (server_cpu() - cpu) / requests * 1e6, p50


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("binary")
    parser.add_argument("--seconds", type=int, default=5)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    nginx = Nginx().start()
    fast = bench.Server(args.binary, *UNLIMITED, "--durability", "fast").start()
    strict = bench.Server(args.binary, *UNLIMITED, "--durability", "strict").start()
    try:
        lines = {}
        for name, server in (("fast", fast), ("strict", strict)):
            client = bench.Client(server.port)
            sessions = [client.create_session() for _ in range(64)]
            path = os.path.join(tempfile.mkdtemp(), "requests.txt")
            with open(path, "w") as file:
                file.writelines(f"{id} {token} {{\"counter\":\"incrementButtonTapped\"}}\n" for id, token in sessions)
            lines[name] = path
        script = os.path.join(HERE, "..", "changes", "wrk_actions.lua")
        wrk(f"http://127.0.0.1:{nginx.port}/healthz", 64, 1)
        wrk(f"http://127.0.0.1:{fast.port}/healthz", 64, 1)
        print("| round | nginx GET req/s | storehost GET req/s | ratio | CPU per GET nginx / storehost | "
              "1-connection p50 nginx / storehost | actions/s fast / strict | CPU per action (fast) | fast / GETs | "
              "strict / fast |")
        print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
        for round in range(1, args.rounds + 1):
            n_rate, n_cpu, _ = measured(nginx.cpu_seconds, f"http://127.0.0.1:{nginx.port}/healthz", 64, args.seconds)
            s_rate, s_cpu, _ = measured(fast.cpu_seconds, f"http://127.0.0.1:{fast.port}/healthz", 64, args.seconds)
            _, _, n_p50 = wrk(f"http://127.0.0.1:{nginx.port}/healthz", 1, args.seconds)
            _, _, s_p50 = wrk(f"http://127.0.0.1:{fast.port}/healthz", 1, args.seconds)
            f_rate, f_cpu, _ = measured(fast.cpu_seconds, f"http://127.0.0.1:{fast.port}", 64, args.seconds,
                                    script=script, script_args=(lines["fast"], "unchecked"))
            t_rate, _, _ = measured(strict.cpu_seconds, f"http://127.0.0.1:{strict.port}", 64, args.seconds,
                                    script=script, script_args=(lines["strict"], "unchecked"))
            print(f"| {round} | {n_rate:,.0f} | {s_rate:,.0f} | {s_rate / n_rate:.2f} | {n_cpu:.1f} / {s_cpu:.1f} µs | "
                  f"{n_p50:.0f} / {s_p50:.0f} µs | {f_rate:,.0f} / {t_rate:,.0f} | {f_cpu:.1f} µs | {f_rate / s_rate:.2f} | "
                  f"{t_rate / f_rate:.2f} |", flush=True)
    finally:
        nginx.stop()
        fast.stop()
        strict.stop()


if __name__ == "__main__":
    main()
