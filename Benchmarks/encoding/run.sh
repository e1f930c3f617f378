#!/usr/bin/env bash
# State encoding and diffing benchmarks on the demo's state (see Benchmark/main.swift).
set -euo pipefail
cd "$(dirname "$0")/../.."
swift build -c release --product StoreHostEncodingBenchmarks 2>&1 | tail -1
source Benchmarks/quiet-machine.sh
quiet_machine_start
"$(swift build -c release --show-bin-path)/StoreHostEncodingBenchmarks"
