"""The transcript file: one JSON object a line, one message an object."""

from __future__ import annotations

import bisect
import codecs
import json
import os
import re
import stat as file_types
import sys
from array import array
from collections import Counter, OrderedDict
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, BinaryIO, cast

import orjson  # reads JSON several times faster than the standard library

from .schema import FIELD_TYPES, MAX_NESTING, Message, holds_float, message_from_record, record_problem
from .seal import SealCheck


class TranscriptError(Exception):
    """A transcript that cannot be used; the message names the file and line."""


@dataclass(frozen=True)
class LineIndex:
    """Where each message's line is in its file, and what the build needs to know of the
    message before reading it. Arrays of machine integers, in the order of the message
    numbers, rather than dicts: for a million messages they hold 40 MB, where dicts of
    Python integers held seven times as much."""

    numbers: array[int]  # the message numbers, ascending
    offsets: array[int]  # each line's first byte
    sizes: array[int]  # its length in bytes
    lines: array[int]  # its line number
    text_lengths: array[int]  # the length of the message's text, in characters
    # The messages whose line carries a redaction seal, verified when the line is read:
    # most messages of a site are never shown, and need no look.
    with_seal: frozenset[int]
    described: frozenset[int]  # the messages given as a description, not quoted

    def position(self, n: int) -> int | None:
        """Where message n is in the arrays, or None if the transcript has no message n."""
        return position_of(self.numbers, n)


def position_of(numbers: Sequence[int], n: int) -> int | None:
    """Where `n` is in `numbers` (ascending), or None if it is not there."""
    if not numbers:
        return None
    i = n - numbers[0]  # where it is when the numbers have no gap, as most transcripts'
    if not 0 <= i < len(numbers) or numbers[i] != n:
        i = bisect.bisect_left(numbers, n)
    return i if i < len(numbers) and numbers[i] == n else None


class MessageFlags:
    """A yes or no for each message of a transcript, by number (all no at first): a byte
    each, where a set of the numbers holds some 60 bytes a message."""

    def __init__(self, numbers: Sequence[int]):
        self._numbers = numbers
        self._flags = bytearray(len(numbers))

    def add(self, n: int) -> None:
        if (i := position_of(self._numbers, n)) is not None:
            self._flags[i] = 1

    def __contains__(self, n: object) -> bool:
        return isinstance(n, int) and (i := position_of(self._numbers, n)) is not None and self._flags[i] == 1


class IndexedTranscript:
    """A transcript file that keeps in memory only where each message's line starts: its
    messages by number, in the order of their numbers.

    A message is read again from the file when it is asked for (the last few thousand
    stay cached), so memory grows with the number of messages, not with their size.
    """

    CACHED_MESSAGES = 4096
    CACHED_LINE_BYTES = 64_000  # longer messages are read again each time: they are few

    def __init__(self, index: LineIndex, path: str, file_path: str, seal_key: bytes | None = None):
        """`index` tells where each message is in the file at `file_path`; the seals of the
        lines read are checked against `seal_key`, if given."""
        self.path, self.seal_key = path, seal_key
        self._seal_check = SealCheck(seal_key) if seal_key is not None and index.with_seal else None
        self._verified: set[int] = set()  # the messages read whose seal matched
        self._index = index
        self.numbers: Sequence[int] = index.numbers
        self.described = index.described
        self._cache: OrderedDict[int, Message] = OrderedDict()
        try:
            self._file = _open_to_read(file_path, path, buffering=0)  # kept open: read back by position
        except OSError as error:
            raise TranscriptError(f"{path}: cannot read the transcript file: {error.strerror}") from None

    def __len__(self) -> int:
        return len(self.numbers)

    def __iter__(self) -> Iterator[Message]:
        return (message for n in self.numbers if (message := self.get(n)) is not None)

    def size_hint(self, n: int) -> int:
        """The length of message n's text in the file, known from the index."""
        i = self._index.position(n)
        if i is None:
            raise KeyError(n)
        return self._index.text_lengths[i]

    def __contains__(self, n: int) -> bool:
        return self._index.position(n) is not None

    def seal_verified(self, n: int) -> bool:
        """Whether message n's line, as it was read, ends with a redaction seal made with
        `seal_key` (see transcript.seal): the importer redacted it under those rules."""
        return n in self._verified

    def get(self, n: int) -> Message | None:
        message = self._cache.get(n)
        if message is not None:
            self._cache.move_to_end(n)
            return message
        i = self._index.position(n)
        if i is None:
            return None
        message, size = self._read_message(n, i)
        if size <= self.CACHED_LINE_BYTES:
            self._cache[n] = message
            if len(self._cache) > self.CACHED_MESSAGES:
                self._cache.popitem(last=False)
        return message

    def _read_message(self, n: int, i: int) -> tuple[Message, int]:
        """Message n, at position i of the index, and the length of its line."""
        line_number, raw = self._index.lines[i], b""
        record: dict[str, Any] | None = None
        try:
            # By its position, not the file's: a worker forked from this process shares
            # the file's position, and reads alongside.
            raw = os.pread(self._file.fileno(), self._index.sizes[i], self._index.offsets[i])
            record = checked_record(raw, self.path, line_number)
        except (OSError, TranscriptError):
            pass
        if record is None or record.get("n") != n:
            raise TranscriptError(f"{self.path}: the file changed while the site was being built; build again")
        check = self._seal_check
        if check is not None and n in self._index.with_seal and check.matches(raw):
            self._verified.add(n)
        return message_from_record(record, line_number), len(raw)


