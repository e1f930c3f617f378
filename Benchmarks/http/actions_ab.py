#!/usr/bin/env python3
"""Two builds of the demo server on the Counter actions scenario of compare.py, alternating:
wrk with 2 threads and 64 keep-alive connections, one action a request, on 64 sessions.
Each round of each build starts from a quiet machine; prints its actions per second, the
server's CPU per action, and its context switches and page faults per action (perf stat).

  actions_ab.py BEFORE AFTER [--rounds 3] [--seconds 6]

Needs wrk and perf (Debian's linux-perf).
"""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "changes"))
import bench  # noqa: E402


def software_events(path):
    """perf stat's CSV counts, by event name."""
    counts = {}
    with open(path) as file:
        for line in file:
            fields = line.split(",")
            if len(fields) > 3 and fields[0].isdigit():
                counts[fields[2]] = int(fields[0])
    return counts


def round_of(binary, seconds):
    bench.wait_for_quiet_machine()
    server = bench.Server(binary, *bench.UNLIMITED).start()
    try:
        lines = bench.counter_action_lines(bench.Client(server.port))
        time.sleep(0.5)
        events = os.path.join(tempfile.mkdtemp(), "perf-stat.csv")
        stat = subprocess.Popen(["perf", "stat", "-x", ",", "-e", "context-switches,page-faults",
                                 "-p", str(server.process.pid), "-o", events])
        cpu = server.cpu_seconds()
        output = subprocess.run(
            ["wrk", "-t", "2", "-c", "64", "-d", f"{seconds}s", "-s",
             os.path.join(HERE, "..", "changes", "wrk_actions.lua"), f"http://127.0.0.1:{server.port}", "--",
             lines, "unchecked"], capture_output=True, text=True, check=True).stdout
        cpu = server.cpu_seconds() - cpu
        stat.send_signal(2)
        stat.wait()
    finally:
        server.stop()
    rate = float(next(line for line in output.splitlines() if line.startswith("Requests/sec")).split()[1])
    total = int(next(line for line in output.splitlines() if "requests in" in line).split()[0])
    counts = software_events(events)
    return rate, cpu / total * 1e6, counts.get("context-switches", 0) / total, counts.get("page-faults", 0) / total


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("before")
    parser.add_argument("after")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=int, default=6)
    args = parser.parse_args()
    rates = {args.before: [], args.after: []}
    for number in range(1, args.rounds + 1):
        for name, binary in (("before", args.before), ("after", args.after)):
            rate, cpu, switches, faults = round_of(binary, args.seconds)
            rates[binary].append(rate)
            print(f"round {number}, {name}: {rate:,.0f} actions/s, {cpu:.1f} µs of server CPU each, "
                  f"{switches:.2f} context switches and {faults:.3f} page faults per action", flush=True)
    for name, binary in (("before", args.before), ("after", args.after)):
        print(f"{name}: median {statistics.median(rates[binary]):,.0f} actions/s")


if __name__ == "__main__":
    main()
