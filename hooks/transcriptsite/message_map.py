"""A map of the session's message numbers, drawn as inline SVG at the top of each
transcript page: a strip from the transcript's lowest number to its highest, numbers the
transcript does not hold drawn as gaps, and a mark for each message the essay cites,
linked to its entry and naming the pages that cite it.

Its size does not grow with the transcript: the strip is drawn in at most `MAX_BINS`
stretches, and marks too close to tell apart are drawn, and linked, as one. The list
under it, folded away, names and links every cited message, however close.
"""

from __future__ import annotations

import bisect
import heapq
import html
import re
import xml.etree.ElementTree as etree
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from msgview.html import to_html

# The viewBox: as wide as the text of a phone, where a unit is about a pixel; wider
# screens draw it larger, up to the width the style sheet allows.
WIDTH, HEIGHT = 340, 100
LEFT, RIGHT = 8, 332  # where the strip starts and ends
FONT = 12
CHAR_WIDTH = 0.6 * FONT  # an estimate of a digit's width, to keep labels apart
LABEL_ROWS = (15, 31)  # baselines: a label that cannot go in the first row goes in the second
PIN_TOP, STRIP_TOP, STRIP_HEIGHT = 40, 54, 14
HERE_TOP = STRIP_TOP + STRIP_HEIGHT + 3
AXIS_Y = 94
MAX_BINS = 200
MIN_MARK_GAP = 12  # marks closer than this are drawn as one
NAMED_PAGES = 4
MAP_SLOT = '<div class="msg-map-slot"></div>'


@dataclass(frozen=True)
class Strip:
    """The transcript's numbers as the map draws them, the same for every page."""

    low: int
    high: int
    held: int  # how many of low..high the transcript holds
    stretches: list[tuple[int, int, str]]  # (first, last, "held" | "absent" | "mixed")
    longest_absent: list[tuple[int, int]]  # the longest runs not in the transcript, in order
    absent_runs: int

    @property
    def span(self) -> int:
        return self.high - self.low + 1

    def x(self, n: float) -> float:
        return LEFT + (n - self.low) / self.span * (RIGHT - LEFT)


def number_strip(numbers: Sequence[int]) -> Strip | None:
    """The strip of the sorted message `numbers`; None for an empty transcript."""
    if not numbers:
        return None
    low, high = numbers[0], numbers[-1]
    span = high - low + 1
    bins = min(span, MAX_BINS)
    stretches: list[tuple[int, int, str]] = []
    for b in range(bins):
        first, last = low + b * span // bins, low + (b + 1) * span // bins - 1
        held = bisect.bisect_right(numbers, last) - bisect.bisect_left(numbers, first)
        state = "held" if held == last - first + 1 else "absent" if held == 0 else "mixed"
        if stretches and stretches[-1][2] == state:
            stretches[-1] = (stretches[-1][0], last, state)
        else:
            stretches.append((first, last, state))
    runs = ((numbers[i] + 1, numbers[i + 1] - 1) for i in range(len(numbers) - 1) if numbers[i + 1] - numbers[i] > 1)
    run_count = sum(1 for i in range(len(numbers) - 1) if numbers[i + 1] - numbers[i] > 1)
    longest = sorted(heapq.nlargest(3, runs, key=lambda run: run[1] - run[0]))
    return Strip(low, high, len(numbers), stretches, longest, run_count)


@dataclass(frozen=True)
class Mark:
    first: int
    last: int
    cited: tuple[int, ...]  # the cited messages it stands for
    pages: tuple[str, ...]  # the titles of the pages citing them, in reading order
    cited_in: tuple[tuple[str, ...], ...]  # the titles of the pages citing each of them

    @property
    def label(self) -> str:
        return str(self.first) if self.first == self.last else f"{self.first}–{self.last}"

    @property
    def which(self) -> str:
        return f"Message {self.first}" if len(self.cited) == 1 else f"Messages {self.label} ({len(self.cited)} cited)"

    @property
    def name(self) -> str:
        return f"{self.which}, cited in {_listed(self.pages)}" if self.pages else self.which


def marks(strip: Strip, cited: list[tuple[int, list[str]]]) -> list[Mark]:
    """The marks of the cited messages, given as (number, titles of the citing pages) in
    order; neighbours too close to tell apart become one mark."""
    groups: list[list[tuple[int, list[str]]]] = []
    for n, titles in cited:
        if groups and strip.x(n) - strip.x(groups[-1][0][0]) < MIN_MARK_GAP:
            groups[-1].append((n, titles))
        else:
            groups.append([(n, titles)])
    found = []
    for group in groups:
        titles = list(dict.fromkeys(title for _, names in group for title in names))
        found.append(Mark(group[0][0], group[-1][0], tuple(n for n, _ in group), tuple(titles),
                          tuple(tuple(dict.fromkeys(names)) for _, names in group)))
    return found