def _line_index(records: Iterable[_Record], path: str) -> LineIndex:
    """The index of the records' lines, checked: no message number twice, and every
    message a description names there."""
    numbers, offsets, sizes, lines, text_lengths = (array("q") for _ in range(5))
    with_seal: list[int] = []
    described: list[int] = []
    describing: list[tuple[int, list[int]]] = []  # (line, described_with) to check at the end
    for record, line_number, offset, raw in records:
        n = record["n"]
        numbers.append(n)
        offsets.append(offset)
        sizes.append(len(raw))
        lines.append(line_number)
        text_lengths.append(len(record["text"]))
        if "redaction_seal" in record:
            with_seal.append(n)
        if record["provenance"] == "described":
            described.append(n)
            if record.get("described_with"):
                describing.append((line_number, record["described_with"]))
    if any(numbers[i] >= numbers[i + 1] for i in range(len(numbers) - 1)):  # not in order: sort them
        order = sorted(range(len(numbers)), key=numbers.__getitem__)  # stable: a repeated number's first line first
        numbers, offsets, sizes, lines, text_lengths = (
            array("q", map(values.__getitem__, order)) for values in (numbers, offsets, sizes, lines, text_lengths))
        _check_unique(numbers, lines, path)
    index = LineIndex(numbers, offsets, sizes, lines, text_lengths, frozenset(with_seal), frozenset(described))
    for line_number, others in describing:
        for other in others:
            if index.position(other) is None:
                raise TranscriptError(
                    f"{path}:{line_number}: described_with names message {other}, which is not in the transcript"
                )
    return index


def _check_unique(numbers: array[int], lines: array[int], path: str) -> None:
    """TranscriptError for the first line, in the file, that repeats a message number;
    `numbers` are sorted, and `lines` in the same order."""
    repeats = [(lines[i + 1], numbers[i]) for i in range(len(numbers) - 1) if numbers[i] == numbers[i + 1]]
    if repeats:
        line_number, n = min(repeats)
        first = lines[bisect.bisect_left(numbers, n)]
        raise TranscriptError(f"{path}:{line_number}: message {n} is already defined on line {first}")


# A checked record of a message line: the record, its line number, its first byte, the line.
_Record = tuple[dict[str, Any], int, int, bytes]


def _checked_records(raw_lines: Iterable[bytes], path: str) -> Iterator[_Record]:
    """Yield (record, line number, byte offset, raw line) for each message line, each checked."""
    offset = 0
    for line_number, raw in enumerate(raw_lines, start=1):
        record = checked_record(raw, path, line_number)
        if record is not None:
            yield record, line_number, offset, raw
        offset += len(raw)


def checked_record(raw: bytes, path: str, line_number: int) -> dict[str, Any] | None:
    """The message record of one line, checked; None for a blank line."""
    if line_number == 1 and raw.startswith(codecs.BOM_UTF8):
        raw = raw[len(codecs.BOM_UTF8) :]  # a byte order mark, as some editors write
    try:
        fast: object = orjson.loads(raw)
    except ValueError:
        pass
    else:
        # A line holds no key twice if it has just the quotes of what the parser returned
        # (see _quotes); the few lines too long to check are left to the parser. A tool's
        # input with a number that is not an integer is read again: the fast parser reads
        # an integer past 64 bits as a float, and shows it otherwise than the line.
        if record_problem(fast) is None and not holds_float(cast(dict[str, Any], fast).get("tool_input")):
            record = cast(dict[str, Any], fast)  # an object with the fields of a message, checked
            if len(raw) > _KEYS_CHECKED_BYTES:
                return record
            quotes = raw.count(b'"')
            if quotes == 4 * len(record) - 2 and "tool_input" not in record and "described_with" not in record:
                return record  # the common case, spelled out: _quotes(record) without the call
            if quotes == _quotes(record):
                return record
    # A blank line, a problem to name as the standard library sees it, a line that may
    # repeat a key, or JSON the fast parser reads otherwise (it rejects NaN and lone
    # surrogates, and reads integers past 64 bits as floats): read the line again, as the
    # standard library does.
    where = f"{path}:{line_number}"
    value = _record_of_line(raw, where)
    if value is _BLANK:
        return None
    problem = record_problem(value)
    if problem is not None:
        raise TranscriptError(f"{where}: {problem}")
    return cast(dict[str, Any], value)


