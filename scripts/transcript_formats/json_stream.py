"""Reading a large JSON document piece by piece.

A log stored as one JSON document (a list of chat messages, a ShareGPT file, a
`{"loglines": [...]}` export) is walked through its arrays and objects here, and
only one element at a time is handed to `json.loads`. Memory then holds one
message, not the whole log. Errors name the line they are on.
"""

from __future__ import annotations

import codecs
import json
import re

from .common import LogError, parse_json

_WHITESPACE = re.compile(r"[ \t\n\r]*")
_STRUCTURE = re.compile(r'["\[\]{}]')
# The rest of a string after its opening quote, through the closing quote.
_STRING_REST = re.compile(r'[^"\\]*(?:\\.[^"\\]*)*"', re.S)
_SCALAR = re.compile(r"[^\s,\]}:\[{\"]*")
CHUNK_SIZE = 1 << 16  # bytes read at a time
_COMPACT_AFTER = 1 << 20
# No one message is this large; an element that grows past it is a document broken
# by an unclosed quote or bracket, and reading on would hold the rest of the file.
MAX_ELEMENT_CHARS = 1 << 29


def _run_end(pattern: re.Pattern[str], text: str, pos: int) -> int:
    """Where the run of `pattern` (which may match nothing) starting at `pos` ends."""
    match = pattern.match(text, pos)
    return pos if match is None else match.end()


class JsonDocument:
    """A cursor over one JSON document read from a binary file."""

    def __init__(self, file, path: str, chunk_size: int | None = None):
        self.path = path
        self._file = file
        self._chunk_size = chunk_size or CHUNK_SIZE
        self._decoder = codecs.getincrementaldecoder("utf-8")("strict")
        self._buffer = ""
        self._pos = 0
        self._line = 1  # the line of self._pos
        self._eof = False
        self._started = False

    @property
    def line(self) -> int:
        return self._line

    # Walking the structure

    def peek(self) -> str:
        """The next character that is not white space; "" at the end of the file."""
        return self._skip_whitespace()

    def read_value(self):
        """Parse the next complete value and move past it."""
        if self._skip_whitespace() == "":
            self._truncated()
        start, line = self._pos, self._line
        end = self._value_end(start)
        text = self._buffer[start:end]
        try:
            value = parse_json(text, self.path, line)
        except json.JSONDecodeError as error:
            raise LogError(self.path, line + text.count("\n", 0, error.pos), f"not valid JSON: {error.msg}") from None
        self._advance(end)
        return value

    def iter_array(self):
        """At a `[`: yield the line of each element; the caller reads (or walks
        into) the element before asking for the next."""
        self._expect("[", "a JSON array")
        if self._skip_whitespace() == "]":
            self._advance(self._pos + 1)
            return
        while True:
            yield self._line
            if self._after_item("]"):
                return

    def iter_object(self):
        """At a `{`: yield each key; the caller reads (or walks into) its value."""
        self._expect("{", "a JSON object")
        if self._skip_whitespace() == "}":
            self._advance(self._pos + 1)
            return
        while True:
            line = self._line
            key = self.read_value() if self.peek() == '"' else None
            if not isinstance(key, str):
                raise LogError(self.path, line, "not valid JSON: expected a key in double quotes")
            self._expect(":", "':' after a key")
            yield key
            if self._after_item("}"):
                return

    def finish(self) -> None:
        """Check that nothing but white space follows the document."""
        if self._skip_whitespace() != "":
            raise LogError(self.path, self._line, "not valid JSON: extra text after the end of the document")

    def _after_item(self, closing: str) -> bool:
        char = self._skip_whitespace()
        if char == ",":
            self._advance(self._pos + 1)
            return False
        if char == closing:
            self._advance(self._pos + 1)
            return True
        if char == "":
            self._truncated()
        raise LogError(self.path, self._line, f"not valid JSON: expected ',' or '{closing}', found {char!r}")

    def _expect(self, char: str, what: str) -> None:
        found = self._skip_whitespace()
        if found == "":
            self._truncated()
        if found != char:
            raise LogError(self.path, self._line, f"expected {what}, found {found!r}")
        self._advance(self._pos + 1)

    # The buffer

    def _skip_whitespace(self) -> str:
        while True:
            if not self._started and self._buffer:
                self._started = True
                if self._buffer.startswith("\ufeff"):  # a byte order mark
                    self._pos = 1
            self._advance(_run_end(_WHITESPACE, self._buffer, self._pos))
            if self._pos < len(self._buffer):
                if self._pos > _COMPACT_AFTER:
                    self._buffer, self._pos = self._buffer[self._pos :], 0
                return self._buffer[self._pos]
            self._buffer, self._pos = "", 0
            if not self._fill():
                return ""

    def _advance(self, to: int) -> None:
        self._line += self._buffer.count("\n", self._pos, to)
        self._pos = to

    def _fill(self, at_least: int = 0) -> bool:
        """Append the next piece of the file; False at its end."""
        if self._eof:
            return False
        data = self._file.read(max(self._chunk_size, at_least))
        try:
            text = self._decoder.decode(data, final=not data)
        except UnicodeDecodeError as error:
            line = self._line + self._buffer.count("\n", self._pos) + data.count(b"\n", 0, max(error.start, 0))
            raise LogError(self.path, line, "not valid UTF-8") from None
        if not data:
            self._eof = True
        self._buffer += text
        return bool(data)

    def _value_end(self, start: int) -> int:
        """Where the value starting at `start` ends, reading more of the file as needed.

        Only brackets and strings are followed here; json.loads checks the rest.
        """
        first = self._buffer[start]
        if first not in "[{\"":
            while True:
                end = _run_end(_SCALAR, self._buffer, start)
                if end < len(self._buffer) or not self._fill():
                    return max(end, start + 1)
        depth, index = 0, start
        while True:
            match = _STRUCTURE.search(self._buffer, index)
            if match is None:
                self._grow()
                continue
            char, index = match.group(), match.end()
            if char == '"':
                while (rest := _STRING_REST.match(self._buffer, index)) is None:
                    self._grow()
                index = rest.end()
            elif char in "[{":
                depth += 1
            else:
                depth -= 1
            if depth == 0:
                return index

    def _grow(self) -> None:
        # Doubling keeps re-scanning a long element linear in its size.
        if len(self._buffer) - self._pos > MAX_ELEMENT_CHARS:
            raise LogError(
                self.path,
                self._line,
                "not valid JSON: the element starting here never ends (an unclosed quote or bracket?)",
            )
        if not self._fill(len(self._buffer) - self._pos):
            self._truncated()

    def _truncated(self):
        last_line = self._line + self._buffer.count("\n", self._pos)
        raise LogError(self.path, last_line, "the file ends before its JSON document does (truncated)")
