"""Elements written as HTML, their text and attribute values escaped."""

from __future__ import annotations

import html
import xml.etree.ElementTree as etree

# Material's search leaves out an element with this attribute: what only labels or
# repeats text found elsewhere (a caption, a message's snippet beside the paragraph
# that cites it, the essay's words listed under the message they cite).
NOT_SEARCHED = {"data-search-exclude": ""}
# The tag of an element that stands for HTML made already, such as a message the renderer
# made (`raw`): `to_html` writes its text as it is.
_RAW_TAG = "\x00html"


def raw(made: str) -> etree.Element:
    """An element that `to_html` writes as `made`, HTML that was escaped as it was made."""
    element = etree.Element(_RAW_TAG)
    element.text = made
    return element


def to_html(element: etree.Element) -> str:
    """The element as HTML, its text and attribute values escaped. Written here rather
    than by ElementTree's serializer, which takes twice as long: a whole session's
    transcript is tens of thousands of these elements."""
    parts: list[str] = []
    _write(element, parts)
    return "".join(parts)


# The elements of HTML that have no end tag.
VOID_TAGS = frozenset({"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track",
                       "wbr"})


def _write(element: etree.Element, parts: list[str]) -> None:
    if element.tag == _RAW_TAG:
        parts.append(element.text or "")
        return
    parts.append("<" + element.tag)
    for name, value in element.attrib.items():
        parts.append(f' {name}="{html.escape(value)}"')
    parts.append(">")
    if element.tag in VOID_TAGS:
        return
    if element.text:
        parts.append(html.escape(element.text, quote=False))
    for child in element:
        _write(child, parts)
        if child.tail:
            parts.append(html.escape(child.tail, quote=False))
    parts.append(f"</{element.tag}>")
