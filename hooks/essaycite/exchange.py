"""The essay's works in the exchange formats: BibTeX, biblatex, RIS and CSL-JSON.

BibTeX comes in two flavours with the same keys, because BibTeX's own styles and
biblatex disagree on what an entry for an online work is:

- `bibtex`: for BibTeX's styles (plain, apalike, natbib's plainnat and the like). None
  of them knows biblatex's @online (plain warns and falls back to @misc), and plain and
  apalike print no url field. So the entry is a @misc in their fields alone: the site
  and edition in `howpublished`, the address as `\\url{…}` in `note`, and a `key` to
  sort and label an unsigned entry by.
- `biblatex`: an @online entry in biblatex's fields: `url` (read verbatim), `version`,
  `date`, the site in `organization`. A `\\url{…}` in `note` would not do for biblatex:
  it stores fields as macros, and the `#` of an address such as `…/transcript/#msg-5855`
  stops LaTeX there; its @misc would also print the address twice.

Authors are `and`-joined, each in the "Family, Given" form both read alike: a family
name that is more than ASCII letters in braces, so that a hyphen, a space or a letter
that classic BibTeX takes for lower case ("Ñúñez-Ødegaard") cannot make part of it a
"von" part or split it; an organisation's name in braces as one family name
(`{Acme Research, Inc.}`, so `{{Acme Research, Inc.}}` when it is the only author).
For classic BibTeX, which counts bytes, not characters, a given name's initial beyond
ASCII is written as a LaTeX accent (`{\\'E}lodie`), so that styles which abbreviate
given names (apalike: "É.") do not cut a UTF-8 character in half.
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Iterable
from typing import Any
from urllib.parse import quote

from .metadata import Author, EssayMetadata, Part, Person
from .work import Work, ordinal, work

BIBTEX_MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")

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
        elif text.isalpha() and (text in keep or any(c.isupper() for c in text[1:])):
            out.append("{" + text + "}")
        else:
            out.append(_BIBTEX_ESCAPES.get(text, text))
    return "".join(out).strip()


# Letters LaTeX writes as a command of their own, not as a letter with an accent.
_LATEX_LETTERS = {"Ø": r"\O", "ø": r"\o", "Æ": r"\AE", "æ": r"\ae", "Œ": r"\OE", "œ": r"\oe",
                  "Ł": r"\L", "ł": r"\l", "Đ": r"\DJ", "đ": r"\dj", "ß": r"\ss"}
# Combining accents (after Unicode decomposition) and LaTeX's accent commands.
_LATEX_ACCENTS = {"\u0300": "`", "\u0301": "'", "\u0302": "^", "\u0303": "~", "\u0304": "=", "\u0306": "u",
                  "\u0307": ".", "\u0308": '"', "\u030a": "r", "\u030b": "H", "\u030c": "v", "\u0327": "c",
                  "\u0328": "k"}


def _latex_letter(letter: str) -> str:
    """A letter beyond ASCII as a LaTeX special character, `{\\'E}`, which BibTeX keeps
    whole; unchanged when LaTeX has no command for it."""
    if letter in _LATEX_LETTERS:
        return "{" + _LATEX_LETTERS[letter] + "}"
    decomposed = unicodedata.normalize("NFD", letter)
    base, accents = decomposed[0], decomposed[1:]
    if len(accents) == 1 and base.isascii() and accents in _LATEX_ACCENTS:
        accent = _LATEX_ACCENTS[accents]
        return f"{{\\{accent}{base}}}" if accent in "`'^~=.\"" else f"{{\\{accent} {base}}}"
    return letter


def _escaped(text: str) -> str:
    return "".join(_BIBTEX_ESCAPES.get(char, char) for char in text)


def bibtex_name(author: Author, classic: bool = True) -> str:
    """One name of an author field (see the module's docstring); `classic`: for BibTeX
    itself, not biber."""
    if not isinstance(author, Person):
        return "{" + _escaped(author.name) + "}"
    family = _escaped(author.family)
    if not re.fullmatch(r"[A-Za-z'.]+", author.family) or family[0].islower():
        family = "{" + family + "}"
    if not author.given:
        return family
    given = _escaped(author.given)
    if classic:  # the first letter of each name, also after a hyphen ("Jean-Élie")
        given = re.sub(r"(?:^|(?<=[\s-]))[^\x00-\x7f]", lambda m: _latex_letter(m.group()), given)
    if re.search(r"\band\b", given, re.IGNORECASE):
        given = "{" + given + "}"  # "and" would part the names there
    return f"{family}, {given}"


def bibtex_authors(authors: Iterable[Author], classic: bool = True) -> str:
    return " and ".join(bibtex_name(author, classic) for author in authors)


def bibtex_url(url: str) -> str:
    # A URL is read verbatim (by biblatex's url field, and by \url): only characters
    # that would break the entry's braces or spacing need percent-encoding.
    return quote(url, safe="/:?#[]@!$&'()*+,;=%-._~")


def _entry(kind: str, key: str, fields: list[tuple[str, str]]) -> str:
    body = ",\n".join(f"  {name} = {value}" for name, value in fields)
    return f"@{kind}{{{key},\n{body}\n}}\n"


def _braced(text: str) -> str:
    return "{" + text + "}"


def bibtex(meta: EssayMetadata, part: Part | None = None) -> str:
    """A @misc entry for BibTeX's own styles (see the module's docstring).

    No author field when the work names none: `author = {Anonymous}` would make every
    style print a name the text does not carry. The `key` (the short title) is then what
    plain sorts by and apalike and natbib label the entry with.
    """
    w, keep = work(meta, part), meta.proper_nouns
    fields = [("author", _braced(bibtex_authors(w.authors)))] if w.authors else [
        ("key", _braced(bibtex_text(w.short_title, keep)))]
    site = f"\\emph{{{bibtex_text(w.container, keep)}}}, " if w.container else ""
    fields += [
        ("title", _braced(bibtex_text(w.title, keep))),
        ("howpublished", _braced(f"{site}{ordinal(w.edition)} edition")),
        ("year", _braced(str(w.published.year))),
        ("month", BIBTEX_MONTHS[w.published.month - 1]),  # the styles' month macro, unbraced
        ("note", _braced(f"\\url{{{bibtex_url(w.url)}}}")),
    ]
    if w.doi:  # for reference managers: BibTeX's styles print no doi of a @misc, and warn of none
        fields.append(("doi", _braced(w.doi)))
    return _entry("misc", w.key, fields)


def biblatex(meta: EssayMetadata, part: Part | None = None) -> str:
    """An @online entry for biblatex (see the module's docstring); `shorttitle` is what
    author-year styles cite an unsigned work by."""
    w, keep = work(meta, part), meta.proper_nouns
    fields = [("author", _braced(bibtex_authors(w.authors, classic=False)))] if w.authors else []
    fields.append(("title", _braced(bibtex_text(w.title, keep))))
    if w.short_title != w.title:
        fields.append(("shorttitle", _braced(bibtex_text(w.short_title, keep))))
    if w.container:
        fields.append(("organization", _braced(bibtex_text(w.container, keep))))
    fields += [
        ("version", _braced(str(w.edition))),
        ("date", _braced(w.published.isoformat())),
        ("url", _braced(bibtex_url(w.url))),
    ]
    if w.doi:  # read verbatim, as url is
        fields.append(("doi", _braced(w.doi)))
    return _entry("online", w.key, fields)


# --- RIS -------------------------------------------------------------------------

def ris(meta: EssayMetadata, part: Part | None = None) -> str:
    """One RIS record, type ELEC (web page): "TAG  - value" lines ending in CRLF, as the
    format's specification has them. T2 names the site the page is part of."""
    def line(tag: str, value: str) -> str:
        return f"{tag}  - {' '.join(value.split())}\r\n"  # a value is one line

    w = work(meta, part)
    date = w.published
    lines = [line("TY", "ELEC"), line("TI", w.title)]
    if w.container:
        lines.append(line("T2", w.container))
    lines += [line("AU", author.inverted) for author in w.authors]  # one per author, in order
    lines += [
        line("PY", str(date.year)),
        line("DA", f"{date.year:04d}/{date.month:02d}/{date.day:02d}"),
        line("ET", str(w.edition)),
        line("UR", w.url),
        *([line("DO", w.doi)] if w.doi else []),
        line("LA", w.language),
        line("ID", w.key),
        line("ER", ""),
    ]
    return "".join(lines)


# --- CSL-JSON ----------------------------------------------------------------------

def csl_name(author: Author) -> dict[str, str]:
    """A CSL name: family and given for a person, the whole name as a `literal` for an
    organisation (which processors never turn round or abbreviate)."""
    if isinstance(author, Person):
        return {"family": author.family, **({"given": author.given} if author.given else {})}
    return {"literal": author.name}


def csl_item(meta: EssayMetadata, part: Part | None = None) -> dict[str, Any]:
    """A CSL-JSON item of type webpage; container-title names the site it is part of.
    Why webpage: see the `formats` module."""
    w: Work = work(meta, part)
    item: dict[str, Any] = {"id": w.key, "type": "webpage"}
    if w.authors:
        item["author"] = [csl_name(author) for author in w.authors]
    item["title"] = w.title
    if w.container:
        item["container-title"] = w.container
    item.update({
        "edition": str(w.edition),
        "issued": {"date-parts": [[w.published.year, w.published.month, w.published.day]]},
        "URL": w.url,
        **({"DOI": w.doi} if w.doi else {}),
        "language": w.language,
    })
    return item


def csl_json(meta: EssayMetadata, parts: Iterable[Part] = ()) -> str:
    """A CSL-JSON document, as reference managers import it: the essay, then each part."""
    items = [csl_item(meta)] + [csl_item(meta, part) for part in parts]
    return json.dumps(items, ensure_ascii=False, indent=2) + "\n"
