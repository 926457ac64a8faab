#!/usr/bin/env bash
# Installs what the monitoring tests use, from Debian's packages, when missing (idempotent):
#   chromium    headless browser for test/monitoring/dashboard-browser.test.ts (/usr/bin/chromium)
#   prometheus  a real Prometheus server and promtool for test/monitoring/prometheus-server.test.ts
# Needs root (apt-get), as on the CI machine. Prints nothing when everything is there.
set -euo pipefail
need=()
[ -x /usr/bin/chromium ] || need+=(chromium)
[ -x /usr/bin/prometheus ] && [ -x /usr/bin/promtool ] || need+=(prometheus)
[ ${#need[@]} -eq 0 ] && exit 0
echo "== installing ${need[*]} (Debian packages) for the monitoring tests" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >&2
apt-get install -y -qq --no-install-recommends "${need[@]}" >&2
