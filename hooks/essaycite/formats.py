"""Citations of the essay, or of one of its sections, in the usual styles and exchange formats.

Styles (APA 7, MLA 9, Chicago 17 bibliography) give a `Reference`: the plain text, and
HTML with titles in italics and the URL as a link. Exchange formats (BibTeX, RIS,
CSL-JSON) give text to offer as a download or to copy.

Every citation names the edition, even the first, which the styles would usually leave
out: readers must be able to tell which text of the essay they cite.

When the essay names no author, APA, MLA and Chicago start the entry with the title;
BibTeX, RIS and CSL-JSON leave the author out, so that the reader's own style applies
the same rule. "Anonymous" is written only where the style asks for it: when a work is
signed "Anonymous", and this text is not.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Iterable
from dataclasses import dataclass
from urllib.parse import quote

from .metadata import EssayMetadata, Part, Person

MONTHS = ("January", "February", "March", "April", "May", "June", "July",
          "August", "September", "October", "November", "December")
# MLA abbreviates months of more than four letters.
MLA_MONTHS = ("Jan.", "Feb.", "Mar.", "Apr.", "May", "June", "July",
              "Aug.", "Sept.", "Oct.", "Nov.", "Dec.")
BIBTEX_MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")


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


class _Runs:
    def __init__(self):
        self._runs: list[tuple[str, str]] = []

    def add(self, text: str, kind: str = "text") -> _Runs:
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

def ordinal(n: int) -> str:
    suffix = "th" if n % 100 in (11, 12, 13) else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def edition_label(edition: int) -> str:
    return f"{ordinal(edition)} ed."


def closed(text: str, mark: str = ".") -> str:
    """Text followed by `mark`, unless it already ends in a mark of its own ("Mean?")."""
    return text if text.endswith(("?", "!", ".")) else text + mark


def _quoted(title: str) -> str:
    """A title in double quotes, the closing period inside; quotes within become single."""
    inner, opening = [], True
    for char in title:
        if char == '"':
            char = "\u2018" if opening else "\u2019"
            opening = not opening
        inner.append({"\u201c": "\u2018", "\u201d": "\u2019"}.get(char, char))
    return f"\u201c{closed(''.join(inner))}\u201d"


def _italic_title(runs: _Runs, title: str) -> _Runs:
    """An italic title closed by a roman period, unless it ends in a mark of its own."""
    return runs.italic(title).add("" if title.endswith(("?", "!", ".")) else ".")


def site_is_title(meta: EssayMetadata) -> bool:
    """Whether the site's name is only the essay's (short) title, so naming it adds nothing."""
    site, title = meta.site_name.casefold(), meta.title.casefold()
    return site == title or title.startswith(site + ":")


_WORD = re.compile(r"[^\W\d_]+")


def sentence_case(title: str, keep: Iterable[str] = ()) -> str:
    """APA's sentence case: capitals only for the first word, the first after a colon,
    proper nouns listed in `keep`, the pronoun "I", and words with capitals inside
    (AI, NaN, GPUs). Words in hyphenated compounds are treated alike (AI-assisted)."""
    keep = set(keep)
    out, position, start = [], 0, True
    for word in _WORD.finditer(title):
        between = title[position:word.start()]
        out.append(between)
        if re.search(r"[:?!]", between):
            start = True
        text = word.group()
        if not (start or text in keep or text == "I" or any(c.isupper() for c in text[1:])):
            text = text.lower()
        out.append(text)
        position, start = word.end(), False
    out.append(title[position:])
    return "".join(out)


# --- APA 7 -------------------------------------------------------------------

def _apa_author(person: Person) -> str:
    initials = " ".join(f"{name[0]}." for name in re.split(r"[\s.]+", person.given) if name)
    return f"{person.family}, {initials}" if initials else person.family


def apa(meta: EssayMetadata, part: Part | None = None) -> Reference:
    """APA 7, as a webpage; a section as a part "In" the essay (the chapter pattern).

    Without an author the title takes the author's place, before the date. Titles are in
    sentence case; the essay's title is italic; the site name is given as for a webpage.
    """
    date = f"({meta.published.year}, {MONTHS[meta.published.month - 1]} {meta.published.day})."
    essay_title = sentence_case(meta.title, meta.proper_nouns)
    edition = f" ({edition_label(meta.edition)}). "
    section = closed(sentence_case(part.title, meta.proper_nouns)) if part else ""
    runs = _Runs()
    if meta.author:
        runs.add(f"{closed(_apa_author(meta.author))} {date} ")
        runs.add(f"{section} In " if part else "").italic(essay_title).add(edition)
    elif part:
        runs.add(f"{section} {date} In ").italic(essay_title).add(edition)
    else:
        runs.italic(essay_title).add(f"{edition}{date} ")
    # APA ends on the URL, with no period after it.
    return runs.add(closed(meta.site_name) + " ").url(part.url if part else meta.url).reference()


# --- MLA 9 -------------------------------------------------------------------

def mla(meta: EssayMetadata, part: Part | None = None) -> Reference:
    """MLA 9: a section in quotes, the essay in italics as its container, then version
    (edition), publisher (the site, left out when it is only the essay's title), date, URL.

    The URL is kept whole, scheme included, so that it is the exact address to follow.
    """
    runs = _Runs()
    if meta.author:
        runs.add(closed(meta.author.inverted) + " ")
    if part:
        runs.add(_quoted(part.title) + " ").italic(meta.title).add(", ")
    else:
        _italic_title(runs, meta.title).add(" ")
    runs.add(edition_label(meta.edition) + ", ")
    if not site_is_title(meta):
        runs.add(meta.site_name + ", ")
    date = meta.published
    runs.add(f"{date.day} {MLA_MONTHS[date.month - 1]} {date.year}, ")
    return runs.url(part.url if part else meta.url).add(".").reference()


# --- Chicago 17 (notes and bibliography: the bibliography entry) ----------------

def chicago(meta: EssayMetadata, part: Part | None = None) -> Reference:
    """Chicago 17 bibliography entry: the essay in italics as a standalone work, a section
    in quotes "In" it (the chapter pattern); then edition, publisher (the site, left out
    when it is only the essay's title), date, URL. Without an author it starts with the title."""
    runs = _Runs()
    if meta.author:
        runs.add(closed(meta.author.inverted) + " ")
    if part:
        runs.add(_quoted(part.title) + " In ").italic(meta.title).add(f", {edition_label(meta.edition)} ")
    else:
        _italic_title(runs, meta.title).add(f" {edition_label(meta.edition)} ")
    date = meta.published
    when = f"{MONTHS[date.month - 1]} {date.day}, {date.year}."
    runs.add(when if site_is_title(meta) else f"{meta.site_name}, {when}")
    return runs.add(" ").url(part.url if part else meta.url).add(".").reference()


# --- BibTeX ----------------------------------------------------------------------

# BibTeX counts every brace, escaped or not, to find a field's end: a lone brace is
# written as a command, never as \{ or \}.
_BIBTEX_ESCAPES = {
    "\\": r"\textbackslash{}", "{": r"\textbraceleft{}", "}": r"\textbraceright{}", "&": r"\&", "%": r"\%",
    "$": r"\$", "#": r"\#", "_": r"\_", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}",
}


def bibtex_text(value: str, keep: Iterable[str] = ()) -> str:
    """A field value for BibTeX: LaTeX's special characters escaped, and words whose case
    must survive a style's lower-casing (AI, proper nouns) protected in braces."""
    keep = set(keep)
    out = []
    for token in re.finditer(r"[^\W\d_]+|\s+|.", value):
        text = token.group()
        if text.isspace():
            out.append(" ")
        elif _WORD.fullmatch(text) and (text in keep or any(c.isupper() for c in text[1:])):
            out.append("{" + text + "}")
        else:
            out.append(_BIBTEX_ESCAPES.get(text, text))
    return "".join(out).strip()


def bibtex_url(url: str) -> str:
    # The url field is read verbatim: only characters that would break the entry's
    # braces or spacing need percent-encoding.
    return quote(url, safe="/:?#[]@!$&'()*+,;=%-._~")


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def citation_key(meta: EssayMetadata, part: Part | None = None) -> str:
    """A stable key: the site's name and year, and for a section its place in the site
    ("silence-that-speaks-2026-context")."""
    key = f"{_slug(meta.site_name) or 'essay'}-{meta.published.year}"
    if part:
        place = part.url[len(meta.url):] if part.url.startswith(meta.url) else ""
        key += "-" + (_slug(place) or _slug(part.title) or "part")
    return key


def bibtex(meta: EssayMetadata, part: Part | None = None) -> str:
    """A @misc entry: the one type every BibTeX style and biblatex know. biblatex reads
    date, url and edition; classic styles read year, month and howpublished.

    No author field when the essay names none: `author = {Anonymous}` would make every
    style print a name the text does not carry; without it styles start with the title.
    """
    fields: list[tuple[str, str]] = []
    if meta.author:
        fields.append(("author", "{" + bibtex_text(meta.author.inverted) + "}"))
    if part:
        fields.append(("title", "{" + bibtex_text(part.title, meta.proper_nouns) + "}"))
        container = bibtex_text(meta.title, meta.proper_nouns)
        fields.append(("howpublished", "{Section of \\emph{" + container + "}}"))
    else:
        fields.append(("title", "{" + bibtex_text(meta.title, meta.proper_nouns) + "}"))
    date = meta.published
    fields += [
        ("edition", "{" + str(meta.edition) + "}"),
        ("year", "{" + str(date.year) + "}"),
        ("month", BIBTEX_MONTHS[date.month - 1]),  # the styles' month macro, unbraced
        ("date", "{" + date.isoformat() + "}"),
        ("url", "{" + bibtex_url(part.url if part else meta.url) + "}"),
    ]
    body = ",\n".join(f"  {name} = {value}" for name, value in fields)
    return f"@misc{{{citation_key(meta, part)},\n{body}\n}}\n"


# --- RIS -------------------------------------------------------------------------

def ris(meta: EssayMetadata, part: Part | None = None) -> str:
    """One RIS record, type ELEC (web page): "TAG  - value" lines ending in CRLF, as the
    format's specification has them. For a section, T2 names the essay."""
    def line(tag: str, value: str) -> str:
        return f"{tag}  - {' '.join(value.split())}\r\n"  # a value is one line

    date = meta.published
    lines = [line("TY", "ELEC"), line("TI", part.title if part else meta.title)]
    if part:
        lines.append(line("T2", meta.title))
    elif not site_is_title(meta):
        lines.append(line("T2", meta.site_name))
    if meta.author:
        lines.append(line("AU", meta.author.inverted))
    lines += [
        line("PY", str(date.year)),
        line("DA", f"{date.year:04d}/{date.month:02d}/{date.day:02d}"),
        line("ET", str(meta.edition)),
        line("UR", part.url if part else meta.url),
        line("LA", meta.language),
        line("ID", citation_key(meta, part)),
        line("ER", ""),
    ]
    return "".join(lines)


# --- CSL-JSON ----------------------------------------------------------------------

def csl_item(meta: EssayMetadata, part: Part | None = None) -> dict:
    """A CSL-JSON item of type webpage; for a section, container-title names the essay."""
    date = meta.published
    item = {"id": citation_key(meta, part), "type": "webpage"}
    if meta.author:
        person = {"family": meta.author.family}
        if meta.author.given:
            person["given"] = meta.author.given
        item["author"] = [person]
    item["title"] = part.title if part else meta.title
    if part:
        item["container-title"] = meta.title
    elif not site_is_title(meta):
        item["container-title"] = meta.site_name
    item.update({
        "edition": str(meta.edition),
        "issued": {"date-parts": [[date.year, date.month, date.day]]},
        "URL": part.url if part else meta.url,
        "language": meta.language,
    })
    return item


def csl_json(meta: EssayMetadata, part: Part | None = None) -> str:
    """A CSL-JSON document: an array of one item, as reference managers import it."""
    return json.dumps([csl_item(meta, part)], ensure_ascii=False, indent=2) + "\n"


# --- everything at once ------------------------------------------------------------

STYLES = (("APA", apa), ("MLA", mla), ("Chicago", chicago))


def references(meta: EssayMetadata, part: Part | None = None) -> dict[str, Reference]:
    """The essay's or a section's citation in each style, by style name, plus BibTeX."""
    result = {name: style(meta, part) for name, style in STYLES}
    result["BibTeX"] = Reference((("text", bibtex(meta, part)),))
    return result


@dataclass(frozen=True)
class Download:
    filename: str
    media_type: str
    text: str


def downloads(meta: EssayMetadata) -> tuple[Download, ...]:
    """The whole essay's citation files, under suggested names."""
    return (
        Download("essay.bib", "application/x-bibtex", bibtex(meta)),
        Download("essay.ris", "application/x-research-info-systems", ris(meta)),
        Download("essay.json", "application/vnd.citationstyles.csl+json", csl_json(meta)),
    )
