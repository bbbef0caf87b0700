"""The essay's bibliographic metadata, kept once in mkdocs.yml, and its sections."""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from urllib.parse import quote, urljoin, urlsplit

from .authors import Author, Organisation, Person, in_prose
from .doi import bare_doi

__all__ = ["Author", "EssayMetadata", "MetadataError", "Organisation", "Part", "Person"]


class MetadataError(ValueError):
    """A metadata setting is missing or malformed; the message names the setting."""


@dataclass(frozen=True)
class Part:
    """A part of the essay: a section (a page, its URL, or a heading on a page, URL +
    "#anchor"), a paragraph, or a message of the transcript."""

    title: str
    url: str
    # The short form of the title: what author-date styles cite an unsigned work by.
    short_title: str = ""
    # False for a message: its words are the session's, not the essay's author's.
    by_author: bool = True

    @property
    def short(self) -> str:
        return self.short_title or self.title.split(":", 1)[0].strip() or self.title


@dataclass(frozen=True)
class EssayMetadata:
    title: str
    published: datetime.date
    edition: int
    url: str  # the essay's own address: the site's home page
    site_name: str
    # In the order the work names them. None when the essay is unsigned: each style then
    # applies its rule for works without an author, instead of printing a name the text
    # does not carry.
    authors: tuple[Author, ...] = ()
    language: str = "en"
    description: str = ""
    # Words that APA's sentence case must leave capitalised (names such as "Blackwell").
    proper_nouns: tuple[str, ...] = ()
    doi: str | None = None  # the whole essay's, bare: 10.5281/zenodo.1234567

    def __post_init__(self) -> None:
        if not self.title.strip():
            raise MetadataError("extra.essay.title: the essay needs a title")
        if isinstance(self.published, datetime.datetime) or not isinstance(self.published, datetime.date):
            raise MetadataError(f"extra.essay.published: expected a date, got {self.published!r}")
        if isinstance(self.edition, bool) or not isinstance(self.edition, int) or self.edition < 1:
            raise MetadataError(f"extra.essay.edition: expected a whole number of 1 or more, got {self.edition!r}")
        parts = urlsplit(self.url)
        if parts.scheme not in ("http", "https") or not parts.netloc or not self.url.endswith("/"):
            raise MetadataError(f"site_url: expected an absolute http(s) address ending in '/', got {self.url!r}")
        if self.doi is not None and bare_doi(self.doi) != self.doi:
            raise MetadataError(f"extra.essay.doi: expected a DOI such as 10.5281/zenodo.1234567, got {self.doi!r}")

    @property
    def imprint(self) -> str:
        """A line for the page footer: the author when there is one, the date, the edition."""
        byline = f"{self.byline} · " if self.authors else ""
        return f"{byline}published {self.published.isoformat()} · edition {self.edition}"

    @property
    def byline(self) -> str:
        """The authors as a sentence names them ("Ann Smith and Acme Research, Inc."); "" if none."""
        return in_prose([author.display for author in self.authors]) if self.authors else ""

    def url_for(self, path: str = "", anchor: str | None = None) -> str:
        """The absolute URL of a page of the site (MkDocs' `page.url`, such as "context/")."""
        # A leading slash would drop the site's own path (https://host/essay/) from the join.
        url = urljoin(self.url, path.lstrip("/"))
        if anchor:
            url += "#" + quote(anchor, safe="-._~!$&'()*+,;=:@/?")
        return url

    def part(self, title: str, path: str = "", anchor: str | None = None) -> Part:
        return Part(title, self.url_for(path, anchor))

    def message(self, number: int, path: str = "transcript/", last: int | None = None) -> Part:
        """Message `number` of the transcript, at its permanent address on the transcript
        page `path` (MkDocs' `page.url` of the page that holds it); or with `last`, the
        messages `number` to `last`, at their range's address on that page."""
        if last is not None:
            return Part(f"Messages {number}\u2013{last} of the Session Transcript",
                        self.url_for(path, f"msg-{number}-{last}"), short_title=f"Messages {number}\u2013{last}",
                        by_author=False)
        return Part(f"Message {number} of the Session Transcript", self.url_for(path, f"msg-{number}"),
                    short_title=f"Message {number}", by_author=False)
