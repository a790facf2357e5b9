#!/usr/bin/env bash
# Runs the README's test command (or CI_TEST_COMMAND, which the script's own test sets), shows its
# output, then one plain line with jest's counts, and exits with the test command's status: the
# summary is printed whether the tests pass or fail, and a failure still fails CI.
set -uo pipefail
log=$(mktemp /tmp/agent-chat-ci-test.XXXXXX)
bash -c "${CI_TEST_COMMAND:-npm test}" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
summary=$(grep -E '^Tests:' "$log" | tail -1 || true)
passed=$(sed -nE 's/.* ([0-9]+) passed.*/\1/p' <<<"$summary")
failed=$(sed -nE 's/.* ([0-9]+) failed.*/\1/p' <<<"$summary")
rm -f "$log"
echo "tests: ${passed:-0} passed, ${failed:-0} failed (exit status ${status})"
exit "$status"
