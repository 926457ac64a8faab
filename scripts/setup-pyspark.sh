#!/usr/bin/env bash
# Install a pinned PySpark into a virtual environment kept outside the clone, so the
# conformance suite (conformance/) can run differential tests against real Spark.
#
# Idempotent: when the venv already holds the pinned version, nothing is downloaded.
#
#   ARUS_PYSPARK_VENV   venv location (default: $HOME/.cache/arus/pyspark-venv)
#   ARUS_PYTHON         python interpreter to create the venv with (default: python3)
#
# Spark 4.x needs Java 17 or newer on PATH (or JAVA_HOME). This script checks for it but does
# not install it (on Debian: apt-get install -y openjdk-17-jre-headless).
set -euo pipefail

PYSPARK_VERSION="4.3.0"
VENV="${ARUS_PYSPARK_VENV:-$HOME/.cache/arus/pyspark-venv}"
PYTHON="${ARUS_PYTHON:-python3}"

log() { printf '[setup-pyspark] %s\n' "$*"; }

# --- Java check -----------------------------------------------------------------------------
java_bin="java"
if [ -n "${JAVA_HOME:-}" ] && [ -x "$JAVA_HOME/bin/java" ]; then java_bin="$JAVA_HOME/bin/java"; fi
if ! command -v "$java_bin" >/dev/null 2>&1; then
  log "ERROR: no java found; Spark $PYSPARK_VERSION needs Java 17+ (apt-get install -y openjdk-17-jre-headless)"
  exit 1
fi
java_major="$("$java_bin" -version 2>&1 | sed -n 's/.*version "\([0-9]*\).*/\1/p' | head -n1)"
if [ -z "$java_major" ] || [ "$java_major" -lt 17 ]; then
  log "ERROR: java major version '${java_major:-?}' found; Spark $PYSPARK_VERSION needs Java 17+"
  exit 1
fi
log "java $java_major ok ($java_bin)"

# --- Already installed? ------------------------------------------------------------------------
if [ -x "$VENV/bin/python" ]; then
  have="$("$VENV/bin/python" -c 'import pyspark; print(pyspark.__version__)' 2>/dev/null || true)"
  # pyarrow and pandas (pyspark[sql]) and protobuf (its state-server messages) run the Python
  # workers of the transformWithState cases.
  if [ "$have" = "$PYSPARK_VERSION" ] && "$VENV/bin/python" -c 'import pyarrow, pandas; from google.protobuf import descriptor' 2>/dev/null; then
    log "pyspark $have (with pyarrow, pandas, protobuf) already installed in $VENV; nothing to do"
    exit 0
  fi
  log "venv $VENV has pyspark '${have:-none}', want $PYSPARK_VERSION; (re)installing"
else
  log "creating venv $VENV"
  mkdir -p "$(dirname "$VENV")"
  "$PYTHON" -m venv "$VENV"
fi

# --- Install ---------------------------------------------------------------------------------------
"$VENV/bin/python" -m pip install --quiet --disable-pip-version-check --upgrade pip >/dev/null 2>&1 || true
log "installing pyspark[sql]==$PYSPARK_VERSION and protobuf (about 530 MB download on a cold cache; pyarrow, pandas and protobuf run transformWithState's Python workers)"
"$VENV/bin/python" -m pip install --disable-pip-version-check --progress-bar off "pyspark[sql]==$PYSPARK_VERSION" protobuf

have="$("$VENV/bin/python" -c 'import pyspark; print(pyspark.__version__)')"
if [ "$have" != "$PYSPARK_VERSION" ]; then
  log "ERROR: installed pyspark reports '$have', expected $PYSPARK_VERSION"
  exit 1
fi
log "installed pyspark $have in $VENV"
