"""A message's text rendered as Markdown, as the session's people wrote it, and safely.

The text comes from a session log, so it is untrusted: raw HTML in it stays text,
links go only to http, https and mailto addresses (any other link keeps its words and
loses its address), an image becomes a link to it (the site loads nothing from other
hosts), and its headings sit below the heading of the message that holds them. Code
with a language is highlighted as the essay's own code is (pymdownx.highlight).

Most messages hold no Markdown at all: those are made into paragraphs directly, which
is many times faster than the parser, and gives the same HTML.
"""

from __future__ import annotations

import html
import re
import xml.etree.ElementTree as etree
from urllib.parse import urlsplit

import markdown
from markdown.preprocessors import Preprocessor
from markdown.treeprocessors import Treeprocessor

LINK_SCHEMES = frozenset({"http", "https", "mailto"})
# A message's own headings, under the message's <h2>: # is <h3>, and so on to <h6>.
_HEADING_SHIFT = 2
# A character or a line start that Markdown, as configured here, may read as syntax.
_MARKDOWN_SYNTAX_RE = re.compile(r"[\\`*_\[\]<>&!#|~\t\r]|^(?: {0,3}(?:[-+=]|\d+[.)])| {4})| {2}$", re.MULTILINE)
_LIST_ITEM_RE = re.compile(r" {0,3}(?:[-*+]|\d{1,9}[.)]) ")
_PARAGRAPH_BREAK_RE = re.compile(r"\n[ \t]*\n")
_BLANK_END_RE = re.compile(r"(?:\n *)+\Z")


class _ListsAfterText(Preprocessor):
    """A blank line before a list that starts right under a line of text, as people and
    models write lists ("Focus on:" then "1. ..."), which Python-Markdown would otherwise
    run into the paragraph. Code blocks are stashed away before this runs."""

    def run(self, lines: list[str]) -> list[str]:
        spaced: list[str] = []
        for line in lines:
            if _LIST_ITEM_RE.match(line) and spaced and spaced[-1].strip() and not _LIST_ITEM_RE.match(spaced[-1]):
                spaced.append("")
            spaced.append(line)
        return spaced


class _SafeElements(Treeprocessor):
    """Links only to the schemes allowed, images as links, headings moved down."""

    def run(self, root: etree.Element) -> None:
        for element in root.iter():
            if element.tag == "a":
                _keep_safe_link(element)
            elif element.tag == "img":
                _image_as_link(element)
            elif len(element.tag) == 2 and element.tag[0] == "h" and element.tag[1] in "123456":
                element.tag = f"h{min(int(element.tag[1]) + _HEADING_SHIFT, 6)}"


def _allowed(address: str) -> bool:
    try:
        scheme = urlsplit(address.strip()).scheme.lower()
    except ValueError:  # such as an invalid IPv6 host
        return False
    return scheme in LINK_SCHEMES


def _keep_safe_link(link: etree.Element) -> None:
    address = link.get("href", "")
    link.attrib.clear()
    if _allowed(address):
        # Written by the session's people, not by the essay's author: no endorsement, and
        # the page it opens gets no handle on this one.
        link.attrib.update({"href": address, "rel": "nofollow noopener ugc"})
    else:
        link.tag = "span"


def _image_as_link(image: etree.Element) -> None:
    address, alt = image.get("src", ""), image.get("alt", "")
    image.attrib.clear()
    image.text = f"Image: {alt}" if alt else "Image"
    if _allowed(address):
        image.tag = "a"
        image.attrib.update({"href": address, "rel": "nofollow noopener ugc"})
    else:
        image.tag = "span"


class MessageMarkdown:
    """One Markdown converter, reset for each message: making one takes longer than
    converting most messages."""

    def __init__(self) -> None:
        self._converter = markdown.Markdown(
            extensions=["tables", "pymdownx.superfences", "pymdownx.highlight"],
            extension_configs={"pymdownx.highlight": {"guess_lang": False}},
        )
        # Raw HTML is text here: without these, Python-Markdown passes it through.
        self._converter.preprocessors.deregister("html_block")
        self._converter.inlinePatterns.deregister("html")
        # After the fenced code is stashed (25), before the blocks are read.
        self._converter.preprocessors.register(_ListsAfterText(self._converter), "lists_after_text", 15)
        # After the inline patterns (20), which make the links and images.
        self._converter.treeprocessors.register(_SafeElements(self._converter), "safe_elements", 5)

    def html(self, text: str) -> str:
        """The HTML of `text`, which holds only displayable characters (snippets.displayable):
        Python-Markdown's own placeholders are control characters."""
        if not _MARKDOWN_SYNTAX_RE.search(text):
            return plain_paragraphs(text)
        self._converter.reset()
        return self._converter.convert(text)


def plain_paragraphs(text: str) -> str:
    """Text without Markdown syntax as Markdown makes it: a paragraph between blank lines,
    the spaces before it and its blank lines after dropped."""
    paragraphs = (_BLANK_END_RE.sub("", part.lstrip()) for part in _PARAGRAPH_BREAK_RE.split(text))
    return "\n".join(f"<p>{html.escape(part, quote=False)}</p>" for part in paragraphs if part)
