#!/usr/bin/env bash
# Runs http_sse_check.py (a real SSE client against http-example-server). Kept out of
# pytest's `test_*.py` pattern so it runs once, from here.
set -euo pipefail
cd "$(dirname "$0")/../.."
swift build --product http-example-server > /dev/null
python3 Tests/Integration/http_sse_check.py "$(swift build --show-bin-path)/http-example-server"
