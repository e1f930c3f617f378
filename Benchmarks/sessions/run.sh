#!/usr/bin/env bash
# Session benchmarks (see bench.py). Run from anywhere: Benchmarks/sessions/run.sh [bench.py flags]
set -euo pipefail
cd "$(dirname "$0")/../.."
command -v wrk > /dev/null || apt-get install -y -qq wrk > /dev/null
ulimit -n "$(ulimit -Hn)"
swift build -c release --product storehost-counter-server 2>&1 | tail -1
source Benchmarks/quiet-machine.sh
quiet_machine_start
python3 Benchmarks/sessions/bench.py .build/release/storehost-counter-server "$@"
