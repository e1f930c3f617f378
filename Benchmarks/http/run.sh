#!/usr/bin/env bash
# HTTP server benchmarks on loopback (wrk shares the machine's cores with the server).
# Usage: Benchmarks/http/run.sh [seconds-per-run] [idle-sse-connections]
# Needs `wrk` (Debian package) and python3. Prints one line per figure.
set -euo pipefail
cd "$(dirname "$0")/../.."
duration="${1:-10}"
streams="${2:-5000}"
ulimit -n 65536 2>/dev/null || true
command -v wrk > /dev/null || { echo "error: wrk is not installed (apt-get install wrk)" >&2; exit 1; }

swift build -c release --product http-example-server 2>&1 | grep -E "error|warning:" || true
binary="$(swift build -c release --show-bin-path)/http-example-server"
work="$(mktemp -d)"
source Benchmarks/quiet-machine.sh
quiet_machine_start
trap 'kill "$server" 2> /dev/null || true; rm -rf "$work"; echo "load after: $(quiet_machine_load)"' EXIT
mkdir -p "$work/public"
head -c 4096 /dev/urandom | base64 > "$work/public/app.js"

"$binary" --port 0 --public "$work/public" > "$work/server.log" 2>&1 &
server=$!
for _ in $(seq 100); do grep -q listening "$work/server.log" && break; sleep 0.1; done
url="$(sed -n 's/^listening on //p' "$work/server.log")"
echo "server: $url ($(nproc) cores, pid $server)"

rate() { wrk "$@" | awk '/Requests\/sec/ {print $2}'; }
wrk -t2 -c64 -d2s "$url/hello" > /dev/null  # warm-up
echo "GET /hello        64 connections: $(rate -t2 -c64 -d"${duration}s" "$url/hello") req/s"
echo "GET /hello         1 connection:  $(rate -t1 -c1 -d"${duration}s" "$url/hello") req/s"
echo "GET /app.js (5 KB) 64 connections: $(rate -t2 -c64 -d"${duration}s" "$url/app.js") req/s"
echo "GET /app.js (5 KB)  1 connection:  $(rate -t1 -c1 -d"${duration}s" "$url/app.js") req/s"

rss() { awk '/VmRSS/ {print $2}' "/proc/$server/status"; }
before="$(rss)"
python3 Benchmarks/http/sse_clients.py "${url##*:}" "$streams" 3 > "$work/clients.log" &
clients=$!
for _ in $(seq 600); do grep -q "^open" "$work/clients.log" && break; sleep 0.1; done
sleep 1
during="$(rss)"
wait "$clients"
echo "idle SSE streams: $streams open, server RSS ${before} KB -> ${during} KB," \
  "$(( (during - before) * 1024 / streams )) bytes per stream"
