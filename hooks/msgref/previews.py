"""The previews of cited messages that a page carries for its citation links.

A page that cites messages ends with one container that holds a preview of each, as
popovers that docs/assets/previews.js opens beside the citation link. They are written
into the page, not fetched, so that a copy opened from the file system shows them too.
"""

from __future__ import annotations

import xml.etree.ElementTree as etree
from collections.abc import Iterable

from msgview.html import NOT_SEARCHED, raw
from msgview.labels import SPEAKER_LABELS, provenance_label
from msgview.render import Rendered
from transcript.schema import Message

READ_MORE = "Read the whole message"
SEE_IN_TRANSCRIPT = "See it in the transcript"


# The citations a preview lists; a message cited more often links to its transcript entry,
# which lists them all.
CITATIONS_SHOWN = 5


def preview_id(n: int) -> str:
    return f"msg-preview-{n}"


def preview(message: Message, body: Rendered, href: str, cited_in: Iterable[tuple[str, str]]) -> etree.Element:
    """Message `message`, its `body` rendered at the preview's size, with a link `href`
    to it and the (title, href) of each citation of it.

    A non-modal dialog, since it holds links; the page's script gives the citation link
    aria-controls and aria-expanded, and describes the link by the message's text."""
    n, ident = message.n, preview_id(message.n)
    box = etree.Element("div", {
        "class": f"msg-preview msg-preview--{message.provenance}", "id": ident,
        "popover": "manual", "role": "dialog", "aria-labelledby": f"{ident}-head",
    })
    head = etree.SubElement(box, "p", {"class": "msg-preview__head", "id": f"{ident}-head"})
    etree.SubElement(head, "strong").text = f"Message {n}"
    head[0].tail = f" · {SPEAKER_LABELS[message.speaker]} · {provenance_label(message)}"
    text = etree.SubElement(box, "div", {"class": "msg-preview__body", "id": f"{ident}-text"})
    text.append(raw(body.html))
    more = etree.SubElement(box, "p", {"class": "msg-preview__more"})
    etree.SubElement(more, "a", {"href": href}).text = READ_MORE if body.shortened else SEE_IN_TRANSCRIPT
    citations = _numbered(list(cited_in))
    if citations:
        cited = etree.SubElement(box, "div", {"class": "msg-preview__cited"})
        etree.SubElement(cited, "p").text = "Cited in:"
        items = etree.SubElement(cited, "ul")
        for title, link in citations[:CITATIONS_SHOWN]:
            etree.SubElement(etree.SubElement(items, "li"), "a", {"href": link}).text = title
        if len(citations) > CITATIONS_SHOWN:  # each preview of a page would repeat the whole list
            rest = etree.SubElement(etree.SubElement(items, "li"), "a", {"href": href})
            rest.text = f"and {len(citations) - CITATIONS_SHOWN:,} more, listed in the transcript"
    return box


def previews_block(previews: Iterable[etree.Element]) -> etree.Element:
    """The container at the end of a page: left out of the search index. Material's
    search parser matches elements by tag alone, so nothing inside may be a <section>."""
    block = etree.Element("section", {"class": "msg-previews", **NOT_SEARCHED})
    block.extend(previews)
    return block


def _numbered(citations: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """The citations, a page's second and later ones named "Title (2)", "Title (3)"."""
    seen: dict[str, int] = {}
    named = []
    for title, link in citations:
        seen[title] = seen.get(title, 0) + 1
        named.append((title if seen[title] == 1 else f"{title} ({seen[title]})", link))
    return named
