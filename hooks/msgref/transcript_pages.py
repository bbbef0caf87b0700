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
import functools
import html
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
from .transcript_map import MAP_SLOT, Strip, number_strip
from .transcript_nav import absent_note, pager
from .tags import TAG_RE
from .schema import Message, MessageSource

_NOT_CITED = '<div class="msg-cited-in"><p class="msg-cited-in__label">Not cited in the essay.</p></div>'
_CITED_IN_PLACEHOLDER_RE = re.compile(r'<div class="msg-cited-in" data-msg="(\d+)"></div>')
# Whether a message is cited is known once every page is converted: its entry and heading
# carry these until then.
_ITEM_PLACEHOLDER_RE = re.compile(r'<div class="msg-item" data-msg="(\d+)">')
_BADGE_PLACEHOLDER_RE = re.compile(r'<span class="msg-badge-slot" data-msg="(\d+)"></span>')
CONTENTS_MAX_MESSAGES = 50  # a page of more lists only its title in its table of contents
_DEFERRED_HEADING = "msgref-heading"  # a message heading's tag until the table of contents is made
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

    @functools.cached_property
    def strip(self) -> Strip | None:
        """The transcript's numbers as the map at the top of each page draws them."""
        return number_strip(self.transcript.numbers)

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
        return len(message.text) > self.message_chars and self._may_be_long(message.n)

    def _may_be_long(self, n: int) -> bool:
        # What the file says of a message's length, before it is read: only a message that
        # may be long is read to make its text file, and only such a message is cut. The
        # margin lets redaction lengthen a message (its markers can be longer than the
        # secrets they replace); past it, a message is shown whole, never cut without its file.
        return self.transcript.size_hint(n) > self.message_chars // 2

    def whole_texts(self):
        """(source path, text) of each shown message too long to show whole."""
        for chunk in self.pages:
            for n in chunk:
                if self._may_be_long(n) and self.is_cut(message := self.transcript.get(n)):
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
    parts = [f"# {title}", intro.strip(), _summary(layout), ENTRIES_MARKER.format(index=index)]
    # The generator's search does not read these pages back: `SearchEntries` gives it one
    # entry per message, made with the entries. Parsing hundreds of rendered messages
    # again took half the time of building a whole session.
    return "---\nsearch:\n  exclude: true\n---\n\n" + "\n\n".join(part for part in parts if part) + "\n"


def _summary(layout: TranscriptLayout) -> str:
    if layout.shows_all:
        return ""
    total, cited, shown = len(layout.transcript), layout.cited_count, len(layout.positions)
    around = f" and the {layout.context} before and after each" if layout.context else ""
    return (f"The transcript has {total:,} messages. These pages show the {cited:,} that the essay cites"
            f"{around}, {shown:,} in all; the others are left out.\n{{ .msg-summary }}")


class SearchEntries:
    """The search entries of the transcript pages, one a message, by page: its anchor,
    its title and its text as search indexes take it (escaped HTML in a paragraph)."""

    def __init__(self):
        self._by_page: dict[str, list[tuple[str, str, str]]] = {}

    def forget_page(self, src: str) -> None:
        self._by_page.pop(src, None)

    def add(self, src: str, anchor: str, title: str, message: Message) -> None:
        text = f"<p>{html.escape(snippets.shown_text(message), quote=False)}</p>"
        self._by_page.setdefault(src, []).append((anchor, title, text))

    def entries(self, url_of: Callable[[str], str | None]) -> list[dict[str, str]]:
        """Every entry, with its location: the page's URL from `url_of(src)` and the anchor."""
        return [{"location": f"{url_of(src) or ''}#{anchor}", "title": title, "text": text}
                for src, found in self._by_page.items() for anchor, title, text in found]


class LayingOutBuild(Protocol):
    layout: TranscriptLayout  # the layout of the build in progress
    search: SearchEntries  # filled as the entries are made


