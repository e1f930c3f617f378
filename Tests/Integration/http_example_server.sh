#!/usr/bin/env bash
# End-to-end check of the HTTP module through `http-example-server`: routes, JSON errors,
# static files with 304, HTTPS, and a SIGTERM drain that returns promptly.
set -euo pipefail
cd "$(dirname "$0")/../.."
swift build --product http-example-server > /dev/null
binary="$(swift build --show-bin-path)/http-example-server"
work="$(mktemp -d)"
trap 'kill "$server" 2> /dev/null || true; rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

start() {
  "$binary" --port 0 "$@" > "$work/server.log" 2>&1 &
  server=$!
  for _ in $(seq 100); do grep -q listening "$work/server.log" && break; sleep 0.1; done
  url="$(sed -n 's/^listening on //p' "$work/server.log")"
  [ -n "$url" ] || fail "server did not start: $(cat "$work/server.log")"
}

mkdir -p "$work/public"
echo '<h1>ok</h1>' > "$work/public/index.html"
echo 'top secret' > "$work/secret.txt"
start --public "$work/public"

[ "$(curl -s "$url/hello")" = "Hello, world!" ] || fail "GET /hello"
[ "$(curl -s "$url/healthz")" = "ok" ] || fail "GET /healthz"
echo_body="$(curl -s -H 'Content-Type: application/json' -d '{"message":"hi"}' "$url/echo")"
[ "$echo_body" = '{"message":"hi"}' ] || fail "POST /echo: $echo_body"
bad="$(curl -s -w ' %{http_code}' -H 'Content-Type: application/json' -d '{"nope":1}' "$url/echo")"
case "$bad" in *'"code":"invalid_json"'*' 400') ;; *) fail "bad JSON: $bad" ;; esac
type="$(curl -s -o /dev/null -w '%{http_code} %{content_type}' -d 'x' "$url/echo")"
[ "$type" = "415 application/json; charset=utf-8" ] || fail "wrong content type: $type"
etag="$(curl -sI "$url/" | tr -d '\r' | sed -n 's/^ETag: //p')"
[ "$(curl -s -o /dev/null -w '%{http_code}' -H "If-None-Match: $etag" "$url/")" = 304 ] || fail "304"
# secret.txt is beside the served directory: a path that climbs out of it would reach it.
for path in /../secret.txt /%2e%2e/secret.txt /..%2Fsecret.txt /%2e%2e%2fsecret.txt; do
  answer="$(curl -s --path-as-is -w ' %{http_code}' "$url$path")"
  case "$answer" in *'top secret'*) fail "traversal $path reached the file: $answer" ;; esac
  case "$answer" in *' 404' | *' 400') ;; *) fail "traversal $path: $answer" ;; esac
done

# SIGTERM while an event stream is open: the stream ends and the process exits quickly.
curl -sN "$url/events" > "$work/events.txt" &
stream=$!
sleep 0.5
started=$(date +%s)
kill -TERM "$server"
wait "$server" || fail "server exited with an error after SIGTERM"
wait "$stream" || true
(( $(date +%s) - started <= 5 )) || fail "drain took too long"
grep -q "event: hello" "$work/events.txt" || fail "the stream had no hello event"
grep -q "^stopped" "$work/server.log" || fail "run() did not return"

# HTTPS with a throw-away certificate.
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 1 -subj /CN=localhost \
  -keyout "$work/key.pem" -out "$work/cert.pem" 2> /dev/null
start --tls-cert "$work/cert.pem" --tls-key "$work/key.pem"
[ "$(curl -sk "$url/hello")" = "Hello, world!" ] || fail "HTTPS GET /hello"
kill -TERM "$server"
wait "$server" || fail "HTTPS server exited with an error"
# The access log: one JSON line per response on stderr, only when asked for.
start --access-log
curl -s "$url/hello?x=1" > /dev/null
kill -TERM "$server"
wait "$server" || fail "server with access log exited with an error"
grep '^{' "$work/server.log" | python3 -c '
import json, sys
entry = json.loads(sys.stdin.readline())
assert entry["method"] == "GET" and entry["path"] == "/hello" and entry["status"] == 200, entry
assert entry["bytes"] == 14 and entry["duration_ms"] >= 0, entry
' || fail "access log line"
echo "http_example_server: ok"
