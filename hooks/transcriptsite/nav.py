"""Ways through the transcript pages: the pager between them, and the lines that say
which message numbers lie between two entries.

The pager's links are made by the caller from the pages' source files (`page-2.md`).
"""

from __future__ import annotations

import xml.etree.ElementTree as etree
from collections.abc import Callable, Iterable, Sequence

from .layout import TranscriptLayout

# With more pages than this, the pager lists the first, the last and the current page's
# neighbours, and the whole list folds away in a <details>.
ALL_PAGES_LISTED = 7
RUNS_NAMED = 4  # runs of missing numbers one line names; it counts the others


def pager(layout: TranscriptLayout, index: int, link: Callable[[str], str], where: str = "top") -> etree.Element | None:
    """Links to the first, previous, next and last page, and the pages by their message
    numbers, each made by `link(source file)`; None when there is one page."""
    count = len(layout.pages)
    if count < 2:
        return None

    def href(i: int) -> str:
        return link(layout.page_src(i))

    label = "Transcript pages" if where == "top" else "Transcript pages, at the end of this page"
    nav = etree.Element("nav", {"class": f"msg-pager msg-pager--{where}", "aria-label": label})
    steps = etree.SubElement(nav, "p", {"class": "msg-pager__steps"})
    for text, target, rel in (("« First", 0, None), ("‹ Previous", index - 1, "prev")):
        _step(steps, text, href(target) if index > 0 else None, rel)
    here_text = etree.SubElement(steps, "span", {"class": "msg-pager__here"})
    here_text.text = f"Page {index + 1} of {count}"
    for text, target, rel in (("Next ›", index + 1, "next"), ("Last »", count - 1, None)):
        _step(steps, text, href(target) if index < count - 1 else None, rel)
    if where != "top":
        return nav
    if count <= ALL_PAGES_LISTED:
        nav.append(_page_list(layout, range(count), index, href, "msg-pager__pages"))
        return nav
    near = sorted({0, 1, index - 1, index, index + 1, count - 2, count - 1} & set(range(count)))
    nav.append(_page_list(layout, near, index, href, "msg-pager__pages", gaps=True))
    every = etree.SubElement(nav, "details", {"class": "msg-pager__index"})
    etree.SubElement(every, "summary").text = f"All {count} pages, by message number"
    every.append(_page_list(layout, range(count), index, href, "msg-pager__all"))
    return nav


def _step(parent: etree.Element, text: str, href: str | None, rel: str | None) -> None:
    if href is None:  # no such page from here: shown, but not a link
        step = etree.SubElement(parent, "span", {"class": "msg-pager__step msg-pager__step--off"})
    else:
        attributes = {"class": "msg-pager__step", "href": href, **({"rel": rel} if rel else {})}
        step = etree.SubElement(parent, "a", attributes)
    step.text = text


def _page_list(layout: TranscriptLayout, indexes: Iterable[int], current: int, href: Callable[[int], str], css: str,
               gaps: bool = False) -> etree.Element:
    pages = etree.Element("ol", {"class": css})
    previous = None
    for i in indexes:
        if gaps and previous is not None and i - previous > 1:
            etree.SubElement(pages, "li", {"class": "msg-pager__skip", "aria-hidden": "true"}).text = "…"
        chunk = layout.pages[i]
        item = etree.SubElement(pages, "li")
        attributes = {"aria-current": "page"} if i == current else {"href": href(i)}
        link = etree.SubElement(item, "a" if i != current else "span", attributes)
        link.text = f"{chunk[0]}–{chunk[-1]}" if chunk[0] != chunk[-1] else str(chunk[0])
        if i != current:
            link.set("aria-label", f"Page {i + 1}: messages {link.text}")
        previous = i
    return pages


def absent_note(numbers: Sequence[int], first: int, last: int) -> etree.Element | None:
    """A line naming the numbers between positions `first` and `last` of the sorted
    `numbers` (either end -1 for none: from the first or to the last number) that the
    transcript does not hold; None when they are consecutive."""
    runs: list[tuple[int, int]] = []
    missing = run_count = 0
    for i in range(max(first, 0), min(last, len(numbers) - 1)):
        step = numbers[i + 1] - numbers[i]
        if step > 1:
            run_count += 1
            missing += step - 1
            if len(runs) < RUNS_NAMED:
                runs.append((numbers[i] + 1, numbers[i + 1] - 1))
    if not runs:
        return None
    note = etree.Element("p", {"class": "msg-absent"})
    if run_count == 1:
        note.text = f"Not in the transcript: {_messages(*runs[0])}."
        return note
    named = ", ".join(_span(*run) for run in runs)
    more = f", and {run_count - len(runs):,} more runs" if run_count > len(runs) else ""
    note.text = (f"Not in the transcript: {missing:,} messages between message {numbers[max(first, 0)]} "
                 f"and message {numbers[min(last, len(numbers) - 1)]}, in {run_count:,} runs: {named}{more}.")
    return note


def _span(low: int, high: int) -> str:
    return str(low) if low == high else f"{low}–{high}"


def _messages(low: int, high: int) -> str:
    return f"message {low}" if low == high else f"messages {low}–{high} ({high - low + 1:,} messages)"


def search_form(index_href: str) -> etree.Element:
    """The transcript's search box, its index at `index_href`. Hidden until the script
    that reads the index (assets/message-search.js) shows it: without it, it does nothing."""
    form = etree.Element("form", {"class": "msg-search", "role": "search", "hidden": "hidden",
                                  "data-index": index_href, "aria-label": "The transcript"})
    label = etree.SubElement(form, "label", {"for": "transcript-search"})
    label.text = "Search the transcript, or go to a message by its number"
    etree.SubElement(form, "input", {"id": "transcript-search", "type": "search", "name": "q",
                                     "autocomplete": "off", "spellcheck": "false"})
    etree.SubElement(form, "p", {"class": "msg-search__status", "role": "status"})
    etree.SubElement(form, "ol", {"class": "msg-search__results"})
    return form
