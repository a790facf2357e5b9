#!/usr/bin/env bash
# Installs what `npm run test:deploy` drives (the container image, the compose cluster), so it works on
# a machine that never had them: Debian's podman (with runc: crun is refused on these machines),
# podman-compose and debootstrap (the local stand-ins of the base images, deploy/local-base/), plus
# what `npm test` needs (scripts/install-system-deps.sh: prometheus, chromium, nats-server, node 24).
# Idempotent: a no-op when everything is present. Anything that cannot be installed is named in one
# line on stderr, and the script fails.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
bash "$here/install-system-deps.sh" || exit 1

# netavark and aardvark-dns give compose's containers a network with name resolution; iptables its NAT
# (the image build reaches Debian's archive and the npm registry through it).
packages=(podman runc podman-compose debootstrap uidmap netavark aardvark-dns iptables)
need=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'install ok installed' || need+=("$package")
done
if ((${#need[@]} > 0)); then
  if [[ $(id -u) -ne 0 ]]; then
    echo "install-deploy-deps: not installed: ${need[*]} (apt-get install needs root)" >&2
    exit 1
  fi
  echo "install-deploy-deps: apt-get install ${need[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  if ! { apt-get update -qq && apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null; }; then
    echo "install-deploy-deps: not installed: ${need[*]} (apt-get install failed)" >&2
    exit 1
  fi
fi
exit 0
