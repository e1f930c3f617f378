#!/usr/bin/env bash
# Scale-out benchmark: actions per second and POST-to-SSE latency with 1, 2 and 3 storehost
# processes on one PostgreSQL (all on this machine), beside the embedded SQLite default.
# Usage: Benchmarks/cluster/run.sh [seconds-per-run] [sessions] [connections-per-process]
# Needs wrk, python3 with httpx/httpx-sse, and Debian's postgresql (a throwaway server is
# started on loopback). Each setup runs with --durability fast (the default) and strict;
# actions go to every process at once (one wrk per process, each spreading over all
# sessions), so about (n-1)/n of them are forwarded to their session's owner.
set -euo pipefail
cd "$(dirname "$0")/../.."
duration="${1:-5}"
sessions="${2:-64}"
connections="${3:-16}"
command -v wrk > /dev/null || { echo "error: wrk is not installed (apt-get install wrk)" >&2; exit 1; }
source Benchmarks/cluster/setup.sh

# Starts one storehost with the given extra flags; appends its URL to $urls.
start() {
  local log="$work/server-${#pids[@]}.log"
  "$binary" --port 0 --durability "$durability" --secret benchmark-secret-0123456789abcdef0123 \
    --actions-per-second 1000000 --action-burst 1000000 --max-effects-per-session 1000000 --log-level error "$@" > "$log" 2>&1 &
  pids+=($!)
  for _ in $(seq 100); do grep -q "serving" "$log" && break; sleep 0.1; done
  urls+=("$(sed -n 's/^StoreHost serving \([^ ]*\).*/\1/p' "$log")")
}

# Creates the sessions on the processes in turn, then runs one wrk per process at once.
# Prints "actions/s median_ms p99_ms".
measure() {
  : > "$work/sessions"
  for i in $(seq "$sessions"); do
    curl -s -X POST -d '' "${urls[$(( i % ${#urls[@]} ))]}/api/sessions" \
      | python3 -c 'import json, sys; d = json.load(sys.stdin); print(d["id"], d["token"])' >> "$work/sessions"
  done
  local wrks=()
  for url in "${urls[@]}"; do
    SESSIONS_FILE="$work/sessions" wrk -t1 -c"$connections" -d"${duration}s" \
      -s Benchmarks/cluster/post_actions.lua "$url" > "$work/wrk-${#wrks[@]}.log" 2>&1 &
    wrks+=($!)
  done
  for pid in "${wrks[@]}"; do wait "$pid"; done
  local rate
  rate=$(awk '/Requests\/sec/ {sum += $2} END {printf "%.0f", sum}' "$work"/wrk-*.log)
  if grep -q "non-2xx [1-9]" "$work"/wrk-*.log; then
    echo "warning: some actions failed: $(grep -h non-2xx "$work"/wrk-*.log | tr '\n' ' ')" >&2
  fi
  rm -f "$work"/wrk-*.log
  local stream_url="${urls[$(( ${#urls[@]} - 1 ))]}"
  echo "$rate $(python3 Benchmarks/cluster/latency.py "${urls[0]}" "$stream_url" 300)"
}

printf "%-30s %-10s %10s %14s %11s\n" "setup" "durability" "actions/s" "POST->SSE p50" "p99"
row() { printf "%-30s %-10s %10s %11s ms %8s ms\n" "$1" "$durability" "$2" "$3" "$4"; }

for durability in fast strict; do
  urls=()
  start --data "$work/embedded-$durability"
  row "embedded SQLite, 1 process" $(measure)
  stop_servers
  for count in 1 2 3; do
    urls=()
    for _ in $(seq "$count"); do start --database "$PG_URL"; done
    row "PostgreSQL, $count process(es)" $(measure)
    stop_servers
  done
done
echo "($(nproc) cores; $sessions sessions; $connections connections per process for ${duration}s;" \
  "latency: sequential POSTs to the first process, stream on the last)"
