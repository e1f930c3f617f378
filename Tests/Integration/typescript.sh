#!/usr/bin/env bash
# Typed clients: the TypeScript declarations of the demo's and Examples/Poll's state and
# actions (Public/app-types.d.ts, Examples/Poll/Public/poll-types.d.ts) are what their
# commands generate from the Swift types now, their pages type-check against them and the
# browser client's storehost.d.ts (Sources/StoreHost/BrowserClient) with Debian's TypeScript
# compiler (node-typescript), and a page that sends an action the schema does not allow
# fails the check.
set -euo pipefail
cd "$(dirname "$0")/../.."
command -v tsc > /dev/null || { echo "typescript.sh: tsc is missing: apt-get install node-typescript (scripts/test-setup does)" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

swift build --product storehost > /dev/null
swift build --package-path Examples/Poll --product poll-server > /dev/null
"$(swift build --show-bin-path)/storehost" schema --typescript > "$work/app-types.d.ts"
"$(swift build --package-path Examples/Poll --show-bin-path)/poll-server" schema > "$work/poll-types.d.ts"
for pair in "Public/app-types.d.ts:storehost schema --typescript" "Examples/Poll/Public/poll-types.d.ts:poll-server schema"; do
  file=${pair%%:*}
  if ! diff -u "$file" "$work/$(basename "$file")"; then
    echo "FAIL: $file is stale; regenerate it with \`${pair#*:} > $file\`" >&2
    exit 1
  fi
done
echo "ok: the committed declarations match the Swift types"

tsc -p Tests/Integration/typescript/demo.json
tsc -p Tests/Integration/typescript/poll.json
echo "ok: the demo's and the poll's pages type-check against their state and actions"

# A page that sends what the server would refuse.
mkdir -p "$work/bad"
cp Examples/Poll/Public/poll-types.d.ts Tests/Integration/typescript/loose-dom.d.ts "$work/bad/"
cp Sources/StoreHost/BrowserClient/storehost.d.ts Sources/StoreHost/BrowserClient/json-patch.d.ts "$work/bad/"
cat > "$work/bad/page.js" <<'JS'
import { StoreHostClient } from "./storehost.js";
/** @type {StoreHostClient<import("./poll-types").State, import("./poll-types").Action>} */
const client = new StoreHostClient();
client.send({ vote: { id: 5 } });
client.subscribe((state) => state.board.choices.map((choice) => choice.name));
JS
if tsc --allowJs --checkJs --noEmit --target es2022 --module es2022 --moduleResolution node \
  "$work/bad/loose-dom.d.ts" "$work/bad/page.js" > "$work/bad/errors.txt"; then
  echo "FAIL: tsc accepted a vote with a number id and a choice's missing field" >&2
  exit 1
fi
grep -q "page.js(4,.*TS2345" "$work/bad/errors.txt" || { cat "$work/bad/errors.txt"; echo "FAIL: no error for the vote" >&2; exit 1; }
grep -q "page.js(5,.*'name' does not exist" "$work/bad/errors.txt" || { cat "$work/bad/errors.txt"; echo "FAIL: no error for the field" >&2; exit 1; }
echo "ok: a vote with a number id and a read of a field the state lacks fail the check"
