"""The messages of one transcript page, as the HTML that goes into the converted page.

A page's Markdown holds only its title, introduction and the slot of its entries. Its
messages are made here, outside the Markdown parser, with their links already the
addresses the site serves: a whole session is thousands of messages, and taking them
through the parser's stages, or parsing them back, made the transcript the slowest part
of a build. Each message is built as elements (its text escaped) and serialized at once.
"""

from __future__ import annotations

import dataclasses
import functools
import html
import xml.etree.ElementTree as etree
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from . import snippets
from .message_index import PageIndex, SearchRecord, page_index
from .schema import Message
from .transcript_layout import TranscriptLayout, search_folder
from .transcript_map import MAP_SLOT
from .transcript_nav import absent_note, pager, search_form

CONTENTS_MAX_MESSAGES = 50  # a page of more lists only its title in its table of contents


class SiteLinks(Protocol):
    """Where the site's files are served."""

    def url(self, src: str) -> str:
        """The URL of a file of the site, relative to the site's root."""

    def href(self, target: str, source: str) -> str:
        """The link from the page made from `source` to the file made from `target`."""


@dataclass(frozen=True)
class Permalink:
    """The permanent link the site's table of contents gives each heading."""

    text: str = "¶"
    css: str = "headerlink"
    title: str | None = "Permanent link"


# What a page's entries leave open until every page is converted: the map, and whether
# each message is cited (its entry's class, its heading's badge, its "Cited in" list).
MAP, ITEM, BADGE, CITED_IN = range(4)
_HOLE_MARKUP = {MAP: MAP_SLOT, ITEM: '<div class="msg-item" data-msg="{n}">',
                BADGE: '<span class="msg-badge-slot" data-msg="{n}"></span>',
                CITED_IN: '<div class="msg-cited-in" data-msg="{n}"></div>'}


@dataclass(frozen=True)
class PageEntries:
    texts: tuple[str, ...]  # the HTML around the holes: one more than there are holes
    holes: tuple[tuple[int, int], ...]  # each hole's kind and message number (0 for the map)
    contents: tuple[tuple[str, str], ...]  # (id, title) of the messages its table of contents lists
    search: PageIndex | None  # the page's part of the transcript's search index, if it is searched

    def filled(self, fill: Callable[[int, int], str]) -> str:
        """The entries' HTML, each hole filled with `fill(kind, n)`: a page's thousands of
        holes, filled without searching its HTML for them."""
        parts = [self.texts[0]]
        for (kind, n), text in zip(self.holes, self.texts[1:], strict=True):
            parts.append(fill(kind, n))
            parts.append(text)
        return "".join(parts)

    @property
    def html(self) -> str:
        """The entries' HTML, each hole an empty element that says what it is for."""
        return self.filled(lambda kind, n: _HOLE_MARKUP[kind].format(n=n))

    def without_html(self) -> PageEntries:
        """The same entries without their HTML and search records, for once the page is
        written and indexed: all their memory but the table of contents."""
        return dataclasses.replace(self, texts=("",), holes=(), search=None)


class _Pieces:
    """HTML made in order, with holes."""

    def __init__(self) -> None:
        self._texts: list[list[str]] = [[]]
        self._holes: list[tuple[int, int]] = []

    def add(self, html: str) -> None:
        self._texts[-1].append(html)

    def hole(self, kind: int, n: int = 0) -> None:
        self._holes.append((kind, n))
        self._texts.append([])

    def done(self) -> tuple[tuple[str, ...], tuple[tuple[int, int], ...]]:
        return tuple("".join(text) for text in self._texts), tuple(self._holes)