# The longest line whose keys are checked for repeats (see _quotes): every ordinary
# message. The few longer lines, tool outputs of hundreds of kilobytes, hold most of a
# transcript's bytes, and any look at all their bytes would add a quarter to the load: a
# key given twice there is not found, and its last value counts.
_KEYS_CHECKED_BYTES = 64_000


def _quotes(record: dict[str, Any]) -> int:
    """How many quotes a line holding just `record` has, but for the quotes within its
    strings: two for each key and each string.

    The fast parser keeps the last value of a key given twice, and tells nothing of it.
    A sound check must look at every byte of the line, and counting its quotes is the
    cheapest look found: a line with more quotes than this holds another key, or a quote
    within a string, and is read again by the standard library, which names a repeated
    key. A line with no more holds no key the parser did not return. On lines of up to
    _KEYS_CHECKED_BYTES the count adds about 8% to the load; counting the ends of keys
    (a quote, then a colon) instead adds two thirds, and re-reading every line with the
    standard library more than doubles it. `record` has passed `record_problem`: each
    field but these three holds a string."""
    quotes = 4 * len(record) - 2  # the keys, and the values of all fields but 'n', strings
    if "described_with" in record:
        quotes -= 2  # a list of numbers
    if "tool_input" in record:
        quotes += 2 * _quoted(record["tool_input"]) - 2  # any JSON value
    if "images" in record:
        quotes += 2 * len(record["images"]) - 2  # a list of names
    return quotes


def _quoted(value: object) -> int:
    """How many keys and strings a JSON value holds."""
    if type(value) is str:
        return 1
    if type(value) is dict:
        items, count = list(value.values()), len(value)
    elif type(value) is list:
        items, count = value, 0
    else:
        return 0
    for item in items:
        count += 1 if type(item) is str else _quoted(item)
    return count


class _RepeatedKey(Exception):
    pass


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """An object read by the standard library, refused if a key comes twice."""
    record = dict(pairs)
    if len(record) < len(pairs):
        counts = Counter(key for key, _ in pairs)
        raise _RepeatedKey(next(key for key, _ in pairs if counts[key] > 1))
    return record


def _repeated_key_problem(key: str, line: str) -> str:
    """What to say of `key`, given twice in one object of `line`: a field of the record
    by its name; any other key, which is the log's and may be a secret, by where it is
    written, never by itself."""
    if key in FIELD_TYPES:
        return f"the key {key!r} appears twice in one object"
    columns = _repeated_key_columns(key, line)
    at = f" (at columns {columns[0]} and {columns[1]})" if columns else ""
    return f"a key appears twice in one object{at}; a key of the log is not shown, as it may be a secret"


_JSON_STRING_OR_BRACKET_RE = re.compile(r'"(?:[^"\\]|\\.)*"|[{}\[\]]')
_COLON_RE = re.compile(r"\s*:")


def _repeated_key_columns(key: str, line: str) -> tuple[int, int] | None:
    """The columns of the first two times `key` is written in one object of `line`, a
    line of JSON: its strings and brackets followed, each object told apart."""
    objects: list[int | None] = []  # the open objects' numbers; None for a list
    first: dict[int, int] = {}  # an object's number -> the column of the key in it
    opened = 0
    for token in _JSON_STRING_OR_BRACKET_RE.finditer(line):
        text = token.group()
        if text == "{":
            objects.append(opened)
            opened += 1
        elif text == "[":
            objects.append(None)
        elif text in "]}":
            if objects:
                objects.pop()
        elif objects and objects[-1] is not None and _COLON_RE.match(line, token.end()) and _text_of(text) == key:
            column = token.start() + 1
            if objects[-1] in first:
                return first[objects[-1]], column
            first[objects[-1]] = column
    return None


