#!/usr/bin/env bash
# Install what the tests need (Python packages into .venv, chromium and pdftotext from
# Debian's packages), then run every test.
# Arguments go to pytest (for example: -k build, or -x).
set -euo pipefail
if [ "${1:-}" = "--help" ] || [ "${1:-}" = "-h" ]; then
  sed -n '2,4p' "$0" | sed 's/^# \{0,1\}//'
  exit 0
fi
cd "$(dirname "$0")/.."
source scripts/system-deps.sh
source scripts/venv.sh requirements-test.txt
exec .venv/bin/python -m pytest "$@"
