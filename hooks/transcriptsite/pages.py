"""The transcript as pages of the site: each page's Markdown, what fills its entries once
every page is converted, and the appendix of a printed essay.

A page's Markdown holds only its title, its introduction and the slot of its entries,
which `transcript_entries` makes and the build puts in once the page is converted. Each
shown message gets a heading with the stable anchor `msg-N`.
"""

from __future__ import annotations

import dataclasses
import itertools
import xml.etree.ElementTree as etree
from collections.abc import Callable, Iterable, Mapping, Sequence

from msgref.citations import Citation
from msgview.html import raw, to_html
from msgview.labels import SPEAKER_LABELS, provenance_label
from msgview.render import MessageRenderer, Size

from .entries import BADGE, ITEM, cut_text
from .layout import TranscriptLayout

ENTRIES_SLOT = '<div class="msg-entries-slot"></div>'
APPENDIX_ENTRY = "appendix-msg-{n}"  # the id of a cited message's entry in a printed essay's appendix
_BADGE = '<span class="msg-badge"><span class="visually-hidden">: </span>Cited</span>'


def page_markdown(layout: TranscriptLayout, index: int, intro: str = "") -> str:
    """The Markdown of one transcript page, its messages left to `transcript_entries`."""
    chunk = layout.pages[index]
    # A page of several has an id that reads as its range (the slug would drop the dash).
    title = "# Transcript" if len(layout.pages) == 1 else (
        f"# Transcript, messages {chunk[0]}–{chunk[-1]} {{ #messages-{chunk[0]}-{chunk[-1]} }}")
    parts = [title, intro.strip(), _summary(layout), ENTRIES_SLOT]
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


def cited_messages(layout: TranscriptLayout, numbers: Iterable[int], address_of: Callable[[int], str],
                   renderer: MessageRenderer) -> etree.Element:
    """The messages `numbers`, each with its number, speaker, content as printed
    (shortened past `message_chars`), provenance and its address `address_of(n)`: the
    appendix of a printed essay."""
    appendix = etree.Element("div", {"class": "cited-messages"})
    for n in numbers:
        message = layout.message(n)
        entry = etree.SubElement(appendix, "section", {"class": "cited-message", "id": APPENDIX_ENTRY.format(n=n)})
        etree.SubElement(entry, "h3").text = f"Message {n} — {SPEAKER_LABELS[message.speaker]}"
        shown = dataclasses.replace(message, text=cut_text(message.text, layout.message_chars)) \
            if layout.is_cut(message) else message
        entry.append(raw(renderer.quotation(shown, Size.PRINT).html))
        # A description says so in its label; a quotation, here.
        said = [] if message.is_described else [f"{provenance_label(message).capitalize()}."]
        if layout.is_cut(message):
            said.append(f"Shortened here: the whole message, {len(message.text):,} characters, is at its address.")
        if said:
            etree.SubElement(entry, "p", {"class": "msg-provenance"}).text = " ".join(said)
        address = etree.SubElement(entry, "p", {"class": "msg-address"})
        address.text = "Address: "
        link = etree.SubElement(address, "a", {"href": address_of(n)})
        link.text = address_of(n)
    return appendix


def _passage_preview(ident: str, title: str, passage: str, href: str) -> etree.Element:
    """The preview of a "Cited in" link: the citing paragraph, which assets/previews.js
    opens beside the link as it opens a message's beside a citation."""
    box = etree.Element("div", {"class": "msg-preview msg-preview--passage", "id": ident, "popover": "manual",
                                "role": "dialog", "aria-labelledby": f"{ident}-head"})
    etree.SubElement(box, "p", {"class": "msg-preview__head", "id": f"{ident}-head"}).text = f"Cited in {title}"
    etree.SubElement(box, "p", {"class": "msg-preview__passage", "id": f"{ident}-text"}).text = f"“{passage}”"
    more = etree.SubElement(box, "p", {"class": "msg-preview__more"})
    etree.SubElement(more, "a", {"href": href}).text = "Read it in the essay"
    return box


def cited_in_fill(cited: Mapping[int, Sequence[Citation]], link_for: Callable[[Citation], str],
                  title_of: Callable[[str], str]) -> Callable[[int, int], str]:
    """What fills the holes of a page's entries (`PageEntries.filled`) but the map's:
    each cited message's "Cited in" list, and the marks of the cited messages' entries
    and headings. `cited` holds the citations of each cited message, in reading order."""

    def fill(kind: int, n: int) -> str:
        citations = cited.get(n)
        if kind == ITEM:
            return " msg-item--cited" if citations else ""
        if kind == BADGE:
            return _BADGE if citations else ""
        return _cited_in(citations) if citations else ""

    previews = itertools.count(1)  # the page's previews of citing passages, numbered

    def _cited_in(citations: Sequence[Citation]) -> str:
        box = etree.Element("div", {"class": "msg-cited-in"})
        heading = etree.SubElement(box, "p", {"class": "msg-cited-in__label"})
        heading.text = "Cited in:"
        items = etree.SubElement(box, "ul")
        passages = []  # after the list, not in it: its links are the citations'
        for citation in citations:
            item = etree.SubElement(items, "li")
            href, title = link_for(citation), title_of(citation.page)
            link = etree.SubElement(item, "a", {"href": href})
            link.text = title
            link.tail = f": “{citation.excerpt}”"
            if citation.passage:
                ident = f"passage-{next(previews)}"
                link.set("data-passage", ident)  # not data-preview: the theme fetches the site map for those
                passages.append(_passage_preview(ident, title, citation.passage, href))
        return to_html(box) + "".join(map(to_html, passages))

    return fill
