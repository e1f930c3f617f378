#!/usr/bin/env python3
"""The CPU two `storehost` builds use while idle, side by side: each started on an empty data
directory and left alone, its CPU counted with its process CPU clock (every thread, those
that ended included) over the same seconds, the builds one after the other in each round.

Usage: idle_ab.py BEFORE_BINARY AFTER_BINARY [--seconds 30] [--rounds 2]
"""
import argparse
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "changes"))
import bench  # noqa: E402


def idle_milliseconds_per_second(binary, seconds):
    server = bench.Server(binary).start()
    try:
        time.sleep(3)  # past start-up
        before, started = server.cpu_seconds(), time.monotonic()
        time.sleep(seconds)
        return (server.cpu_seconds() - before) / (time.monotonic() - started) * 1000
    finally:
        server.stop()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("before")
    parser.add_argument("after")
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    bench.wait_for_quiet_machine()
    for round in range(1, args.rounds + 1):
        figures = {name: idle_milliseconds_per_second(binary, args.seconds)
                   for name, binary in (("before", args.before), ("after", args.after))}
        print(f"round {round}: idle CPU before {figures['before']:.3f} ms/s, after {figures['after']:.3f} ms/s",
              flush=True)
    print(f"load after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
