"""Citations of the essay, of a section, or of a message of its transcript.

Styles (APA 7, MLA 9, Chicago 18 bibliography) give a `Reference`: the plain text, and
HTML with titles in italics and the URL as a link. Each is the entry that citeproc-js
(the engine of Zotero and Mendeley) renders with the official CSL style from the work's
CSL-JSON item (`exchange.csl_item`), so that what a reader copies and what their
reference manager makes of the downloads agree; the tests render both and compare.

Every work is a CSL `webpage`: the essay is a website, and each section or message a
page of it, with the essay as the site (`container-title`). It is what the three styles
render as published on the web: APA 7 has no chapter pattern for the parts of an
authored web work, but a page on a website ("*Page*. (date). Site. URL"); MLA puts the
page in quotes and the site in italics; Chicago quotes the page. MLA and Chicago print
the edition ("1st ed."); APA's web page form has no place for one, and the official APA
style leaves it out too; there the date, which changes with each edition, tells them
apart. Types that would print the edition in APA (document, report, book) turn the
sections into chapters "In" the essay, or lose the day of publication. An essay with a
DOI ends with the DOI's address instead of its URL, as all three styles ask; its
sections and messages keep their URLs (see `work.Work.doi`).

When the essay is unsigned, each style applies its rule for a work without an author:
the title takes the author's place (Chicago: the site's name, for a page of a site).
Several authors are listed by each style's rule (APA: up to 20; MLA: two, or the first
and "et al."; Chicago 18: up to six), an organisation by its name as given. The one
place citeproc-js differs: it leaves out the serial comma before an organisation that
comes last ("Smith, A. & Acme"), which the styles' rules and these entries keep.
"""

from __future__ import annotations

import datetime
import html
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from . import exchange
from .casing import sentence_case
from .metadata import Author, EssayMetadata, Part, Person
from .work import ordinal, work

MONTHS = ("January", "February", "March", "April", "May", "June", "July",
          "August", "September", "October", "November", "December")
# MLA abbreviates months of more than four letters (CSL's en-US short forms).
MLA_MONTHS = ("Jan.", "Feb.", "Mar.", "Apr.", "May", "June", "July",
              "Aug.", "Sept.", "Oct.", "Nov.", "Dec.")


@dataclass(frozen=True)
class Reference:
    """A formatted citation as runs of ("text" | "italic" | "url", text)."""

    runs: tuple[tuple[str, str], ...]

    @property
    def text(self) -> str:
        return "".join(text for _, text in self.runs)

    @property
    def html(self) -> str:
        out = []
        for kind, text in self.runs:
            escaped = html.escape(text, quote=True)
            if kind == "italic":
                out.append(f"<i>{escaped}</i>")
            elif kind == "url":
                out.append(f'<a href="{escaped}">{escaped}</a>')
            else:
                out.append(escaped)
        return "".join(out)


def _typographic(text: str, opening: str = "\u201c", closing: str = "\u201d") -> str:
    """Straight quotes made typographic, as CSL processors print them: apostrophes, and
    double quotes in pairs (single ones inside a quoted title)."""
    out, first = [], True
    for char in text.replace("'", "\u2019"):
        if char == '"':
            char, first = (opening if first else closing), not first
        out.append(char)
    return "".join(out)


class _Runs:
    def __init__(self) -> None:
        self._runs: list[tuple[str, str]] = []

    def add(self, text: str, kind: str = "text") -> _Runs:
        if kind != "url":
            text = _typographic(text)
        if self._runs and self._runs[-1][0] == kind:
            self._runs[-1] = (kind, self._runs[-1][1] + text)
        elif text:
            self._runs.append((kind, text))
        return self

    def italic(self, text: str) -> _Runs:
        return self.add(text, "italic")

    def url(self, text: str) -> _Runs:
        return self.add(text, "url")

    def reference(self) -> Reference:
        return Reference(tuple(self._runs))


# --- shared wording -------------------------------------------------------

def edition_label(edition: int) -> str:
    return f"{ordinal(edition)} ed."


def closed(text: str, mark: str = ".") -> str:
    """Text followed by `mark`, unless it already ends in a mark of its own ("Mean?")."""
    return text if text.endswith(("?", "!", ".")) else text + mark


def _quoted(title: str) -> str:
    """A title in double quotes, the closing period inside; quotes within become single."""
    inner = _typographic(title, "\u2018", "\u2019").replace("\u201c", "\u2018").replace("\u201d", "\u2019")
    return f"\u201c{closed(inner)}\u201d"


def _italic_title(runs: _Runs, title: str) -> _Runs:
    """An italic title closed by a roman period, unless it ends in a mark of its own."""
    return runs.italic(title).add("" if title.endswith(("?", "!", ".")) else ".")


# --- APA 7 -------------------------------------------------------------------

def _initials(given: str) -> str:
    """"Jane Q." as "J. Q.", "Jean-Paul" as "J.-P.": as APA and citeproc-js write them."""
    names = [name for name in re.split(r"[\s.]+", given) if name]
    return " ".join("-".join(f"{part[0]}." for part in name.split("-") if part) for name in names)


def _apa_name(author: Author) -> str:
    if isinstance(author, Person) and author.given:
        return f"{author.family}, {_initials(author.given)}"
    return author.inverted


