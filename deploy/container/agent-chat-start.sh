#!/bin/sh
# The image's command: what `npm start` does (scripts/start.sh), without npm (no second process, no
# build check; dist/ is built into the image). The configuration is checked first with the service's
# own rules, because CHAT_HEAP_MB becomes node's --max-old-space-size and node acts on that before the
# service can validate it (`abc` is a bad option, `10` crashes V8). `exec` replaces this shell, so the
# signals tini forwards reach node itself.
set -u
if ! options=$(node /app/dist/node-options.cli.js); then
  printf '%s\n' "$options"
  exit 1
fi
# shellcheck disable=SC2086 # separate, validated flags
exec node $options /app/dist/main.js "$@"