def _text_of(string: str) -> str | None:
    """The text of a JSON string as written; None if it is none (past where the parser stopped)."""
    try:
        text = json.loads(string)
    except ValueError:
        return None
    return text if isinstance(text, str) else None


_BLANK = object()  # what a blank line holds


def _record_of_line(raw: bytes, where: str) -> object:
    """The JSON value of one line, read by the standard library; _BLANK for a blank line.
    A key that an object holds twice is an error: which of its values is meant is unclear."""
    try:
        line = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise TranscriptError(f"{where}: not valid UTF-8 (byte {error.start + 1})") from None
    if not line.strip():
        return _BLANK
    try:
        return json.loads(line, object_pairs_hook=_unique_keys)
    except _RepeatedKey as repeated:
        raise TranscriptError(f"{where}: {_repeated_key_problem(repeated.args[0], line)}") from None
    except json.JSONDecodeError as error:
        raise TranscriptError(f"{where}: not valid JSON: {error.msg} (column {error.colno})") from None
    except ValueError:  # an integer past Python's limit on the digits of one number
        raise TranscriptError(f"{where}: holds a number of more than {sys.get_int_max_str_digits():,} digits") from None
    except RecursionError:
        raise TranscriptError(f"{where}: nests deeper than {MAX_NESTING} levels, the most a message may hold") from None


_READ_BUFFER_BYTES = 1 << 20


@dataclass(frozen=True)
class FileVersion:
    """What tells one version of a file from another without reading it."""

    mtime_ns: int
    size: int
    inode: int


def file_version(path: str, display_path: str | None = None) -> FileVersion:
    """The version of the transcript file at `path`; TranscriptError if it is missing,
    unreadable, or not a regular file."""
    display_path = display_path or path
    try:
        stat = os.stat(path)
    except FileNotFoundError:
        raise TranscriptError(f"{display_path}: transcript file not found") from None
    except OSError as error:
        raise TranscriptError(f"{display_path}: cannot read the transcript file: {error.strerror}") from None
    _check_regular(stat, display_path)
    return FileVersion(stat.st_mtime_ns, stat.st_size, stat.st_ino)


def load_transcript(path: str, display_path: str | None = None, seal_key: bytes | None = None) -> IndexedTranscript:
    """Read and check the transcript at `path`, keeping only where each message is.

    Given `seal_key`, a redactor's fingerprint, the messages read whose line carries a
    redaction seal made with it are told apart (`IndexedTranscript.seal_verified`).
    TranscriptError names the file, and the line where there is one.
    """
    display_path = display_path or path
    file_version(path, display_path)
    return IndexedTranscript(_file_index(path, display_path), display_path, path, seal_key)


def _file_index(path: str, display_path: str) -> LineIndex:
    try:
        # A large buffer reads long lines (tool outputs of hundreds of kilobytes) in a
        # few calls instead of many: reading the lines takes a fifth of the time.
        file = _open_to_read(path, display_path, _READ_BUFFER_BYTES)
    except OSError as error:
        raise TranscriptError(f"{display_path}: cannot read the transcript file: {error.strerror}") from None
    with file:
        return _line_index(_checked_records(file, display_path), display_path)


def _open_to_read(path: str, display_path: str, buffering: int = -1) -> BinaryIO:
    """The regular file at `path`, opened to read bytes. It is opened without waiting, so
    that a named pipe put in the transcript's place is refused at once (TranscriptError)
    instead of waiting for a writer."""
    handle = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    try:
        _check_regular(os.fstat(handle), display_path)
        return os.fdopen(handle, "rb", buffering=buffering)
    except BaseException:
        os.close(handle)
        raise


_KINDS = ((file_types.S_ISREG, "a regular file"), (file_types.S_ISDIR, "a folder"),
          (file_types.S_ISFIFO, "a named pipe"),
          (file_types.S_ISCHR, "a device"), (file_types.S_ISBLK, "a device"), (file_types.S_ISSOCK, "a socket"))


def file_kind(mode: int) -> str:
    """What a file of this `st_mode` is, as a message names it: "a folder", "a named pipe", ..."""
    return next((text for test, text in _KINDS if test(mode)), "not a regular file")


def _check_regular(stat: os.stat_result, display_path: str) -> None:
    """Refuse anything but a regular file at once: reading a pipe or a device could wait forever."""
    if not file_types.S_ISREG(stat.st_mode):
        raise TranscriptError(f"{display_path}: is {file_kind(stat.st_mode)}, not a transcript file")
