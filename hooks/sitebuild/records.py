"""What the build records of each page as it is converted: its headings.

The titles and anchors of sections are read from this record, not from rendered HTML.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from markdown import Markdown
from markdown.extensions import Extension
from markdown.postprocessors import Postprocessor


@dataclass(frozen=True)
class Heading:
    level: int
    id: str
    name: str  # its text


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

        def walk(tokens):
            for token in tokens:
                headings.append(Heading(token["level"], token["id"], token["name"]))
                walk(token.get("children", ()))

        walk(getattr(self.md, "toc_tokens", ()))
        self.record(headings)
        return text
