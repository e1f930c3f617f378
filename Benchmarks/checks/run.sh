#!/usr/bin/env bash
# The checks a deploy runs, over many saved sessions (see bench.py). Run from anywhere:
#   Benchmarks/checks/run.sh [bench.py flags]
set -euo pipefail
cd "$(dirname "$0")/../.."
swift build -c release --product storehost 2>&1 | tail -1
source Benchmarks/quiet-machine.sh
quiet_machine_start
python3 Benchmarks/checks/bench.py .build/release/storehost "$@"