def page_entries(layout: TranscriptLayout, index: int, links: SiteLinks, permalink: Permalink | None = None,
                 write_text: Callable[[int, bytes], None] | None = None) -> PageEntries:
    """The slot of the page's map, its pager, its messages and the notes between them.
    Each message long enough to have a file of its whole text is given, with that text,
    to `write_text(n, text)`, if given: it is read once, for both."""
    chunk = layout.pages[index]
    here = layout.page_src(index)
    numbers = layout.transcript.numbers
    first = sum(len(page) for page in layout.pages[:index])
    pieces = _Pieces()
    if numbers:
        pieces.hole(MAP)

    def add(element: etree.Element | None) -> None:
        if element is not None:
            pieces.add(snippets.to_html(element))

    href = lambda src: links.href(src, here)  # noqa: E731
    add(pager(layout, index, href))
    add(search_form(links.href(search_folder(layout.folder) + "/", here)) if layout.search else None)
    headings, search = [], []
    heading_link = _permalink_html(permalink)
    for k, n in enumerate(chunk, start=first):
        position = layout.positions[k]
        previous = layout.positions[k - 1] if k > 0 else -1
        if position - previous > 1:
            add(_gap(numbers, previous + 1, position - 1))
        since = max(previous, 0)
        if numbers[position] - numbers[since] > position - since:  # numbers between them not in the transcript
            add(absent_note(numbers, since, position))
        message = layout.message(n)
        if write_text is not None and layout.has_text_file(n):
            write_text(n, layout.whole_text(message))
        title, shown = _item(pieces, layout, message, here, k, links, heading_link)
        # The sidebar of a page of hundreds of messages would take longer to render than
        # the page: such a page's messages are found through the pager, the map and the search.
        if len(chunk) <= CONTENTS_MAX_MESSAGES:
            headings.append((f"msg-{n}", title))
        if layout.search:
            search.append(SearchRecord(n, title, snippets.shown_text(shown)))
    after_last = layout.positions[-1] + 1 if layout.positions else 0
    if index == len(layout.pages) - 1 and after_last < len(numbers):
        add(_gap(numbers, after_last, len(numbers) - 1))
        add(absent_note(numbers, max(after_last - 1, 0), len(numbers) - 1))
    add(pager(layout, index, href, where="bottom"))
    return PageEntries(*pieces.done(), tuple(headings), page_index(search) if layout.search else None)


# A message's entry around its text, in the holes' order. Only numbers, fixed labels
# and the site's own addresses fill it, escaped as they go in: the message's words are
# serialized from elements (`_message_parts`). A whole session is thousands of
# entries, and building this frame as elements too took most of the time of a page.
_HEADING = '<h2 id="msg-{n}">{title}'
# The tag that cites the message, ready to copy (assets/copy.js), after the heading: in
# it, its label would be read as part of the heading's name.
_ENTRY = '{permalink}</h2>{copy}<div class="msg-entry">{entry}</div>{neighbours}'
_COPY_TAG = '<button class="msg-tag">Copy [msg {n}]</button>'
_ITEM_END = "</div>"
_PERMALINK = '<a class="{css}" href="#msg-{{n}}"{title}>{text}</a>'
_NEIGHBOURS = '<p class="msg-neighbours">{}</p>'
_NEIGHBOUR = '<a href="{href}">{label}</a>'
_PROVENANCE = '<p class="msg-provenance">{}.</p>'


def _item(pieces: _Pieces, layout: TranscriptLayout, message: Message, here: str, k: int, links: SiteLinks,
          heading_link: str) -> tuple[str, Message]:
    """Adds one message: its heading, its entry, links to its neighbours, and the hole
    of its "Cited in" list. Returns its heading's title and the message as shown."""
    n, numbers = message.n, layout.transcript.numbers
    title = f"Message {n} — {snippets.SPEAKER_LABELS[message.speaker]}"
    entry, shown = _message_parts(layout, message, lambda: links.href(layout.text_file_src(n), here))
    steps = []  # to the previous and next shown message
    if k > 0:
        steps.append((numbers[layout.positions[k - 1]], "← Message {}"))
    if k + 1 < len(layout.positions):
        steps.append((numbers[layout.positions[k + 1]], "Message {} →"))
    neighbours = _NEIGHBOURS.format(" · ".join(
        _NEIGHBOUR.format(href=html.escape(_message_href(layout, m, here, links)), label=label.format(m))
        for m, label in steps)) if steps else ""
    pieces.hole(ITEM, n)
    pieces.add(_HEADING.format(n=n, title=html.escape(title, quote=False)))
    pieces.hole(BADGE, n)
    pieces.add(_ENTRY.format(permalink=heading_link.format(n=n), copy=_COPY_TAG.format(n=n), entry=entry,
                             neighbours=neighbours))
    pieces.hole(CITED_IN, n)
    pieces.add(_ITEM_END)
    return title, shown


