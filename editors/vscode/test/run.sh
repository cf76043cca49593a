#!/usr/bin/env bash
# Runs the VS Code extension's tests (node --test) against a maskd binary.
#   editors/vscode/test/run.sh [test/file.test.js ...]
# MASKD: the daemon to test (default: .build/debug/maskd of this repository).
# MASKD_TEST_LIMIT: seconds before the run counts as hung (default 300).
# The last line is "N passed, N failed"; the exit code is non-zero on any failure or hang.
set -u

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
extension="$(cd "$here/.." && pwd)"
root="$(cd "$extension/../.." && pwd)"
export MASKD="${MASKD:-$root/.build/debug/maskd}"
case "$MASKD" in /*) ;; *) MASKD="$(cd "$(dirname "$MASKD")" && pwd)/$(basename "$MASKD")" ;; esac
limit="${MASKD_TEST_LIMIT:-300}"

if ! command -v node >/dev/null; then
  echo "run.sh: node is not installed" >&2
  echo "0 passed, 1 failed"
  exit 2
fi
if [ ! -x "$MASKD" ]; then
  echo "run.sh: no maskd binary at $MASKD (build it with 'swift build --product maskd', or set MASKD)" >&2
  echo "0 passed, 1 failed"
  exit 2
fi

echo "node: $(node --version); maskd: $MASKD ($("$MASKD" --version 2>/dev/null))"
cd "$extension" || exit 2
if [ "$#" -gt 0 ]; then files=("$@"); else files=(test/*.test.js); fi

tap="$(mktemp)"
trap 'rm -f "$tap"' EXIT
# Human-readable progress on stdout; TAP into a file, for the counts.
timeout --kill-after=5 "$limit" node --test \
  --test-reporter=spec --test-reporter-destination=stdout \
  --test-reporter=tap --test-reporter-destination="$tap" \
  "${files[@]}"
rc=$?

count() { sed -n "s/^# $1 \([0-9][0-9]*\)$/\1/p" "$tap" | tail -n 1; }
passed="$(count pass)"
failed="$(count fail)"
skipped="$(count skipped)"
cancelled="$(count cancelled)"
if [ -z "$passed" ]; then
  # No summary: node was killed. Count the results it reported.
  passed="$(grep -c '^ok ' "$tap")"
  failed="$(grep -c '^not ok ' "$tap")"
  skipped=0
  cancelled=0
fi
failed=$((failed + ${cancelled:-0}))
if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
  echo "FAIL: the tests hung (killed after ${limit}s)"
  failed=$((failed + 1))
elif [ "$rc" -ne 0 ] && [ "$failed" -eq 0 ]; then
  echo "FAIL: node --test exited with code $rc"
  failed=1
fi
# Skipped tests are vector cases VS Code cannot express; test/vectors.test.js prints why.
echo "skipped: ${skipped:-0} (neither passed nor failed)"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
