"""A message cited in the essay: the link that cites it, and its snippet or full quotation.

Everything is built as an element tree, so transcript text is always escaped: it
renders as text, never as HTML.
"""

from __future__ import annotations

import xml.etree.ElementTree as etree

from msgview.html import NOT_SEARCHED
from msgview.labels import SPEAKER_LABELS, provenance_label
from transcript.schema import Message


def citation_link(message: Message | None, n: int, href: str | None) -> etree.Element:
    """The inline element that replaces `[msg N]`: a link, or a visible unresolved mark."""
    if message is None or href is None:
        mark = etree.Element("mark", {"class": "msg-ref msg-ref--unresolved",
                                      "title": f"Message {n} is not in the transcript"})
        mark.text = f"msg {n} (not in the transcript)"
        return mark
    kind = "described" if message.is_described else "verbatim"
    # No title: the page's script shows the message's preview (see previews.py).
    link = etree.Element("a", {"class": f"msg-ref msg-ref--{kind}", "href": href})
    link.text = f"msg {message.n}"
    return link


def snippet(message: Message, body: etree.Element, href: str,
            together: tuple[tuple[Message, str], ...] = ()) -> etree.Element:
    """A message shown in an essay page: its `body`, as the renderer made it, and a
    caption linking to the transcript.

    `together` holds (message, href) pairs that share this message's description and are
    shown under it rather than repeated.
    """
    figure = etree.Element("figure", {"class": f"msg-snippet msg-snippet--{message.provenance}"})
    figure.append(body)
    caption = etree.SubElement(figure, "figcaption", {"class": "msg-snippet__caption", **NOT_SEARCHED})
    for index, (shown, link_to) in enumerate([(message, href), *together]):
        link = etree.SubElement(caption, "a", {"href": link_to})
        link.text = f"Message {shown.n}"
        link.tail = " and " if index < len(together) else ""
    link.tail = f" · {SPEAKER_LABELS[message.speaker]} · {provenance_label(message)}"
    return figure
