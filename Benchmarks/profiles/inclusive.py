#!/usr/bin/env python3
"""Inclusive shares of a perf recording (record.py): for each function, the part of the
samples with it anywhere on the stack, demangled (swift demangle --simplified).

  inclusive.py PERF_DATA [--match REGEX] [--top 40]
"""
import argparse
import collections
import re
import subprocess


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("data")
    parser.add_argument("--match", default=None, help="only functions whose demangled name matches")
    parser.add_argument("--top", type=int, default=40)
    args = parser.parse_args()
    script = subprocess.run(["perf", "script", "-i", args.data, "-F", "comm,tid,ip,sym,dso"],
                            capture_output=True, text=True).stdout
    counts, total, frames = collections.Counter(), 0, set()
    for line in script.splitlines() + [""]:
        if line.startswith("\t"):
            found = re.match(r"\s*\S+ (.*) \((.*)\)$", line)
            if found:
                frames.add(found.group(1))
        elif not line.strip():
            if frames:
                total += 1
                counts.update(frames)
            frames = set()
    names = list(counts)
    demangled = subprocess.run(["swift", "demangle", "--simplified"], input="\n".join(names),
                               capture_output=True, text=True).stdout.splitlines()
    shares = collections.Counter()
    for name, readable in zip(names, demangled):
        shares[readable] = max(shares[readable], counts[name])
    print(f"{total} samples")
    shown = 0
    for name, count in shares.most_common():
        if args.match and not re.search(args.match, name):
            continue
        print(f"{100 * count / total:5.1f}%  {name[:150]}")
        shown += 1
        if shown == args.top:
            break


if __name__ == "__main__":
    main()
