#!/usr/bin/env bash
# Runs the Neovim plugin's tests in a real headless Neovim against a maskd binary.
#   editors/nvim/test/run.sh [spec ...]      (a spec: a path, typing_spec.lua, or typing)
# MASKD: the daemon to test (default: .build/debug/maskd of this repository).
# Each spec runs under `timeout`; the script exits non-zero on any failure or hang.
set -u

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
export MASKD="${MASKD:-$root/.build/debug/maskd}"
limit="${MASKD_TEST_LIMIT:-180}"

sudo=""
[ "$(id -u)" -eq 0 ] || ! command -v sudo >/dev/null || sudo="sudo"
command -v nvim >/dev/null || ($sudo apt-get update -qq && $sudo apt-get install -y -qq neovim) || {
  echo "run.sh: cannot install neovim" >&2
  exit 2
}
if [ ! -x "$MASKD" ]; then
  echo "run.sh: no maskd binary at $MASKD (build it with 'swift build', or set MASKD)" >&2
  exit 2
fi
case "$MASKD" in /*) ;; *) MASKD="$(cd "$(dirname "$MASKD")" && pwd)/$(basename "$MASKD")" ;; esac

echo "nvim: $(nvim --version | head -n 1); maskd: $MASKD"
specs=()
for arg in "$@"; do
  # A spec is a path, or a name in this directory (typing_spec.lua, typing).
  if [ -f "$arg" ]; then specs+=("$arg")
  elif [ -f "$here/$(basename "$arg")" ]; then specs+=("$here/$(basename "$arg")")
  elif [ -f "$here/${arg}_spec.lua" ]; then specs+=("$here/${arg}_spec.lua")
  else echo "run.sh: no spec $arg" >&2; exit 2
  fi
done
[ "${#specs[@]}" -gt 0 ] || specs=("$here"/*_spec.lua)

status=0
total_passed=0 total_failed=0
for spec in "${specs[@]}"; do
  echo "== $(basename "$spec")"
  # stdin from /dev/null: Neovim must never wait for a terminal. The tests report on
  # stdout; stderr carries Neovim's own messages ("1 change; before #3"), shown on failure.
  messages="$(mktemp)"
  report="$(mktemp)"
  timeout --kill-after=5 "$limit" nvim --headless --clean -u "$spec" </dev/null 2>"$messages" | tee "$report"
  rc=${PIPESTATUS[0]}
  # Each spec ends with "N passed, M failed": the totals are this Neovim's counts.
  read -r p f < <(sed -n 's/^\([0-9][0-9]*\) passed, \([0-9][0-9]*\) failed.*/\1 \2/p' "$report" | tail -n 1)
  total_passed=$((total_passed + ${p:-0}))
  total_failed=$((total_failed + ${f:-0}))
  rm -f "$report"
  if [ "$rc" -ne 0 ] && [ -s "$messages" ]; then
    echo "-- Neovim messages:"
    tr '\r' '\n' <"$messages"
    echo
  fi
  rm -f "$messages"
  if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
    echo "FAIL  $(basename "$spec"): Neovim hung (killed after ${limit}s)"
    status=1
  elif [ "$rc" -ne 0 ]; then
    echo "FAIL  $(basename "$spec"): exit code $rc"
    status=1
  fi
done
echo "$(nvim --version | head -n 1): $total_passed passed, $total_failed failed"
if [ "$status" -eq 0 ]; then echo "all Neovim tests passed"; else echo "some Neovim tests FAILED"; fi
exit "$status"
