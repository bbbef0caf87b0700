"""The site's own settings, under `extra` in mkdocs.yml: each defined once, with its type,
its default and its check.

A setting that is not known is an error, with the nearest known name suggested, so that
a misspelt one is not silently ignored. Every problem reads the same way:
`mkdocs.yml: extra.transcript.context: expected a whole number of 0 or more, or all, found -1`.
"""

from __future__ import annotations

import dataclasses
import datetime
import difflib
import re
import reprlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import PurePosixPath
from typing import Any, TypeVar
from urllib.parse import unquote, urlsplit

from essaycite.authors import Author, AuthorError, parse_authors, parse_person
from essaycite.doi import bare_doi
from essaycite.metadata import EssayMetadata
from msgview.hidden_characters import BIDI_RE, hidden_reference


class SettingsError(ValueError):
    """A setting that cannot be used; the message names the file and the setting."""


class _Invalid(ValueError):
    """Raised by a check: what the setting must be."""


# A value a problem names is shown up to this many characters, and up to a few items of
# its lists and mappings, a few levels deep: a value of millions of items, or one YAML's
# aliases made of billions, would otherwise be written out whole.
SHOWN_CHARS = 200
PROBLEM_CHARS = 1_000
_REPR = reprlib.Repr()
_REPR.maxlevel, _REPR.maxstring, _REPR.maxother, _REPR.maxlong = 3, SHOWN_CHARS, SHOWN_CHARS, SHOWN_CHARS
_REPR.maxlist = _REPR.maxtuple = _REPR.maxdict = _REPR.maxset = _REPR.maxfrozenset = 20


def shown(value: object) -> str:
    """`value` as a problem names it: as Python writes it, cut to SHOWN_CHARS characters."""
    written = _REPR.repr(value)
    return written if len(written) <= SHOWN_CHARS else f"{written[: SHOWN_CHARS - 1]}…"


def problem_line(problem: str) -> str:
    """A problem's message cut to PROBLEM_CHARS characters, its start and its end kept:
    whatever it names from the settings or a page, the line stays one to read."""
    if len(problem) <= PROBLEM_CHARS:
        return problem
    return f"{problem[: PROBLEM_CHARS * 2 // 3]} … {problem[-(PROBLEM_CHARS // 3 - 3):]}"


def _setting(default: Any, check: Callable[[Any], Any]) -> Any:
    """A setting's field: its default, and the check its value from mkdocs.yml passes."""
    return field(default=default, metadata={"check": check})


# --- checks: each returns the value to use, or raises _Invalid saying what is expected ---

def _boolean(value: object) -> bool:
    if not isinstance(value, bool):
        raise _Invalid("expected true or false")
    return value


# A whole number of more digits is no count, page or edition: Python refuses to read one
# of more than 4,300 digits, and every citation would write it.
WHOLE_DIGITS = 15


def _whole(minimum: int, *, or_all: bool = False) -> Callable[[object], int | None]:
    def check(value: object) -> int | None:
        if or_all and value == "all":
            return None
        # Quoted in YAML; ASCII digits alone, as int() takes no superscript such as "²".
        if isinstance(value, str) and re.fullmatch(r"[0-9]+", value.strip()):
            if len(value.strip()) > WHOLE_DIGITS:
                raise _Invalid(f"expected a whole number of at most {WHOLE_DIGITS} digits")
            value = int(value)
        if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
            raise _Invalid(f"expected a whole number of {minimum} or more" + (", or all" if or_all else ""))
        if value >= 10**WHOLE_DIGITS:
            raise _Invalid(f"expected a whole number of at most {WHOLE_DIGITS} digits")
        return value
    return check


def _text(value: object) -> str:
    if not isinstance(value, str) or not value.strip():
        raise _Invalid("expected text")
    return value


def _site_folder(value: object) -> str:
    """A folder inside the site, such as `transcript`: no way out of it, and not hidden."""
    if not isinstance(value, str) or not value.strip("/"):
        raise _Invalid("expected a folder name, such as transcript")
    parts = PurePosixPath(value.strip("/")).parts
    if not parts or "\\" in value or any(part in ("..", ".") or part.startswith(".") for part in parts):
        raise _Invalid("expected a folder inside the site whose names do not start with '.', such as transcript")
    # A name of letters, digits, '-', '_' and '.' only: `a:b` would read as an address's
    # scheme, `%2e%2e` as `..`, `a?b` and `a#b` as a query and an anchor.
    if not all(re.fullmatch(r"[\w.-]+", part) for part in parts):
        raise _Invalid("expected a folder whose names hold letters, digits, '-', '_' and '.' only, such as transcript")
    if any(len(part.encode()) > NAME_BYTES for part in parts):
        raise _Invalid(f"expected folder names of at most {NAME_BYTES} bytes, the most a file system holds")
    if parts[0] in RESERVED_FOLDERS or parts[-1].endswith((".html", ".xml", ".gz", ".json")):
        raise _Invalid(f"expected a folder of its own: {parts[0]} is the site's, or the theme's")
    return "/".join(parts)


