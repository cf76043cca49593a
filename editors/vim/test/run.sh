#!/usr/bin/env bash
# Runs the Vim plugin's tests in a real Vim against a maskd binary.
#   editors/vim/test/run.sh [test/some_tests.vim ...]
# MASKD: the daemon to test (default: .build/debug/maskd of this repository).
# MASKD_TEST_LIMIT: seconds each test file may take (default 300).
# Every *_tests.vim file runs under `timeout` as `vim -N -u NONE -i NONE -es -S FILE`, writes
# its results to a log that is printed here, and ends with "result: N passed, N failed,
# N skipped".  terminal_tests.py drives an interactive Vim through a pseudo-terminal (the
# path a person takes, without -es) and reports the same way; it is skipped without python3.
# The script exits non-zero on any failure, crash or hang, and its last line is
# "N passed, N failed, N skipped" over all files.
set -u

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
MASKD="${MASKD:-$root/.build/debug/maskd}"
limit="${MASKD_TEST_LIMIT:-300}"

command -v vim >/dev/null || (apt-get update -qq && apt-get install -y -qq vim) || {
  echo "run.sh: cannot install vim" >&2
  exit 2
}
if ! vim --version | grep -q '+channel'; then
  echo "run.sh: this vim has no +channel (install Debian's 'vim' package)" >&2
  exit 2
fi
if [ ! -x "$MASKD" ]; then
  echo "run.sh: no maskd binary at $MASKD (build it with 'swift build', or set MASKD)" >&2
  exit 2
fi
case "$MASKD" in /*) ;; *) MASKD="$(cd "$(dirname "$MASKD")" && pwd)/$(basename "$MASKD")" ;; esac
export MASKD
# The tests type UTF-8; Vim takes its 'encoding' from the locale.
export LANG=C.UTF-8 LC_ALL=C.UTF-8

echo "vim: $(vim --version | head -n 1); maskd: $MASKD"
if [ "$#" -gt 0 ]; then files=("$@"); else files=("$here"/*_tests.vim "$here"/*_tests.py); fi

passed=0
failed=0
skipped=0
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
for file in "${files[@]}"; do
  name="$(basename "$file")"
  echo "== $name"
  log="$tmp/$name.log"
  : >"$log"
  case "$file" in
    *.py)
      if ! command -v python3 >/dev/null; then
        echo "skip  $name: no python3"
        skipped=$((skipped + 1))
        continue
      fi
      MASKD_TEST_LOG="$log" timeout --kill-after=5 "$limit" python3 "$file" </dev/null >"$tmp/$name.out" 2>&1
      ;;
    *)
      # stdin from /dev/null: Vim must never wait for a terminal.
      MASKD_TEST_LOG="$log" timeout --kill-after=5 "$limit" \
        vim -N -u NONE -i NONE -es -S "$file" </dev/null >"$tmp/$name.out" 2>&1
      ;;
  esac
  rc=$?
  cat "$log"
  result="$(grep -E '^result: [0-9]+ passed, [0-9]+ failed, [0-9]+ skipped$' "$log" | tail -n 1)"
  if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
    echo "FAIL  $name: hung (killed after ${limit}s)"
    failed=$((failed + 1))
  elif [ -z "$result" ]; then
    echo "FAIL  $name: no result line (exit code $rc)"
    [ -s "$tmp/$name.out" ] && tr '\r' '\n' <"$tmp/$name.out" | tail -n 20
    failed=$((failed + 1))
  fi
  if [ -n "$result" ]; then
    read -r p f s <<<"$(echo "$result" | sed -E 's/^result: ([0-9]+) passed, ([0-9]+) failed, ([0-9]+) skipped$/\1 \2 \3/')"
    passed=$((passed + p))
    failed=$((failed + f))
    skipped=$((skipped + s))
    if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ] && [ "$rc" -ne 124 ] && [ "$rc" -ne 137 ]; then
      echo "FAIL  $name: exit code $rc"
      failed=$((failed + 1))
    fi
  fi
done
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
