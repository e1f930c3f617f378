#!/usr/bin/env bash
# Examples/Poll, as its README runs it: builds the package, runs its TestStore tests, then
# starts its server and checks with curl and an SSE client that two browsers' sessions
# edit one board, that its pages and StoreHost's own browser client are served, and that a
# bad action gets the error JSON.
set -euo pipefail
cd "$(dirname "$0")/../../Examples/Poll"
data=$(mktemp -d)
server=""
trap '[ -n "$server" ] && kill "$server" 2>/dev/null; rm -rf "$data"' EXIT

swift build --build-tests > "$data/build.log" 2>&1 || { tail -40 "$data/build.log"; exit 1; }
if grep -E "^/.*Examples/Poll/.*: warning:" "$data/build.log"; then
  echo "FAIL: the example has compiler warnings" >&2
  exit 1
fi
swift test --skip-build 2>&1 | grep -E "Test run with .* passed" || { echo "FAIL: the example's tests" >&2; exit 1; }
echo "ok: Examples/Poll builds without warnings and its TestStore tests pass"

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
PORT=$port DATA_DIR="$data/poll" "$(swift build --show-bin-path)/poll-server" > "$data/server.log" 2>&1 &
server=$!
for _ in $(seq 100); do curl -sf "localhost:$port/healthz" > /dev/null && break; sleep 0.1; done
for page in / /poll.css /poll.js /storehost/v1/storehost.js /storehost/v1/json-patch.js /storehost/v1/stream-hub.js \
  /storehost/v1/stream-worker.js /storehost/v1/storehost.d.ts; do
  [ "$(curl -s -o /dev/null -w '%{http_code}' "localhost:$port$page")" = 200 ] || { echo "FAIL: $page" >&2; exit 1; }
done
curl -s "localhost:$port/storehost/v1/storehost.js" | cmp - ../../Sources/StoreHost/BrowserClient/storehost.js \
  || { echo "FAIL: the served storehost.js is not the library's" >&2; exit 1; }
echo "ok: the page, its script and StoreHost's browser client (from the library, at /storehost/v1/) are served"

python3 - "http://127.0.0.1:$port" <<'PY'
import json, sys, threading
import httpx
from httpx_sse import connect_sse

url = sys.argv[1]
with httpx.Client(timeout=10) as client:
    alice, bob = (client.post(url + "/api/sessions").json() for _ in range(2))
    def act(session, action):
        return client.post(f"{url}/api/sessions/{session['id']}/actions", json=action,
                           headers={"Authorization": "Bearer " + session["token"]})
    states = []
    opened = threading.Event()
    def watch():
        with httpx.Client(timeout=10) as watcher:
            with connect_sse(watcher, "GET", f"{url}/api/sessions/{bob['id']}/events",
                             headers={"Authorization": "Bearer " + bob["token"]}) as source:
                for event in source.iter_sse():
                    if event.event == "state":
                        states.append(json.loads(event.data)["state"])
                        opened.set()
                        if states[-1]["board"]["choices"]:
                            return
    reader = threading.Thread(target=watch, daemon=True)
    reader.start()
    assert opened.wait(10), "Bob's stream sent no state"
    assert act(alice, {"addChoice": {"title": "Park"}}).status_code == 202
    reader.join(10)
    assert states[-1]["board"]["choices"][0]["title"] == "Park", states
    print("ok: Alice's new choice reaches Bob's open stream")
    choice = states[-1]["board"]["choices"][0]["id"]
    assert act(bob, {"vote": {"id": choice}}).status_code == 202
    seen = client.get(f"{url}/api/sessions/{alice['id']}",
                      headers={"Authorization": "Bearer " + alice["token"]}).json()["state"]
    assert seen["board"]["choices"][0]["votes"] == 1 and "myVote" not in seen, seen
    print("ok: Bob's vote counts on Alice's board, and stays Bob's own")
    bad = act(alice, {"vote": {"id": 5}})
    assert bad.status_code == 400 and bad.json()["error"]["code"] == "invalid_action", bad.text
    print("ok: a malformed vote answers 400 invalid_action")
PY
