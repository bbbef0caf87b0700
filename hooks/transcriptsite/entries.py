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
from collections.abc import Callable, Container, Sequence
from dataclasses import dataclass
from typing import Protocol

from msgview.conversation import WORK, ConversationView
from msgview.html import to_html
from msgview.labels import SPEAKER_LABELS
from msgview.message_markdown import MessageMarkdown
from msgview.render import shown_text
from msgview.search_text import searchable_text
from transcript.images import image_src
from transcript.schema import Message

from .call_pairs import PageCallLinks
from .layout import TranscriptLayout, search_folder
from .message_index import PageIndex, SearchRecord, page_index
from .message_map import MAP_SLOT
from .nav import absent_note, pager, search_form

CONTENTS_MAX_MESSAGES = 50  # a page of more lists only its title in its table of contents


@functools.cache
def _markdown() -> MessageMarkdown:
    return MessageMarkdown()


class SiteLinks(Protocol):
    """Where the site's files are served."""

    def url(self, src: str) -> str:
        """The URL of a file of the site, relative to the site's root."""

    def href(self, target: str, source: str) -> str:
        """The link from the page made from `source` to the file made from `target`."""


# What a page's entries leave open until every page is converted: the map, and whether
# each message is cited (a class of its entry, its heading's badge, its "Cited in" list).
# A message's holes are empty unless it is cited.
MAP, ITEM, BADGE, CITED_IN = range(4)
_HOLE_MARKUP = {MAP: MAP_SLOT, ITEM: "",
                BADGE: '<span class="msg-badge-slot" data-msg="{n}"></span>',
                CITED_IN: '<div class="msg-cited-in" data-msg="{n}"></div>'}


class _Every:
    """Holds every number."""

    def __contains__(self, n: object) -> bool:
        return True


@dataclass(frozen=True)
class PageEntries:
    texts: tuple[str, ...]  # the HTML around the holes: one more than there are holes
    holes: tuple[tuple[int, int], ...]  # each hole's kind and message number (0 for the map)
    contents: tuple[tuple[str, str], ...]  # (id, title) of the messages its table of contents lists
    search: PageIndex | None  # the page's part of the transcript's search index, if it is searched
    images: tuple[tuple[int, str], ...] = ()  # (message, image name) of the images the page shows

    def filled(self, fill: Callable[[int, int], str], numbers: Container[int]) -> str:
        """The entries' HTML, the map's hole and those of the messages in `numbers` filled
        with `fill(kind, n)`, the others left empty: a page's thousands of holes, filled
        without searching its HTML for them, and with a call only for the few cited."""
        texts, start = self.texts, 0
        parts: list[str] = []
        for i, (kind, n) in enumerate(self.holes):
            if kind == MAP or n in numbers:
                parts += texts[start : i + 1]
                parts.append(fill(kind, n))
                start = i + 1
        parts += texts[start:]
        return "".join(parts)

    @property
    def html(self) -> str:
        """The entries' HTML, each hole that is not an attribute's an empty element that
        says what it is for."""
        return self.filled(lambda kind, n: _HOLE_MARKUP[kind].format(n=n), _Every())

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

    def place(self) -> tuple[int, int]:
        """Where the next piece goes, for `add_at`."""
        return len(self._texts) - 1, len(self._texts[-1])

    def add_at(self, place: tuple[int, int], html: str) -> None:
        """Adds `html` where `place` was, before what was added since."""
        self._texts[place[0]].insert(place[1], html)

    def hole(self, kind: int, n: int = 0) -> None:
        self._holes.append((kind, n))
        self._texts.append([])

    def done(self) -> tuple[tuple[str, ...], tuple[tuple[int, int], ...]]:
        return tuple("".join(text) for text in self._texts), tuple(self._holes)


