"""Which messages the transcript pages show, which page holds each, and the links between them.

Which messages are shown follows from the citations: every message the essay cites and
`context` messages before and after each (or every message, when `context` is None);
which page holds a shown message follows from their order and the page size alone.
"""

from __future__ import annotations

import bisect
import functools
import posixpath
from collections.abc import Container, Iterable, Sequence
from typing import Protocol

from msgref.tags import MAX_RANGE, tagged
from msgview.text import displayable_utf8
from transcript.schema import Message, MessageSource

from .call_pairs import CallPairs, call_pairs
from .message_map import Strip, number_strip


class LayoutSettings(Protocol):
    """The settings that shape the transcript pages (see the site's settings)."""

    @property
    def folder(self) -> str:
        """Where the pages go in the site."""

    @property
    def messages_per_page(self) -> int: ...

    @property
    def context(self) -> int | None:
        """Messages shown either side of each cited one; None: every message."""

    @property
    def message_chars(self) -> int:
        """A longer message is cut, its whole text put in a file of its own."""

    @property
    def search(self) -> bool:
        """Whether the site's search indexes the pages."""


def cited_numbers(markdown_texts: Iterable[str]) -> set[int]:
    """Every message number tagged in the texts, each of a range (tags in code too: a few
    extra shown is harmless). A range too long or reversed, which the build refuses,
    gives its two ends alone."""
    numbers: set[int] = set()
    for text in markdown_texts:
        for first, last in tagged(text):
            numbers.update(range(first, last + 1) if last - first < MAX_RANGE else (first, last))
    return numbers


def page_src(folder: str, index: int) -> str:
    """The source path of the transcript's page `index` (from 0) in the site's `folder`."""
    return posixpath.join(folder.strip("/"), "index.md" if index == 0 else f"page-{index + 1}.md")


def text_folder(folder: str) -> str:
    """The folder of the long messages' whole texts, in the transcript's `folder`."""
    return posixpath.join(folder.strip("/"), "messages")


def search_folder(folder: str) -> str:
    """The folder of the transcript's search index (see message_index), in its `folder`."""
    return posixpath.join(folder.strip("/"), "search")


class MessageAnchors(Container[str]):
    """The ids of the headings of the messages `numbers` (ascending), `msg-N`, answered
    without a string for each: a page of a whole session may hold a million; and of the
    ranges cited that begin on the page, `msg-A-B`, which a cited message's heading holds."""

    def __init__(self, numbers: Sequence[int], ranges: Container[tuple[int, int]] = ()):
        self._numbers, self._ranges = numbers, ranges

    def __contains__(self, anchor: object) -> bool:
        digits = anchor[4:] if isinstance(anchor, str) and anchor.startswith("msg-") else ""
        first, dash, last = digits.partition("-")
        if dash:
            return _plain_number(first) and _plain_number(last) and (int(first), int(last)) in self._ranges
        if not _plain_number(digits):
            return False  # "msg-007" is no heading's id
        n = int(digits)
        at = bisect.bisect_left(self._numbers, n)
        return at < len(self._numbers) and self._numbers[at] == n


# How far either side of a page its calls' outputs and its outputs' calls are looked for.
PAIRS_AROUND = 64
# The names of those settings, read from the protocol rather than listed again.
LAYOUT_SETTINGS = tuple(name for name, member in vars(LayoutSettings).items() if isinstance(member, property))


