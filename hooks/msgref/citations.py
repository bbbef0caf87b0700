"""Where each message is cited: the record behind the transcript's "Cited in" lists, and
which messages each page links to (its previews)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True)
class Citation:
    n: int
    page: str  # source path of the citing page, relative to the docs folder
    anchor: str  # id of the citing link on that page
    excerpt: str  # the citing paragraph, shortened
    passage: str = ""  # the citing paragraph, shortened less: the preview of a "Cited in" link
    cites_range: tuple[int, int] | None = None  # (first, last) of the range it cites with others


class CitationRegistry:
    def __init__(self) -> None:
        self._by_message: dict[int, list[Citation]] = defaultdict(list)
        self._linked: dict[str, list[int]] = {}  # page -> the messages it links to, in order
        self._ranges: dict[str, list[tuple[int, int]]] = {}  # page -> the ranges it links to, in order

    def link(self, page: str, n: int) -> None:
        """Page `page` links to message n: recorded for every page, one that repeats others too."""
        numbers = self._linked.setdefault(page, [])
        if n not in numbers:
            numbers.append(n)

    def link_range(self, page: str, first: int, last: int) -> None:
        """Page `page` links to the range of messages first to last (each linked too)."""
        linked = self._ranges.setdefault(page, [])
        if (first, last) not in linked:
            linked.append((first, last))

    def ranges_from(self, page: str) -> list[tuple[int, int]]:
        return list(self._ranges.get(page, ()))

    def linked_from(self, page: str) -> list[int]:
        return list(self._linked.get(page, ()))

    def record(self, citation: Citation) -> None:
        self._by_message[citation.n].append(citation)

    def forget_page(self, page: str) -> None:
        """Drop a page's citations before it is converted again."""
        self._linked.pop(page, None)
        self._ranges.pop(page, None)
        for n, citations in self._by_message.items():
            self._by_message[n] = [c for c in citations if c.page != page]

    def of_message(self, n: int) -> list[Citation]:
        return list(self._by_message.get(n, ()))

    def numbers(self) -> list[int]:
        """The numbers of the messages cited anywhere, in order."""
        return sorted(n for n, citations in self._by_message.items() if citations)

    def cited_ranges(self) -> set[tuple[int, int]]:
        """(first, last) of every range cited anywhere."""
        return {c.cites_range for citations in self._by_message.values() for c in citations if c.cites_range}

    def cited_on(self, pages: Iterable[str]) -> list[int]:
        """The numbers of the messages cited on any of `pages`, in order."""
        wanted = set(pages)
        return sorted(n for n, citations in self._by_message.items() if any(c.page in wanted for c in citations))
