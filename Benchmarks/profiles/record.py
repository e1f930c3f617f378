#!/usr/bin/env python3
"""Records where the `storehost` demo server spends its CPU, with call graphs (perf record
--call-graph dwarf), for inclusive.py to read.

  record.py BINARY actions --out FILE [--seconds 4] [--storehost-flags '--history 0']
      Counter actions from wrk, 64 keep-alive connections on 64 sessions (as compare.py).
  record.py BINARY healthz --out FILE [--seconds 4]
      Tiny GETs (`/healthz`) from wrk, 64 keep-alive connections (as compare.py).
  record.py BINARY shared --out FILE [--sessions 3000] [--rounds 3]
      A change of the shared counter reaching every session's patch stream (as bench.py
      sessions --patches); prints each round's p50 / p99 and server CPU per session.

Needs `perf` (Debian's linux-perf) and wrk.
"""
import argparse
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "changes"))
import bench  # noqa: E402


def perf_command(pid, out, frequency):
    return ["perf", "record", "-q", "-F", str(frequency), "--call-graph", "dwarf,16384", "-o", out, "-p", str(pid)]


def actions(args):
    server = bench.Server(args.binary, *bench.UNLIMITED, *args.storehost_flags.split()).start()
    try:
        lines = bench.counter_action_lines(bench.Client(server.port))
        url = f"http://127.0.0.1:{server.port}"
        load = subprocess.Popen(["wrk", "-t", "2", "-c", "64", "-d", f"{args.seconds + 2}s", "-s",
                                 os.path.join(HERE, "..", "changes", "wrk_actions.lua"), url, "--", lines, "unchecked"],
                                stdout=subprocess.PIPE, text=True)
        time.sleep(1)
        subprocess.run(perf_command(server.process.pid, args.out, 2000) + ["--", "sleep", str(args.seconds)], check=True)
        print(next(line for line in load.communicate()[0].splitlines() if "Requests/sec" in line).strip())
    finally:
        server.stop()


def healthz(args):
    server = bench.Server(args.binary, *args.storehost_flags.split()).start()
    try:
        load = subprocess.Popen(["wrk", "-t", "2", "-c", "64", "-d", f"{args.seconds + 2}s",
                                 f"http://127.0.0.1:{server.port}/healthz"], stdout=subprocess.PIPE, text=True)
        time.sleep(1)
        subprocess.run(perf_command(server.process.pid, args.out, 2000) + ["--", "sleep", str(args.seconds)], check=True)
        print(next(line for line in load.communicate()[0].splitlines() if "Requests/sec" in line).strip())
    finally:
        server.stop()


def shared(args):
    count = args.sessions
    server = bench.Server(args.binary, "--max-sessions", str(count + 10), "--max-connections", str(count + 100)).start()
    try:
        client = bench.Client(server.port)
        created = [client.create_session() for _ in range(count)]
        streams = [bench.open_stream(server.port, session, True) for session in created]
        client = bench.Client(server.port)
        time.sleep(1)
        perf = subprocess.Popen(perf_command(server.process.pid, args.out, 4000))
        time.sleep(1.5)
        for round in range(args.rounds):
            arrivals, cpu = bench.shared_change_round(server, client, created[0], streams)
            assert len(arrivals) == count, f"only {len(arrivals)} of {count} streams got the change"
            print(f"round {round + 1}: p50 {bench.percentile(arrivals, 0.5) * 1000:.0f} ms, "
                  f"p99 {bench.percentile(arrivals, 0.99) * 1000:.0f} ms, server CPU {cpu / count * 1e6:.1f} µs a session")
        perf.send_signal(2)
        perf.wait()
    finally:
        server.stop()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("binary")
    parser.add_argument("work", choices=["actions", "healthz", "shared"])
    parser.add_argument("--out", required=True)
    parser.add_argument("--seconds", type=int, default=4)
    parser.add_argument("--sessions", type=int, default=3000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--storehost-flags", default="", help="more flags for storehost, e.g. '--history 0'")
    args = parser.parse_args()
    bench.wait_for_quiet_machine()
    {"actions": actions, "healthz": healthz, "shared": shared}[args.work](args)
    print(f"load after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