class TranscriptLayout:
    """Which messages are shown, which generated page holds each, and the links between them."""

    def __init__(self, transcript: MessageSource, settings: LayoutSettings, cited: Iterable[int] = ()):
        self.transcript = transcript
        # Every setting the pages are made from: what a development server's next build
        # compares to know whether the entries it kept are still the same.
        self.settings = tuple(getattr(settings, name) for name in LAYOUT_SETTINGS)
        self.folder = settings.folder.strip("/")
        self.context = settings.context
        self.message_chars = settings.message_chars
        self.search = settings.search
        numbers = transcript.numbers
        # Where every message is shown, its positions and numbers are the transcript's own,
        # not copies: a million of them as Python integers would take 36 MB more.
        self.positions: Sequence[int]
        if self.context is None:
            self.positions, self.cited_count, shown = range(len(numbers)), len(numbers), numbers
        else:
            self.positions, self.cited_count = _window(numbers, cited, self.context)
            shown = [numbers[i] for i in self.positions]
        self._shown, self._per_page = shown, settings.messages_per_page
        self.pages: list[Sequence[int]] = [
            shown[i : i + self._per_page] for i in range(0, len(shown), self._per_page)] or [[]]
        self._text_bytes: dict[int, int] = {}  # the size of each text file made
        self._sources = [page_src(self.folder, i) for i in range(len(self.pages))]

    @functools.cached_property
    def strip(self) -> Strip | None:
        """The transcript's numbers as the map at the top of each page draws them."""
        return number_strip(self.transcript.numbers)

    def call_pairs(self, index: int) -> CallPairs:
        """The tool calls and outputs of page `index`, each paired with the other, found
        among the shown messages from PAIRS_AROUND before the page to PAIRS_AROUND after
        it: an output comes a few messages after its call. Read just before the page is
        made, its messages are read once: the transcript keeps the last it read."""
        first = sum(len(page) for page in self.pages[:index])
        around = self._shown[max(first - PAIRS_AROUND, 0) : first + len(self.pages[index]) + PAIRS_AROUND]
        return call_pairs(self.message(n) for n in around)

    @property
    def shows_all(self) -> bool:
        return len(self.positions) == len(self.transcript)

    def page_src(self, index: int) -> str:
        return self._sources[index]

    def page_sources(self) -> list[str]:
        return list(self._sources)

    def message(self, n: int) -> Message:
        """Message n, which the transcript holds (as it does every message its pages show)."""
        found = self.transcript.get(n)
        if found is None:
            raise LookupError(f"message {n} is not in the transcript")
        return found

    def src_of(self, n: int) -> str | None:
        i = bisect.bisect_left(self._shown, n)
        return self._sources[i // self._per_page] if i < len(self._shown) and self._shown[i] == n else None

    def text_file_src(self, n: int) -> str:
        return posixpath.join(text_folder(self.folder), f"msg-{n}.txt")

    def has_text_file(self, n: int) -> bool:
        """Whether shown message n gets a file of its whole text: its text in the file is
        longer than `message_chars`, as the file's index tells before it is read."""
        return n in self._with_text_file

    @functools.cached_property
    def _with_text_file(self) -> frozenset[int]:
        hint, limit = self.transcript.size_hint, self.message_chars
        return frozenset(n for chunk in self.pages for n in chunk if hint(n) > limit)

    def is_cut(self, message: Message) -> bool:
        # Redaction can shorten a message or lengthen it (its markers can be longer than
        # the secrets they replace): one still too long is cut, and only if it has its file.
        return len(message.text) > self.message_chars and self.has_text_file(message.n)

    def text_file_numbers(self) -> list[int]:
        """The shown messages that get a file of their whole text."""
        return [n for chunk in self.pages for n in chunk if self.has_text_file(n)]

    def whole_text(self, message: Message) -> bytes:
        """A message's whole text, as its text file holds it: in UTF-8."""
        text = displayable_utf8(message.text)
        self._text_bytes[message.n] = len(text)
        return text

    def whole_text_bytes(self, message: Message) -> int:
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


def _plain_number(digits: str) -> bool:
    return digits.isascii() and digits.isdigit() and str(int(digits)) == digits


def _window(numbers: Sequence[int], cited: Iterable[int], context: int) -> tuple[list[int], int]:
    """The positions, in the sorted `numbers`, of the cited messages and of `context`
    messages on either side of each; and how many of the cited messages there are."""
    found = []
    for n in set(cited):
        i = bisect.bisect_left(numbers, n)
        if i < len(numbers) and numbers[i] == n:
            found.append(i)
    shown = {p for i in found for p in range(max(0, i - context), min(len(numbers), i + context + 1))}
    return sorted(shown), len(found)
