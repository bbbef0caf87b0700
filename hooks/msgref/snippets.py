"""How a message looks: the link that cites it, its snippet, its full quotation.

Everything is built as an element tree, so transcript text is always escaped: it
renders as text, never as HTML.
"""

from __future__ import annotations

import html
import json
import re
import xml.etree.ElementTree as etree
from collections.abc import Iterable

import orjson

from . import hidden_characters
from .schema import Message, holds_float

SNIPPET_CHARS = 280
EMPTY_LABEL = "Empty message: no content"
BLANK_LABEL = "Blank message: whitespace only"
# Material's search leaves out an element with this attribute: what only labels or
# repeats text found elsewhere (a caption, a message's snippet beside the paragraph
# that cites it, the essay's words listed under the message they cite).
NOT_SEARCHED = {"data-search-exclude": ""}
SPEAKER_LABELS = {"user": "user", "assistant": "assistant", "tool": "tool", "unknown": "sender not stated"}

# Characters a message must not carry into a page, its search index or its text file:
# control characters but tab and line breaks (among them Python-Markdown's placeholders,
# STX and ETX, which would let raw HTML stored on the page back in), which show as their
# Control Pictures (␀, ␛, ␡); and, as U+FFFD, the C1 controls, this package's line
# marks, lone surrogates (which cannot be written as UTF-8) and the noncharacters
# (U+FFFE, U+FFFF, ...); and the bidirectional controls, which would set the words
# around them in another order than they are stored, as their code points
# (`hidden_characters`). The expression lists the characters outside the Basic
# Multilingual Plane as one range and tells their noncharacters apart in `_visible`:
# listing those one by one makes every search ten times slower, which matters for tool
# outputs of hundreds of kilobytes.
_NOT_DISPLAYABLE_RE = re.compile(
    "[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ue000-\ue01f\ud800-\udfff\ufdd0-\ufdef\ufffe\uffff\U00010000-\U0010ffff"
    f"{hidden_characters.BIDI_CONTROLS}]"
)


def _visible(match: re.Match[str]) -> str:
    char = match.group()
    code = ord(char)
    if code > 0xFFFF:  # another plane: only its last two code points are noncharacters
        return "\ufffd" if code & 0xFFFE == 0xFFFE else char
    if code < 0x20:
        return chr(0x2400 + code)
    if code == 0x7F:
        return "\u2421"
    return "\ufffd" if code < 0xA0 or code >= 0xD800 else hidden_characters.shown(char)


# In UTF-8, every character the expression above matches but the bidirectional controls
# starts with one of these bytes; no other byte does. Looking for them in a text's UTF-8
# takes a tenth of the time of the expression's search, and most long texts (tool
# outputs) hold none. A bidirectional control is looked for only in a text that is not
# ASCII, which Python knows at once.
_STARTS_OF_UNDISPLAYABLE = bytes([*range(0x09), 0x0B, 0x0C, *range(0x0E, 0x20), 0x7F, 0xC2, 0xED, 0xEE, 0xEF,
                                  *range(0xF0, 0xF5)])
_OTHER_BYTES = bytes(byte for byte in range(256) if byte not in _STARTS_OF_UNDISPLAYABLE)
_LOOK_FIRST_CHARS = 2000  # a shorter text is searched at once


# The last long texts found displayable, by their ids: a tool's input is made displayable
# whole before its view shows some of its texts, which asks again (see `displayable_value`).
# Held here, a text's id is its own.
_KNOWN_DISPLAYABLE: dict[int, str] = {}
_KNOWN_DISPLAYABLE_TEXTS = 8


def displayable(text: str) -> str:
    if len(text) < _LOOK_FIRST_CHARS:
        return _NOT_DISPLAYABLE_RE.sub(_visible, text)
    if _KNOWN_DISPLAYABLE.get(id(text)) is text:
        return text
    shown = text if _utf8_if_displayable(text) is not None else _NOT_DISPLAYABLE_RE.sub(_visible, text)
    if len(_KNOWN_DISPLAYABLE) >= _KNOWN_DISPLAYABLE_TEXTS:
        _KNOWN_DISPLAYABLE.clear()
    _KNOWN_DISPLAYABLE[id(shown)] = shown
    return shown


def displayable_value(value: object) -> object:
    """`value`, a JSON value such as a tool's input, with every text in it displayable: at
    any depth, and its mappings' keys too."""
    if isinstance(value, str):
        return displayable(value)
    if isinstance(value, dict):
        return {displayable(key) if isinstance(key, str) else key: displayable_value(item)
                for key, item in value.items()}
    if isinstance(value, list):
        return [displayable_value(item) for item in value]
    return value


