# Sourced by the cluster test and benchmark: a throwaway PostgreSQL on loopback.
#
#   source scripts/postgres-temp.sh
#   pg_temp_start            # sets PG_URL (postgres://storehost@127.0.0.1:PORT/storehost)
#   pg_temp_pause            # stops the server only (tests of an unreachable database)
#   pg_temp_resume           # starts it again on the same port with the same data
#   pg_temp_freeze           # SIGSTOPs every process of the server (a stalled database)
#   pg_temp_thaw             # SIGCONTs them
#   pg_temp_stop             # stops it and removes its directory (call it from a trap)
#
# PG_TEMP_FSYNC=off (exported before pg_temp_start) runs it without flushing to disk: its data
# then survives its own crashes and restarts (the kernel keeps the writes) but not the
# machine's, which no test makes; a slow disk's flush stalls stay out of the tests' timings.
#
# Uses the Debian binaries under /usr/lib/postgresql/*/bin. initdb refuses to run as root,
# so as root the server runs as the `postgres` user (created by the Debian package).

pg_temp_bin() {
  local dir
  dir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
  [ -n "$dir" ] || { echo "PostgreSQL is not installed (apt-get install postgresql)" >&2; return 1; }
  echo "$dir"
}

pg_temp_as_owner() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

pg_temp_start() {
  local bin
  bin=$(pg_temp_bin) || return 1
  PG_TEMP_DIR=$(mktemp -d /tmp/storehost-pg.XXXXXX)
  [ "$(id -u)" = 0 ] && chown postgres "$PG_TEMP_DIR"
  PG_TEMP_PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  pg_temp_as_owner "$bin/initdb" -D "$PG_TEMP_DIR/data" -U storehost -A trust --no-sync > "$PG_TEMP_DIR/initdb.log" 2>&1 \
    || { cat "$PG_TEMP_DIR/initdb.log" >&2; return 1; }
  pg_temp_resume || return 1
  "$bin/createdb" -h 127.0.0.1 -p "$PG_TEMP_PORT" -U storehost storehost
  PG_URL="postgres://storehost@127.0.0.1:$PG_TEMP_PORT/storehost"
  export PG_URL PG_TEMP_DIR PG_TEMP_PORT
}

pg_temp_resume() {
  pg_temp_as_owner "$(pg_temp_bin)/pg_ctl" -D "$PG_TEMP_DIR/data" -l "$PG_TEMP_DIR/server.log" -w -t 30 \
    -o "-h 127.0.0.1 -p $PG_TEMP_PORT -k $PG_TEMP_DIR -c max_connections=100 -c fsync=${PG_TEMP_FSYNC:-on}" start > /dev/null \
    || { cat "$PG_TEMP_DIR/server.log" >&2; return 1; }
}

pg_temp_pause() {
  pg_temp_as_owner "$(pg_temp_bin)/pg_ctl" -D "$PG_TEMP_DIR/data" -m fast -w stop > /dev/null
}

pg_temp_stop() {
  [ -n "${PG_TEMP_DIR:-}" ] || return 0
  pg_temp_as_owner "$(pg_temp_bin)/pg_ctl" -D "$PG_TEMP_DIR/data" -m immediate -w stop > /dev/null 2>&1 || true
  rm -rf "$PG_TEMP_DIR"
  PG_TEMP_DIR=
}

# The server's processes: the postmaster and its children.
pg_temp_pids() {
  local main
  main=$(head -1 "$PG_TEMP_DIR/data/postmaster.pid")
  echo "$main" $(pgrep -P "$main")
}

pg_temp_freeze() {
  # shellcheck disable=SC2046
  kill -STOP $(pg_temp_pids)
}

pg_temp_thaw() {
  # shellcheck disable=SC2046
  kill -CONT $(pg_temp_pids)
}
