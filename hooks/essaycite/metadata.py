"""The essay's bibliographic metadata, kept once in mkdocs.yml, and its sections."""

from __future__ import annotations

import datetime
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote, urljoin, urlsplit


class MetadataError(ValueError):
    """A metadata setting is missing or malformed; the message names the setting."""


@dataclass(frozen=True)
class Person:
    family: str
    given: str = ""

    @classmethod
    def parse(cls, name: str) -> Person:
        """"Family, Given" as written; otherwise the last word is taken as the family name."""
        name = " ".join(name.split())
        if "," in name:
            family, given = (part.strip() for part in name.split(",", 1))
        else:
            given, _, family = name.rpartition(" ")
        if not family:
            raise MetadataError(f"site_author: cannot read a family name from {name!r}")
        return cls(family, given)

    @property
    def display(self) -> str:
        return f"{self.given} {self.family}".strip()

    @property
    def inverted(self) -> str:
        return f"{self.family}, {self.given}" if self.given else self.family


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
    # None when the essay names no author: each style then applies its rule for
    # works without one, instead of printing a name the text does not carry.
    author: Person | None = None
    language: str = "en"
    description: str = ""
    # Words that APA's sentence case must leave capitalised (names such as "Blackwell").
    proper_nouns: tuple[str, ...] = ()

    def __post_init__(self):
        if not self.title.strip():
            raise MetadataError("extra.essay.title: the essay needs a title")
        if isinstance(self.published, datetime.datetime) or not isinstance(self.published, datetime.date):
            raise MetadataError(f"extra.essay.published: expected a date, got {self.published!r}")
        if isinstance(self.edition, bool) or not isinstance(self.edition, int) or self.edition < 1:
            raise MetadataError(f"extra.essay.edition: expected a whole number of 1 or more, got {self.edition!r}")
        parts = urlsplit(self.url)
        if parts.scheme not in ("http", "https") or not parts.netloc or not self.url.endswith("/"):
            raise MetadataError(f"site_url: expected an absolute http(s) address ending in '/', got {self.url!r}")

    @property
    def imprint(self) -> str:
        """A line for the page footer: the author when there is one, the date, the edition."""
        byline = f"{self.author.display} · " if self.author else ""
        return f"{byline}published {self.published.isoformat()} · edition {self.edition}"

    def url_for(self, path: str = "", anchor: str | None = None) -> str:
        """The absolute URL of a page of the site (MkDocs' `page.url`, such as "context/")."""
        # A leading slash would drop the site's own path (https://host/essay/) from the join.
        url = urljoin(self.url, path.lstrip("/"))
        if anchor:
            url += "#" + quote(anchor, safe="-._~!$&'()*+,;=:@/?")
        return url

    def part(self, title: str, path: str = "", anchor: str | None = None) -> Part:
        return Part(title, self.url_for(path, anchor))

    def message(self, number: int, path: str = "transcript/") -> Part:
        """Message `number` of the transcript, at its permanent address on the transcript
        page `path` (MkDocs' `page.url` of the page that holds it)."""
        return Part(f"Message {number} of the Session Transcript", self.url_for(path, f"msg-{number}"),
                    short_title=f"Message {number}", by_author=False)

    @classmethod
    def from_config(cls, config: Mapping[str, Any]) -> EssayMetadata:
        """Read the metadata from MkDocs' configuration, or the same keys in a plain dict.

        Used: site_name, site_author, site_url, site_description, theme.language, and
        under extra.essay: title, published, edition, and optionally language and
        proper_nouns. No site_author, or an empty one, means the essay is unsigned.
        """
        essay = (config.get("extra") or {}).get("essay") or {}
        if not isinstance(essay, Mapping):
            raise MetadataError("extra.essay: expected a mapping of the essay's metadata")
        theme = config.get("theme")
        theme_language = theme.get("language") if isinstance(theme, Mapping) else None
        site_url = config.get("site_url")
        if not site_url:
            raise MetadataError("site_url: set the site's public address; citations need absolute URLs")
        author = str(config.get("site_author") or "").strip()
        return cls(
            title=_required_text(essay, "title"),
            published=_as_date(essay.get("published")),
            edition=_as_edition(essay.get("edition")),
            url=str(site_url) if str(site_url).endswith("/") else f"{site_url}/",
            site_name=str(config.get("site_name") or "").strip() or _required_text(essay, "title"),
            author=Person.parse(author) if author else None,
            language=str(essay.get("language") or theme_language or "en"),
            description=" ".join(str(config.get("site_description") or "").split()),
            proper_nouns=tuple(str(word) for word in essay.get("proper_nouns") or ()),
        )


def _required_text(essay: Mapping[str, Any], key: str) -> str:
    value = essay.get(key)
    if not isinstance(value, str) or not value.strip():
        raise MetadataError(f"extra.essay.{key}: required, as text")
    return " ".join(value.split())


def _as_date(value: Any) -> datetime.date:
    # YAML reads an unquoted 2026-12-02 as a date; a quoted one arrives as text.
    if isinstance(value, datetime.datetime):
        return value.date()
    if isinstance(value, datetime.date):
        return value
    if isinstance(value, str):
        try:
            return datetime.date.fromisoformat(value.strip())
        except ValueError:
            pass
    raise MetadataError(f"extra.essay.published: expected a date such as 2026-12-02, got {value!r}")


def _as_edition(value: Any) -> int:
    if isinstance(value, str) and value.strip().isdigit():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise MetadataError(f"extra.essay.edition: expected a whole number of 1 or more, got {value!r}")
    return value