NAME_BYTES = 255  # the longest name of a file or folder that common file systems hold


# The folders and files of the site at its root that the build or the theme writes.
RESERVED_FOLDERS = frozenset({"assets", "search", "cite", "print", "how-to-cite", "note-on-the-text", "404.html",
                              "sitemap.xml", "sitemap.xml.gz", "index.html", "objects.inv"})


def _strings(value: object) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise _Invalid("expected a list of strings")
    return tuple(value)


def _patterns(value: object) -> Mapping[str, str]:
    if not isinstance(value, Mapping) or not all(isinstance(v, str) for v in [*value, *value.values()]):
        raise _Invalid("expected a mapping of names to regular expressions")
    for name, regex in value.items():
        try:
            re.compile(regex)
        except re.error as error:
            raise _Invalid(f"{name}: not a valid regular expression ({error})") from None
    return dict(value)


def _pages(value: object) -> tuple[str, ...]:
    if not isinstance(value, list) or not value or not all(isinstance(item, str) and item for item in value):
        raise _Invalid("expected the essay's pages in reading order, as a list of paths")
    if twice := next((page for index, page in enumerate(value) if page in value[:index]), None):
        raise _Invalid(f"expected each page once, {twice} is listed twice")
    return tuple(value)


def _pdf(value: object) -> str | None:
    """A file of the site, by its path from the site's root, or an http(s) address: no
    other scheme (javascript:), no way out of the site, no leading slash, which would
    drop the path of site_url."""
    if value is None:
        return None
    if isinstance(value, str) and value and value == value.strip() and not re.search(r"[\x00-\x1f\x7f]", value):
        try:
            parts = urlsplit(value)
        except ValueError:  # a malformed address, such as https://[::1/x.pdf
            raise _Invalid("expected a path inside the site, such as essay.pdf, or an http(s) address") from None
        if parts.scheme in ("http", "https") and parts.netloc:
            return value
        path = PurePosixPath(unquote(parts.path))  # a browser reads %2e%2e as ..
        if (not parts.scheme and not parts.netloc and not value.startswith("/") and "\\" not in value
                and ".." not in path.parts):
            return value
    raise _Invalid("expected a path inside the site, such as essay.pdf, or an http(s) address")


def is_address(pdf: str) -> bool:
    """Whether the `pdf` setting is an http(s) address, linked as it is, rather than a path in the site."""
    return bool(urlsplit(pdf).scheme)


def _doi(value: object) -> str:
    doi = bare_doi(value) if isinstance(value, str) else None
    if doi is None:
        raise _Invalid("expected a DOI such as 10.5281/zenodo.1234567")
    return doi


def _authors(value: object) -> tuple[Author, ...]:
    try:
        return parse_authors(value)
    except AuthorError as problem:
        raise _Invalid(str(problem)) from None


def _date(value: object) -> datetime.date:
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
    raise _Invalid("expected a date such as 2026-12-02")


def _encodable(value: object) -> bool:
    """Whether every text in `value`, in its lists and mappings too, can be written as
    UTF-8: YAML's "\\ud800", half of a surrogate pair, cannot, and would fail the build
    only when a page holding it is written."""
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            return False
        return True
    if isinstance(value, Mapping):
        return all(_encodable(key) and _encodable(item) for key, item in value.items())
    if isinstance(value, (list, tuple)):
        return all(_encodable(item) for item in value)
    return True


UNENCODABLE = "expected text that UTF-8 can encode"
CONTROL_CHARACTERS = "expected text without control characters"
BIDI_CONTROLS = "expected text without bidirectional controls (such as U+202E), which reorder the words around them"
MARKUP = 'expected text without <, > or " (the theme writes it into the pages as HTML)'
_CONTROL_RE = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")
_MARKUP_RE = re.compile(r'[<>"]')

# MkDocs' own settings that the site's pages and citations write as text.
SITE_TEXT = ("site_name", "site_description", "site_author", "site_url", "copyright")
# Those of them that the theme writes into pages unescaped, where markup would run (the
# author and description reach pages through the hook, escaped; copyright is HTML by the
# theme's design: see Settings in hooks/README.md).
SITE_TEXT_AS_IS = ("site_name", "site_url")


