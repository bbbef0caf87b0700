"""The transcript as pages of the site, generated from the transcript file.

Each shown message gets a heading with the stable anchor `msg-N`. Which messages are
shown follows from the citations: every message the essay cites and `context`
messages before and after each (or every message, when `context` is None); which page
holds a shown message follows from their order and the page size alone.

A page's Markdown holds only its title, introduction and pager. Its messages are added
by the `TranscriptEntries` Markdown extension as ready-made elements, after the
Markdown has been parsed: a transcript page can hold hundreds of messages, and parsing
each one as Markdown made the transcript the slowest part of a build.
"""

from __future__ import annotations

import bisect
import dataclasses
import posixpath
import re
import xml.etree.ElementTree as etree
from collections.abc import Callable, Iterable
from typing import Protocol

from markdown import Markdown
from markdown.extensions import Extension
from markdown.preprocessors import Preprocessor
from markdown.treeprocessors import Treeprocessor

from . import snippets
from .citations import Citation
from .tags import TAG_RE
from .schema import Message, MessageSource

_NOT_CITED = '<div class="msg-cited-in" data-search-exclude=""><p class="msg-cited-in__label">Not cited in the essay.</p></div>'
_CITED_IN_PLACEHOLDER_RE = re.compile(r'<div class="msg-cited-in" data-msg="(\d+)"></div>')
ENTRIES_MARKER = "<!-- msgref: messages of transcript page {index} -->"
_ENTRIES_MARKER_RE = re.compile(r"<!-- msgref: messages of transcript page (\d+) -->")


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

    @property
    def shows_all(self) -> bool:
        return len(self.positions) == len(self.transcript)

    def page_src(self, index: int) -> str:
        name = "index.md" if index == 0 else f"page-{index + 1}.md"
        return posixpath.join(self.folder, name)

    def page_sources(self) -> list[str]:
        return [self.page_src(index) for index in range(len(self.pages))]

    def src_of(self, n: int) -> str | None:
        index = self._page_of.get(n)
        return None if index is None else self.page_src(index)

    def text_file_src(self, n: int) -> str:
        return posixpath.join(self.folder, "messages", f"msg-{n}.txt")

    def is_cut(self, message) -> bool:
        return len(message.text) > self.message_chars

    def whole_texts(self):
        """(source path, text) of each shown message too long to show whole."""
        for chunk in self.pages:
            for n in chunk:
                message = self.transcript.get(n)
                if self.is_cut(message):
                    yield self.text_file_src(n), snippets.displayable(message.text)

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
    """The Markdown of one transcript page; `TranscriptEntries` adds its messages."""
    chunk = layout.pages[index]
    title = "Transcript" if len(layout.pages) == 1 else f"Transcript, messages {chunk[0]}–{chunk[-1]}"
    parts = [f"# {title}", intro.strip(), _summary(layout)]
    if len(layout.pages) > 1:
        parts.append(_pager(layout, index))
    parts.append(ENTRIES_MARKER.format(index=index))
    # `search: false` leaves the transcript out of the search index: indexing hundreds of
    # messages is the largest part of building a transcript page.
    front_matter = "" if layout.search else "---\nsearch:\n  exclude: true\n---\n\n"
    return front_matter + "\n\n".join(part for part in parts if part) + "\n"


def _summary(layout: TranscriptLayout) -> str:
    if layout.shows_all:
        return ""
    total, cited, shown = len(layout.transcript), layout.cited_count, len(layout.positions)
    around = f" and the {layout.context} before and after each" if layout.context else ""
    return (f"The transcript has {total:,} messages. These pages show the {cited:,} that the essay cites"
            f"{around}, {shown:,} in all; the others are left out.\n{{ .msg-summary }}")


