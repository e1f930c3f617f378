#!/usr/bin/env python3
"""Counts the portable tests of each measured file that passed (measure.sh's logs).

Usage: summarize.py <scratch folder> <target>...
"""

import json
import os
import re
import sys

scratch = sys.argv[1]
targets = sys.argv[2:]
inventory = json.load(open(os.path.join(scratch, "inventory.json")))
total_kept = total_passed = total_removed = compiled = 0
lines = []
for t in targets:
    kept, removed = inventory[t]["kept"], inventory[t]["removed"]
    total_kept += len(kept)
    total_removed += len(removed)
    build_log = os.path.join(scratch, "logs", t + ".build.log")
    test_log = os.path.join(scratch, "logs", t + ".test.log")
    if not os.path.exists(test_log):
        errors = len(re.findall(r"error:", open(build_log).read())) if os.path.exists(build_log) else 0
        lines.append(f"{t}: does not compile ({errors} errors), 0 of {len(kept)}")
        continue
    compiled += 1
    log = open(test_log, errors="replace").read()
    passed = set(re.findall(r"Test Case '[\w.]+\.(\w+)' passed", log))
    passed |= set(re.findall(r"Test (\w+)\(\) passed", log))
    failed = set(re.findall(r"Test Case '[\w.]+\.(\w+)' failed", log))
    failed |= set(re.findall(r"Test (\w+)\(\) failed", log))
    ok = [k for k in kept if k in passed and k not in failed]
    total_passed += len(ok)
    crashed = "" if re.search(r"Executed \d+ tests?\b", log) else " (run did not finish)"
    lines.append(f"{t}: {len(ok)} of {len(kept)} pass{crashed}; failing: {', '.join(sorted(set(kept) - set(ok)))}")

print("\n".join(lines))
print(f"\n{total_passed} of {total_kept} portable tests pass ({total_removed} non-portable removed); "
      f"{compiled} of {len(targets)} files compile")
