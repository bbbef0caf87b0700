"""What the build records of each page as it is converted: the citations it makes, the ids
of its paragraphs, its headings, the heading its text opens with, and what its author
named it in its front matter.

The titles and anchors of sections are read from this record, not from rendered HTML.
"""

from __future__ import annotations

import posixpath
import xml.etree.ElementTree as etree
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from itertools import dropwhile
from typing import Any

from markdown import Markdown
from markdown.extensions import Extension
from markdown.postprocessors import Postprocessor
from markdown.treeprocessors import Treeprocessor

from msgref.citations import Citation, CitationRegistry


@dataclass(frozen=True)
class Heading:
    level: int
    id: str
    name: str  # its text


@dataclass(frozen=True)
class FrontMatter:
    """What a page's front matter names it: its `title`, and `cite_as`, the name its
    section is cited by."""

    title: str | None = None
    cite_as: str | None = None


class PageRecords:
    """Each converted page's citations, paragraph ids (in ¶ order), headings and names.
    `nav_titles` are the pages' titles in the navigation of mkdocs.yml, where it gives any."""

    def __init__(self, reading_order: Mapping[str, int], nav_titles: Mapping[str, str] | None = None):
        self.citations = CitationRegistry()
        self.paragraphs: dict[str, list[str]] = {}
        self.paragraph_words: dict[str, list[str]] = {}  # in the order of `paragraphs`
        self.outlines: dict[str, list[Heading]] = {}
        self.openings: dict[str, str] = {}  # the id of the heading a page's text opens with, below its title
        self.front_matter: dict[str, FrontMatter] = {}
        self._reading_order = reading_order
        self._nav_titles = nav_titles or {}

    def forget(self, src: str) -> None:
        """Drop what page `src` recorded, before it is converted again."""
        self.citations.forget_page(src)
        self.paragraphs.pop(src, None)
        self.paragraph_words.pop(src, None)
        self.outlines.pop(src, None)
        self.openings.pop(src, None)
        self.front_matter.pop(src, None)

    def given_title(self, src: str) -> str | None:
        """A page's title as its author gave it and the page shows it at its top: its
        level-one heading, else its title in the navigation, else in its front matter;
        None if it has none."""
        headings = self.outlines.get(src) or []
        if headings and headings[0].level == 1:
            return headings[0].name
        return self._nav_titles.get(src) or self.front_matter.get(src, FrontMatter()).title

    def opening_heading(self, src: str) -> Heading | None:
        """The heading a page's text opens with, below its title; None if the text opens
        with anything else (a paragraph, the contents the build puts in)."""
        opening = self.openings.get(src)
        return next((heading for heading in self.outlines.get(src, []) if heading.id == opening), None)

    def title_of(self, src: str) -> str:
        """A page's title: as its author gave it, else the heading its text opens with,
        else its file's name as words."""
        opening = self.opening_heading(src)
        return self.given_title(src) or (opening.name if opening else title_from_file_name(src))

    def paragraph_number(self, src: str, anchor: str) -> int | None:
        ids = self.paragraphs.get(src, [])
        return ids.index(anchor) + 1 if anchor in ids else None

    def citations_of(self, n: int) -> list[Citation]:
        """The citations of message n in reading order: by their pages' order in the
        navigation (pages outside it after), then on each page."""
        last = len(self._reading_order)
        return sorted(self.citations.of_message(n), key=lambda citation: self._reading_order.get(citation.page, last))


def title_from_file_name(src: str) -> str:
    """A page's file's name as words: "the-end.md" is "The end"."""
    name = posixpath.splitext(posixpath.basename(src))[0]
    return name.replace("-", " ").replace("_", " ").capitalize()


OutlineRecord = Callable[[list[Heading], str | None], None]
_HEADING_TAGS = {f"h{level}" for level in range(2, 7)}


class PageOutline(Extension):
    """Tells `record(headings, opening)` the headings of each page converted, in page
    order, and the id of the heading its text opens with below its title, or None."""

    def __init__(self, record: OutlineRecord):
        super().__init__()
        self.record = record

    def extendMarkdown(self, md: Markdown) -> None:
        opening = _OpeningHeading(md)
        # After the table of contents (tree processor 5), which gives the headings their ids.
        md.treeprocessors.register(opening, "opening_heading", 4)
        # After the tag markers are taken out of the headings' names (postprocessor 5).
        md.postprocessors.register(_OutlineRecorder(md, self.record, opening), "page_outline", 4)


class _OpeningHeading(Treeprocessor):
    """Finds the heading a page's text opens with, after its level-one title. Anything
    else first (a paragraph, or the contents that the build puts in, whose heading is
    the build's word, not the author's) means the text opens with no heading of its own."""

    id: str | None = None

    def run(self, root: etree.Element) -> None:
        first = next(dropwhile(lambda element: element.tag == "h1", root), None)
        self.id = first.get("id") if first is not None and first.tag in _HEADING_TAGS else None


class _OutlineRecorder(Postprocessor):
    def __init__(self, md: Markdown, record: OutlineRecord, opening: _OpeningHeading):
        super().__init__(md)
        self.record, self.opening = record, opening

    def run(self, text: str) -> str:
        headings: list[Heading] = []

        def walk(tokens: list[dict[str, Any]]) -> None:
            for token in tokens:
                headings.append(Heading(token["level"], token["id"], token["name"]))
                walk(token.get("children", []))

        walk(getattr(self.md, "toc_tokens", []))
        self.record(headings, self.opening.id)
        return text