def _apa_authors(authors: Sequence[Author]) -> str:
    """Up to 20 authors, "&" before the last; of more, the first 19, an ellipsis and the last."""
    names = [_apa_name(author) for author in authors]
    if len(names) > 20:
        return f"{', '.join(names[:19])}, \u2026 {names[-1]}"
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])}, & {names[-1]}"


def _long_date(date: datetime.date) -> str:
    return f"{MONTHS[date.month - 1]} {date.day}, {date.year}"


def apa(meta: EssayMetadata, part: Part | None = None) -> Reference:
    """APA 7, a page on a website: "Author. (date). *Title*. Site. URL"; without an
    author the title takes the author's place, before the date.

    The title is in sentence case, as APA requires and CSL cannot do (its styles print
    titles as stored); that is the one way this differs from citeproc-js's entry.
    """
    w = work(meta, part)
    date = f"({w.published.year}, {MONTHS[w.published.month - 1]} {w.published.day})."
    title = sentence_case(w.title, meta.proper_nouns)
    runs = _Runs()
    if w.authors:
        _italic_title(runs.add(f"{closed(_apa_authors(w.authors))} {date} "), title).add(" ")
    else:
        _italic_title(runs, title).add(f" {date} ")
    if w.container:
        runs.add(closed(w.container) + " ")
    return runs.url(w.address).reference()  # APA puts no period after the URL


# --- MLA 9 -------------------------------------------------------------------

def _mla_authors(authors: Sequence[Author]) -> str:
    """One author turned round; two, the second in normal order; three or more, the first and "et al."."""
    if len(authors) > 2:
        return f"{authors[0].inverted}, et al."
    return authors[0].inverted if len(authors) == 1 else f"{authors[0].inverted}, and {authors[1].display}"


def mla(meta: EssayMetadata, part: Part | None = None) -> Reference:
    """MLA 9: a page in quotes with its site in italics as the container, or a work
    without a container in italics; then version (edition), date, URL.

    The URL is kept whole, scheme included, so that it is the exact address to follow.
    """
    w = work(meta, part)
    runs = _Runs()
    if w.authors:
        runs.add(closed(_mla_authors(w.authors)) + " ")
    if w.container:
        runs.add(_quoted(w.title) + " ").italic(w.container).add(", ")
    else:
        _italic_title(runs, w.title).add(" ")
    date = w.published
    runs.add(f"{edition_label(w.edition)}, {date.day} {MLA_MONTHS[date.month - 1]} {date.year}, ")
    return runs.url(w.address).add(".").reference()


# --- Chicago 18 (notes and bibliography: the bibliography entry) ----------------

def _chicago_authors(authors: Sequence[Author]) -> str:
    """The first author turned round, the others in normal order, "and" before the last;
    of seven or more, the first three and "et al." (CMOS 18 13.76)."""
    names = [authors[0].inverted] + [author.display for author in authors[1:]]
    if len(names) > 6:
        return f"{', '.join(names[:3])}, et al."
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])}, and {names[-1]}"


def chicago(meta: EssayMetadata, part: Part | None = None) -> Reference:
    """Chicago 18 bibliography entry for website content: the page in quotes, edition,
    the site, date, URL. Without an author the site's name stands first, in its place."""
    w = work(meta, part)
    runs = _Runs()
    if w.authors:
        runs.add(closed(_chicago_authors(w.authors)) + " ")
    elif w.container:
        runs.add(closed(w.container) + " ")
    runs.add(f"{_quoted(w.title)} {edition_label(w.edition)} ")
    if w.authors and w.container:
        runs.add(w.container + ", ")
    return runs.add(closed(_long_date(w.published)) + " ").url(w.address).add(".").reference()


# --- everything at once ------------------------------------------------------------

STYLES = (("APA", apa), ("MLA", mla), ("Chicago", chicago))


def references(meta: EssayMetadata, part: Part | None = None) -> dict[str, Reference]:
    """The citation of the essay, a section or a message in each style, by style name,
    plus BibTeX (for BibTeX's styles) and biblatex."""
    result = {name: style(meta, part) for name, style in STYLES}
    result["BibTeX"] = Reference((("text", exchange.bibtex(meta, part)),))
    result["biblatex"] = Reference((("text", exchange.biblatex(meta, part)),))
    return result


def message_references(meta: EssayMetadata, number: int, path: str = "transcript/",
                       last: int | None = None) -> dict[str, Reference]:
    """Message `number`'s citation in each style, with its permanent address on the
    transcript page `path` (MkDocs' `page.url` of the page that holds it); with `last`,
    that of the range of messages `number` to `last`."""
    return references(meta, meta.message(number, path, last))


@dataclass(frozen=True)
class Download:
    filename: str
    label: str  # the format's name, for a link
    text: str


def downloads(meta: EssayMetadata, parts: Iterable[Part] = ()) -> tuple[Download, ...]:
    """The citation files: the whole essay and each of its `parts` (the sections, in
    reading order), under suggested names."""
    works = [None, *parts]
    return (
        Download("essay.bib", "BibTeX", "\n".join(exchange.bibtex(meta, part) for part in works)),
        Download("essay-biblatex.bib", "biblatex", "\n".join(exchange.biblatex(meta, part) for part in works)),
        Download("essay.ris", "RIS", "".join(exchange.ris(meta, part) for part in works)),
        Download("essay.json", "CSL-JSON", exchange.csl_json(meta, parts)),
    )
