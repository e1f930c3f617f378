#!/usr/bin/env bash
# What a browser's tabs cost the server (see bench.py). Run from anywhere:
#   Benchmarks/tabs/run.sh [--tabs 2400] [--per-browser 12] [--actions 3]
set -euo pipefail
cd "$(dirname "$0")/../.."
ulimit -n "$(ulimit -Hn)"
swift build -c release --product storehost-counter-server 2>&1 | tail -1
source Benchmarks/quiet-machine.sh
quiet_machine_start
python3 Benchmarks/tabs/bench.py .build/release/storehost-counter-server "$@"
