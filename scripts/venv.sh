#!/usr/bin/env bash
# Create .venv (if missing), install a requirements file into it, and install this
# project's own packages (hooks/msgref, hooks/essaycite, hooks/sitebuild) in editable
# mode, so that edits to them take effect at once.
# Sourced by serve.sh and test.sh: `source scripts/venv.sh requirements.txt`.
set -euo pipefail

requirements="$1"
python="${PYTHON:-python3}"

if [ ! -x .venv/bin/python ]; then
  if ! "$python" -m venv .venv; then
    echo "Could not create a virtual environment with '$python -m venv'." >&2
    echo "On Debian or Ubuntu: apt-get install python3-venv" >&2
    exit 1
  fi
fi
# Installing only when the requirements or the project's layout changed keeps repeated runs fast.
stamp=".venv/.installed-$(basename "$requirements")"
if [ ! -f "$stamp" ] || [ -n "$(find requirements*.txt pyproject.toml -newer "$stamp")" ]; then
  .venv/bin/python -m pip install --quiet --disable-pip-version-check -r "$requirements"
  .venv/bin/python -m pip install --quiet --disable-pip-version-check --no-deps --editable .
  touch "$stamp"
fi
export NO_MKDOCS_2_WARNING=1  # Material's end-of-life banner, printed at every build
