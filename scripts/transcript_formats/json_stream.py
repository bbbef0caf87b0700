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
from typing import NoReturn

from . import jsonl
from .common import LogError, key_twice, parse_json

_WHITESPACE = re.compile(r"[ \t\n\r]*")
_STRUCTURE = re.compile(r'["\[\]{}]')
# The rest of a string after its opening quote, through the closing quote.
_STRING_REST = re.compile(r'[^"\\]*(?:\\.[^"\\]*)*"', re.S)
_SCALAR = re.compile(r"[^\s,\]}:\[{\"]*")
CHUNK_SIZE = 1 << 16  # bytes read at a time
_COMPACT_AFTER = 1 << 20  # characters read past before they are dropped from the buffer
# The longest value read at once (a record, or one value of an object walked through),
# in characters: the longest log line (jsonl.MAX_LINE_BYTES), since a line of so many
# bytes holds no more characters than that. A value that grows past it is refused
# before more of the file is read: it may be a document broken by an unclosed quote or
# bracket, where reading on would hold the rest of the file. The buffer then holds at
# most _COMPACT_AFTER + MAX_ELEMENT_CHARS + CHUNK_SIZE + 1 characters.
MAX_ELEMENT_CHARS = jsonl.MAX_LINE_BYTES
# Characters shown when the document has one where another was expected; any other is
# described, not shown: error messages never quote the log.
_SHOWN = frozenset('[]{}:,"')


def _shown(char: str) -> str:
    return f"'{char}'" if char in _SHOWN else "other text"


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
        if end - start > MAX_ELEMENT_CHARS:  # read whole in one piece of the file: refused all the same
            self._too_long(MAX_ELEMENT_CHARS)
        text = self._buffer[start:end]
        try:
            value = parse_json(text, self.path, line)
        except json.JSONDecodeError as error:
            raise LogError(self.path, line + text.count("\n", 0, error.pos), f"not valid JSON: {error.msg}") from None
        except ValueError:  # an integer past Python's limit on the digits of one number
            raise jsonl.number_error(self.path, line) from None
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
            self._skip_whitespace()  # the element's own line, not that of the comma before it
            yield self._line
            if self._after_item("]"):
                return

    def iter_object(self):
        """At a `{`: yield each key; the caller reads (or walks into) its value."""
        self._expect("{", "a JSON object")
        if self._skip_whitespace() == "}":
            self._advance(self._pos + 1)
            return
        seen: set[str] = set()
        while True:
            quoted = self.peek() == '"'
            line = self._line  # the key's, past the white space before it
            key = self.read_value() if quoted else None
            if not isinstance(key, str):
                raise LogError(self.path, line, "not valid JSON: expected a key in double quotes")
            if key in seen:  # two lists of messages would be read as one
                raise LogError(self.path, line, key_twice(key))
            seen.add(key)
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
        raise LogError(self.path, self._line, f"not valid JSON: expected ',' or '{closing}', found {_shown(char)}")

    def _expect(self, char: str, what: str) -> None:
        found = self._skip_whitespace()
        if found == "":
            self._truncated()
        if found != char:
            raise LogError(self.path, self._line, f"expected {what}, found {_shown(found)}")
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
        try:
            data = self._file.read(max(self._chunk_size, at_least))
        except OSError as error:
            raise jsonl.read_error(self.path, self._line, error) from None
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
            end = start
            while True:
                end = _run_end(_SCALAR, self._buffer, end)
                if end < len(self._buffer):
                    return max(end, start + 1)
                if not self._grow(start, at_end=True):
                    return max(end, start + 1)
        depth, index = 0, start
        while True:
            match = _STRUCTURE.search(self._buffer, index)
            if match is None:
                index = len(self._buffer)
                self._grow(start)
                continue
            char, index = match.group(), match.end()
            if char == '"':
                while (rest := _STRING_REST.match(self._buffer, index)) is None:
                    self._grow(start)
                index = rest.end()
            elif char in "[{":
                depth += 1
            else:
                depth -= 1
            if depth == 0:
                return index

    def _grow(self, start: int, at_end: bool = False) -> bool:
        """Read more of the value starting at `start`: as much again as is held of it,
        so that re-scanning a long value stays linear in its size, but never more than
        MAX_ELEMENT_CHARS of it. At the end of the file: the truncated error, or False
        if `at_end` (a number or word may end with the file)."""
        limit = MAX_ELEMENT_CHARS
        held = len(self._buffer) - start
        if held > limit:
            self._too_long(limit)
        # One character more than the limit is enough to know the value is too long.
        if not self._fill(min(held, limit + 1 - held)):
            if at_end:
                return False
            self._truncated()
        return True

    def _too_long(self, limit: int) -> NoReturn:
        raise LogError(
            self.path,
            self._line,
            f"the JSON value starting on this line is longer than {jsonl.size_text(limit)}, the most a log "
            "record may be (or a quote or bracket in it is never closed)",
        )

    def _truncated(self) -> NoReturn:
        last_line = self._line + self._buffer.count("\n", self._pos)
        raise LogError(self.path, last_line, "the file ends before its JSON document does (truncated)")


def elements_under(file, path: str, key: str):
    """Yield (line, value) for each element of the list under `key` in the JSON object
    that the binary `file` holds, one at a time; LogError if it has no such list."""
    json_doc = JsonDocument(file, path)
    found = False
    for name in json_doc.iter_object():
        if name == key and json_doc.peek() == "[":
            found = True
            for line in json_doc.iter_array():
                yield line, json_doc.read_value()
        else:
            json_doc.read_value()
    json_doc.finish()
    if not found:
        raise LogError(path, 1, f"a JSON object without a '{key}' list")
