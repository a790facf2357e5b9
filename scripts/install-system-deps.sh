#!/usr/bin/env bash
# Installs the Debian packages the test suite drives for real (idempotent; a no-op when present):
# - chromium: the /humans browser tests (playwright-core with executablePath=/usr/bin/chromium);
# - prometheus: promtool checks the metrics exposition, and a real Prometheus scrapes the service.
set -euo pipefail
need=()
command -v chromium >/dev/null 2>&1 || need+=(chromium)
command -v promtool >/dev/null 2>&1 || need+=(prometheus)
((${#need[@]} == 0)) && exit 0
if [[ $(id -u) -ne 0 ]]; then
  echo "install-system-deps: need root to apt-get install ${need[*]}" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq "${need[@]}" >/dev/null