def page_entries(layout: TranscriptLayout, index: int, links: SiteLinks,
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
            pieces.add(to_html(element))

    href = lambda src: links.href(src, here)  # noqa: E731
    add(pager(layout, index, href))
    add(search_form(links.href(search_folder(layout.folder) + "/", here)) if layout.search else None)
    headings, search = [], []
    calls = PageCallLinks(layout.call_pairs(index), layout.src_of, href, here, layout.message)
    view = ConversationView(_markdown(), lambda name: links.href(image_src(layout.folder, name), here), calls=calls)
    switch_place = pieces.place()
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
        title, shown = _item(pieces, layout, message, here, links, view)
        # The sidebar of a page of hundreds of messages would take longer to render than
        # the page: such a page's messages are found through the pager, the map and the search.
        if len(chunk) <= CONTENTS_MAX_MESSAGES:
            headings.append((f"msg-{n}", title))
        if layout.search:
            search.append(SearchRecord(n, title, shown_text(shown), searchable_text(shown)))
    after_last = layout.positions[-1] + 1 if layout.positions else 0
    if index == len(layout.pages) - 1 and after_last < len(numbers):
        add(_gap(numbers, after_last, len(numbers) - 1))
        add(absent_note(numbers, max(after_last - 1, 0), len(numbers) - 1))
    if view.kinds_shown.get(WORK):
        pieces.add_at(switch_place, _DIALOGUE_SWITCH)
    add(pager(layout, index, href, where="bottom"))
    return PageEntries(*pieces.done(), tuple(headings), page_index(search) if layout.search else None,
                       tuple(view.images))


# A message's entry around its content, in the holes' order. Only numbers, fixed labels
# and the site's own addresses fill it, escaped as they go in: the message's words are
# serialized from elements or escaped by the view (`conversation`). A whole session is
# thousands of entries, and building this frame as elements too took most of the time
# of a page. The message's number is its permanent link, and its heading reads as the
# table of contents names it ("Message N — speaker"); "Cite" opens the page's one
# citation panel for it (assets/message-cite.js), and copies its tag.
_ITEM_START = '<div class="msg-item'  # then the class of a cited message's entry
_HEADING = ('" data-msg="{n}"><div class="msg-head"><h2 id="msg-{n}"><a class="msg-number" href="#msg-{n}">'
            '<span class="visually-hidden">Message </span>{n}</a><span class="visually-hidden"> —</span> '
            '<span class="msg-speaker">{speaker}</span>')
_HEAD_END = '</h2>{origin}{time}{usage}<button class="msg-cite-button">Cite</button></div>'
_ENTRY = '<div class="msg-entry msg-entry--{kind} msg-entry--{speaker}">{content}</div>'  # speaker: one of SPEAKERS
_ITEM_END = "</div>"
# Hides the tool calls, their outputs and the thinking (essay.css), where a page has some;
# its note says when a link to what it hides turned it off (assets/dialogue-switch.js).
_DIALOGUE_SWITCH = ('<p class="msg-switch"><label><input type="checkbox" id="dialogue-only"> '
                    "Dialogue only: hide tool calls, their outputs and thinking</label>"
                    '<span class="msg-switch__note" role="status"></span></p>')


def _item(pieces: _Pieces, layout: TranscriptLayout, message: Message, here: str, links: SiteLinks,
          view: ConversationView) -> tuple[str, Message]:
    """Adds one message: its heading, its content, and the holes of its mark and of its
    "Cited in" list. Returns its heading's title and the message as shown."""
    n = message.n
    speaker = SPEAKER_LABELS[message.speaker]
    shown, note = cut_message(layout, message, lambda: links.href(layout.text_file_src(n), here))
    content = view.body_html(shown) + (to_html(note) if note is not None else "")
    pieces.add(_ITEM_START)
    pieces.hole(ITEM, n)
    pieces.add(_HEADING.format(n=n, speaker=html.escape(speaker, quote=False)))
    pieces.hole(BADGE, n)
    pieces.add(_HEAD_END.format(origin=view.origin_html(message), time=view.time_html(message),
                                usage=view.usage_html(message)))
    pieces.add(_ENTRY.format(kind=view.kind(message), speaker=message.speaker, content=content))
    pieces.hole(CITED_IN, n)
    pieces.add(_ITEM_END)
    return f"Message {n} — {speaker}", shown


def cut_message(layout: TranscriptLayout, message: Message,
                text_href: Callable[[], str]) -> tuple[Message, etree.Element | None]:
    """A message as a page shows it: cut at `message_chars`, with a note linking to its
    whole text at `text_href()`; or as it is, and None, when it is not that long."""
    if not layout.is_cut(message):
        return message, None
    shown = cut_text(message.text, layout.message_chars)
    note = etree.Element("p", {"class": "msg-cut"})
    note.text = f"Shown: the first {len(shown):,} of {len(message.text):,} characters. "
    link = etree.SubElement(note, "a", {"href": text_href()})
    link.text = "The whole message, as plain text"
    link.tail = f" ({layout.whole_text_bytes(message) / 1000:,.0f} KB)."
    return dataclasses.replace(message, text=shown), note


def cut_text(text: str, limit: int) -> str:
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
