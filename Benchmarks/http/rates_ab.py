#!/usr/bin/env python3
"""Two `storehost` builds' server CPU per tiny GET (`/healthz`) at a fixed rate, side by side:
wrk paced by wrk_paced.lua as in compare.py, the builds alternating round by round, each
server's CPU counted with its process CPU clock.

Usage: rates_ab.py BEFORE_BINARY AFTER_BINARY [--rate 10000] [--connections 100] [--rounds 6] [--seconds 6]
"""
import argparse
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import compare  # noqa: E402

bench = compare.bench


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("before")
    parser.add_argument("after")
    parser.add_argument("--rate", type=int, default=10000)
    parser.add_argument("--connections", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--seconds", type=int, default=6)
    args = parser.parse_args()
    bench.wait_for_quiet_machine()
    servers = {name: compare.Storehost(binary, *bench.UNLIMITED).start()
               for name, binary in (("before", args.before), ("after", args.after))}
    cpu = {name: [] for name in servers}
    try:
        for server in servers.values():
            compare.wrk(f"http://127.0.0.1:{server.port}/healthz", 64, 1)
        for round in range(args.rounds):
            order = ("before", "after") if round % 2 == 0 else ("after", "before")
            for name in order:
                url = f"http://127.0.0.1:{servers[name].port}/healthz"
                cpu[name].append(compare.paced(servers[name], url, args.rate, args.connections, args.seconds)[1])
            print(f"round {round + 1} (load {os.getloadavg()[0]:.2f}): "
                  + ", ".join(f"{name} {cpu[name][-1]:.1f} µs" for name in servers), flush=True)
        for name in servers:
            print(f"{name}: median {statistics.median(cpu[name]):.1f} µs of CPU per request "
                  f"({min(cpu[name]):.1f}-{max(cpu[name]):.1f}) at {args.rate:,} req/s")
    finally:
        for server in servers.values():
            server.stop()
        print(f"load after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
