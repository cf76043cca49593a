#!/usr/bin/env bash
# Runs the Emacs plugin's tests in a real batch Emacs against a maskd binary.
#   editors/emacs/test/run.sh
# MASKD: the daemon to test (default: .build/debug/maskd of this repository).
# Suites: byte-compilation and checkdoc of the package, the ert typing tests with jsonrpc.el
# (emacs -Q) and with eglot (no -Q: Debian's elpa-eglot is on the site-lisp load-path), and
# the shared vectors through both. Each runs under `timeout`; the script exits non-zero on
# any failure or hang, and its last line is "N passed, N failed, N skipped".
set -u

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
plugin="$(cd "$here/.." && pwd)"
root="$(cd "$here/../../.." && pwd)"
export MASKD="${MASKD:-$root/.build/debug/maskd}"
limit="${MASKD_TEST_LIMIT:-300}"

need=()
command -v emacs >/dev/null || need+=(emacs-nox)
[ -d /usr/share/emacs/site-lisp/elpa/eglot-1.9 ] || ls -d /usr/share/emacs/site-lisp/elpa/eglot-* >/dev/null 2>&1 || need+=(elpa-eglot)
if [ "${#need[@]}" -gt 0 ]; then
  echo "run.sh: installing ${need[*]} from Debian"
  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}") >/dev/null || {
    echo "run.sh: cannot install ${need[*]}" >&2
    exit 2
  }
fi
if [ ! -x "$MASKD" ]; then
  echo "run.sh: no maskd binary at $MASKD (build it with 'swift build', or set MASKD)" >&2
  exit 2
fi
case "$MASKD" in /*) ;; *) MASKD="$(cd "$(dirname "$MASKD")" && pwd)/$(basename "$MASKD")" ;; esac

echo "emacs: $(emacs --version | head -n 1); maskd: $MASKD"

passed=0
failed=0
skipped=0
logs="$(mktemp -d)"
trap 'rm -rf "$logs"' EXIT

# run NAME COMMAND...: runs one suite under timeout. The suite prints
# "LABEL: N passed, N failed, N skipped" on stdout; its stderr (Emacs's messages, ert's
# report) is shown when it fails.
run() {
  local name="$1"
  shift
  echo "== $name"
  # With SIGPIPE ignored: batch Emacs takes its default action, so a keystroke written to a daemon a test has just
  # killed ended the whole Emacs (exit 141), where a person's Emacs gets EPIPE and closes the process, which the
  # plugin then restarts.
  (cd "$here" && trap '' PIPE && timeout --kill-after=5 "$limit" "$@" </dev/null >"$logs/out" 2>"$logs/err")
  local rc=$?
  grep -v '^ok  ' "$logs/out"
  local summary
  summary="$(grep -E ': [0-9]+ passed, [0-9]+ failed, [0-9]+ skipped$' "$logs/out" | tail -n 1)"
  local p=0 f=0 s=0
  if [ -n "$summary" ]; then
    p="$(sed -E 's/.*: ([0-9]+) passed.*/\1/' <<<"$summary")"
    f="$(sed -E 's/.* ([0-9]+) failed.*/\1/' <<<"$summary")"
    s="$(sed -E 's/.* ([0-9]+) skipped$/\1/' <<<"$summary")"
  fi
  if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
    echo "FAIL  $name: Emacs hung (killed after ${limit}s)"
    f=$((f + 1))
  elif [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
    echo "FAIL  $name: exit code $rc"
    f=$((f + 1))
  fi
  if [ "$f" -ne 0 ]; then
    # Each failed test's condition on one line, so that a summary keeping only FAIL lines says why.
    awk '/^Test .* condition:$/ { name = $2; why = ""; grab = 1; next }
         grab && /^   [A-Z]+ / { print "FAIL  " name ": " substr(why, 2, 400); grab = 0; next }
         grab { sub(/^ +/, " "); why = why $0 }' "$logs/err"
    echo "-- Emacs messages (last 60 lines):"
    grep -v '^\[eglot\]' "$logs/err" | tail -n 60
  fi
  passed=$((passed + p))
  failed=$((failed + f))
  skipped=$((skipped + s))
}

# The package itself: it byte-compiles without a warning and checkdoc finds nothing.
lint() {
  local what="$1" form="$2"
  echo "== $what"
  local out
  out="$(cd "$plugin" && timeout 60 emacs --batch -L . --eval "$form" maskd.el maskd-eglot.el 2>&1 |
    grep -v -e '^Loading' -e '^Entering' -e '^Leaving' -e '^== ')"
  if [ -n "$out" ]; then
    echo "$out"
    echo "FAIL  $what"
    failed=$((failed + 1))
  else
    echo "ok"
    passed=$((passed + 1))
  fi
}

lint "byte-compile" '(progn (dolist (f command-line-args-left) (byte-compile-file f) (delete-file (byte-compile-dest-file f))) (setq command-line-args-left nil))'
lint "checkdoc" '(progn (require (quote checkdoc)) (dolist (f command-line-args-left) (checkdoc-file f)) (setq command-line-args-left nil))'

run "ert: maskd-mode (jsonrpc.el)" emacs --batch -Q -l maskd-tests.el -f maskd-test-run-jsonrpc
run "ert: eglot" emacs --batch -l maskd-tests.el -f maskd-test-run-eglot
run "vectors: maskd-mode (jsonrpc.el)" emacs --batch -Q -l maskd-vectors.el -f maskd-vectors-run
run "vectors: eglot" emacs --batch -l maskd-vectors.el -f maskd-vectors-run-eglot

echo
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
