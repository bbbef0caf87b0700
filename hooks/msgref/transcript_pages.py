"""The transcript as pages of the site, generated from the transcript file.

Each message gets a heading with the stable anchor `msg-N`. Which page holds a
message follows from the order of message numbers and the page size alone.
"""

from __future__ import annotations

import posixpath
import re
import xml.etree.ElementTree as etree
from collections.abc import Callable

from . import snippets
from .citations import Citation
from .transcript import Transcript

CITED_IN_PLACEHOLDER = '<div class="msg-cited-in" data-msg="{n}"></div>'
_CITED_IN_PLACEHOLDER_RE = re.compile(r'<div class="msg-cited-in" data-msg="(\d+)"></div>')


class TranscriptLayout:
    """Which generated page holds which message, and the links between them."""

    def __init__(self, transcript: Transcript, folder: str = "transcript", per_page: int = 500):
        if per_page < 1:
            raise ValueError("messages per page must be 1 or more")
        self.transcript = transcript
        self.folder = folder
        numbers = transcript.numbers
        self.pages = [numbers[i : i + per_page] for i in range(0, len(numbers), per_page)] or [[]]
        self._page_of = {n: i for i, chunk in enumerate(self.pages) for n in chunk}

    def page_src(self, index: int) -> str:
        name = "index.md" if index == 0 else f"page-{index + 1}.md"
        return posixpath.join(self.folder, name)

    def src_of(self, n: int) -> str | None:
        index = self._page_of.get(n)
        return None if index is None else self.page_src(index)

    def href(self, n: int, from_page: str) -> str | None:
        """A Markdown link from the source file `from_page` to message n."""
        target = self.src_of(n)
        if target is None:
            return None
        if target == from_page:
            return f"#msg-{n}"
        return posixpath.relpath(target, posixpath.dirname(from_page) or ".") + f"#msg-{n}"


def page_markdown(layout: TranscriptLayout, index: int, intro: str = "") -> str:
    """The Markdown of one transcript page."""
    chunk = layout.pages[index]
    here = layout.page_src(index)
    title = "Transcript" if len(layout.pages) == 1 else f"Transcript, messages {chunk[0]}–{chunk[-1]}"
    parts = [f"# {title}", intro.strip()]
    if len(layout.pages) > 1:
        parts.append(_pager(layout, index))
    numbers = layout.transcript.numbers
    first = sum(len(page) for page in layout.pages[:index])
    for i, n in enumerate(chunk, start=first):
        message = layout.transcript.get(n)
        parts.append(f"## Message {n} — {snippets.SPEAKER_LABELS[message.speaker]} {{ #msg-{n} }}")
        parts.append(snippets.to_html(snippets.message_body(message)))
        parts.extend(snippets.to_html(detail) for detail in snippets.message_details(message))
        parts.append(f'<p class="msg-provenance">{snippets.provenance_label(message).capitalize()}.</p>')
        parts.append(_neighbours(layout, here, numbers, i))
        parts.append(CITED_IN_PLACEHOLDER.format(n=n))
    return "\n\n".join(part for part in parts if part) + "\n"


def _neighbours(layout: TranscriptLayout, here: str, numbers: list[int], i: int) -> str:
    links = []
    if i > 0:
        links.append(f"[← Message {numbers[i - 1]}]({layout.href(numbers[i - 1], here)})")
    if i + 1 < len(numbers):
        links.append(f"[Message {numbers[i + 1]} →]({layout.href(numbers[i + 1], here)})")
    return " · ".join(links) + "\n{ .msg-neighbours }" if links else ""


def _pager(layout: TranscriptLayout, index: int) -> str:
    items = []
    for i, chunk in enumerate(layout.pages):
        label = f"Messages {chunk[0]}–{chunk[-1]}"
        href = posixpath.relpath(layout.page_src(i), posixpath.dirname(layout.page_src(index)))
        items.append(f"**{label}**" if i == index else f"[{label}]({href})")
    return " · ".join(items) + "\n{ .msg-pager }"


def fill_cited_in(html: str, citations_of: Callable[[int], list[Citation]], link_for: Callable[[Citation], str],
                  title_of: Callable[[str], str]) -> str:
    """Replace the placeholders of a rendered transcript page with "Cited in" lists."""

    def cited_in(match: re.Match) -> str:
        n = int(match.group(1))
        box = etree.Element("div", {"class": "msg-cited-in"})
        heading = etree.SubElement(box, "p", {"class": "msg-cited-in__label"})
        citations = citations_of(n)
        if not citations:
            heading.text = "Not cited in the essay."
            return snippets.to_html(box)
        heading.text = "Cited in:"
        items = etree.SubElement(box, "ul")
        for citation in citations:
            item = etree.SubElement(items, "li")
            link = etree.SubElement(item, "a", {"href": link_for(citation)})
            link.text = title_of(citation.page)
            link.tail = f": “{citation.excerpt}”"
        return snippets.to_html(box)

    return _CITED_IN_PLACEHOLDER_RE.sub(cited_in, html)
