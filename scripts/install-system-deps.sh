#!/usr/bin/env bash
# Installs what the test suite drives for real, so `npm test` works on a machine that never had
# anything installed by hand (npm runs this as `pretest`). Idempotent: a no-op when all is present.
# - chromium: the /humans browser tests (playwright-core with executablePath=/usr/bin/chromium);
# - prometheus: promtool checks the metrics exposition and the alert rules, a real Prometheus scrapes
#   the service;
# - systemd (systemd-analyze verifies deploy/systemd/agent-chat.service);
# - a current nats-server (≥ 2.12) in .tools/, from Debian's unstable suite (install-nats-server.sh);
#   the machine's own nats-server is never used or changed.
# Anything that cannot be installed is named in one line on stderr, and the script fails.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
missing=()

need=()
command -v chromium >/dev/null 2>&1 || need+=(chromium)
command -v promtool >/dev/null 2>&1 || need+=(prometheus)
# systemd-analyze checks the systemd unit in deploy/systemd (a machine without systemd lacks it).
command -v systemd-analyze >/dev/null 2>&1 || need+=(systemd)
if ((${#need[@]} > 0)); then
  if [[ $(id -u) -ne 0 ]]; then
    missing+=("${need[@]} (apt-get install needs root)")
  else
    echo "install-system-deps: apt-get install ${need[*]}" >&2
    export DEBIAN_FRONTEND=noninteractive
    if ! { apt-get update -qq && apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null; }; then
      missing+=("${need[@]} (apt-get install failed)")
    fi
  fi
fi
bash "$here/install-nats-server.sh" >/dev/null || missing+=("nats-server ≥ 2.12 (see the line above)")

if ((${#missing[@]} > 0)); then
  echo "install-system-deps: not installed: ${missing[*]}; the tests that drive them will fail" >&2
  exit 1
fi
exit 0
