#!/bin/sh
# The image's command: what `npm start` does, without npm (no second process, no build check; dist/
# is built into the image). `exec` replaces this shell, so the signals tini forwards reach node itself.
set -eu
heap=${CHAT_HEAP_MB:-1024}
case $heap in
'' | *[!0-9]*)
  # Checked here because node would otherwise fail on its own flag before the service's validation.
  printf '{"level":"fatal","context":"Main","msg":"invalid configuration: CHAT_HEAP_MB=%s: not a whole number of MiB"}\n' "$heap"
  exit 1
  ;;
esac
exec node --max-old-space-size="$heap" --max-semi-space-size=32 /app/dist/main.js "$@"
