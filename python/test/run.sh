#!/usr/bin/env bash
# The Python package's tests: unit tests, a local Dask cluster of two worker processes and Spark local[2], each
# against the checkout's maskd ($MASKD, default .build/debug/maskd). The engines come from PyPI into a venv cached
# in ~/.cache/maskd/python-data, installed quietly and only when missing; the package is installed from ./python
# into it as a user would (pip install ./python). Ends with pytest's "N passed" line.
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
package="$(dirname "$here")"
root="$(dirname "$package")"
export MASKD="${MASKD:-$root/.build/debug/maskd}"
[ -x "$MASKD" ] || { echo "python: no maskd binary at $MASKD (build first or set MASKD)"; exit 1; }

venv="${MASKD_PYTHON_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/maskd/python-data}"
# Dask and distributed are released together and must match; the rest as pip resolves them.
wanted="pytest==9.2.0 pandas==3.1.1 pyarrow==26.0.1 dask[dataframe]==2026.8.0 distributed==2026.8.0 pyspark==4.3.0"
if [ "$(cat "$venv/.wanted" 2>/dev/null)" != "$wanted" ]; then
  python3 -m venv "$venv" || exit 1
  # shellcheck disable=SC2086
  "$venv/bin/pip" install -q --disable-pip-version-check $wanted || { echo "python: could not install $wanted"; exit 1; }
  echo "$wanted" >"$venv/.wanted"
fi
"$venv/bin/pip" install -q --disable-pip-version-check --no-deps --force-reinstall "$package" >/dev/null \
  || { echo "python: pip install ./python failed"; exit 1; }

# Spark needs Java; Debian's default JRE is installed when missing.
if ! command -v java >/dev/null 2>&1; then
  sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends default-jre-headless >/dev/null
fi

cd "$package" && exec "$venv/bin/python" -m pytest -q -p no:cacheprovider tests