def map_figure(strip: Strip, found: list[Mark], href_of: Callable[[int], str],
               this_page: tuple[int, int] | None = None) -> etree.Element:
    """The figure: the SVG, a sentence saying what it shows, a key, and its marks as a list.
    `this_page`, the first and last number a page shows, is drawn below the strip."""
    figure = etree.Element("figure", {"class": "msg-map", "id": "msg-map"})
    svg = etree.SubElement(figure, "svg", {
        "class": "msg-map__svg", "viewBox": f"0 0 {WIDTH} {HEIGHT}", "width": "100%", "role": "group",
        "aria-labelledby": "msg-map-title", "aria-describedby": "msg-map-desc", "font-size": str(FONT),
    })
    title = f"Map of the session's messages {strip.low}–{strip.high}"
    etree.SubElement(svg, "title", {"id": "msg-map-title"}).text = title
    said = summary(strip, found)
    etree.SubElement(svg, "desc", {"id": "msg-map-desc"}).text = said
    _draw_strip(svg, strip)
    if this_page is not None:
        svg.append(_here(strip, this_page))
    _draw_marks(svg, strip, found, href_of)
    _draw_axis(svg, strip)
    caption = etree.SubElement(figure, "figcaption")
    etree.SubElement(caption, "p", {"class": "msg-map__summary"}).text = said
    caption.append(_key(this_page is not None))
    if found:
        caption.append(_cited_list(found, href_of))
    return figure


def _cited_list(found: list[Mark], href_of: Callable[[int], str]) -> etree.Element:
    """The cited messages as a list, folded away: an item for each, however close the
    messages sit, as the map's marks may stand for several and link to the first."""
    listed = etree.Element("details", {"class": "msg-map__list"})
    etree.SubElement(listed, "summary").text = "The cited messages as a list"
    items = etree.SubElement(listed, "ul")
    for mark in found:
        for n, pages in zip(mark.cited, mark.cited_in, strict=True):
            link = etree.SubElement(etree.SubElement(items, "li"), "a", {"href": href_of(n)})
            link.text = f"Message {n}"
            if pages:
                link.tail = f": cited in {_listed(pages)}"
    return listed


def summary(strip: Strip, found: list[Mark]) -> str:
    """The map in words."""
    text = (f"The session's messages {strip.low} to {strip.high}, from left to right. "
            f"The transcript holds {strip.held:,} of these {strip.span:,} numbers")
    if strip.absent_runs:
        longest = ", ".join(_run(*run) for run in strip.longest_absent)
        more = (f" (the longest of {strip.absent_runs:,} such runs)"
                if strip.absent_runs > len(strip.longest_absent) else "")
        text += f"; not in it: {longest}{more}"
    cited = sum(len(mark.cited) for mark in found)
    text += f". Marked: the {cited:,} messages the essay cites, each linked to its entry." if cited else \
        ". The essay cites none of them."
    return text


class MapTemplate:
    """The map of every page of a transcript, drawn once: the pages' maps differ only in
    their links, made from each page, and in the mark of the page's own messages."""

    _NO_PAGE = (0, 0)  # no message has number 0: its mark's HTML is found only where it was drawn

    def __init__(self, strip: Strip, found: list[Mark], paged: bool):
        self._strip = strip
        drawn = to_html(map_figure(strip, found, _HREF_HOLE.format, self._NO_PAGE if paged else None))
        # The HTML between the links, and each link's message number: text, number, text, ...
        self._pieces = _HREF_HOLE_RE.split(drawn)
        self._here = to_html(_here(strip, self._NO_PAGE)) if paged else None

    def page_map(self, href_of: Callable[[int], str], this_page: tuple[int, int] | None) -> str:
        pieces = self._pieces[:]
        for at in range(1, len(pieces), 2):
            pieces[at] = f'href="{html.escape(href_of(int(pieces[at])))}"'
        drawn = "".join(pieces)
        if self._here is not None and this_page is not None:
            drawn = drawn.replace(self._here, to_html(_here(self._strip, this_page)), 1)
        return drawn


# A link's place in the template: characters that the text of no message or title holds.
_HREF_HOLE = "\ue000{}\ue001"
_HREF_HOLE_RE = re.compile('href="\ue000(\\d+)\ue001"')


def _here(strip: Strip, this_page: tuple[int, int]) -> etree.Element:
    """The mark below the strip of the messages of one page."""
    x0, x1 = strip.x(this_page[0]), strip.x(this_page[1] + 1)
    here = etree.Element("rect", _box(x0, HERE_TOP, max(x1 - x0, 2), 3, "msg-map__here"))
    etree.SubElement(here, "title").text = f"This page: messages {this_page[0]}–{this_page[1]}"
    return here


def _draw_strip(svg: etree.Element, strip: Strip) -> None:
    group = etree.SubElement(svg, "g", {"class": "msg-map__strip"})
    for first, last, state in strip.stretches:
        x0, x1 = strip.x(first), strip.x(last + 1)
        if state == "absent":  # an outline, dashed: inset so that neighbours' edges stay apart
            box = _box(x0 + 1, STRIP_TOP + 1, max(x1 - x0 - 2, 1), STRIP_HEIGHT - 2, "msg-map__absent")
            box.update({"fill": "none", "stroke": "currentColor", "stroke-dasharray": "3 2"})
        else:
            box = _box(x0, STRIP_TOP, x1 - x0, STRIP_HEIGHT, f"msg-map__{state}")
            box.update({"fill": "currentColor", "fill-opacity": "0.45" if state == "held" else "0.2"})
        rect = etree.SubElement(group, "rect", box)
        which = f"message {first}" if first == last else f"messages {first}–{last}"
        etree.SubElement(rect, "title").text = {
            "held": f"In the transcript: {which}", "absent": f"Not in the transcript: {which}",
            "mixed": f"Partly in the transcript: {which}"}[state]


