"""What the build records of each page as it is converted: the citations it makes, the ids
of its paragraphs and its headings.

The titles and anchors of sections are read from this record, not from rendered HTML.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from markdown import Markdown
from markdown.extensions import Extension
from markdown.postprocessors import Postprocessor

from msgref.citations import Citation, CitationRegistry


@dataclass(frozen=True)
class Heading:
    level: int
    id: str
    name: str  # its text


class PageRecords:
    """Each converted page's citations, paragraph ids (in ¶ order) and headings."""

    def __init__(self, reading_order: Mapping[str, int]):
        self.citations = CitationRegistry()
        self.paragraphs: dict[str, list[str]] = {}
        self.outlines: dict[str, list[Heading]] = {}
        self._reading_order = reading_order

    def forget(self, src: str) -> None:
        """Drop what page `src` recorded, before it is converted again."""
        self.citations.forget_page(src)
        self.paragraphs.pop(src, None)
        self.outlines.pop(src, None)

    def title_of(self, src: str) -> str:
        """A page's title: its first heading."""
        headings = self.outlines.get(src) or [Heading(1, "", src)]
        return headings[0].name

    def paragraph_number(self, src: str, anchor: str) -> int | None:
        ids = self.paragraphs.get(src, [])
        return ids.index(anchor) + 1 if anchor in ids else None

    def citations_of(self, n: int) -> list[Citation]:
        """The citations of message n in reading order: by their pages' order in the
        navigation (pages outside it after), then on each page."""
        last = len(self._reading_order)
        return sorted(self.citations.of_message(n), key=lambda citation: self._reading_order.get(citation.page, last))


class PageOutline(Extension):
    """Tells `record(headings)` the headings of each page converted, in page order."""

    def __init__(self, record: Callable[[list[Heading]], None]):
        super().__init__()
        self.record = record

    def extendMarkdown(self, md: Markdown) -> None:
        # After the table of contents (a tree processor) and after the tag markers are
        # taken out of the headings' names (postprocessor 5).
        md.postprocessors.register(_OutlineRecorder(md, self.record), "page_outline", 4)


class _OutlineRecorder(Postprocessor):
    def __init__(self, md: Markdown, record: Callable[[list[Heading]], None]):
        super().__init__(md)
        self.record = record

    def run(self, text: str) -> str:
        headings: list[Heading] = []

        def walk(tokens: list[dict[str, Any]]) -> None:
            for token in tokens:
                headings.append(Heading(token["level"], token["id"], token["name"]))
                walk(token.get("children", []))

        walk(getattr(self.md, "toc_tokens", []))
        self.record(headings)
        return text
