"""The transcript file: one JSON object a line, one message an object."""

from __future__ import annotations

import codecs
import json
import os
import stat as file_types
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

from . import background
from .schema import MAX_NESTING, Message, message_from_record, record_problem
from .seal import SealCheck

try:
    from orjson import loads as _fast_loads  # several times faster than the standard library
except ImportError:  # pragma: no cover - the standard library alone gives the same results
    _fast_loads = None


class TranscriptError(Exception):
    """A transcript that cannot be used; the message names the file and line."""


class Transcript:
    """Messages by number, in the order of their numbers.

    `sealed` holds the numbers of the messages whose line carries a redaction seal made
    with the fingerprint `seal_key` (see msgref.seal); only a transcript read from its
    file with that key has any.
    """

    sealed: frozenset[int] = frozenset()
    seal_key: bytes | None = None

    def __init__(self, messages: list[Message], path: str):
        self.path = path
        self._by_number = {m.n: m for m in sorted(messages, key=lambda m: m.n)}
        self.numbers = list(self._by_number)

    def __len__(self) -> int:
        return len(self.numbers)

    def __iter__(self):
        return (self.get(n) for n in self.numbers)

    def __contains__(self, n: int) -> bool:
        return self.get(n) is not None

    def get(self, n: int) -> Message | None:
        return self._by_number.get(n)

    def size_hint(self, n: int) -> int:
        return len(self._by_number[n].text)


@dataclass(frozen=True)
class LineIndex:
    """Where each message's line is in its file, and what the build needs to know of the
    message before reading it, by message number. Dicts of integers rather than one of
    tuples: Python's garbage collector never visits them, while tens of thousands of new
    tuples would set off extra collections."""

    offsets: dict[int, int]  # the line's first byte
    sizes: dict[int, int]  # its length in bytes
    lines: dict[int, int]  # its line number
    text_lengths: dict[int, int]  # the length of the message's text, in characters
    sealed: frozenset[int] = frozenset()  # the messages whose seal matched the key it was made with


class IndexedTranscript(Transcript):
    """A transcript file that keeps in memory only where each message's line starts.

    A message is read again from the file when it is asked for (the last few thousand
    stay cached), so memory grows with the number of messages, not with their size.
    """

    CACHED_MESSAGES = 4096
    CACHED_LINE_BYTES = 64_000  # longer messages are read again each time: they are few

    def __init__(self, index: LineIndex, path: str, file_path: str, seal_key: bytes | None = None):
        """`index` tells where each message is in the file at `file_path`, and which
        messages' seals were found to match `seal_key`."""
        self.path = path
        self.sealed, self.seal_key = index.sealed, seal_key
        self._seal_check = SealCheck(seal_key) if index.sealed else None
        self._file_path = file_path
        self._index = index
        self.numbers = sorted(index.offsets)
        self._cache: OrderedDict[int, Message] = OrderedDict()
        self._file = None  # opened at the first read, and kept open

    def size_hint(self, n: int) -> int:
        """The length of message n's text in the file, known from the index."""
        return self._index.text_lengths[n]

    def __contains__(self, n: int) -> bool:
        return n in self._index.offsets

    def get(self, n: int) -> Message | None:
        if n not in self._index.offsets:
            return None
        message = self._cache.get(n)
        if message is not None:
            self._cache.move_to_end(n)
            return message
        message, size = self._read_message(n)
        if size <= self.CACHED_LINE_BYTES:
            self._cache[n] = message
            if len(self._cache) > self.CACHED_MESSAGES:
                self._cache.popitem(last=False)
        return message

    def _read_message(self, n: int) -> tuple[Message, int]:
        line_number, raw = self._index.lines[n], b""
        try:
            if self._file is None:
                self._file = _open_to_read(self._file_path, self.path, buffering=0)
            # By its position, not the file's: a child forked from this process shares
            # the file's position, and reads alongside.
            raw = os.pread(self._file.fileno(), self._index.sizes[n], self._index.offsets[n])
            record = _checked_record(raw, self.path, line_number)
        except (OSError, TranscriptError):
            record = None
        # A sealed line is shown unredacted: it must still be the line whose seal matched.
        unsealed = n in self.sealed and not self._seal_check.matches(raw)
        if not isinstance(record, dict) or record.get("n") != n or unsealed:
            raise TranscriptError(f"{self.path}: the file changed while the site was being built; build again")
        return message_from_record(record, line_number), len(raw)


