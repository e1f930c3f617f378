#!/usr/bin/env bash
# Routing by session and process count on one PostgreSQL, in one run:
#   1. three processes, wrk on each spreading over every session (most actions forwarded),
#      against the same three behind nginx hashing sessions (scripts/nginx/storehost-cluster.conf);
#   2. one process pinned to one core (taskset) against two pinned to a core each.
# Prints actions/s and the fraction of actions forwarded (from /metrics).
# Usage: Benchmarks/cluster/routing.sh [seconds-per-run] [sessions]
# Needs wrk, nginx and Debian's postgresql (a throwaway server is started on loopback).
set -euo pipefail
cd "$(dirname "$0")/../.."
duration="${1:-5}"
sessions="${2:-64}"
for tool in wrk nginx; do
  command -v "$tool" > /dev/null || { echo "error: $tool is not installed (apt-get install $tool)" >&2; exit 1; }
done
source Benchmarks/cluster/setup.sh

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

# start PORT [CPU]: one storehost on PORT (pinned to CPU when given); appends its URL to $urls.
start() {
  local port=$1 cpu=${2:-} log="$work/server-${#pids[@]}.log"
  ${cpu:+taskset -c "$cpu"} "$binary" --port "$port" --database "$PG_URL" \
    --secret benchmark-secret-0123456789abcdef0123 --actions-per-second 1000000 --action-burst 1000000 \
    --log-level error > "$log" 2>&1 &
  pids+=($!)
  for _ in $(seq 100); do grep -q "serving" "$log" && break; sleep 0.1; done
  urls+=("http://127.0.0.1:$port")
}

# Creates $sessions sessions through the given URLs in turn into $work/sessions.
create_sessions() {
  : > "$work/sessions"
  local targets=("$@")
  for i in $(seq "$sessions"); do
    curl -s -X POST -d '' "${targets[$(( i % ${#targets[@]} ))]}/api/sessions" \
      | python3 -c 'import json, sys; d = json.load(sys.stdin); print(d["id"], d["token"])' >> "$work/sessions"
  done
}

forwarded() {
  local total=0
  for url in "${urls[@]}"; do
    total=$(( total + $(curl -s "$url/metrics" | awk '/^storehost_requests_forwarded_total / {print $2}') ))
  done
  echo "$total"
}

# load CONNECTIONS URL...: one wrk per URL for $duration s; prints total actions/s and requests.
load() {
  local connections=$1
  shift
  local wrks=()
  for url in "$@"; do
    SESSIONS_FILE="$work/sessions" wrk -t1 -c"$connections" -d"${duration}s" \
      -s Benchmarks/cluster/post_actions.lua "$url" > "$work/wrk-${#wrks[@]}.log" 2>&1 &
    wrks+=($!)
  done
  for pid in "${wrks[@]}"; do wait "$pid"; done
  awk '/Requests\/sec/ {rate += $2} /requests in/ {count += $1} END {printf "%.0f %d\n", rate, count}' "$work"/wrk-*.log
  rm -f "$work"/wrk-*.log
}

# behind_nginx PORT...: nginx (scripts/nginx/storehost-cluster.conf) in front of the
# processes on PORTs; moves each session to its process with three actions through it, then
# sets $rate and $share (forwarded) for a 48-connection wrk through nginx.
behind_nginx() {
  local front upstream before count
  front=$(free_port)
  rm -rf "$work/nginx"
  mkdir -p "$work/nginx"
  upstream=$(for port in "$@"; do printf '  server 127.0.0.1:%s;\\n' "$port"; done)
  sed -e "/^  server 127.0.0.1:808[0-9];$/d" -e "s|^  hash \$storehost_session consistent;|&\\n$upstream|" \
    -e "s|listen 8080;|listen 127.0.0.1:$front;|" scripts/nginx/storehost-cluster.conf > "$work/nginx/site.conf"
  printf 'daemon off;\nworker_processes 2;\npid %s/nginx.pid;\nerror_log %s/error.log;\nevents { worker_connections 4096; }\nhttp {\n  access_log off;\n  include %s/site.conf;\n}\n' \
    "$work/nginx" "$work/nginx" "$work/nginx" > "$work/nginx/nginx.conf"
  nginx -c "$work/nginx/nginx.conf" -p "$work/nginx" &
  pids+=($!)
  sleep 0.5
  for _ in 1 2 3; do
    while read -r id token; do
      curl -s -o /dev/null -X POST -H "Authorization: Bearer $token" -H 'Content-Type: application/json' \
        -d '{"counter":"incrementButtonTapped"}' "http://127.0.0.1:$front/api/sessions/$id/actions"
    done < "$work/sessions"
  done
  sleep 0.5
  before=$(forwarded)
  read -r rate count < <(load 48 "http://127.0.0.1:$front")
  share="$(( ($(forwarded) - before) * 100 / count ))%"
}

row() { printf "%-52s %10s %12s\n" "$1" "$2" "$3"; }
printf "%-52s %10s %12s\n" "setup (fast durability)" "actions/s" "forwarded"

# 1. Three processes: straight to all of them, then behind nginx.
urls=()
ports=()
for _ in 1 2 3; do ports+=("$(free_port)"); start "${ports[-1]}"; done
create_sessions "${urls[@]}"
before=$(forwarded)
read -r rate count < <(load 16 "${urls[@]}")
row "3 processes, wrk on each, spreading over sessions" "$rate" "$(( ($(forwarded) - before) * 100 / count ))%"

behind_nginx "${ports[@]}"
row "3 processes behind nginx's session hash" "$rate" "$share"
stop_servers

# 2. Processes pinned to cores (wrk and PostgreSQL are not pinned).
urls=()
start "$(free_port)" 0
create_sessions "${urls[@]}"
read -r rate count < <(load 16 "${urls[@]}")
row "1 process pinned to core 0" "$rate" "0%"
stop_servers
urls=()
ports=("$(free_port)" "$(free_port)")
start "${ports[0]}" 0
start "${ports[1]}" 1
create_sessions "${urls[@]}"
before=$(forwarded)
read -r rate count < <(load 16 "${urls[@]}")
row "2 processes pinned to cores 0 and 1, wrk on each" "$rate" "$(( ($(forwarded) - before) * 100 / count ))%"
behind_nginx "${ports[@]}"
row "2 processes pinned to cores 0 and 1, behind nginx" "$rate" "$share"
echo "($(nproc) cores; $sessions sessions; ${duration}s per run; PostgreSQL, wrk and nginx share the cores)"
