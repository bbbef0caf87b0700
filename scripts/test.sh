#!/usr/bin/env bash
# Install what the tests need (Python packages into .venv, chromium and pdftotext from
# Debian's packages, Lighthouse and axe-core into node_modules), then run every test.
# Arguments go to pytest (for example: -k build, or -x).
set -euo pipefail
if [ "${1:-}" = "--help" ] || [ "${1:-}" = "-h" ]; then
  sed -n '2,4p' "$0" | sed 's/^# \{0,1\}//'
  exit 0
fi
cd "$(dirname "$0")/.."
source scripts/system-deps.sh
source scripts/venv.sh requirements-test.txt
# Lighthouse and axe-core for the browser tests, as package-lock.json pins them.
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm ci --no-audit --no-fund --loglevel=error
fi
export CHROME_PATH="${CHROME_PATH:-/usr/bin/chromium}"
exec .venv/bin/python -m pytest "$@"