def parse_transcript(raw_lines, path: str, file_path: str | None = None) -> Transcript:
    """Parse an iterable of byte lines; `path` is how errors name the file.

    Given `file_path`, the file the lines come from, the transcript keeps only where
    each message is and reads it again when asked for: see `IndexedTranscript`.
    """
    records = _checked_records(raw_lines, path)
    if file_path is not None:
        return IndexedTranscript(_line_index(records), path, file_path)
    messages = [message_from_record(record, line_number) for record, line_number, _, _ in records]
    return Transcript(messages, path)


def _line_index(records, seal_key: bytes | None = None) -> LineIndex:
    """The index of the records' lines, with the messages whose line carries a seal
    matching `seal_key`."""
    offsets, sizes, lines, text_lengths, sealed = {}, {}, {}, {}, []
    check = SealCheck(seal_key).matches if seal_key is not None else None
    for record, line_number, offset, raw in records:
        n = record["n"]
        offsets[n], sizes[n], lines[n], text_lengths[n] = offset, len(raw), line_number, len(record["text"])
        if check is not None and "redaction_seal" in record and check(raw):
            sealed.append(n)
    return LineIndex(offsets, sizes, lines, text_lengths, frozenset(sealed))


def _checked_records(raw_lines, path: str):
    """Yield (record, line number, byte offset, raw line) for each message line, checking the whole file."""
    line_of: dict[int, int] = {}
    describing: list[tuple[int, list[int]]] = []  # (line, described_with) to check at the end
    offset = 0
    for line_number, raw in enumerate(raw_lines, start=1):
        record = _checked_record(raw, path, line_number)
        if record is not None:
            n = record["n"]
            first = line_of.setdefault(n, line_number)
            if first != line_number:
                raise TranscriptError(f"{path}:{line_number}: message {n} is already defined on line {first}")
            if record.get("described_with"):
                describing.append((line_number, record["described_with"]))
            yield record, line_number, offset, raw
        offset += len(raw)
    for line_number, others in describing:
        for other in others:
            if other not in line_of:
                raise TranscriptError(
                    f"{path}:{line_number}: described_with names message {other}, which is not in the transcript"
                )


def _checked_record(raw: bytes, path: str, line_number: int) -> dict | None:
    """The message record of one line, checked; None for a blank line."""
    if line_number == 1 and raw.startswith(codecs.BOM_UTF8):
        raw = raw[len(codecs.BOM_UTF8) :]  # a byte order mark, as some editors write
    if _fast_loads is not None:
        try:
            record = _fast_loads(raw)
        except ValueError:
            pass
        else:
            if record_problem(record) is None:
                return record
        # A blank line, a problem to name as the standard library sees it, or JSON the
        # fast parser reads otherwise (it rejects NaN and lone surrogates, and reads
        # integers past 64 bits as floats): read the line again, as the standard library does.
    where = f"{path}:{line_number}"
    record = _record_of_line(raw, where)
    if record is not None:
        problem = record_problem(record)
        if problem is not None:
            raise TranscriptError(f"{where}: {problem}")
    return record


def _record_of_line(raw: bytes, where: str):
    """The JSON value of one line, read by the standard library; None for a blank line."""
    try:
        line = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise TranscriptError(f"{where}: not valid UTF-8 (byte {error.start + 1})") from None
    if not line.strip():
        return None
    try:
        return json.loads(line)
    except json.JSONDecodeError as error:
        raise TranscriptError(f"{where}: not valid JSON: {error.msg} (column {error.colno})") from None
    except RecursionError:
        raise TranscriptError(f"{where}: nests deeper than {MAX_NESTING} levels, the most a message may hold") from None