def text_problem(value: object) -> str | None:
    """What keeps a setting's text (in its lists and mappings too) from a page: text UTF-8
    cannot encode, control characters or bidirectional controls; None if nothing does."""
    if isinstance(value, str):
        if not _encodable(value):
            return UNENCODABLE
        if _CONTROL_RE.search(value):
            return CONTROL_CHARACTERS
        return BIDI_CONTROLS if BIDI_RE.search(value) else None
    if isinstance(value, Mapping):
        return next((p for key, item in value.items() if (p := text_problem(key) or text_problem(item))), None)
    if isinstance(value, (list, tuple)):
        return next((p for item in value if (p := text_problem(item))), None)
    return None


def markup_problem(text: str) -> str | None:
    """What keeps text that the theme writes as HTML from a page: markup, or a character
    reference that writes a control character or a bidirectional control."""
    return MARKUP if _MARKUP_RE.search(text) else reference_problem(text)


def reference_problem(text: str) -> str | None:
    """What keeps HTML from a page: a character reference in it that writes a control
    character or a bidirectional control."""
    if reference := hidden_reference(text):
        return f"expected text without {reference}, which writes a control character or a bidirectional control"
    return None


def check_site_text(config: Mapping[str, Any], config_name: str = "mkdocs.yml") -> None:
    """Refuses, by its name, a text setting of MkDocs' own that UTF-8 cannot encode, that
    holds control characters, or, where the theme writes it as it is, markup; and a
    navigation title that does."""
    for name in SITE_TEXT:
        value = config.get(name)
        problem = text_problem(value)
        if problem is None and name in SITE_TEXT_AS_IS and isinstance(value, str):
            problem = markup_problem(value)
        if problem is None and name == "copyright" and isinstance(value, str):  # HTML by the theme's design
            problem = reference_problem(value)
        if problem is None and name == "site_url" and isinstance(value, str):
            problem = _site_url_problem(value)
        if problem:
            raise SettingsError(f"{config_name}: {name}: {problem}, found {shown(value)}")
    for title in _nav_titles(config.get("nav")):
        if problem := text_problem(title) or markup_problem(title):
            raise SettingsError(f"{config_name}: nav: {problem}, found {shown(title)}")


def _site_url_problem(url: str) -> str | None:
    """What keeps `url` from being the address every page and citation starts with."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return "expected the site's address, such as https://example.org/essay/"
    if parts.query or parts.fragment or "?" in url or "#" in url:
        return "expected the site's address without a query or an anchor (? or #), which every page's would carry"
    if parts.username is not None or parts.password is not None:
        return "expected the site's address without a user or password, which every page would publish"
    return None


def title_problem(title: object) -> str | None:
    """What keeps a page's title, set in its front matter, from the theme, which writes
    it unescaped into the page's <title> and the navigation; None if nothing does."""
    if not isinstance(title, str):
        return None
    return text_problem(title) or markup_problem(title)


def cite_as_problem(name: object) -> str | None:
    """What keeps `cite_as`, set in a page's front matter, from naming its section in
    every citation; None if nothing does (or it is not set)."""
    if name is None:
        return None
    if not isinstance(name, str) or not name.strip():
        return "expected the name to cite the section by, as text"
    return text_problem(name)


def _nav_titles(nav: object) -> list[str]:
    """The titles of a navigation as mkdocs.yml writes it (`{title: path}`, `{title: [...]}`)."""
    if isinstance(nav, Mapping):
        titles: list[str] = []
        for title, item in nav.items():
            titles += ([title] if isinstance(title, str) else []) + _nav_titles(item)
        return titles
    if isinstance(nav, list):
        return [title for item in nav for title in _nav_titles(item)]
    return []


# --- the settings -----------------------------------------------------------------------

@dataclass(frozen=True)
class TranscriptSettings:
    """`extra.transcript`: the transcript file, its pages, and redaction."""

    source: str = _setting("docs/transcript.jsonl", _text)  # relative to the folder of mkdocs.yml
    folder: str = _setting("transcript", _site_folder)  # where the transcript pages go in the site
    messages_per_page: int = _setting(500, _whole(1))
    # Messages shown before and after each cited one; None (`all` in mkdocs.yml): every message.
    context: int | None = _setting(0, _whole(0, or_all=True))
    message_chars: int = _setting(5000, _whole(1))  # a longer message shows this many and links to the rest
    search: bool = _setting(True, _boolean)  # whether the transcript pages have their own search (message_index)
    redact: bool = _setting(True, _boolean)
    # kind -> regular expression, beside the built-in ones
    redact_patterns: Mapping[str, str] = field(default_factory=dict, metadata={"check": _patterns})
    redact_allow: tuple[str, ...] = _setting((), _strings)  # strings never redacted
    # On Linux, a worker process makes the pages of 1,000 messages or more beside the build.
    render_in_worker: bool = _setting(True, _boolean)