def _pager(layout: TranscriptLayout, index: int) -> str:
    items = []
    for i, chunk in enumerate(layout.pages):
        label = f"Messages {chunk[0]}–{chunk[-1]}"
        href = posixpath.relpath(layout.page_src(i), posixpath.dirname(layout.page_src(index)))
        items.append(f"**{label}**" if i == index else f"[{label}]({href})")
    return " · ".join(items) + "\n{ .msg-pager }"


class LayingOutBuild(Protocol):
    layout: TranscriptLayout  # the layout of the build in progress


class TranscriptEntries(Extension):
    """Adds a transcript page's messages where its Markdown holds the entries marker."""

    def __init__(self, build: LayingOutBuild):
        super().__init__()
        self.build = build
        self.pending: int | None = None  # the page whose marker was found

    def extendMarkdown(self, md: Markdown) -> None:
        md.registerExtension(self)
        # Before every other preprocessor, so that nothing reads the marker as raw HTML.
        md.preprocessors.register(_MarkerFinder(md, self), "msgref_entries_marker", 45)
        # After inline patterns (20) and attribute lists (8); before the table of contents
        # (5), MkDocs' anchor list (5) and its link rewriting (0), which thus see the entries.
        md.treeprocessors.register(_EntriesAdder(md, self), "msgref_entries", 7)

    def reset(self) -> None:
        self.pending = None


class _MarkerFinder(Preprocessor):
    def __init__(self, md: Markdown, extension: TranscriptEntries):
        super().__init__(md)
        self.extension = extension

    def run(self, lines: list[str]) -> list[str]:
        self.extension.pending = None
        kept = []
        for line in lines:
            match = _ENTRIES_MARKER_RE.fullmatch(line.strip())
            if match and self.extension.pending is None:
                self.extension.pending = int(match.group(1))
            else:
                kept.append(line)
        return kept


class _EntriesAdder(Treeprocessor):
    def __init__(self, md: Markdown, extension: TranscriptEntries):
        super().__init__(md)
        self.extension = extension

    def run(self, root: etree.Element) -> None:
        index, self.extension.pending = self.extension.pending, None
        if index is not None:
            # Inline patterns have run (priority 20): the messages' text is never read as Markdown.
            root.extend(page_entries(self.extension.build.layout, index))


def page_entries(layout: TranscriptLayout, index: int) -> list[etree.Element]:
    """The elements of one page's messages."""
    chunk = layout.pages[index]
    here = layout.page_src(index)
    numbers = layout.transcript.numbers
    first = sum(len(page) for page in layout.pages[:index])
    elements = []
    for k, n in enumerate(chunk, start=first):
        position = layout.positions[k]
        previous = layout.positions[k - 1] if k > 0 else -1
        if position - previous > 1:
            elements.append(_gap(numbers, previous + 1, position - 1))
        message = layout.transcript.get(n)
        heading = etree.Element("h2", {"id": f"msg-{n}"})
        heading.text = f"Message {n} — {snippets.SPEAKER_LABELS[message.speaker]}"
        elements += [heading, _message_entry(layout, message, here)]
        links = []  # to the previous and next shown message
        if k > 0:
            links.append((numbers[previous], "← Message {}"))
        if k + 1 < len(layout.positions):
            links.append((numbers[layout.positions[k + 1]], "Message {} →"))
        if links:
            elements.append(_neighbours(layout, here, links))
        elements.append(etree.Element("div", {"class": "msg-cited-in", "data-msg": str(n)}))
    after_last = layout.positions[-1] + 1 if layout.positions else 0
    if index == len(layout.pages) - 1 and after_last < len(numbers):
        elements.append(_gap(numbers, after_last, len(numbers) - 1))
    return elements


def _message_entry(layout: TranscriptLayout, message, here: str) -> etree.Element:
    """The message's text, what the log keeps beside it, and its provenance."""
    entry = etree.Element("div", {"class": "msg-entry"})
    provenance = etree.Element("p", {"class": "msg-provenance"})
    provenance.text = f"{snippets.provenance_label(message).capitalize()}."
    shown, note = cut_message(layout, message, here)
    entry.extend([snippets.message_body(shown), *([note] if note is not None else []),
                  *snippets.message_details(message), provenance])
    return entry


