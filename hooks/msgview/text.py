"""A message's text as a page may show it: every character displayable, cut near a
length, and JSON values written out."""

from __future__ import annotations

import json
import re

import orjson

from transcript.schema import holds_float

from . import hidden_characters

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


def indented_json(value: object) -> str:
    """`value` as JSON indented by two spaces, as the standard library writes it."""
    if not holds_float(value):  # orjson writes NaN and Infinity, which a transcript may hold, as null
        try:  # several times faster; it refuses integers past 64 bits
            return orjson.dumps(value, option=orjson.OPT_INDENT_2).decode()
        except TypeError:
            pass
    return json.dumps(value, indent=2, ensure_ascii=False)
