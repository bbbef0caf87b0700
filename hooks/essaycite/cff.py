"""CITATION.cff, how to cite the repository, written from the essay's metadata.

The repository is the site's source (CFF type software); readers are asked to cite the
essay itself, which `preferred-citation` describes as a generic work published as a
website (exported as a plain @misc, as the site's own BibTeX is).

Two things are left out on purpose. The URL: the site's address depends on where the
build runs (SITE_URL), and a file kept in the repository must not change with it. And
an unsigned essay's name: CFF requires an author, so it gets one person whose name is
not given (`{}`, which the CFF 1.2.0 schema accepts and converters print as no name),
not "anonymous", which they would print as if the essay were signed so.

The essay's DOI, when set, is both the repository's `doi` and the essay's: the DOI an
archive of a tagged release (Zenodo's) registers names that release, which holds the essay.
It is left out when the CFF schema's narrower pattern refuses it (a registrant code of
fewer than four digits, or a suffix with characters such as `<` or `#`, which old DOIs
hold): the file must stay valid, and every DOI Zenodo registers passes.
"""

from __future__ import annotations

import json
import re
import textwrap
from typing import Any

import yaml

from .metadata import Author, EssayMetadata, Person

HEADER = """\
# How to cite this repository, the source of the essay's site.
# Written from mkdocs.yml by the site's build: edit mkdocs.yml (site_description,
# site_author or extra.essay.authors, extra.essay), not this file.
"""
# The CFF 1.2.0 schema's pattern of a DOI.
CFF_DOI_RE = re.compile(r"10\.\d{4,9}(\.\d+)?/[A-Za-z0-9:/_;\-\.\(\)\[\]\\]+")
UNSIGNED = "# The essay is unsigned: its one author is a person whose name is not given, `{}`.\n"
MESSAGE = ("If you use or refer to this work, please cite the essay as given under preferred-citation; "
           "the site's \"How to cite\" page gives it in APA, MLA and Chicago style, with the address of "
           "each section.")


def _quoted(text: str) -> str:
    """A YAML double-quoted scalar (JSON's string syntax is a subset of it)."""
    return json.dumps(text, ensure_ascii=False)


def _folded(key: str, text: str, indent: str = "") -> list[str]:
    """`key: >-` and the text wrapped below it, as a YAML folded scalar."""
    # Broken only at spaces: folding joins the lines with one.
    lines = textwrap.wrap(" ".join(text.split()), width=86 - len(indent), break_on_hyphens=False,
                          break_long_words=False)
    return [f"{indent}{key}: >-", *(f"{indent}  {line}" for line in lines)]


def _author(author: Author, indent: str) -> list[str]:
    if isinstance(author, Person):
        fields = [("family-names", author.family)] + ([("given-names", author.given)] if author.given else [])
    else:
        fields = [("name", author.name)]
    return [f"{indent}{'- ' if i == 0 else '  '}{key}: {_quoted(value)}" for i, (key, value) in enumerate(fields)]


def _authors(meta: EssayMetadata, indent: str) -> list[str]:
    if not meta.authors:
        return [f"{indent}authors:", f"{indent}  - {{}}"]
    return [f"{indent}authors:", *(line for author in meta.authors for line in _author(author, indent + "  "))]


def citation_cff_text(meta: EssayMetadata) -> str:
    """The whole CITATION.cff for the essay described by `meta`."""
    date = meta.published.isoformat()
    doi = meta.doi if meta.doi and CFF_DOI_RE.fullmatch(meta.doi) else None
    lines = [
        "cff-version: 1.2.0",
        "type: software",
        *_folded("message", MESSAGE),
        f"title: {_quoted(meta.title)}",
        *(_folded("abstract", meta.description) if meta.description else []),
        *_authors(meta, ""),
        f'version: "{meta.edition}"',
        *([f"doi: {_quoted(doi)}"] if doi else []),
        f"date-released: {date}",
        "preferred-citation:",
        "  type: generic",
        f"  title: {_quoted(meta.title)}",
        *_authors(meta, "  "),
        f'  edition: "{meta.edition}"',
        f"  date-published: {date}",
        *([f"  doi: {_quoted(doi)}"] if doi else []),
        "  languages:",
        f"    - {_quoted(meta.language)}",
        "  medium: website",
    ]
    return HEADER + ("" if meta.authors else UNSIGNED) + "\n".join(lines) + "\n"


def what_differs(current: str | None, wanted: str) -> str | None:
    """Why the file reading `current` (None: no file) is not `wanted`, as a few words
    ("its title differs"), or None when it is."""
    if current is None:
        return "there was none"
    if current == wanted:
        return None
    try:
        field = _first_difference(yaml.safe_load(current), yaml.safe_load(wanted))
    except (yaml.YAMLError, ValueError):  # ValueError: a number of more digits than Python reads
        return "it was not valid YAML"
    return "its comments or layout differed" if field is None else f"its {field} differed"


def _first_difference(found: Any, expected: Any, where: str = "") -> str | None:
    """The path of the first field whose value differs ("preferred-citation.authors"), or
    None when the values are equal."""
    if isinstance(found, dict) and isinstance(expected, dict):
        for key in [*expected, *(key for key in found if key not in expected)]:
            difference = _first_difference(found.get(key), expected.get(key), f"{where}.{key}" if where else str(key))
            if difference:
                return difference
        return None
    return None if found == expected else (where or "content")
