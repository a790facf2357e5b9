#!/usr/bin/env bash
# Builds agent-chat's image from deploy/Containerfile, once per set of inputs: the image is tagged
# localhost/agent-chat:<hash of the build context, the Containerfile and the base image> and
# localhost/agent-chat:latest, and a build whose tag exists already is skipped (the deploy tests call
# this before each use). On a machine without a container registry the base images are made first
# (deploy/local-base/build-base-images.sh). Prints the image's name on its last line.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
# shellcheck source=local-base/podman-env.sh
source "$here/local-base/podman-env.sh"
base=docker.io/library/node:24-bookworm-slim
if ! podman image exists "$base" || [[ -n $(podman image inspect --format '{{index .Labels "io.agent-chat.local-base-inputs"}}' "$base") ]]; then
  bash "$here/local-base/build-base-images.sh" >/dev/null
fi

# The build context is what .dockerignore lets through; hash exactly those files.
inputs() {
  cd "$root"
  {
    printf '%s\n' package.json package-lock.json tsconfig.json tsconfig.build.json scripts/ensure-built.js
    find src deploy/container -type f ! -name '*.spec.ts' | LC_ALL=C sort
  } | while read -r file; do printf '%s\0' "$file" && cat "$file"; done
  cat deploy/Containerfile .dockerignore
  podman image inspect --format '{{.Id}}' "$base"
}
hash=$(inputs | sha256sum | cut -c1-16)
image=localhost/agent-chat:$hash
if ! podman image exists "$image"; then
  echo "build-image: building $image" >&2
  # --layers=false: no intermediate stage images are kept (the image is rebuilt only when its
  # inputs change, so a layer cache would only take disk).
  podman build --layers=false --format docker --file "$root/deploy/Containerfile" --tag "$image" "$root" >&2
fi
podman tag "$image" localhost/agent-chat:latest
# Builds from older inputs are not needed any more (containers still using one keep it).
podman images --format '{{.Repository}}:{{.Tag}}' localhost/agent-chat | grep -v -e ":latest$" -e ":$hash$" |
  xargs -r podman rmi >/dev/null 2>&1 || true
echo "$image"