def cut_message(layout: TranscriptLayout, message: Message, here: str) -> tuple[Message, etree.Element | None]:
    """A message as page `here` shows it: cut at `message_chars`, with a note linking to
    its whole text; or as it is, and None, when it is not that long."""
    if not layout.is_cut(message):
        return message, None
    shown = _cut(message.text, layout.message_chars)
    note = etree.Element("p", {"class": "msg-cut"})
    note.text = f"Shown: the first {len(shown):,} of {len(message.text):,} characters. "
    link = etree.SubElement(note, "a", {"href": posixpath.relpath(layout.text_file_src(message.n), posixpath.dirname(here))})
    link.text = "The whole message, as plain text"
    link.tail = f" ({len(snippets.displayable(message.text).encode()) / 1000:,.0f} KB)."
    return dataclasses.replace(message, text=shown), note


def _cut(text: str, limit: int) -> str:
    """The start of `text`, up to `limit` characters, ending at a line break where one is near."""
    line_end = text.rfind("\n", 0, limit)
    return text[:line_end] if line_end > limit // 2 else text[:limit]


def _neighbours(layout: TranscriptLayout, here: str, links: list[tuple[int, str]]) -> etree.Element:
    paragraph = etree.Element("p", {"class": "msg-neighbours", **snippets.NOT_SEARCHED})
    for i, (n, label) in enumerate(links):
        link = etree.SubElement(paragraph, "a", {"href": layout.href(n, here)})
        link.text = label.format(n)
        link.tail = " · " if i + 1 < len(links) else None
    return paragraph


def _gap(numbers: list[int], first: int, last: int) -> etree.Element:
    """A note for the messages at positions first..last, which are left out."""
    note = etree.Element("p", {"class": "msg-gap"})
    count = last - first + 1
    which = f"message {numbers[first]}" if count == 1 else f"messages {numbers[first]}–{numbers[last]} ({count:,} messages)"
    note.text = f"Not shown: {which}, which the essay does not cite."
    return note


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
        provenance = etree.SubElement(entry, "p", {"class": "msg-provenance"})
        provenance.text = f"{snippets.provenance_label(message).capitalize()}."
        if layout.is_cut(message):
            provenance.text += f" Shortened here: the whole message, {len(message.text):,} characters, is at its address."
        address = etree.SubElement(entry, "p", {"class": "msg-address"})
        address.text = "Address: "
        link = etree.SubElement(address, "a", {"href": address_of(n)})
        link.text = address_of(n)
    return appendix


def fill_cited_in(html: str, citations_of: Callable[[int], list[Citation]], link_for: Callable[[Citation], str],
                  title_of: Callable[[str], str], after: Callable[[int], etree.Element] | None = None) -> str:
    """Replace the placeholders of a rendered transcript page with "Cited in" lists, each
    followed by `after(n)` if given (such as how to cite message n)."""

    def cited_in(match: re.Match) -> str:
        n = int(match.group(1))
        return _cited_in(n) + (snippets.to_html(after(n)) if after else "")

    def _cited_in(n: int) -> str:
        citations = citations_of(n)
        if not citations:
            return _NOT_CITED
        box = etree.Element("div", {"class": "msg-cited-in", **snippets.NOT_SEARCHED})
        heading = etree.SubElement(box, "p", {"class": "msg-cited-in__label"})
        heading.text = "Cited in:"
        items = etree.SubElement(box, "ul")
        for citation in citations:
            item = etree.SubElement(items, "li")
            link = etree.SubElement(item, "a", {"href": link_for(citation)})
            link.text = title_of(citation.page)
            link.tail = f": “{citation.excerpt}”"
        return snippets.to_html(box)

    return _CITED_IN_PLACEHOLDER_RE.sub(cited_in, html)
