#!/usr/bin/env bash
# Sessions at rest (see bench.py). Run from anywhere: Benchmarks/rest/run.sh [bench.py flags]
set -euo pipefail
cd "$(dirname "$0")/../.."
swift build -c release --product storehost 2>&1 | tail -1
source Benchmarks/quiet-machine.sh
quiet_machine_start
python3 Benchmarks/rest/bench.py .build/release/storehost "$@"
