#!/usr/bin/env bash
# Makes the base images deploy/Containerfile and deploy/compose.yaml name, on a machine that reaches no
# container registry: a Debian bookworm root from debootstrap, then
#   docker.io/library/node:24-bookworm-slim  (node.Containerfile: Node 24 from the npm registry)
#   docker.io/library/nats:<version>         (nats.Containerfile: Debian unstable's nats-server)
#   docker.io/prom/prometheus:v<version>     (prometheus.Containerfile: Debian's prometheus)
# tagged with the names the real images have, so the project's Containerfile builds unchanged here and
# the same against a registry. An image of that name without this script's label (a real one pulled
# from a registry) is left alone. Each image carries a hash of its inputs and is rebuilt only when they
# change. Work files live in AGENT_CHAT_DEPLOY_WORK (/var/tmp/agent-chat-deploy), never in the tree.
# Prints `NODE_IMAGE=…`, `NATS_IMAGE=…` and `PROMETHEUS_IMAGE=…` on its last three lines.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
# shellcheck source=podman-env.sh
source "$here/podman-env.sh"
work=$AGENT_CHAT_DEPLOY_WORK
NPM_VERSION=11.19.1 # the npm inside the Node stand-in (the official image ships an npm 11)
LABEL=io.agent-chat.local-base-inputs

node24=$(bash "$root/scripts/install-node24.sh" | tail -1)
nats=$(bash "$root/scripts/install-nats-server.sh" | tail -1)
node_version=$("$node24" --version)
nats_version=$("$nats" --version | sed -nE 's/^nats-server: v([0-9.]+).*/\1/p')
DEBIAN_IMAGE=localhost/agent-chat-local/debian:bookworm
NODE_IMAGE=docker.io/library/node:24-bookworm-slim
NATS_IMAGE=docker.io/library/nats:$nats_version

label_of() { podman image inspect --format "{{index .Labels \"$LABEL\"}}" "$1" 2>/dev/null || echo absent; }
hash_of() { cat "$@" | sha256sum | cut -c1-16; }

# The Debian root's recipe (the debootstrap call and the slimming below); bump DEBIAN_RECIPE when
# either changes, so the root and everything on it is rebuilt.
DEBIAN_RECIPE="bookworm minbase ca-certificates slim 1"
debian_hash=$(echo "$DEBIAN_RECIPE" | sha256sum | cut -c1-16)
if [[ $(label_of $DEBIAN_IMAGE) != "$debian_hash" ]]; then
  echo "build-base-images: debootstrap bookworm (minbase) for $DEBIAN_IMAGE" >&2
  rootfs="$work/rootfs-bookworm"
  # An interrupted debootstrap can leave /proc mounted inside the root: unmount before deleting.
  if mountpoint -q "$rootfs/proc" 2>/dev/null; then umount -R "$rootfs/proc"; fi
  rm -rf --one-file-system "$rootfs"
  debootstrap --variant=minbase --include=ca-certificates bookworm "$rootfs" http://deb.debian.org/debian >/dev/null
  # Slim like Debian's official -slim images: no documentation, manuals or translations, and apt
  # cleans its caches after every operation (their docker-clean and dpkg path-exclude settings).
  cat >"$rootfs/etc/dpkg/dpkg.cfg.d/slim" <<'DPKG'
