"""A range of consecutive messages cited as one, `[msg 49-51]`: its link, its quotation,
its snippet and its preview, each made of its messages' own (`snippets`, `previews`), in
order, in one element.

The link leads to `#msg-49-51` on the page of the range's first message: an anchor in that
message's heading, from which the page's script outlines the range (as much of it as the
page shows, when the range runs on to the next page).
"""

from __future__ import annotations

import xml.etree.ElementTree as etree
from collections.abc import Sequence

from msgview.html import NOT_SEARCHED
from msgview.labels import SPEAKER_LABELS
from transcript.schema import Message

from . import previews
from .tags import link_text

# A message and its address, as the page citing it links to it.
Linked = tuple[Message, str]


def anchor(first: int, last: int) -> str:
    """The id that marks the range on the transcript page of its first message."""
    return f"msg-{first}-{last}"


def range_href(first_href: str, first: int, last: int) -> str:
    """The link to the range, from the link to its first message: the same page, the
    range's anchor. A link to anything else (the one-page essay's appendix) stays as it is."""
    own = f"#msg-{first}"
    return first_href[: -len(own)] + f"#{anchor(first, last)}" if first_href.endswith(own) else first_href


def title(first: int, last: int) -> str:
    return f"Messages {first}\u2013{last}"


def link(messages: Sequence[Message], href: str) -> etree.Element:
    """The inline element that replaces `[msg A-B]`: one link, "msg A–B"."""
    first, last = messages[0].n, messages[-1].n
    kinds = {"described" if message.is_described else "verbatim" for message in messages}
    kind = kinds.pop() if len(kinds) == 1 else "verbatim"
    element = etree.Element("a", {"class": f"msg-ref msg-ref--{kind} msg-ref--range", "href": href})
    element.text = link_text(first, last)
    return element


def unresolved(first: int, last: int, problem: str) -> etree.Element:
    """The visible mark of a range the build refuses, in place of its link."""
    mark = etree.Element("mark", {"class": "msg-ref msg-ref--unresolved", "title": problem})
    mark.text = f"{link_text(first, last)} (not cited)"
    return mark


def quote(figures: Sequence[etree.Element], messages: Sequence[Message], href: str) -> etree.Element:
    """The exchange quoted whole, for a range alone on its line: each message's figure as
    one message is quoted (its speaker in its caption), in order, in one figure with one
    caption linking to the range at `href`."""
    figure = _figure(messages, "msg-range msg-range--full")
    figure.extend(figures)
    figure.append(_caption(messages, href))
    return figure


def snippet(figures: Sequence[etree.Element], messages: Sequence[Message], href: str) -> etree.Element:
    """The range beside the paragraph that cites it: each message's snippet, in one figure."""
    figure = _figure(messages, "msg-range")
    figure.attrib.update(NOT_SEARCHED)
    figure.extend(figures)
    figure.append(_caption(messages, href))
    return figure


def preview(first: etree.Element, linked: Sequence[Linked]) -> etree.Element:
    """The preview of a range's link: `first`, the preview of its first message (linking to
    the range), made the range's, with the others named after the first one's text."""
    rest = linked[1:]
    old, new = previews.preview_id(linked[0][0].n), range_preview_id(linked[0][0].n, linked[-1][0].n)
    for element in first.iter():
        for name in ("id", "aria-labelledby"):
            if (value := element.get(name)) and value.startswith(old):
                element.set(name, new + value[len(old):])
    more = etree.Element("p", {"class": "msg-preview__range"})
    more.text = f"and {len(rest)} more: "
    for index, (message, message_href) in enumerate(rest):
        etree.SubElement(more, "a", {"href": message_href}).text = f"message {message.n}"
        etree.SubElement(more, "span").text = (f" ({SPEAKER_LABELS[message.speaker]})"
                                               + (", " if index < len(rest) - 1 else ""))
    first.insert(2, more)  # after the first message's text
    return first


def range_preview_id(first: int, last: int) -> str:
    return f"{previews.preview_id(first)}-{last}"


def _figure(messages: Sequence[Message], kind: str) -> etree.Element:
    first, last = messages[0].n, messages[-1].n
    return etree.Element("figure", {"class": kind, "aria-label": title(first, last)})


def _caption(messages: Sequence[Message], href: str) -> etree.Element:
    """"Messages 49–51 · User and Assistant", linked to the range in the transcript."""
    first, last = messages[0].n, messages[-1].n
    caption = etree.Element("figcaption", {"class": "msg-range__caption", **NOT_SEARCHED})
    etree.SubElement(caption, "a", {"href": href}).text = title(first, last)
    speakers = list(dict.fromkeys(SPEAKER_LABELS[message.speaker] for message in messages))
    caption[0].tail = " · " + (" and ".join(speakers) if len(speakers) < 3
                               else ", ".join(speakers[:-1]) + " and " + speakers[-1])
    return caption
