#!/bin/sh
# `npm start`: checks the configuration, then replaces this shell with the service (exec: the signals a
# supervisor sends to npm reach node itself). The check runs first because two knobs become node's own
# options (CHAT_HEAP_MB: --max-old-space-size), and node acts on those before the service's validation
# runs: `abc` is a bad node option, `10` crashes V8 out of memory. dist/node-options.cli.js applies the
# service's rules and prints the options, or the service's fatal line (exit 1).
set -u
cd "$(dirname "$0")/.."
if ! options=$(node dist/node-options.cli.js); then
  printf '%s\n' "$options"
  exit 1
fi
# $options is word-split on purpose: it holds separate, validated flags.
# shellcheck disable=SC2086
exec node $options dist/main.js "$@"