path-exclude /usr/share/doc/*
path-include /usr/share/doc/*/copyright
path-exclude /usr/share/man/*
path-exclude /usr/share/info/*
path-exclude /usr/share/locale/*
path-exclude /usr/share/lintian/*
DPKG
  cat >"$rootfs/etc/apt/apt.conf.d/docker-clean" <<'APT'
DPkg::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true"; };
APT::Update::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true"; };
Dir::Cache::pkgcache "";
Dir::Cache::srcpkgcache "";
APT
  find "$rootfs/usr/share/doc" -mindepth 1 -not -name copyright -not -type d -delete
  rm -rf "$rootfs"/usr/share/{man,info,locale,lintian}/* "$rootfs"/var/cache/apt/*.bin \
    "$rootfs"/var/cache/apt/archives/*.deb "$rootfs"/var/lib/apt/lists/* "$rootfs"/var/log/*.log
  tar -C "$rootfs" --one-file-system -c . | podman import --quiet --change "LABEL $LABEL=$debian_hash" - $DEBIAN_IMAGE >/dev/null
  rm -rf --one-file-system "$rootfs"
fi

# Each stand-in is built from a small context directory holding exactly its inputs.
build_standin() { # <image> <Containerfile> <context> <hash> [build args…]
  local image=$1 file=$2 context=$3 hash=$4
  shift 4
  local current
  current=$(label_of "$image")
  if [[ $current == "$hash" ]]; then return; fi
  if [[ $current != absent && -z $current ]]; then
    echo "build-base-images: $image is a real image (not built here): kept" >&2
    return
  fi
  echo "build-base-images: building $image" >&2
  podman build --quiet --layers=false --format docker --label "$LABEL=$hash" --file "$file" --tag "$image" "$@" "$context" >/dev/null
}

ctx="$work/context-node"
rm -rf "$ctx" && mkdir -p "$ctx/node/bin"
cp "$node24" "$ctx/node/bin/node"
mkdir -p "$ctx/extra-ca"
cp /usr/local/share/ca-certificates/*.crt "$ctx/extra-ca/" 2>/dev/null || true
(cd "$work" && rm -f npm-*.tgz && npm pack --silent "npm@$NPM_VERSION" >/dev/null)
mkdir -p "$ctx/npm" && tar -xzf "$work/npm-$NPM_VERSION.tgz" -C "$ctx/npm" --strip-components=1
rm -f "$work/npm-$NPM_VERSION.tgz"
node_hash=$(echo "$debian_hash $node_version $NPM_VERSION $(cat "$here/node.Containerfile" "$ctx"/extra-ca/* | sha256sum)" | sha256sum | cut -c1-16)
build_standin $NODE_IMAGE "$here/node.Containerfile" "$ctx" "$node_hash" --build-arg "NODE_VERSION=${node_version#v}"
rm -rf "$ctx"

ctx="$work/context-nats"
rm -rf "$ctx" && mkdir -p "$ctx"
cp "$nats" "$ctx/nats-server"
nats_hash=$(echo "$debian_hash $(hash_of "$nats" "$here/nats.Containerfile")" | sha256sum | cut -c1-16)
build_standin "$NATS_IMAGE" "$here/nats.Containerfile" "$ctx" "$nats_hash"
rm -rf "$ctx"

# Prometheus: the tag names the version Debian's package holds, known once the image is built.
prometheus_hash=$(echo "$debian_hash $(hash_of "$here/prometheus.Containerfile")" | sha256sum | cut -c1-16)
PROMETHEUS_IMAGE=$(podman images --filter "label=$LABEL=$prometheus_hash" --format '{{.Repository}}:{{.Tag}}' |
  grep '^docker.io/prom/prometheus:' | head -1 || true)
if [[ -z $PROMETHEUS_IMAGE ]]; then
  ctx="$work/context-prometheus"
  rm -rf "$ctx" && mkdir -p "$ctx"
  build_standin localhost/agent-chat-local/prometheus:build "$here/prometheus.Containerfile" "$ctx" "$prometheus_hash"
  rm -rf "$ctx"
  version=$(podman run --rm localhost/agent-chat-local/prometheus:build --version 2>&1 | sed -nE 's/^prometheus, version ([0-9.]+).*/\1/p')
  [[ -n $version ]] || { echo "build-base-images: the Prometheus stand-in does not run" >&2; exit 1; }
  PROMETHEUS_IMAGE=docker.io/prom/prometheus:v$version
  podman tag localhost/agent-chat-local/prometheus:build "$PROMETHEUS_IMAGE"
  podman untag localhost/agent-chat-local/prometheus:build localhost/agent-chat-local/prometheus:build
fi

# Stand-ins replaced by a rebuild are untagged now: remove them (only this script's, by its label).
podman image prune --force --filter "label=$LABEL" >/dev/null

echo "NODE_IMAGE=$NODE_IMAGE"
echo "NATS_IMAGE=$NATS_IMAGE"
echo "PROMETHEUS_IMAGE=$PROMETHEUS_IMAGE"
