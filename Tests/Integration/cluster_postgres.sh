#!/usr/bin/env bash
# Several storehost processes on one PostgreSQL: starts a throwaway PostgreSQL on loopback,
# runs the Swift tests that need a database (StoreHostPostgresTests), then the checks against
# .build/debug/storehost: cluster_postgres_check.py, cluster_takeover_check.py (which also
# puts nginx in front of three), cluster_owner_check.py (paused and hung owners, forged
# forwarding headers, ?log=1 across processes), cluster_storage_faults_check.py (the database
# stalled by SIGSTOP for 10 s, then restarted), and cluster_chaos.py three times: with no
# fault (no 5xx), with no fault and no keys (only 202s), then with faults for 45 s (nothing
# lost or applied twice). Always stops the database.
# Needs Debian's postgresql and libpq-dev (scripts/test-setup installs them).
set -euo pipefail
cd "$(dirname "$0")/../.."
# The database flushes nothing to disk: the checks stop processes, never the machine.
export PG_TEMP_FSYNC=off
source scripts/postgres-temp.sh
trap pg_temp_stop EXIT
swift build --product storehost > /dev/null
binary="$(swift build --show-bin-path)/storehost"
pg_temp_start
STOREHOST_TEST_DATABASE="$PG_URL" timeout 120 swift test --filter "StoreHostPostgresTests" 2>&1 | tail -2
timeout 110 python3 Tests/Integration/cluster_postgres_check.py "$binary" "$PG_URL"
timeout 120 python3 Tests/Integration/cluster_takeover_check.py "$binary" "$PG_URL"
timeout 120 python3 Tests/Integration/cluster_owner_check.py "$binary" "$PG_URL"
timeout 180 python3 Tests/Integration/cluster_storage_faults_check.py "$binary" "$PG_URL"
timeout 120 python3 Tests/Integration/cluster_chaos.py "$binary" "$PG_URL" --faults none --seconds 15 \
  --sessions 8 --clients-per-session 2 --think 0 --check
# A client without keys behind a round-robin balancer, every process healthy: only 202s.
timeout 120 python3 Tests/Integration/cluster_chaos.py "$binary" "$PG_URL" --faults none --seconds 15 \
  --sessions 8 --clients-per-session 2 --think 0 --without-keys --check
# A request sent to a paused process waits for the client's 3 s timeout before it is sent
# elsewhere, where the session is served once the paused owner's lease (1.5 s) ran out.
timeout 300 python3 Tests/Integration/cluster_chaos.py "$binary" "$PG_URL" --seconds 45 --max-unserved 6 --check
