#!/usr/bin/env bash
# Install the programs the tests drive, from Debian's packages, when they are missing:
# chromium (browser tests, PDF), poppler-utils (pdftotext, to read the PDF back),
# Node.js with npm (Lighthouse, axe-core, citeproc-js), and for the BibTeX downloads
# bibtex with natbib's styles, biber, and LaTeX with biblatex to typeset them.
# Sourced by test.sh; needs root or sudo. Waits, for a bounded time, while another install
# holds the package manager's lock.
set -euo pipefail

missing=()
command -v chromium >/dev/null || missing+=(chromium)
command -v pdftotext >/dev/null || missing+=(poppler-utils)
command -v npm >/dev/null || missing+=(nodejs npm)
command -v bibtex >/dev/null && command -v pdflatex >/dev/null || missing+=(texlive-base texlive-latex-base)
command -v biber >/dev/null || missing+=(biber)
# plainnat.bst and biblatex come with texlive-bibtex-extra; biblatex needs etoolbox.
kpsewhich plainnat.bst biblatex.sty >/dev/null 2>&1 || missing+=(texlive-bibtex-extra)
kpsewhich etoolbox.sty >/dev/null 2>&1 || missing+=(texlive-latex-recommended)

as_root=""
[ "$(id -u)" -eq 0 ] || as_root="sudo"

# apt-get with its arguments, waiting while another install holds the package manager's
# lock (an upgrade started at boot, a second terminal): up to APT_LOCK_WAIT seconds
# (default 300), saying so once, then giving up with one line.
apt_get_waiting() {
  local waited=0 limit="${APT_LOCK_WAIT:-300}" errors
  while true; do
    if errors=$(DEBIAN_FRONTEND=noninteractive $as_root apt-get "$@" 2>&1 >/dev/null); then
      return 0
    fi
    if ! grep -qE "Could not get lock|Unable to acquire|Unable to lock" <<<"$errors"; then
      echo "$errors" >&2
      return 1
    fi
    if [ "$waited" -ge "$limit" ]; then
      echo "apt-get: another install still holds the package manager's lock after ${limit} s;" \
        "run this again once it has finished (APT_LOCK_WAIT=SECONDS waits longer)" >&2
      return 1
    fi
    if [ "$waited" -eq 0 ]; then
      echo "Waiting for another install to let go of the package manager's lock (up to ${limit} s)..." >&2
    fi
    sleep 2
    waited=$((waited + 2))
  done
}

if [ ${#missing[@]} -gt 0 ]; then
  echo "Installing ${missing[*]} with apt-get" >&2
  apt_get_waiting update -qq
  apt_get_waiting install -y -qq "${missing[@]}"
fi
