"""A range of consecutive messages cited as one, `[msg 49-51]`: its link, its quotation,
its snippet and its preview, each made of the shapes of one message's (`snippets`,
`previews`) around the range's messages in order.

The link leads to `#msg-49-51` on the page of the range's first message: an anchor in that
message's heading, from which the page's script outlines the range (as much of it as the
page shows, when the range runs on to the next page).
"""

from __future__ import annotations

import xml.etree.ElementTree as etree
from collections.abc import Callable, Sequence

from msgview.html import NOT_SEARCHED
from msgview.render import SPEAKER_LABELS
from transcript.schema import Message

from . import previews, snippets
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


def quote(linked: Sequence[Linked], href: str, shown_whole: Callable[[Message], tuple[Message, etree.Element | None]],
          ) -> etree.Element:
    """The exchange quoted whole, for a range alone on its line: each message in order, as
    one message is quoted (its speaker in its caption), in one figure with one caption."""
    figure = _figure(linked, "msg-range msg-range--full")
    for message, message_href in linked:
        shown, cut_note = shown_whole(message)
        one = snippets.snippet(shown, message_href, full=True)
        if cut_note is not None:
            one.insert(1, cut_note)  # after the text, before the caption
        figure.append(one)
    figure.append(_caption(linked, href))
    return figure


def snippet(linked: Sequence[Linked], href: str) -> etree.Element:
    """The range beside the paragraph that cites it: each message shortened, in one figure."""
    figure = _figure(linked, "msg-range")
    figure.attrib.update(NOT_SEARCHED)
    for message, message_href in linked:
        figure.append(snippets.snippet(message, message_href))
    figure.append(_caption(linked, href))
    return figure


def preview(linked: Sequence[Linked], href: str, limit: int, cited_in: Sequence[tuple[str, str]]) -> etree.Element:
    """The preview of a range's link: its first message's, with the others named after it."""
    first, rest = linked[0][0], linked[1:]
    box = previews.preview(first, href, limit, cited_in)
    old, new = previews.preview_id(first.n), range_preview_id(first.n, linked[-1][0].n)
    for element in box.iter():
        for name in ("id", "aria-labelledby"):
            if (value := element.get(name)) and value.startswith(old):
                element.set(name, new + value[len(old):])
    more = etree.Element("p", {"class": "msg-preview__range"})
    more.text = f"and {len(rest)} more: "
    for index, (message, message_href) in enumerate(rest):
        etree.SubElement(more, "a", {"href": message_href}).text = f"message {message.n}"
        etree.SubElement(more, "span").text = (f" ({SPEAKER_LABELS[message.speaker]})"
                                               + (", " if index < len(rest) - 1 else ""))
    box.insert(2, more)  # after the first message's text
    return box


def range_preview_id(first: int, last: int) -> str:
    return f"{previews.preview_id(first)}-{last}"


def _figure(linked: Sequence[Linked], kind: str) -> etree.Element:
    first, last = linked[0][0].n, linked[-1][0].n
    return etree.Element("figure", {"class": kind, "aria-label": title(first, last)})


def _caption(linked: Sequence[Linked], href: str) -> etree.Element:
    """"Messages 49–51 · User and Assistant", linked to the range in the transcript."""
    first, last = linked[0][0].n, linked[-1][0].n
    caption = etree.Element("figcaption", {"class": "msg-range__caption", **NOT_SEARCHED})
    etree.SubElement(caption, "a", {"href": href}).text = title(first, last)
    speakers = list(dict.fromkeys(SPEAKER_LABELS[message.speaker] for message, _ in linked))
    caption[0].tail = " · " + (" and ".join(speakers) if len(speakers) < 3
                               else ", ".join(speakers[:-1]) + " and " + speakers[-1])
    return caption