_cache: dict[str, tuple[tuple, Transcript]] = {}
_READ_BUFFER_BYTES = 1 << 20
# Smaller files parse in a few milliseconds: not worth a child process.
BACKGROUND_MIN_BYTES = 4_000_000


def load_transcript(path: str, display_path: str | None = None, seal_key: bytes | None = None) -> Transcript:
    """Read the transcript at `path`, parsing it again only when the file has changed."""
    return start_loading(path, display_path, seal_key=seal_key).result()


class Loading:
    """A transcript being read: `result()` waits for it and gives it, parsed.

    `reused` tells that the file had been parsed before and has not changed since, so
    it is not parsed again.
    """

    def __init__(self, result: Callable[[], Transcript], reused: bool):
        self._result, self.reused = result, reused
        self._transcript: Transcript | None = None

    def result(self) -> Transcript:
        if self._transcript is None:
            self._transcript = self._result()
        return self._transcript


def start_loading(path: str, display_path: str | None = None, in_child: bool = True,
                  seal_key: bytes | None = None) -> Loading:
    """Begin reading the transcript at `path`.

    Given `seal_key`, a redactor's fingerprint, the messages whose line carries a
    redaction seal made with it are found as the file is indexed (`Transcript.sealed`).

    Unless `in_child` is false, a large file is parsed by a child process while the
    caller goes on (see `background`). A file parsed before and unchanged since is not
    parsed again: the cache lives in this module, which stays imported across the
    rebuilds of a development server, so a rebuild for an edited page reuses the parsed
    transcript. TranscriptError is raised here or by `Loading.result`.
    """
    display_path = display_path or path
    try:
        stat = os.stat(path)
    except FileNotFoundError:
        raise TranscriptError(f"{display_path}: transcript file not found") from None
    except OSError as error:
        raise TranscriptError(f"{display_path}: cannot read the transcript file: {error.strerror}") from None
    _check_regular(stat, display_path)
    key = (display_path, stat.st_mtime_ns, stat.st_size, stat.st_ino, seal_key)
    cached = _cache.get(path)
    if cached and cached[0] == key:
        return Loading(lambda: cached[1], reused=True)

    def index():
        return _file_index(path, display_path, seal_key)

    in_child = in_child and stat.st_size >= BACKGROUND_MIN_BYTES
    pending = background.start(index, TranscriptError) if in_child else index

    def finish() -> Transcript:
        transcript = IndexedTranscript(pending(), display_path, path, seal_key)
        _cache[path] = (key, transcript)
        return transcript

    return Loading(finish, reused=False)


def _file_index(path: str, display_path: str, seal_key: bytes | None = None):
    try:
        # A large buffer reads long lines (tool outputs of hundreds of kilobytes) in a
        # few calls instead of many: reading the lines takes a fifth of the time.
        file = _open_to_read(path, display_path, _READ_BUFFER_BYTES)
    except OSError as error:
        raise TranscriptError(f"{display_path}: cannot read the transcript file: {error.strerror}") from None
    with file:
        return _line_index(_checked_records(file, display_path), seal_key)


def _open_to_read(path: str, display_path: str, buffering: int = -1):
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


_KINDS = ((file_types.S_ISREG, "a regular file"), (file_types.S_ISDIR, "a folder"), (file_types.S_ISFIFO, "a named pipe"),
          (file_types.S_ISCHR, "a device"), (file_types.S_ISBLK, "a device"), (file_types.S_ISSOCK, "a socket"))


def file_kind(mode: int) -> str:
    """What a file of this `st_mode` is, as a message names it: "a folder", "a named pipe", ..."""
    return next((text for test, text in _KINDS if test(mode)), "not a regular file")


def _check_regular(stat: os.stat_result, display_path: str) -> None:
    """Refuse anything but a regular file at once: reading a pipe or a device could wait forever."""
    if not file_types.S_ISREG(stat.st_mode):
        raise TranscriptError(f"{display_path}: is {file_kind(stat.st_mode)}, not a transcript file")
