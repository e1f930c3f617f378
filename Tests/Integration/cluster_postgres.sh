#!/usr/bin/env bash
# Several storehost processes on one PostgreSQL (cluster_postgres_check.py, then
# cluster_takeover_check.py, which also puts nginx in front of three): starts a
# throwaway PostgreSQL on loopback, runs the check against .build/debug/storehost and the
# Swift tests that need a database (shared values across processes), and always stops the
# database. Needs Debian's postgresql and libpq-dev (scripts/test-setup installs them).
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/postgres-temp.sh
trap pg_temp_stop EXIT
swift build --product storehost > /dev/null
pg_temp_start
STOREHOST_TEST_DATABASE="$PG_URL" timeout 120 swift test --filter "ClusterSharedValuesTests|PostgresSessionPersistenceTests" 2>&1 | tail -2
timeout 110 python3 Tests/Integration/cluster_postgres_check.py "$(swift build --show-bin-path)/storehost" "$PG_URL"
timeout 120 python3 Tests/Integration/cluster_takeover_check.py "$(swift build --show-bin-path)/storehost" "$PG_URL"