class TranscriptEntries(Extension):
    """Adds a transcript page's messages where its Markdown holds the entries marker."""

    def __init__(self, build: LayingOutBuild):
        super().__init__()
        self.build = build
        self.pending: int | None = None  # the page whose marker was found
        self.deferred: list[etree.Element] = []  # message headings kept out of the table of contents

    def extendMarkdown(self, md: Markdown) -> None:
        md.registerExtension(self)
        # Before every other preprocessor, so that nothing reads the marker as raw HTML.
        md.preprocessors.register(_MarkerFinder(md, self), "msgref_entries_marker", 45)
        # After inline patterns (20) and attribute lists (8); before the table of contents
        # (5), MkDocs' anchor list (5) and its link rewriting (0), which thus see the entries.
        md.treeprocessors.register(_EntriesAdder(md, self), "msgref_entries", 7)
        # After the table of contents and MkDocs' anchor list (5), before the ¶ links (4).
        md.treeprocessors.register(_HeadingsRestorer(md, self), "msgref_headings", 4.5)

    def reset(self) -> None:
        self.pending = None
        self.deferred = []


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
            build = self.extension.build
            entries = page_entries(build.layout, index, self._stored, build.search if build.layout.search else None)
            if len(build.layout.pages[index]) > CONTENTS_MAX_MESSAGES:
                # Out of the table of contents' sight (see `_HeadingsRestorer`).
                self.extension.deferred = [entry[0] for entry in entries if entry.get("class", "").startswith("msg-item")]
                for heading in self.extension.deferred:
                    heading.tag = _DEFERRED_HEADING
            root.extend(entries)

    def _stored(self, html: str) -> etree.Element:
        """A block that stands for `html`, kept aside as raw HTML and put back as it is."""
        block = etree.Element("p")
        block.text = self.md.htmlStash.store(html)
        return block


class _HeadingsRestorer(Treeprocessor):
    """Makes the message headings of a page of many messages headings again, once the
    table of contents has been made without them, with the permanent link it gives
    headings. Their ids were seen by every stage that collects anchors; the table of
    contents lists only the page's title: the messages are found through the pager, the
    map and search, not in a sidebar list of hundreds, which took longer to make and
    render than the page itself."""

    def __init__(self, md: Markdown, extension: TranscriptEntries):
        super().__init__(md)
        self.extension = extension

    def run(self, root: etree.Element) -> None:
        headings, self.extension.deferred = self.extension.deferred, []
        contents = self.md.treeprocessors["toc"] if "toc" in self.md.treeprocessors else None
        for heading in headings:
            heading.tag = "h2"
            if contents is not None and contents.use_permalinks not in (False, None):
                contents.add_permalink(heading, heading.get("id"))


def page_entries(layout: TranscriptLayout, index: int, stored: Callable[[str], etree.Element],
                 search: SearchEntries | None = None) -> list[etree.Element]:
    """The elements of one page: the slot of its map, its pager and its messages, each
    message's search entry going to `search`.

    Only the headings and the links are elements, which the generator reads and rewrites;
    the messages' text is serialized at once and kept as `stored(html)`, so that the
    parser's later stages walk a few elements a message rather than dozens.
    """
    chunk = layout.pages[index]
    here = layout.page_src(index)
    numbers = layout.transcript.numbers
    first = sum(len(page) for page in layout.pages[:index])
    elements = [etree.fromstring(MAP_SLOT)] if numbers else []
    top = pager(layout, index)
    if top is not None:
        elements.append(top)
    for k, n in enumerate(chunk, start=first):
        position = layout.positions[k]
        previous = layout.positions[k - 1] if k > 0 else -1
        if position - previous > 1:
            elements.append(_gap(numbers, previous + 1, position - 1))
        absent = absent_note(numbers, max(previous, 0), position)
        if absent is not None:
            elements.append(absent)
        elements.append(_item(layout, layout.transcript.get(n), here, k, stored, search))
    after_last = layout.positions[-1] + 1 if layout.positions else 0
    if index == len(layout.pages) - 1 and after_last < len(numbers):
        elements.append(_gap(numbers, after_last, len(numbers) - 1))
        absent = absent_note(numbers, max(after_last - 1, 0), len(numbers) - 1)
        if absent is not None:
            elements.append(absent)
    bottom = pager(layout, index, where="bottom")
    if bottom is not None:
        elements.append(bottom)
    return elements


