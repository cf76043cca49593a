#!/usr/bin/env bash
# maskd: the plain-client mode in real LSP clients without a maskd plugin: Neovim's built-in client
# and Emacs eglot, each when installed; and a .maskd.json field rule and closing a padFraction field in Neovim's client. Ends with "N passed, N failed, N skipped"; exits 1 on failure.
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
export MASKD="${MASKD:-$root/.build/debug/maskd}"
if [ ! -x "$MASKD" ]; then
  echo "editors/plain: no maskd binary at $MASKD (build first or set MASKD)"
  exit 1
fi
passed=0 failed=0 skipped=0

if command -v nvim >/dev/null; then
  for script in nvim_plain.lua nvim_rules.lua nvim_close.lua; do
    if (cd "$here" && timeout 60 nvim --headless --clean -u "$script"); then
      passed=$((passed + 1))
    else
      failed=$((failed + 1))
    fi
  done
  # Neovim 0.11's own set-up (vim.lsp.enable), with the plugin's lsp/maskd.lua and with a person's vim.lsp.config.
  if nvim --headless --clean -c 'if has("nvim-0.11") | qall! | else | cquit | endif' 2>/dev/null; then
    for setup in enable config; do
      if (cd "$here" && MASKD_SETUP=$setup timeout 60 nvim --headless --clean -u nvim_enable.lua); then
        passed=$((passed + 1))
      else
        failed=$((failed + 1))
      fi
    done
  else
    echo "skipped: vim.lsp.enable needs Neovim 0.11 ($(nvim --version | head -n 1))"
    skipped=$((skipped + 2))
  fi
else
  echo "skipped: nvim is not installed"
  skipped=$((skipped + 5))
fi

if command -v emacs >/dev/null && emacs --batch --eval '(kill-emacs (if (require (quote eglot) nil t) 0 1))' 2>/dev/null; then
  if (cd "$here" && timeout 60 emacs --batch -l eglot_plain.el 2>&1 | grep -E "^(PASS|FAIL)"; exit "${PIPESTATUS[0]}"); then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
  fi
else
  echo "skipped: emacs with eglot is not installed (Debian: apt-get install elpa-eglot)"
  skipped=$((skipped + 1))
fi

echo "editors/plain ($(command -v nvim >/dev/null && nvim --version | head -n 1)): $passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
