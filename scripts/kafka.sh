#!/usr/bin/env bash
# A throwaway one-node Apache Kafka 4.4 broker (KRaft) on 127.0.0.1 for tests and examples.
#
#   export ARUS_KAFKA_BOOTSTRAP="$(scripts/kafka.sh start)"   # prints host:port, nothing else
#   scripts/kafka.sh stop
#
# - fetch: the broker's jars from Maven Central (mvn) into $ARUS_KAFKA_CACHE
#   (default ~/.cache/arus/kafka), outside the clone; a no-op when cached.
# - start: fetch, then a fresh cluster in $ARUS_KAFKA_DIR (default /tmp/arus-kafka) on a free
#   port; idempotent: when the broker there is running, prints its address again.
# - stop: SIGTERM, then SIGKILL after 15 s; `url` prints the address of the running broker.
# - restart: starts the stopped broker of $ARUS_KAFKA_DIR again with its data and port (a broker
#   outage and its end, for the failure tests); `start` instead begins a fresh cluster.
# Needs Java 17+ and Maven. JVM flags keep the broker near 250 MB resident; ARUS_KAFKA_JVM_OPTS
# (e.g. "-XX:+UseParallelGC -Xlog:gc:file=/tmp/gc.log") comes after them, so it can override them.
set -euo pipefail

HERE="$(cd "$(dirname "$0")" && pwd)/kafka"
CACHE="${ARUS_KAFKA_CACHE:-$HOME/.cache/arus/kafka}"
DIR="${ARUS_KAFKA_DIR:-/tmp/arus-kafka}"
LIBS="$CACHE/libs-4.4.0"
log() { echo "kafka.sh: $*" >&2; }

running() { [ -f "$DIR/broker.pid" ] && alive "$(cat "$DIR/broker.pid")"; }
url() { echo "127.0.0.1:$(cat "$DIR/port")"; }

fetch() {
  [ -f "$LIBS/.complete" ] && return 0
  command -v mvn >/dev/null || { log "Maven (mvn) is needed to fetch the broker's jars"; exit 1; }
  mkdir -p "$CACHE"
  cp "$HERE/pom.xml" "$CACHE/pom.xml"
  log "fetching Kafka 4.4.0 jars from Maven Central into $LIBS"
  rm -rf "$LIBS.tmp"
  (cd "$CACHE" && mvn -q -B dependency:copy-dependencies -DincludeScope=runtime -DoutputDirectory="$LIBS.tmp" >&2)
  rm -rf "$LIBS" && mv "$LIBS.tmp" "$LIBS" && touch "$LIBS/.complete"
}

free_port() { node -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})'; }

start() {
  fetch
  if running; then url; return 0; fi
  rm -rf "$DIR" && mkdir -p "$DIR/data"
  local port cport
  port="$(free_port)"; cport="$(free_port)"
  while [ "$cport" = "$port" ]; do cport="$(free_port)"; done
  echo "$port" >"$DIR/port"
  { cat "$HERE/server.properties"
    echo "listeners=PLAINTEXT://127.0.0.1:$port,CONTROLLER://127.0.0.1:$cport"
    echo "advertised.listeners=PLAINTEXT://127.0.0.1:$port"
    echo "controller.quorum.voters=1@127.0.0.1:$cport"
    echo "log.dirs=$DIR/data"; } >"$DIR/server.properties"
  local log4j="-Dlog4j2.configurationFile=$HERE/log4j2.properties"
  java -Xmx128m "$log4j" -cp "$LIBS/*" kafka.tools.StorageTool format -t MkU3OEVBNTcwNTJENDM2Qk \
    -c "$DIR/server.properties" >"$DIR/format.log" 2>&1 || { cat "$DIR/format.log" >&2; exit 1; }
  launch
}

# How many times the broker of $DIR logged its start (its log is appended to on a restart).
started_count() {
  local n
  n="$(grep -c 'Kafka Server started' "$DIR/broker.log" 2>/dev/null || true)"
  echo "${n:-0}"
}

# Runs the broker of $DIR (formatted, server.properties written) and waits until it serves.
launch() {
  local port log4j="-Dlog4j2.configurationFile=$HERE/log4j2.properties"
  port="$(cat "$DIR/port")"
  local started_before
  started_before="$(started_count)"
  log "starting on 127.0.0.1:$port (logs: $DIR/broker.log)"
  nohup java -Xms128m -Xmx256m -XX:+UseSerialGC -XX:MaxMetaspaceSize=96m -XX:ReservedCodeCacheSize=64m \
    -XX:MaxDirectMemorySize=64m -Xss512k -XX:+ExitOnOutOfMemoryError -Djava.awt.headless=true \
    ${ARUS_KAFKA_JVM_OPTS:-} "$log4j" -cp "$LIBS/*" kafka.Kafka "$DIR/server.properties" >>"$DIR/broker.log" 2>&1 </dev/null &
  echo $! >"$DIR/broker.pid"
  for _ in $(seq 1 600); do # up to 60 s on a loaded machine
    if [ "$(started_count)" -gt "$started_before" ] && (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
      url; return 0
    fi
    running || { log "the broker died:"; tail -40 "$DIR/broker.log" >&2; exit 1; }
    sleep 0.1
  done
  log "the broker did not start within 60 s:"; tail -40 "$DIR/broker.log" >&2; stop; exit 1
}

restart() {
  if running; then url; return 0; fi
  [ -f "$DIR/server.properties" ] || { log "no broker was started in $DIR (use start)"; exit 1; }
  launch
}

# Alive and not a zombie (an exited broker whose parent, here PID 1, has not reaped it yet).
alive() {
  kill -0 "$1" 2>/dev/null || return 1
  local state; state="$(sed -n 's/^[0-9]* (.*) \(.\).*/\1/p' "/proc/$1/stat" 2>/dev/null)"
  [ "$state" != "Z" ]
}

stop() {
  [ -f "$DIR/broker.pid" ] || return 0
  local pid; pid="$(cat "$DIR/broker.pid")"
  kill -TERM "$pid" 2>/dev/null || true
  # at most 15 s of wall time, however slow a loaded machine makes each sleep
  local deadline=$((SECONDS + 15))
  while alive "$pid" && [ "$SECONDS" -lt "$deadline" ]; do sleep 0.2; done
  kill -KILL "$pid" 2>/dev/null || true
  rm -f "$DIR/broker.pid"
}

case "${1:-start}" in
  fetch) fetch ;;
  start) start ;;
  stop) stop ;;
  restart) restart ;;
  url) running && url || { log "no broker running in $DIR"; exit 1; } ;;
  *) log "usage: $0 fetch|start|restart|stop|url"; exit 2 ;;
esac
