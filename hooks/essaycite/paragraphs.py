"""¶ self-links: each paragraph with an id links to itself, numbered in page order (in
section order on a page of several `<section>`s).

The ids come from the Markdown source (see scripts/paragraph_ids.py), so a link to a
paragraph survives edits around it; only the displayed number follows the page.
"""

from __future__ import annotations

import xml.etree.ElementTree as etree
from collections.abc import Callable

from markdown import Markdown
from markdown.extensions import Extension
from markdown.treeprocessors import Treeprocessor
from markdown.util import HTML_PLACEHOLDER_RE

from .cite_box import NOT_SEARCHED

PARAGRAPH_TAGS = {"p", "li"}
NESTED_BLOCK_TAGS = {"div", "figure", "ul", "ol", "blockquote", "p", "pre", "table"}


Record = Callable[[list[tuple[str, str]]], None]


class ParagraphLinks(Extension):
    """Adds the ¶ links; `record(paragraphs)`, if given, is told the id and the words of
    each of a page's paragraphs, in the order of their numbers."""

    def __init__(self, record: Record | None = None):
        super().__init__()
        self.record = record or (lambda paragraphs: None)

    def extendMarkdown(self, md: Markdown) -> None:
        # After attribute lists (8), which set the ids.
        md.treeprocessors.register(ParagraphLinker(md, self.record), "paragraph_links", 4)


class ParagraphLinker(Treeprocessor):
    def __init__(self, md: Markdown, record: Record):
        super().__init__(md)
        self.record = record

    def run(self, root: etree.Element) -> None:
        # A page made of several sections (the whole essay on one page) numbers the
        # paragraphs of each section as its own page does.
        sections = [child for child in root if child.tag == "section"] or [root]
        paragraphs = [[e for e in section.iter() if e.tag in PARAGRAPH_TAGS and e.get("id")] for section in sections]
        self.record([(paragraph.get("id", ""), words(paragraph)) for group in paragraphs for paragraph in group])
        for group in paragraphs:
            self._link(group)

    @staticmethod
    def _link(paragraphs: list[etree.Element]) -> None:
        for number, paragraph in enumerate(paragraphs, start=1):
            link = etree.Element(
                "a",
                # Left out of the search: the mark is no part of the paragraph's text.
                {"class": "paragraph-link", "href": f"#{paragraph.get('id')}",
                 "aria-label": f"Paragraph {number}: link",
                 **NOT_SEARCHED},
            )
            link.text = f"¶\u00a0{number}"
            # Inside a list item, the mark ends the item's own text, before any nested block.
            position = next((i for i, child in enumerate(paragraph) if child.tag in NESTED_BLOCK_TAGS), len(paragraph))
            paragraph.insert(position, link)


def words(paragraph: etree.Element) -> str:
    """A paragraph's words as a reader sees them, on one line: without the blocks nested
    in a list item, nor what its HTML holds (a cited message's quote is no part of it)."""
    parts = [paragraph.text or ""]
    for child in paragraph:
        if child.tag not in NESTED_BLOCK_TAGS:
            parts.append("".join(child.itertext()))
        parts.append(child.tail or "")
    return " ".join(HTML_PLACEHOLDER_RE.sub("", "".join(parts)).split())
