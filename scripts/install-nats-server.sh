#!/usr/bin/env bash
# Provides a current nats-server (≥ 2.12) for the tests, the bench and the docs' commands, in
# .tools/nats-server/ (git-ignored), without touching the machine's own packages or its nats-server.
#
# Why: Debian stable ships 2.9.10, whose replicas can be elected leader before they caught up and so
# lose acknowledged writes and fork the stream (fixed upstream in 2.12; docs/scaling.md). Debian's
# unstable suite carries a current one whose binary needs only libc ≥ 2.34. It is fetched with apt,
# from a private apt state (its own source list and package lists under .tools/apt), and unpacked with
# dpkg-deb: Debian's package, checked by apt's signatures, never a download from elsewhere.
#
# Idempotent: a no-op when .tools/nats-server/nats-server already answers with a current version.
# Prints the path of the binary on its last line. NATS_SERVER_BIN overrides everything (a binary
# the operator provides); it must be current too.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
dest="$root/.tools/nats-server"
bin="$dest/nats-server"
MIN_MINOR=12 # 2.12: the first release with the replica catch-up / leader election fix

current() { # prints the version of $1 when it is ≥ 2.MIN_MINOR, fails otherwise
  local v
  v=$("$1" --version 2>/dev/null | sed -nE 's/^nats-server: v([0-9]+\.[0-9]+\.[0-9]+).*/\1/p') || return 1
  [[ -n $v ]] || return 1
  local major=${v%%.*} rest=${v#*.}
  local minor=${rest%%.*}
  ((major > 2 || (major == 2 && minor >= MIN_MINOR))) || return 1
  echo "$v"
}

if [[ -n ${NATS_SERVER_BIN:-} ]]; then
  current "$NATS_SERVER_BIN" >/dev/null || {
    echo "install-nats-server: NATS_SERVER_BIN=$NATS_SERVER_BIN is not nats-server ≥ 2.$MIN_MINOR" >&2
    exit 1
  }
  echo "$NATS_SERVER_BIN"
  exit 0
fi
if [[ -x $bin ]] && current "$bin" >/dev/null; then
  echo "$bin"
  exit 0
fi

apt_state="$root/.tools/apt"
mkdir -p "$apt_state/lists/partial" "$apt_state/cache/archives/partial" "$dest"
cat >"$apt_state/sources.list" <<'LIST'
deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian unstable main
LIST
apt_opts=(
  -o "Dir::Etc::SourceList=$apt_state/sources.list" -o Dir::Etc::SourceParts=/dev/null
  -o "Dir::State::Lists=$apt_state/lists" -o "Dir::Cache=$apt_state/cache"
  -o APT::Sandbox::User=root -qq
)
apt-get "${apt_opts[@]}" update >/dev/null
version=$(apt-cache "${apt_opts[@]}" policy nats-server | sed -nE 's/^ +Candidate: (.*)$/\1/p')
[[ -n $version && $version != "(none)" ]] || {
  echo "install-nats-server: Debian unstable lists no nats-server package" >&2
  exit 1
}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$work" && apt-get "${apt_opts[@]}" download "nats-server=$version" >/dev/null)
dpkg-deb -x "$work"/nats-server_*.deb "$work/root"
install -m 0755 "$work/root/usr/sbin/nats-server" "$bin.new"
got=$(current "$bin.new") || {
  echo "install-nats-server: Debian's nats-server $version is older than 2.$MIN_MINOR" >&2
  rm -f "$bin.new"
  exit 1
}
mv "$bin.new" "$bin"
echo "install-nats-server: nats-server $got (Debian unstable $version) in .tools/nats-server" >&2
echo "$bin"