def _draw_marks(svg: etree.Element, strip: Strip, found: list[Mark], href_of: Callable[[int], str]) -> None:
    row_ends = [float("-inf")] * len(LABEL_ROWS)
    for mark in found:
        x0, x1 = strip.x(mark.first + 0.5), strip.x(mark.last + 0.5)
        link = etree.SubElement(svg, "a", {"class": "msg-map__mark", "href": href_of(mark.first)})
        etree.SubElement(link, "title").text = mark.name  # the link's name, and its tooltip
        middle = (x0 + x1) / 2
        # A target wider than the mark, to click or touch.
        hit_width = max(x1 - x0 + MIN_MARK_GAP, MIN_MARK_GAP)
        etree.SubElement(link, "rect", {**_box(middle - hit_width / 2, 0, hit_width, STRIP_TOP + STRIP_HEIGHT,
                                               "msg-map__hit"), "fill": "transparent"})
        etree.SubElement(link, "line", {"class": "msg-map__pin", "x1": _f(middle), "x2": _f(middle),
                                        "y1": str(PIN_TOP), "y2": str(STRIP_TOP + STRIP_HEIGHT),
                                        "stroke": "currentColor"})
        etree.SubElement(link, "rect", {**_box(x0 - 4, PIN_TOP - 4, x1 - x0 + 8, 8, "msg-map__head"),
                                        "rx": "4", "fill": "currentColor"})
        width = len(mark.label) * CHAR_WIDTH
        centre = min(max(middle, LEFT + width / 2), RIGHT - width / 2)
        for row, baseline in enumerate(LABEL_ROWS):
            if centre - width / 2 > row_ends[row] + 3:
                row_ends[row] = centre + width / 2
                label = etree.SubElement(link, "text", {"class": "msg-map__label", "x": _f(centre), "y": str(baseline),
                                                        "text-anchor": "middle", "fill": "currentColor"})
                label.text = mark.label
                break


def _draw_axis(svg: etree.Element, strip: Strip) -> None:
    axis = etree.SubElement(svg, "g", {"class": "msg-map__axis", "fill": "currentColor"})
    ends = [(LEFT, "start", str(strip.low))]
    if strip.high != strip.low:
        ends.append((RIGHT, "end", str(strip.high)))
    taken: list[tuple[float, float]] = []
    for x, anchor, text in ends:
        etree.SubElement(axis, "text", {"x": str(x), "y": str(AXIS_Y), "text-anchor": anchor}).text = text
        width = len(text) * CHAR_WIDTH
        taken.append((x, x + width) if anchor == "start" else (x - width, x))
    gaps = sorted((s for s in strip.stretches if s[2] == "absent"), key=lambda s: s[0] - s[1])[:5]
    for first, last, _ in gaps:
        centre, width = (strip.x(first) + strip.x(last + 1)) / 2, len("not in the transcript") * CHAR_WIDTH
        span = (centre - width / 2, centre + width / 2)
        if strip.x(last + 1) - strip.x(first) >= width and all(span[1] + 4 < a or span[0] - 4 > b for a, b in taken):
            taken.append(span)
            etree.SubElement(axis, "text", {"x": _f(centre), "y": str(AXIS_Y), "text-anchor": "middle",
                                            "class": "msg-map__gap-label"}).text = "not in the transcript"


def _key(with_page: bool) -> etree.Element:
    key = etree.Element("p", {"class": "msg-map__key"})
    entries = [("held", "in the transcript"), ("absent", "not in the transcript"), ("mark", "cited by the essay")]
    if with_page:
        entries.append(("here", "on this page"))
    for kind, text in entries:
        item = etree.SubElement(key, "span", {"class": "msg-map__key-item"})
        etree.SubElement(item, "span", {"class": f"msg-map__swatch msg-map__swatch--{kind}", "aria-hidden": "true"})
        etree.SubElement(item, "span").text = text
    return key


def _box(x: float, y: float, width: float, height: float, css: str) -> dict[str, str]:
    return {"class": css, "x": _f(x), "y": _f(y), "width": _f(width), "height": _f(height)}


def _f(value: float) -> str:
    return f"{value:.1f}".removesuffix(".0")


def _run(low: int, high: int) -> str:
    return f"message {low}" if low == high else f"{low}–{high} ({high - low + 1:,} messages)"


def _listed(titles: tuple[str, ...]) -> str:
    names = [f"“{title}”" for title in titles[:NAMED_PAGES]]
    if len(titles) > NAMED_PAGES:
        names.append(f"{len(titles) - NAMED_PAGES} more pages")
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
