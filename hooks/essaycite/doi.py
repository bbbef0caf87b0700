"""The essay's DOI: read from the ways authors write one, kept in its bare form."""

from __future__ import annotations

import re

RESOLVER = "https://doi.org/"
# "10.", a registrant code of digits and dots, "/", a suffix of printable ASCII without
# spaces, braces or backslashes: BibTeX counts braces and LaTeX reads a backslash, and
# registration agencies recommend suffixes of ASCII alone.
_DOI_RE = re.compile(r"10\.[0-9]+(?:\.[0-9]+)*/[!-\[\]-z|~]+")
# The prefixes a DOI is copied with: its address at a resolver, or the `doi:` scheme.
_PREFIX_RE = re.compile(r"^(?:https?://(?:dx\.)?doi\.org/|doi:)", re.IGNORECASE)


def bare_doi(text: str) -> str | None:
    """`text` as a bare DOI ("10.5281/zenodo.1234567"), also when given as its address
    (https://doi.org/10.…) or as doi:10.…; None if it is no DOI."""
    doi = _PREFIX_RE.sub("", text.strip(), count=1)
    return doi if _DOI_RE.fullmatch(doi) else None


def doi_url(doi: str) -> str:
    """The DOI's address at the DOI resolver, as the citation styles print it."""
    return RESOLVER + doi
