#!/usr/bin/env bash
# The storehost command's operations side, against the real binary: JSON log lines on
# stderr filtered by --log-level, the `healthcheck` subcommand's exit statuses, and
# exit 0 after SIGTERM; and, built without the `URLSession` trait, no libcurl linked.
set -euo pipefail
cd "$(dirname "$0")/../.."
swift build --product storehost > /dev/null
binary="$(swift build --show-bin-path)/storehost"
scratch=$(mktemp -d)
server=""
cleanup() {
  if [ -n "$server" ]; then kill "$server" 2> /dev/null || true; fi
  rm -rf "$scratch"
}
trap cleanup EXIT
failures=0
check() {  # check NAME COMMAND...: runs COMMAND, counts a failure if it fails
  local name=$1
  shift
  if "$@"; then echo "ok: $name"; else echo "FAILED: $name" >&2; failures=$((failures + 1)); fi
}

status_of() { "$@" > /dev/null 2>&1 && echo 0 || echo $?; }

# FoundationNetworking (and with it libcurl) comes only with the package's URLSession trait.
check "the default build links no FoundationNetworking" \
  bash -c "! ldd '$binary' | grep -q -e FoundationNetworking -e libcurl"

# Bad values stop the command with status 2 and name the flag.
check "a bad --log-level exits 2" test "$(status_of "$binary" --log-level loud)" = 2
check "a bad STOREHOST_LOG_LEVEL exits 2" test "$(STOREHOST_LOG_LEVEL=loud status_of "$binary")" = 2
check "--help lists STOREHOST_LOG_LEVEL" grep -q STOREHOST_LOG_LEVEL <("$binary" --help)

# A server on a free port, with debug logs.
"$binary" --port 0 --data "$scratch/data" --public "$scratch" --log-level debug \
  > "$scratch/stdout" 2> "$scratch/stderr" &
server=$!
for _ in $(seq 1 100); do
  grep -q "StoreHost serving" "$scratch/stdout" 2> /dev/null && break
  sleep 0.1
done
port=$(sed -n 's|^StoreHost serving http://127.0.0.1:\([0-9]*\) .*|\1|p' "$scratch/stdout")
check "the start line names the port" test -n "$port"

check "healthcheck exits 0 on a serving server" "$binary" healthcheck --port "$port"
check "healthcheck reads STOREHOST_PORT" env STOREHOST_PORT="$port" "$binary" healthcheck
check "healthcheck checks 0.0.0.0 on loopback" "$binary" healthcheck --host 0.0.0.0 --port "$port"
check "healthcheck refuses port 0" test "$(status_of "$binary" healthcheck --port 0)" = 1

kill -TERM "$server"
server_status=0
wait "$server" || server_status=$?
server=""
check "SIGTERM exits 0" test "$server_status" = 0
check "healthcheck exits 1 once the server is gone" test "$(status_of "$binary" healthcheck --port "$port")" = 1

check "every stderr line is a JSON log object" python3 - "$scratch/stderr" << 'PYTHON'
import json, sys
messages = []
for line in open(sys.argv[1]):
    entry = json.loads(line)
    assert list(entry)[:3] == ["time", "level", "message"], line
    assert entry["level"] in ("debug", "info", "warning", "error"), line
    messages.append(entry["message"])
expected = ["starting", "limits", "sessions at rest", "serving", "connections drained, saving sessions", "stopped"]
assert messages == expected, messages
PYTHON

# At the default level the debug line is gone; at error, nothing is written on a clean run.
for level in info error; do
  "$binary" --port 0 --data "$scratch/data" --log-level "$level" > "$scratch/stdout" 2> "$scratch/stderr-$level" &
  server=$!
  for _ in $(seq 1 100); do grep -q "StoreHost serving" "$scratch/stdout" 2> /dev/null && break; sleep 0.1; done
  kill -TERM "$server"
  wait "$server" || true
  server=""
done
check "info leaves out debug lines" test "$(grep -c '"level":"debug"' "$scratch/stderr-info" || true)" = 0
check "info keeps the start line" grep -q '"message":"starting"' "$scratch/stderr-info"
check "error writes nothing on a clean run" test ! -s "$scratch/stderr-error"

# A port already taken is a logged error and exit status 1.
python3 -c 'import socket, time; s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen(); print(s.getsockname()[1], flush=True); time.sleep(30)' \
  > "$scratch/taken" &
holder=$!
for _ in $(seq 1 50); do [ -s "$scratch/taken" ] && break; sleep 0.1; done
taken_status=$(status_of "$binary" --port "$(cat "$scratch/taken")" --data "$scratch/data")
"$binary" --port "$(cat "$scratch/taken")" --data "$scratch/data" 2> "$scratch/stderr-taken" > /dev/null || true
kill "$holder"
check "a taken port exits 1" test "$taken_status" = 1
check "a taken port logs an error line" grep -q '"level":"error","message":"stopped on an error"' "$scratch/stderr-taken"

if [ "$failures" -gt 0 ]; then
  echo "storehost_ops: $failures check(s) failed" >&2
  exit 1
fi
echo "storehost_ops: all checks passed"
