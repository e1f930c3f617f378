# Sourced by every benchmark script that runs a Swift benchmark binary: figures count only
# from a quiet machine. The Python ones (bench.py, compare.py, record.py) wait the same way
# with bench.wait_for_quiet_machine, honouring QUIET_LOAD and QUIET_WAIT_SECONDS too.
#
#   source Benchmarks/quiet-machine.sh
#   quiet_machine_start      # after the build: waits for a quiet machine, prints the load
#
# quiet_machine_start waits up to QUIET_WAIT_SECONDS (300) for the 1-minute load average to
# fall under QUIET_LOAD (0.5), then prints it and, when the script exits, the load again.
# When the machine does not quieten it gives up with a message: something else is running,
# and a ratio measured beside it says little.

quiet_machine_load() {
  cut -d ' ' -f 1 /proc/loadavg
}

quiet_machine_start() {
  local limit="${QUIET_LOAD:-0.5}" waited=0 wait="${QUIET_WAIT_SECONDS:-300}"
  while awk -v load="$(quiet_machine_load)" -v limit="$limit" 'BEGIN { exit !(load >= limit) }'; do
    if [ "$waited" -ge "$wait" ]; then
      echo "the 1-minute load average is $(quiet_machine_load), not under $limit, after ${wait} s:" \
        "something else is running; stop it and run this again" >&2
      exit 3
    fi
    [ "$waited" -eq 0 ] && echo "waiting for a quiet machine (load $(quiet_machine_load), needs < $limit)..." >&2
    sleep 10
    waited=$((waited + 10))
  done
  echo "load before: $(quiet_machine_load) ($(date -u +%Y-%m-%dT%H:%M:%SZ))"
  trap 'echo "load after: $(quiet_machine_load)"' EXIT
}
