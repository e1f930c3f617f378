#!/usr/bin/env bash
# Fuzzes the HTTP request parser with libFuzzer for a bounded time (default 60 s).
# Usage: Fuzz/run.sh [seconds]
# Builds Fuzz/RequestParserFuzzer.swift together with the parser's own sources (they use
# only the standard library), then runs from the seed corpus in Fuzz/corpus. New inputs go
# to a scratch corpus under .build so the checked-in seeds stay small. Exits non-zero if
# the parser crashed, hung, or broke a property the target checks.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-60}"
out=.build/fuzz
mkdir -p "$out/corpus"
cp Fuzz/corpus/* "$out/corpus/"
swiftc -O -sanitize=fuzzer,address -parse-as-library -module-name HTTPParserFuzz \
  Sources/HTTP/Parser/*.swift Fuzz/RequestParserFuzzer.swift -o "$out/request-parser-fuzzer" \
  2> "$out/build.log" || { cat "$out/build.log" >&2; exit 1; }
"$out/request-parser-fuzzer" -max_total_time="$seconds" -timeout=5 -max_len=4096 \
  -artifact_prefix="$out/" "$out/corpus" 2>&1 | tee "$out/last-run.log" | grep -E "^#|Done|ERROR|crash|SUMMARY" | tail -n 5
echo "fuzzing finished without a crash after ${seconds}s"