@dataclass(frozen=True)
class EssaySettings:
    """`extra.essay`: the essay as a work."""

    title: str = _setting(None, _text)  # required
    published: datetime.date = _setting(None, _date)  # required: the date of this edition
    edition: int = _setting(None, _whole(1))  # required
    sections: tuple[str, ...] = _setting((), _pages)  # required: the essay's pages, in reading order
    # Where the PDF is published: a path in the site, or an http(s) address (see is_address).
    pdf: str | None = _setting(None, _pdf)
    # Whether scripts/essay_pdf.py prints the PDF into the site after this build, as publishing does.
    pdf_printed: bool = _setting(False, _boolean)
    language: str | None = _setting(None, _text)  # the theme's language when not set
    proper_nouns: tuple[str, ...] = _setting((), _strings)  # words APA's sentence case keeps capitalised
    # The essay's authors, people and organisations, when more than site_author's one person.
    authors: tuple[Author, ...] = _setting((), _authors)
    # The essay's DOI, bare (10.5281/zenodo.1234567), also when given as https://doi.org/… or doi:….
    doi: str | None = _setting(None, _doi)
    # Set by scripts/new_edition.py for the build of the copy it keeps of this edition.
    kept_copy: bool = _setting(False, _boolean)

    REQUIRED = ("title", "published", "edition")


Settings = TypeVar("Settings", TranscriptSettings, EssaySettings)


def read_settings(kind: type[Settings], values: object, where: str, config_name: str = "mkdocs.yml") -> Settings:
    """The settings of dataclass `kind` from the mapping `values` found at `where`
    (such as "extra.transcript"), each checked; SettingsError names a bad one."""
    if values is None:
        values = {}
    if not isinstance(values, Mapping):
        raise SettingsError(f"{config_name}: {where}: expected a mapping of settings, found {shown(values)}")
    known = {f.name: f for f in dataclasses.fields(kind)}
    for name in values:
        if name not in known:
            close = difflib.get_close_matches(str(name), known, n=1)
            hint = f"; did you mean {close[0]}?" if close else f" (known: {', '.join(known)})"
            raise SettingsError(f"{config_name}: {where}: unknown setting {shown(name)}{hint}")
    checked: dict[str, Any] = {}
    for name, value in values.items():
        if problem := text_problem(value):
            raise SettingsError(f"{config_name}: {where}.{name}: {problem}, found {shown(value)}")
        try:
            checked[name] = known[name].metadata["check"](value)
        except _Invalid as problem:
            raise SettingsError(f"{config_name}: {where}.{name}: {problem}, found {shown(value)}") from None
    for name in getattr(kind, "REQUIRED", ()):
        if name not in checked:
            raise SettingsError(f"{config_name}: {where}.{name}: required")
    return kind(**checked)


def essay_metadata(config: Mapping[str, Any], essay: EssaySettings | None = None,
                   config_name: str = "mkdocs.yml") -> EssayMetadata:
    """The essay's bibliographic details, from the site's settings and `essay`, its
    `extra.essay` (read from `config` if not given).

    Used: site_name, site_author, site_url, site_description, theme.language. The
    authors are site_author's one person or extra.essay.authors, never both; neither
    (or an empty site_author): the essay is unsigned.
    """
    check_site_text(config, config_name)
    if essay is None:
        essay = read_settings(EssaySettings, (config.get("extra") or {}).get("essay"), "extra.essay", config_name)
    site_url = str(config.get("site_url") or "")
    if not site_url:
        raise SettingsError(f"{config_name}: site_url: set the site's public address; citations need absolute URLs")
    theme = config.get("theme")
    authors = essay.authors or _site_author(config.get("site_author"), config_name)
    if essay.authors and str(config.get("site_author") or "").strip():
        raise SettingsError(f"{config_name}: site_author, extra.essay.authors: name the essay's authors in one "
                            "of them (extra.essay.authors for several authors or an organisation)")
    return EssayMetadata(
        title=" ".join(essay.title.split()),
        published=essay.published,
        edition=essay.edition,
        url=site_url if site_url.endswith("/") else f"{site_url}/",
        site_name=str(config.get("site_name") or "").strip() or " ".join(essay.title.split()),
        authors=authors,
        language=essay.language or (theme.get("language") if isinstance(theme, Mapping) else None) or "en",
        description=" ".join(str(config.get("site_description") or "").split()),
        proper_nouns=essay.proper_nouns,
        doi=essay.doi,
    )


def _site_author(value: object, config_name: str) -> tuple[Author, ...]:
    """site_author: one person, or none when it is not set or empty."""
    text = str(value or "").strip()
    try:
        return (parse_person(text),) if text else ()
    except AuthorError as problem:
        raise SettingsError(f"{config_name}: site_author: {problem}") from None
