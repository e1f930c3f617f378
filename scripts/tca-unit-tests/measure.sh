#!/bin/bash
# Measures how many of TCA's own unit tests compile and pass against this checkout.
#
# Usage: scripts/tca-unit-tests/measure.sh <TCA checkout> [scratch folder] [file...]
#
# <TCA checkout> is a tree of swift-composable-architecture at the tag to measure (its
# Tests/ComposableArchitectureTests). The scratch folder (default /tmp/tca-unit-tests) gets
# a package with one test target per test file (prepare.py says which edits are made);
# each target is built alone, those that compile are run one at a time, and the summary
# goes to <scratch>/summary.txt. Naming files (e.g. StoreTests) measures only those.
set -uo pipefail

tca=$(cd "$1" && pwd)
scratch=${2:-/tmp/tca-unit-tests}
shift $(( $# >= 2 ? 2 : 1 ))
here=$(cd "$(dirname "$0")" && pwd)
storehost=$(cd "$here/../.." && pwd)

python3 "$here/prepare.py" "$tca" "$storehost" "$scratch" || exit 1
cd "$scratch" || exit 1
rm -rf logs && mkdir -p logs
if (( $# > 0 )); then targets=("$@"); else targets=($(ls Tests)); fi
python3 "$here/prepare.py" --package "$scratch" "$storehost" "${targets[@]}"

compiling=()
for t in "${targets[@]}"; do
  if swift build --target "$t" >"logs/$t.build.log" 2>&1; then
    compiling+=("$t")
  fi
done

python3 "$here/prepare.py" --package "$scratch" "$storehost" "${compiling[@]}"
swift build --build-tests >logs/all.build.log 2>&1
for t in "${compiling[@]}"; do
  timeout 600 swift test --skip-build --filter "^$t\\." >"logs/$t.test.log" 2>&1
done

python3 "$here/summarize.py" "$scratch" "${targets[@]}" | tee summary.txt
