# Sourced by the cluster benchmarks: a release build of storehost ($binary), a scratch
# directory ($work), a throwaway PostgreSQL ($PG_URL), and `stop_servers` for the
# processes whose pids are in $pids; everything is stopped and removed on exit.
source scripts/postgres-temp.sh
swift build -c release --product storehost 2>&1 | grep -E "error|warning:" || true
binary="$(swift build -c release --show-bin-path)/storehost"
work="$(mktemp -d)"
pids=()
stop_servers() {
  for pid in "${pids[@]}"; do kill "$pid" 2> /dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2> /dev/null || true; done
  pids=()
}
source Benchmarks/quiet-machine.sh
quiet_machine_start
trap 'stop_servers; pg_temp_stop; rm -rf "$work"; echo "load after: $(quiet_machine_load)"' EXIT
pg_temp_start
