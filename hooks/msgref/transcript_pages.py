"""The transcript as pages of the site, generated from the transcript file.

Each shown message gets a heading with the stable anchor `msg-N`. Which messages are
shown follows from the citations: every message the essay cites and `context`
messages before and after each (or every message, when `context` is None); which page
holds a shown message follows from their order and the page size alone.

A page's Markdown holds only its title, its introduction and the slot of its entries,
which `transcript_entries` makes and the build puts in once the page is converted.
"""

from __future__ import annotations

import bisect
import functools
import posixpath
import xml.etree.ElementTree as etree
from collections.abc import Callable, Iterable
from typing import Protocol

from . import snippets
from .citations import Citation
from .transcript_entries import BADGE, ITEM
from .transcript_map import Strip, number_strip
from .tags import TAG_RE
from .schema import MessageSource

_NOT_CITED = '<div class="msg-cited-in"><p class="msg-cited-in__label">Not cited in the essay.</p></div>'
ENTRIES_SLOT = '<div class="msg-entries-slot"></div>'


class LayoutSettings(Protocol):
    """The settings that shape the transcript pages (see the site's settings)."""

    folder: str  # where the pages go in the site
    messages_per_page: int
    context: int | None  # messages shown either side of each cited one; None: every message
    message_chars: int  # a longer message is cut, its whole text put in a file of its own
    search: bool  # whether the site's search indexes the pages


def cited_numbers(markdown_texts: Iterable[str]) -> set[int]:
    """Every message number tagged in the texts (tags in code too: a few extra shown is harmless)."""
    return {int(n) for text in markdown_texts for n in TAG_RE.findall(text)}


class TranscriptLayout:
    """Which messages are shown, which generated page holds each, and the links between them."""

    def __init__(self, transcript: MessageSource, settings: LayoutSettings, cited: Iterable[int] = ()):
        self.transcript = transcript
        self.folder = settings.folder.strip("/")
        self.context = settings.context
        self.message_chars = settings.message_chars
        self.search = settings.search
        numbers = transcript.numbers
        if self.context is None:
            self.positions, self.cited_count = list(range(len(numbers))), len(numbers)
        else:
            self.positions, self.cited_count = _window(numbers, cited, self.context)
        shown = [numbers[i] for i in self.positions]
        per_page = settings.messages_per_page
        self.pages = [shown[i : i + per_page] for i in range(0, len(shown), per_page)] or [[]]
        self._page_of = {n: i for i, chunk in enumerate(self.pages) for n in chunk}
        self._text_bytes: dict[int, int] = {}  # the size of each text file made
        self._sources = [posixpath.join(self.folder, "index.md" if i == 0 else f"page-{i + 1}.md")
                         for i in range(len(self.pages))]

    @functools.cached_property
    def strip(self) -> Strip | None:
        """The transcript's numbers as the map at the top of each page draws them."""
        return number_strip(self.transcript.numbers)

    @property
    def shows_all(self) -> bool:
        return len(self.positions) == len(self.transcript)

    def page_src(self, index: int) -> str:
        return self._sources[index]

    def page_sources(self) -> list[str]:
        return list(self._sources)

    def src_of(self, n: int) -> str | None:
        index = self._page_of.get(n)
        return None if index is None else self._sources[index]

    def text_file_src(self, n: int) -> str:
        return posixpath.join(self.folder, "messages", f"msg-{n}.txt")

    def has_text_file(self, n: int) -> bool:
        """Whether shown message n gets a file of its whole text: its text in the file is
        longer than `message_chars`, as the file's index tells before it is read."""
        return n in self._with_text_file

    @functools.cached_property
    def _with_text_file(self) -> frozenset[int]:
        hint, limit = self.transcript.size_hint, self.message_chars
        return frozenset(n for chunk in self.pages for n in chunk if hint(n) > limit)

    def is_cut(self, message) -> bool:
        # Redaction can shorten a message or lengthen it (its markers can be longer than
        # the secrets they replace): one still too long is cut, and only if it has its file.
        return len(message.text) > self.message_chars and self.has_text_file(message.n)

    def text_file_numbers(self) -> list[int]:
        """The shown messages that get a file of their whole text."""
        return [n for chunk in self.pages for n in chunk if self.has_text_file(n)]

    def whole_text(self, message) -> bytes:
        """A message's whole text, as its text file holds it: in UTF-8."""
        text = snippets.displayable(message.text).encode()
        self._text_bytes[message.n] = len(text)
        return text

    def whole_text_bytes(self, message) -> int:
        """The size of a message's text file."""
        known = self._text_bytes.get(message.n)
        return len(self.whole_text(message)) if known is None else known

    def href(self, n: int, from_page: str) -> str | None:
        """A Markdown link from the source file `from_page` to message n, if n is shown."""
        target = self.src_of(n)
        if target is None:
            return None
        if target == from_page:
            return f"#msg-{n}"
        return posixpath.relpath(target, posixpath.dirname(from_page) or ".") + f"#msg-{n}"


