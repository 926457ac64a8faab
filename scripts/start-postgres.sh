#!/usr/bin/env bash
# Starts a throwaway PostgreSQL server for the recovery tests and prints its connection URL
# (the only thing written to stdout), e.g.
#
#   export ARUS_PG_URL="$(scripts/start-postgres.sh)"
#
# - Installs Debian's `postgresql` package when no server binaries are found (apt-get).
# - Creates a cluster in $ARUS_PG_DIR (default /tmp/arus-pg) owned by a non-root user (root may
#   not run postgres: as root the cluster belongs to the `postgres` user), trust auth,
#   listening on 127.0.0.1 only, on a free port chosen at first start and kept in the data dir.
# - Idempotent: a second call finds the running server and prints the same URL.
# - ARUS_PG_NO_INSTALL=1: fail instead of installing (the tests use it to skip quickly).
# - `scripts/start-postgres.sh stop` stops it; `... url` prints the URL without starting.
set -euo pipefail

PGDIR="${ARUS_PG_DIR:-/tmp/arus-pg}"
DATA="$PGDIR/data"
log() { echo "start-postgres: $*" >&2; }

find_bindir() {
  local d
  for d in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V -r); do
    if [ -x "$d/initdb" ] && [ -x "$d/pg_ctl" ]; then
      echo "$d"
      return 0
    fi
  done
  if command -v pg_ctl >/dev/null 2>&1 && command -v initdb >/dev/null 2>&1; then
    dirname "$(command -v pg_ctl)"
    return 0
  fi
  return 1
}

BIN="$(find_bindir || true)"
if [ -z "$BIN" ]; then
  [ -z "${ARUS_PG_NO_INSTALL:-}" ] || { log "postgresql is not installed (ARUS_PG_NO_INSTALL is set)"; exit 1; }
  [ "$(id -u)" = 0 ] || { log "postgresql is not installed and installing it needs root"; exit 1; }
  log "installing postgresql from the Debian archive"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >&2
  apt-get install -y -qq --no-install-recommends postgresql >&2
  BIN="$(find_bindir)"
fi

# Who runs the server: root hands it to `postgres` (created by the Debian package; created here
# if missing); anybody else runs it as themselves.
if [ "$(id -u)" = 0 ]; then
  RUNAS=postgres
  id "$RUNAS" >/dev/null 2>&1 || useradd --system --home-dir "$PGDIR" --shell /usr/sbin/nologin "$RUNAS"
  as_owner() { runuser -u "$RUNAS" -- "$@"; }
else
  RUNAS="$(id -un)"
  as_owner() { "$@"; }
fi

url() { echo "postgresql://$RUNAS@127.0.0.1:$(cat "$PGDIR/port")/postgres"; }

case "${1:-start}" in
  stop)
    if [ -f "$DATA/PG_VERSION" ]; then as_owner "$BIN/pg_ctl" -D "$DATA" -m fast stop >&2 || true; fi
    exit 0
    ;;
  url)
    url
    exit 0
    ;;
  start) ;;
  *)
    log "usage: $0 [start|stop|url]"
    exit 2
    ;;
esac

mkdir -p "$PGDIR"
if [ ! -f "$DATA/PG_VERSION" ]; then
  rm -rf "$DATA"
  mkdir -p "$DATA"
  [ "$(id -u)" = 0 ] && chown -R "$RUNAS" "$PGDIR"
  chmod 700 "$DATA"
  log "initdb $DATA"
  as_owner "$BIN/initdb" -D "$DATA" -U "$RUNAS" -A trust -E UTF8 --no-locale >"$PGDIR/initdb.log" 2>&1 || {
    cat "$PGDIR/initdb.log" >&2
    exit 1
  }
fi
[ "$(id -u)" = 0 ] && chown -R "$RUNAS" "$PGDIR"

if as_owner "$BIN/pg_ctl" -D "$DATA" status >/dev/null 2>&1; then
  url
  exit 0
fi

start_server() {
  if [ ! -s "$PGDIR/port" ]; then
    node -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})' >"$PGDIR/port"
    [ "$(id -u)" = 0 ] && chown "$RUNAS" "$PGDIR/port"
  fi
  local port
  port="$(cat "$PGDIR/port")"
  log "starting PostgreSQL ($BIN) on 127.0.0.1:$port"
  # The socket lives in the data dir: /var/run/postgresql may not exist or be writable.
  as_owner "$BIN/pg_ctl" -D "$DATA" -l "$PGDIR/server.log" -w -t 60 \
    -o "-c listen_addresses=127.0.0.1 -p $port -k $DATA -c max_connections=50" start >&2
}

if ! start_server; then
  # The port kept from an earlier start may be taken now: pick another one once.
  log "start failed; retrying on a new port"
  tail -n 5 "$PGDIR/server.log" >&2 || true
  rm -f "$PGDIR/port"
  start_server || {
    tail -n 30 "$PGDIR/server.log" >&2 || true
    exit 1
  }
fi
url