@functools.lru_cache(maxsize=8)
def _permalink_html(permalink: Permalink | None) -> str:
    """The permanent link of a heading, with `{n}` for its message's number."""
    if permalink is None:
        return ""
    title = f' title="{html.escape(permalink.title)}"' if permalink.title else ""
    return _PERMALINK.format(css=html.escape(permalink.css), title=title.replace("{", "{{").replace("}", "}}"),
                             text=html.escape(permalink.text, quote=False).replace("{", "{{").replace("}", "}}"))


def _message_href(layout: TranscriptLayout, n: int, here: str, links: SiteLinks) -> str:
    target = layout.src_of(n)
    if target is None:
        raise LookupError(f"message {n} is on no page")
    return f"#msg-{n}" if target == here else f"{links.href(target, here)}#msg-{n}"


def _message_parts(layout: TranscriptLayout, message: Message, text_href: Callable[[], str]) -> tuple[str, Message]:
    """The message's text, what the log keeps beside it, and its provenance, as HTML:
    provenance is said once, by the label of a description, or by a line under a
    quotation. And the message as shown (cut at `message_chars`)."""
    shown, note = cut_message(layout, message, text_href)
    parts = []
    if shown.text.strip() or shown.is_described or not shown.tool_name:
        parts.append(snippets.to_html(snippets.message_body(shown)))
    # else a tool call without text, which the details below name with its input
    if note is not None:
        parts.append(snippets.to_html(note))
    parts.extend(snippets.to_html(detail) for detail in snippets.message_details(message))
    if not message.is_described:
        parts.append(_PROVENANCE.format(snippets.provenance_label(message).capitalize()))
    return "".join(parts), shown


def cut_message(layout: TranscriptLayout, message: Message,
                text_href: Callable[[], str]) -> tuple[Message, etree.Element | None]:
    """A message as a page shows it: cut at `message_chars`, with a note linking to its
    whole text at `text_href()`; or as it is, and None, when it is not that long."""
    if not layout.is_cut(message):
        return message, None
    shown = _cut(message.text, layout.message_chars)
    note = etree.Element("p", {"class": "msg-cut"})
    note.text = f"Shown: the first {len(shown):,} of {len(message.text):,} characters. "
    link = etree.SubElement(note, "a", {"href": text_href()})
    link.text = "The whole message, as plain text"
    link.tail = f" ({layout.whole_text_bytes(message) / 1000:,.0f} KB)."
    return dataclasses.replace(message, text=shown), note


def _cut(text: str, limit: int) -> str:
    """The start of `text`, up to `limit` characters, ending at a line break where one is near."""
    line_end = text.rfind("\n", 0, limit)
    return text[:line_end] if line_end > limit // 2 else text[:limit]


def _gap(numbers: Sequence[int], first: int, last: int) -> etree.Element:
    """A note for the messages at positions first..last, which are left out."""
    note = etree.Element("p", {"class": "msg-gap"})
    count = last - first + 1
    which = (f"message {numbers[first]}" if count == 1
             else f"messages {numbers[first]}–{numbers[last]} ({count:,} messages)")
    note.text = f"Not shown: {which}, which the essay does not cite."
    return note
