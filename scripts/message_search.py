"""The messages of a transcript file read one line at a time, and the filters that pick some.

Each line is checked as the site build checks it (transcript.reader), so a line the
build would refuse is named here too, by file and line. Only the line being read is
held in memory: a transcript of any length is searched in the memory of its longest
message. Checks of the whole file (a message number defined twice, `described_with`
naming a missing message) are left to the build.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass

from transcript.reader import TranscriptError, checked_record, file_version
from transcript.schema import Message, message_from_record

# Long lines (tool outputs of hundreds of kilobytes) are read in a few calls, as the build reads them.
_READ_BUFFER_BYTES = 1 << 20


def messages_in(path: str) -> Iterator[Message]:
    """Each message of the transcript file at `path`, in the file's order. A missing or
    unreadable file, or a line that is not a message, is a TranscriptError naming the
    file (and line), raised when the reading reaches it."""
    file_version(path)  # a missing file, a folder or a named pipe is refused before opening
    try:
        file = open(path, "rb", buffering=_READ_BUFFER_BYTES)  # noqa: SIM115 - closed by the `with` below
    except OSError as error:
        raise TranscriptError(f"{path}: cannot read the transcript file: {error.strerror}") from None
    with file:
        line_number = 0
        try:
            for line_number, raw in enumerate(file, start=1):
                record = checked_record(raw, path, line_number)
                if record is not None:  # None: a blank line
                    yield message_from_record(record, line_number)
        except OSError as error:
            raise TranscriptError(f"{path}:{line_number + 1}: cannot read the line: {error.strerror}") from None


@dataclass(frozen=True)
class Query:
    """What a message must be to be listed; a filter left empty lets every message through."""

    words: tuple[str, ...] = ()  # each somewhere in the text, tool name or tool input, in any case
    speakers: frozenset[str] = frozenset()
    tool: str | None = None  # the tool's name, in any case
    first: int | None = None  # the message numbers, both ends included
    last: int | None = None

    def matches(self, message: Message) -> bool:
        # The cheap tests first: most messages fail one of them and are never lower-cased.
        if self.first is not None and message.n < self.first:
            return False
        if self.last is not None and message.n > self.last:
            return False
        if self.speakers and message.speaker not in self.speakers:
            return False
        if self.tool is not None and (message.tool_name or "").casefold() != self.tool.casefold():
            return False
        if not self.words:
            return True
        searched = searchable_text(message)
        return all(word.casefold() in searched for word in self.words)


def searchable_text(message: Message) -> str:
    """What the words of a query are looked for in, lower-cased: the message's text, its
    tool's name, and the keys and values of the tool's input (not its JSON, whose quotes
    and escapes no one searches for)."""
    parts = [message.text, message.tool_name or "", *_strings_in(message.tool_input)]
    return "\n".join(parts).casefold()


def _strings_in(value: object) -> Iterator[str]:
    """The strings of a JSON value, keys included, and its numbers and booleans as JSON writes them."""
    pending = [value]
    while pending:
        item = pending.pop()
        if isinstance(item, str):
            yield item
        elif isinstance(item, dict):
            yield from item
            pending.extend(item.values())
        elif isinstance(item, list):
            pending.extend(item)
        elif item is not None:
            yield json.dumps(item)


_CONTROL_RE = re.compile(r"[\x00-\x1f\x7f-\x9f]")
_FIRST_LINE_RE = re.compile(r"\S.*")  # from the first character that is not white space to the line's end
_ISO_TIME_RE = re.compile(r"(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2})", re.ASCII)


def first_line(message: Message) -> str:
    """What a listing shows of a message: the first non-blank line of its text; for a
    message without text (a tool call), its tool's input; for one with only the model's
    reasoning, that, marked; else nothing."""
    if message.text.strip():
        return _first_non_blank(message.text)
    if message.tool_input is not None:
        if isinstance(message.tool_input, str):
            return _first_non_blank(message.tool_input)
        return printable(json.dumps(message.tool_input, ensure_ascii=False))
    if message.thinking and message.thinking.strip():
        return "(thinking) " + _first_non_blank(message.thinking)
    return ""


def _first_non_blank(text: str) -> str:
    found = _FIRST_LINE_RE.search(text)  # stops at the line's end: a text may be a long log
    return printable(found[0]).strip() if found else ""


def printable(text: str) -> str:
    """`text` with the characters a terminal would act on rather than show (escapes, carriage returns) as spaces."""
    return _CONTROL_RE.sub(" ", text)


def short_time(timestamp: str | None) -> str:
    """A timestamp as a listing shows it: `2025-09-07T09:52:13.120Z` as `2025-09-07 09:52`,
    in the clock the log wrote it in; one of another form, cut; none, blank."""
    if not timestamp:
        return ""
    found = _ISO_TIME_RE.match(timestamp)
    if found:
        return f"{found[1]} {found[2]}"
    return printable(timestamp)[:16]