def _item(layout: TranscriptLayout, message: Message, here: str, k: int,
          stored: Callable[[str], etree.Element], search: SearchEntries | None) -> etree.Element:
    """One message: its heading, its entry, links to its neighbours, and the place of its
    "Cited in" list."""
    n, numbers = message.n, layout.transcript.numbers
    item = etree.Element("div", {"class": "msg-item", "data-msg": str(n)})
    heading = etree.SubElement(item, "h2", {"id": f"msg-{n}"})
    heading.text = f"Message {n} — {snippets.SPEAKER_LABELS[message.speaker]}"
    etree.SubElement(heading, "span", {"class": "msg-badge-slot", "data-msg": str(n)})
    entry, shown = _message_entry(layout, message, here, stored)
    item.append(entry)
    if search is not None:
        search.add(here, heading.get("id"), heading.text, shown)
    links = []  # to the previous and next shown message
    if k > 0:
        links.append((numbers[layout.positions[k - 1]], "← Message {}"))
    if k + 1 < len(layout.positions):
        links.append((numbers[layout.positions[k + 1]], "Message {} →"))
    if links:
        item.append(_neighbours(layout, here, links))
    etree.SubElement(item, "div", {"class": "msg-cited-in", "data-msg": str(n)})
    return item


def _message_entry(layout: TranscriptLayout, message, here: str,
                   stored: Callable[[str], etree.Element]) -> tuple[etree.Element, Message]:
    """The message's text, what the log keeps beside it, and its provenance: said once,
    by the label of a description, or by a line under a quotation. And the message as
    shown (cut at `message_chars`)."""
    entry = etree.Element("div", {"class": "msg-entry"})
    shown, note = cut_message(layout, message, here)
    if shown.text.strip() or shown.is_described or not shown.tool_name:
        entry.append(stored(snippets.to_html(snippets.message_body(shown))))
    # else a tool call without text, which the details below name with its input
    if note is not None:  # it links to the whole text: an element, for the generator to rewrite
        entry.append(note)
    after = snippets.message_details(message)
    if not message.is_described:
        provenance = etree.Element("p", {"class": "msg-provenance"})
        provenance.text = f"{snippets.provenance_label(message).capitalize()}."
        after.append(provenance)
    if after:
        entry.append(stored("".join(snippets.to_html(part) for part in after)))
    return entry, shown


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
    paragraph = etree.Element("p", {"class": "msg-neighbours"})
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


def fill_cited_in(html: str, citations_of: Callable[[int], list[Citation]], link_for: Callable[[Citation], str],
                  title_of: Callable[[str], str], after: Callable[[int], str] | None = None) -> str:
    """Replace the placeholders of a rendered transcript page with "Cited in" lists, each
    followed by the HTML `after(n)` if given (such as how to cite message n), and mark the
    entries and headings of the cited messages."""

    def item(match: re.Match) -> str:
        cited = "msg-item msg-item--cited" if citations_of(int(match.group(1))) else "msg-item"
        return f'<div class="{cited}" data-msg="{match.group(1)}">'

    def badge(match: re.Match) -> str:
        return '<span class="msg-badge"><span class="visually-hidden">: </span>Cited</span>' if citations_of(int(match.group(1))) else ""

    def cited_in(match: re.Match) -> str:
        n = int(match.group(1))
        return _cited_in(n) + (after(n) if after else "")

    def _cited_in(n: int) -> str:
        citations = citations_of(n)
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

    html = _BADGE_PLACEHOLDER_RE.sub(badge, _ITEM_PLACEHOLDER_RE.sub(item, html))
    return _CITED_IN_PLACEHOLDER_RE.sub(cited_in, html)
