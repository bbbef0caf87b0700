#!/usr/bin/env bash
# Install the site's requirements into .venv, then serve the site on http://127.0.0.1:8000/
# and rebuild it whenever a page or the transcript changes.
# Arguments go to `mkdocs serve` (for example: -a 127.0.0.1:8001).
set -euo pipefail
if [ "${1:-}" = "--help" ] || [ "${1:-}" = "-h" ]; then
  sed -n '2,4p' "$0" | sed 's/^# \{0,1\}//'
  exit 0
fi
cd "$(dirname "$0")/.."
source scripts/venv.sh requirements.txt
exec .venv/bin/mkdocs serve "$@"
