#!/usr/bin/env python3
"""Where the `storehost` demo server spends its CPU on Counter actions: 64 sessions on 64
keep-alive connections (wrk), recorded with `perf record -g` on the server for the run,
then `perf report`'s top symbols (self time) printed.

Usage: profile_actions.py STOREHOST_BINARY [--seconds 8] [--top 40] [--path /healthz]
(needs `perf`, Debian's linux-perf; --path profiles a GET instead of actions).
"""
import argparse
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "changes"))
import bench  # noqa: E402


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("binary")
    parser.add_argument("--seconds", type=int, default=8)
    parser.add_argument("--top", type=int, default=40)
    parser.add_argument("--path", default=None)
    args = parser.parse_args()
    bench.wait_for_quiet_machine()
    server = bench.Server(args.binary, *bench.UNLIMITED).start()
    work = tempfile.mkdtemp(prefix="profile-actions-")
    try:
        lines = bench.counter_action_lines(bench.Client(server.port))
        url = f"http://127.0.0.1:{server.port}"
        wrk = ["wrk", "-t", "2", "-c", "64", "-d", f"{args.seconds + 2}s"]
        if args.path:
            wrk.append(url + args.path)
        else:
            wrk += ["-s", os.path.join(HERE, "..", "changes", "wrk_actions.lua"), url, "--", lines, "unchecked"]
        load = subprocess.Popen(wrk, stdout=subprocess.PIPE, text=True)
        time.sleep(1)
        data = os.path.join(work, "perf.data")
        subprocess.run(["perf", "record", "-q", "-g", "-o", data, "-p", str(server.process.pid), "--",
                        "sleep", str(args.seconds)], check=True)
        output = load.communicate()[0]
        print(next(line for line in output.splitlines() if "Requests/sec" in line))
        report = subprocess.run(["perf", "report", "-i", data, "--no-children", "--percent-limit", "0.4",
                                 "--stdio", "-g", "none", "--sort", "dso,symbol"],
                                capture_output=True, text=True).stdout
        rows = [line for line in report.splitlines() if line.strip() and not line.startswith("#")]
        for line in rows[:args.top]:
            print(line[:160])
    finally:
        server.stop()


if __name__ == "__main__":
    main()
