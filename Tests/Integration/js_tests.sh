#!/usr/bin/env bash
# Runs the browser client's JavaScript unit tests (Tests/Integration/js/*.test.mjs) with
# Node's built-in test runner. Skipped, with a note, where node is not installed.
set -euo pipefail
cd "$(dirname "$0")/../.."
if ! command -v node > /dev/null; then
  echo "js_tests: node is not installed; skipping the JavaScript unit tests" >&2
  exit 0
fi
node --test Tests/Integration/js/*.test.mjs
