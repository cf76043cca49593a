#!/usr/bin/env bash
# maskd: checks every message the daemon sends during full LSP sessions against the LSP 3.17 types
# of Python's lsprotocol, installed into Tests/lsp-schema/.venv-lsp on first use.
#
# Usage: Tests/lsp-schema/run.sh [MASKD_BINARY]   (default: $MASKD, else .build/debug/maskd)
# Prints one line per failure and ends with "N passed, N failed, N skipped"; exits 1 on any failure.
# When PyPI cannot be reached it prints "skipped: <reason>" and exits 0.
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
binary="${1:-${MASKD:-${MASKD_BINARY:-$root/.build/debug/maskd}}}"
venv="${LSP_SCHEMA_VENV:-$here/.venv-lsp}"

if [ ! -x "$binary" ]; then
  echo "lsp-schema: no maskd binary at $binary (build first, or pass its path or set MASKD)"
  exit 1
fi
# lsprotocol 2023.0.1 is the release generated from the LSP 3.17 meta-model (later ones add 3.18's messages).
pinned=2023.0.1
if ! "$venv/bin/python" -c "import cattrs, importlib.metadata as m; assert m.version('lsprotocol') == '$pinned'" 2>/dev/null; then
  if ! python3 -m venv "$venv" >/dev/null 2>&1 && ! python3 -m venv --without-pip "$venv" >/dev/null 2>&1; then
    echo "skipped: python3 cannot create a virtual environment (install python3-venv)"
    exit 0
  fi
  if ! timeout 300 "$venv/bin/python" -m pip install -q --disable-pip-version-check "lsprotocol==$pinned" cattrs >"$venv/pip.log" 2>&1; then
    echo "skipped: pip could not install lsprotocol and cattrs from PyPI ($(tail -n 1 "$venv/pip.log"))"
    exit 0
  fi
fi
exec "$venv/bin/python" "$here/check_session.py" "$binary"