def displayable_utf8(text: str) -> bytes:
    """`displayable(text)` in UTF-8: a long text, encoded once."""
    if len(text) >= _LOOK_FIRST_CHARS and (encoded := _utf8_if_displayable(text)) is not None:
        return encoded
    return _NOT_DISPLAYABLE_RE.sub(_visible, text).encode()


def _utf8_if_displayable(text: str) -> bytes | None:
    """`text` in UTF-8 if every character of it is displayable; else None."""
    try:
        encoded = text.encode()
    except UnicodeEncodeError:  # a lone surrogate
        return None
    if encoded.translate(None, _OTHER_BYTES) or (not text.isascii() and hidden_characters.holds_bidi_control(text)):
        return None
    return encoded


def shorten(text: str, limit: int) -> str:
    """Cut `text` at a word boundary near `limit`, marking the cut with an ellipsis."""
    text = _collapsed_start(text, limit)
    if len(text) <= limit:
        return text
    cut = text[:limit].rsplit(" ", 1)[0] or text[:limit]
    return cut.rstrip(" ,;:.") + " …"


def _collapsed_start(text: str, limit: int) -> str:
    """The text with its whitespace collapsed, or, for a long text, a start of it that
    is longer than `limit` once collapsed: enough to cut at `limit`."""
    window = 4 * limit + 64
    while True:
        collapsed = " ".join(displayable(text[:window]).split())
        # A longer collapsed start holds the word that crosses `limit`, cut or whole:
        # either way it falls outside the cut.
        if window >= len(text) or len(collapsed) > limit:
            return collapsed
        window *= 4


def provenance_label(message: Message) -> str:
    return "described by the essay, not quoted" if message.is_described else "quoted verbatim"


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


def message_body(message: Message, limit: int | None = None, shown_with: tuple[int, ...] = ()) -> etree.Element:
    """The message's text: a quotation, a labelled description, or an empty marker.

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
    if not message.text.strip():
        if message.tool_name:
            call = etree.Element("p", {"class": "msg-body msg-body--tool"})
            call.text = f"Tool call: {displayable(message.tool_name)}"
            return call
        empty = etree.Element("p", {"class": "msg-body msg-body--empty"})
        empty.text = _empty_label(message)
        return empty
    quote = etree.Element("blockquote", {"class": "msg-body msg-body--verbatim"})
    text = etree.SubElement(quote, "p", {"class": "msg-body__text"})
    text.text = shorten(message.text, limit) if limit else displayable(message.text)
    return quote


def shown_text(message: Message) -> str:
    """The words a message's body shows, as plain text: its text, its tool call, or the
    mark of an empty message."""
    if message.text.strip() or message.is_described:
        return displayable(message.text)
    return f"Tool call: {displayable(message.tool_name)}" if message.tool_name else _empty_label(message)


def snippet(message: Message, href: str, full: bool = False,
            together: tuple[tuple[Message, str], ...] = ()) -> etree.Element:
    """A message shown in an essay page: its body and a caption linking to the transcript.

    `together` holds (message, href) pairs that share this message's description and are
    shown under it rather than repeated.
    """
    figure = etree.Element("figure", {"class": f"msg-snippet msg-snippet--{message.provenance}"})
    shown_with = tuple(other.n for other, _ in together)
    figure.append(message_body(message, None if full else SNIPPET_CHARS, shown_with))
    caption = etree.SubElement(figure, "figcaption", {"class": "msg-snippet__caption", **NOT_SEARCHED})
    for index, (shown, link_to) in enumerate([(message, href), *together]):
        link = etree.SubElement(caption, "a", {"href": link_to})
        link.text = f"Message {shown.n}"
        link.tail = " and " if index < len(together) else ""
    link.tail = f" · {SPEAKER_LABELS[message.speaker]} · {provenance_label(message)}"
    return figure


def indented_json(value: object) -> str:
    """`value` as JSON indented by two spaces, as the standard library writes it."""
    if not holds_float(value):  # orjson writes NaN and Infinity, which a transcript may hold, as null
        try:  # several times faster; it refuses integers past 64 bits
            return orjson.dumps(value, option=orjson.OPT_INDENT_2).decode()
        except TypeError:
            pass
    return json.dumps(value, indent=2, ensure_ascii=False)


def _numbers_phrase(numbers: Iterable[int]) -> str:
    words = [str(n) for n in numbers]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


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


def _empty_label(message: Message) -> str:
    return EMPTY_LABEL if message.text == "" else BLANK_LABEL
