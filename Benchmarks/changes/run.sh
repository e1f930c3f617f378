#!/usr/bin/env bash
# What one change costs on the storehost demo server (see bench.py).
# Usage: Benchmarks/changes/run.sh [scenario ...] [bench.py flags]
set -euo pipefail
cd "$(dirname "$0")/../.."
command -v wrk > /dev/null || apt-get install -y -qq wrk > /dev/null
ulimit -n "$(ulimit -Hn)"
swift build -c release --product storehost 2>&1 | tail -1
# bench.py / compare.py wait for a quiet machine themselves (bench.wait_for_quiet_machine).
python3 Benchmarks/changes/bench.py "$(swift build -c release --show-bin-path)/storehost" "$@"