def _window(numbers: list[int], cited: Iterable[int], context: int) -> tuple[list[int], int]:
    """The positions, in the sorted `numbers`, of the cited messages and of `context`
    messages on either side of each; and how many of the cited messages there are."""
    found = []
    for n in set(cited):
        i = bisect.bisect_left(numbers, n)
        if i < len(numbers) and numbers[i] == n:
            found.append(i)
    shown = {p for i in found for p in range(max(0, i - context), min(len(numbers), i + context + 1))}
    return sorted(shown), len(found)


def page_markdown(layout: TranscriptLayout, index: int, intro: str = "") -> str:
    """The Markdown of one transcript page, its messages left to `transcript_entries`."""
    chunk = layout.pages[index]
    title = "Transcript" if len(layout.pages) == 1 else f"Transcript, messages {chunk[0]}–{chunk[-1]}"
    parts = [f"# {title}", intro.strip(), _summary(layout), ENTRIES_SLOT]
    # The generator's search does not read these pages back: it is given one entry a
    # message, made with the entries. Parsing hundreds of rendered messages again took
    # half the time of building a whole session.
    return "---\nsearch:\n  exclude: true\n---\n\n" + "\n\n".join(part for part in parts if part) + "\n"


def _summary(layout: TranscriptLayout) -> str:
    if layout.shows_all:
        return ""
    total, cited, shown = len(layout.transcript), layout.cited_count, len(layout.positions)
    around = f" and the {layout.context} before and after each" if layout.context else ""
    return (f"The transcript has {total:,} messages. These pages show the {cited:,} that the essay cites"
            f"{around}, {shown:,} in all; the others are left out.\n{{ .msg-summary }}")


def cited_messages(layout: TranscriptLayout, numbers: Iterable[int], address_of: Callable[[int], str]) -> etree.Element:
    """The messages `numbers`, each with its number, speaker, text (shortened past
    `message_chars`), provenance and its address `address_of(n)`: the appendix of a
    printed essay."""
    appendix = etree.Element("div", {"class": "cited-messages"})
    for n in numbers:
        message = layout.transcript.get(n)
        entry = etree.SubElement(appendix, "section", {"class": "cited-message", "id": f"appendix-msg-{n}"})
        etree.SubElement(entry, "h3").text = f"Message {n} — {snippets.SPEAKER_LABELS[message.speaker]}"
        entry.append(snippets.message_body(message, layout.message_chars if layout.is_cut(message) else None))
        # A description says so in its label; a quotation, here.
        said = [] if message.is_described else [f"{snippets.provenance_label(message).capitalize()}."]
        if layout.is_cut(message):
            said.append(f"Shortened here: the whole message, {len(message.text):,} characters, is at its address.")
        if said:
            etree.SubElement(entry, "p", {"class": "msg-provenance"}).text = " ".join(said)
        address = etree.SubElement(entry, "p", {"class": "msg-address"})
        address.text = "Address: "
        link = etree.SubElement(address, "a", {"href": address_of(n)})
        link.text = address_of(n)
    return appendix


def cited_in_fill(citations_of: Callable[[int], list[Citation]], link_for: Callable[[Citation], str],
                  title_of: Callable[[str], str], after: Callable[[int], str] | None = None) -> Callable[[int, int], str]:
    """What fills the holes of a page's entries (`PageEntries.filled`) but the map's:
    each message's "Cited in" list, followed by the HTML `after(n)` if given (such as how
    to cite message n), and the marks of the cited messages' entries and headings."""

    def fill(kind: int, n: int) -> str:
        cited = citations_of(n)
        if kind == ITEM:
            return f'<div class="msg-item msg-item--cited" data-msg="{n}">' if cited else f'<div class="msg-item" data-msg="{n}">'
        if kind == BADGE:
            return '<span class="msg-badge"><span class="visually-hidden">: </span>Cited</span>' if cited else ""
        return _cited_in(cited) + (after(n) if after else "")

    def _cited_in(citations: list[Citation]) -> str:
        if not citations:
            return _NOT_CITED
        box = etree.Element("div", {"class": "msg-cited-in"})
        heading = etree.SubElement(box, "p", {"class": "msg-cited-in__label"})
        heading.text = "Cited in:"
        items = etree.SubElement(box, "ul")
        for citation in citations:
            item = etree.SubElement(items, "li")
            link = etree.SubElement(item, "a", {"href": link_for(citation)})
            link.text = title_of(citation.page)
            link.tail = f": “{citation.excerpt}”"
        return snippets.to_html(box)

    return fill
