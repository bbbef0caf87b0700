"""What the site says of a message around its words: its speaker, whether it is quoted
or described, the mark of an empty message, and the box of a description."""

from __future__ import annotations

import xml.etree.ElementTree as etree
from collections.abc import Iterable

from transcript.schema import Message

from .text import displayable, shorten

EMPTY_LABEL = "Empty message: no content"
BLANK_LABEL = "Blank message: whitespace only"
SPEAKER_LABELS = {"user": "user", "assistant": "assistant", "tool": "tool", "unknown": "sender not stated"}


def provenance_label(message: Message) -> str:
    return "described by the essay, not quoted" if message.is_described else "quoted verbatim"


def message_body(message: Message, limit: int | None = None, shown_with: tuple[int, ...] = ()) -> etree.Element:
    """A described message's box (its description, shortened past `limit`), or the mark
    of a message that holds nothing to show.

    `shown_with` names messages shown together with this one under one description.
    """
    if message.is_described:
        body = etree.Element("div", {"class": "msg-body msg-body--described"})
        label = etree.SubElement(body, "p", {"class": "msg-body__label"})
        label.text = "Described, not quoted. The essay describes " + (
            "these messages as:" if shown_with else "this message as:"
        )
        description = etree.SubElement(body, "p", {"class": "msg-body__text"})
        description.text = shorten(message.text, limit) if limit else displayable(message.text)
        if message.described_with:
            note = etree.SubElement(body, "p", {"class": "msg-body__note"})
            if shown_with:
                numbers = _numbers_phrase((message.n, *shown_with))
                note.text = f"The essay describes messages {numbers} in one sentence, "
            else:
                note.text = (
                    f"The essay describes this message together with message "
                    f"{_numbers_phrase(message.described_with)} in one sentence, "
                )
            note.text += "without saying which part belongs to which."
        return body
    empty = etree.Element("p", {"class": "msg-body msg-body--empty"})
    empty.text = empty_label(message)
    return empty


def _numbers_phrase(numbers: Iterable[int]) -> str:
    words = [str(n) for n in numbers]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def empty_label(message: Message) -> str:
    return EMPTY_LABEL if message.text == "" else BLANK_LABEL
