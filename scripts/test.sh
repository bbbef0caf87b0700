#!/usr/bin/env bash
# Install the site's and the tests' requirements into .venv, then run every test.
# Arguments go to pytest (for example: -k build, or -x).
set -euo pipefail
if [ "${1:-}" = "--help" ] || [ "${1:-}" = "-h" ]; then
  sed -n '2,3p' "$0" | sed 's/^# \{0,1\}//'
  exit 0
fi
cd "$(dirname "$0")/.."
source scripts/venv.sh requirements-test.txt
exec .venv/bin/python -m pytest "$@"
