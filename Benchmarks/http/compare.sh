#!/usr/bin/env bash
# storehost beside nginx on equal work, alternating, same wrk settings (see compare.py).
# Usage: Benchmarks/http/compare.sh [--seconds 5] [--rounds 3] [--only healthz index big actions rates idle]
set -euo pipefail
cd "$(dirname "$0")/../.."
command -v wrk > /dev/null || apt-get install -y -qq wrk > /dev/null
command -v nginx > /dev/null || apt-get install -y -qq nginx > /dev/null
ulimit -n "$(ulimit -Hn)"
swift build -c release --product storehost 2>&1 | tail -1
# bench.py / compare.py wait for a quiet machine themselves (bench.wait_for_quiet_machine).
python3 Benchmarks/http/compare.py "$(swift build -c release --show-bin-path)/storehost" "$@"
