#!/usr/bin/env bash
# A package of its own that requires StoreHost by version (`from: "0.1.0"`) with the
# macros, on a machine that cannot fetch swift-syntax: Tests/Integration/consumer is built
# against a tagged clone of this working tree with the stand-in of scripts/swift-syntax,
# its TestStore tests run (one sets `@Dependency(\.urlSession)`, which the `URLSession`
# trait it requires StoreHost with declares), and its server answers curl and serves the
# browser client. It
# uses StoreHost without the cluster, so it builds without libpq-dev: as root, the build
# runs in a mount namespace of its own where libpq's headers, pkg-config file and library
# are hidden, and the server it makes must not link libpq.
set -euo pipefail
cd "$(dirname "$0")/../.."
work=$(mktemp -d)
server=""
trap '[ -n "$server" ] && kill "$server" 2>/dev/null; rm -rf "$work"' EXIT

# A clone of what is here now (committed or not), tagged 0.1.0.
clone="$work/StoreHost"
mkdir -p "$clone"
git ls-files -co --exclude-standard -z | tar --null -T - -cf - | tar -xf - -C "$clone"
git -C "$clone" init -q
git -C "$clone" add -A
git -C "$clone" -c user.name=test -c user.email=test@localhost commit -qm "StoreHost under test"
git -C "$clone" tag 0.1.0

app="$work/tally"
cp -R Tests/Integration/consumer "$app"
sed -e "s|@STOREHOST_URL@|file://$clone|" -e "s|@STOREHOST_CLONE@|$clone|" \
  "$app/Package.swift.in" > "$app/Package.swift"
rm "$app/Package.swift.in"
flags=$("$clone/scripts/swift-syntax/flags")

# Runs its arguments where libpq-dev's files cannot be seen (as root; as is otherwise).
without_libpq() {
  if [ "$(id -u)" != 0 ] || ! unshare -m true 2> /dev/null; then
    echo "note: not root, so libpq-dev stays visible to the build"
    "$@"
    return
  fi
  # shellcheck disable=SC2016  # expanded by the inner shell
  unshare -m bash -c '
    set -e
    hidden=0
    if [ -d /usr/include/postgresql ]; then mount --bind "$(mktemp -d)" /usr/include/postgresql; hidden=1; fi
    for file in "$(pkg-config --variable=pcfiledir libpq 2> /dev/null)/libpq.pc" \
      "$(pkg-config --variable=libdir libpq 2> /dev/null)/libpq.so"; do
      [ -e "$file" ] && mount --bind /dev/null "$(readlink -f "$file")" && hidden=1
    done
    ! pkg-config --exists libpq 2> /dev/null || { echo "FAIL: libpq is still visible" >&2; exit 1; }
    [ ! -e /usr/include/postgresql/libpq-fe.h ] || { echo "FAIL: libpq-fe.h is still visible" >&2; exit 1; }
    [ "$hidden" = 1 ] && echo "note: libpq-dev hidden from the build"
    exec "$@"' bash "$@"
}

cd "$app"
# shellcheck disable=SC2086  # the flags are words
without_libpq swift build $flags --build-tests > "$work/build.log" 2>&1 || { tail -40 "$work/build.log"; exit 1; }
grep "^note:" "$work/build.log" || true
grep -q '"version" : "0.1.0"' Package.resolved || { echo "FAIL: StoreHost not resolved by version" >&2; exit 1; }
# shellcheck disable=SC2086
if ldd "$(swift build $flags --show-bin-path)/tally-server" | grep -q libpq; then
  echo "FAIL: a server on StoreHost without the cluster links libpq" >&2
  exit 1
fi
echo "ok: a package requiring StoreHost from 0.1.0 builds with the macros, offline, without libpq-dev"
# shellcheck disable=SC2086
swift test $flags --skip-build 2>&1 | grep -E "Test run with .* passed" || { echo "FAIL: its TestStore tests" >&2; exit 1; }
echo "ok: its TestStore tests pass, \\.urlSession's among them"

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
PORT=$port "$(swift build $flags --show-bin-path)/tally-server" > "$work/server.log" 2>&1 &
server=$!
for _ in $(seq 100); do curl -sf "localhost:$port/healthz" > /dev/null && break; sleep 0.1; done
session=$(curl -sf -d '' "localhost:$port/api/sessions")
id=$(python3 -c 'import json,sys; print(json.load(sys.stdin)["id"])' <<< "$session")
token=$(python3 -c 'import json,sys; print(json.load(sys.stdin)["token"])' <<< "$session")
curl -sf -H "Authorization: Bearer $token" -H 'Content-Type: application/json' \
  -d '"incrementButtonTapped"' "localhost:$port/api/sessions/$id/actions" > /dev/null
count=$(curl -sf -H "Authorization: Bearer $token" "localhost:$port/api/sessions/$id" |
  python3 -c 'import json,sys; print(json.load(sys.stdin)["state"]["count"])')
[ "$count" = 1 ] || { echo "FAIL: the count is $count after one increment" >&2; exit 1; }
echo "ok: its server hosts the feature: one increment over curl counts 1"
curl -sf "localhost:$port/storehost/v1/storehost.js" | cmp - "$clone/Sources/StoreHost/BrowserClient/storehost.js" \
  || { echo "FAIL: its server does not serve StoreHost's browser client" >&2; exit 1; }
echo "ok: its server serves StoreHost's browser client, built in from the version it requires"
