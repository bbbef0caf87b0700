#!/usr/bin/env bash
# Install the programs the tests drive, from Debian's packages, when they are missing:
# chromium (browser tests, PDF), poppler-utils (pdftotext, to read the PDF back),
# Node.js with npm (Lighthouse, axe-core, citeproc-js), and for the BibTeX downloads
# bibtex with natbib's styles, biber, and LaTeX with biblatex to typeset them.
# Sourced by test.sh; needs root or sudo.
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
if [ ${#missing[@]} -gt 0 ]; then
  as_root=""
  [ "$(id -u)" -eq 0 ] || as_root="sudo"
  echo "Installing ${missing[*]} with apt-get" >&2
  $as_root apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $as_root apt-get install -y -qq "${missing[@]}" >/dev/null
fi
