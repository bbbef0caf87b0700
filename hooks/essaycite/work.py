"""The one record every citation is made from: the essay, a section or a message as a work.

Each format (the APA, MLA and Chicago strings, BibTeX, biblatex, RIS, CSL-JSON) reads
the same `Work`, so that what a reader copies and what a reference manager imports name
the same title, container, author, edition, date and address.
"""

from __future__ import annotations

import datetime
import re
from dataclasses import dataclass

from .doi import doi_url
from .metadata import Author, EssayMetadata, Part


@dataclass(frozen=True)
class Work:
    key: str  # the citation key, also the CSL-JSON id
    title: str
    short_title: str  # what author-date styles cite an unsigned work by
    url: str
    # The website the work is part of: the essay, for a section or a message; for the
    # essay, the site when its name is more than the essay's own short title.
    container: str | None
    authors: tuple[Author, ...]  # none for an unsigned essay, or for a message
    edition: int
    published: datetime.date
    language: str
    # The essay's DOI, for the essay alone: a DOI names the work it was registered for,
    # and a part cited by it would be taken for the whole (reference managers merge by DOI).
    doi: str | None = None

    @property
    def address(self) -> str:
        """What the styles end the citation with: the DOI's address, else the work's URL."""
        return doi_url(self.doi) if self.doi else self.url


def ordinal(n: int) -> str:
    suffix = "th" if n % 100 in (11, 12, 13) else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def site_is_title(meta: EssayMetadata) -> bool:
    """Whether the site's name is only the essay's (short) title, so naming it adds nothing."""
    site, title = meta.site_name.casefold(), meta.title.casefold()
    return site == title or title.startswith(site + ":")


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def citation_key(meta: EssayMetadata, part: Part | None = None) -> str:
    """A stable key: the site's name and year, the edition after the first, and for a part
    its place in the site ("the-silence-that-speaks-2026-context", "…-2027-ed2-context",
    "…-transcript-msg-5855")."""
    key = f"{_slug(meta.site_name) or 'essay'}-{meta.published.year}"
    if meta.edition > 1:  # each edition a work of its own: reference managers merge entries by key
        key += f"-ed{meta.edition}"
    if part:
        place = part.url[len(meta.url):] if part.url.startswith(meta.url) else ""
        key += "-" + (_slug(place) or _slug(part.title) or "part")
    return key


def work(meta: EssayMetadata, part: Part | None = None) -> Work:
    """The essay (no part), or one of its parts, as a work published on the essay's site."""
    container: str | None = meta.title
    if part is None:
        container = None if site_is_title(meta) else meta.site_name
    return Work(
        key=citation_key(meta, part),
        title=part.title if part else meta.title,
        short_title=part.short if part else meta.title.split(":", 1)[0].strip(),
        url=part.url if part else meta.url,
        container=container,
        authors=meta.authors if part is None or part.by_author else (),
        edition=meta.edition,
        published=meta.published,
        language=meta.language,
        doi=None if part else meta.doi,
    )
