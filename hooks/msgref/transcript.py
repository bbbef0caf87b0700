"""The transcript file: one JSON object a line, one message an object."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass

SPEAKERS = ("user", "assistant", "tool", "unknown")
PROVENANCES = ("verbatim", "described")
REQUIRED_FIELDS = {"n": int, "speaker": str, "provenance": str, "text": str}
OPTIONAL_FIELDS = {
    "described_with": list,  # other messages one description covers, for described messages
    # Kept from imported session logs:
    "source_id": str,  # the message's id in the log (uuid, message id, call id)
    "timestamp": str,
    "origin": str,  # where in the session it came from, such as a sidechain or a subagent
    "thinking": str,  # the model's reasoning, shown as such
    "tool_name": str,  # for a tool call: the tool, and its input as any JSON value
    "tool_input": object,
}


class TranscriptError(Exception):
    """A transcript that cannot be used; the message names the file and line."""


@dataclass(frozen=True)
class Message:
    n: int
    speaker: str
    provenance: str
    text: str
    described_with: tuple[int, ...] = ()
    source_id: str | None = None
    timestamp: str | None = None
    origin: str | None = None
    thinking: str | None = None
    tool_name: str | None = None
    tool_input: object = None
    line: int = 0

    @property
    def is_described(self) -> bool:
        return self.provenance == "described"

    @property
    def is_empty(self) -> bool:
        return self.text == ""


class Transcript:
    """Messages by number, in the order of their numbers."""

    def __init__(self, messages: list[Message], path: str):
        self.path = path
        self._by_number = {m.n: m for m in sorted(messages, key=lambda m: m.n)}
        self.numbers = list(self._by_number)

    def __len__(self) -> int:
        return len(self._by_number)

    def __iter__(self):
        return iter(self._by_number.values())

    def get(self, n: int) -> Message | None:
        return self._by_number.get(n)


def parse_transcript(raw_lines, path: str) -> Transcript:
    """Parse an iterable of byte lines; `path` is how errors name the file."""
    messages: dict[int, Message] = {}
    for line_number, raw in enumerate(raw_lines, start=1):
        where = f"{path}:{line_number}"
        try:
            line = raw.decode("utf-8")
        except UnicodeDecodeError as error:
            raise TranscriptError(f"{where}: not valid UTF-8 (byte {error.start + 1})") from None
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as error:
            raise TranscriptError(f"{where}: not valid JSON: {error.msg} (column {error.colno})") from None
        message = _message_from_record(record, where, line_number)
        if message.n in messages:
            first = messages[message.n].line
            raise TranscriptError(f"{where}: message {message.n} is already defined on line {first}")
        messages[message.n] = message
    for message in messages.values():
        for other in message.described_with:
            if other not in messages:
                raise TranscriptError(
                    f"{path}:{message.line}: described_with names message {other}, "
                    "which is not in the transcript"
                )
    return Transcript(list(messages.values()), path)


def _message_from_record(record, where: str, line_number: int) -> Message:
    if not isinstance(record, dict):
        raise TranscriptError(f"{where}: expected a JSON object, found {_json_type(record)}")
    missing = [name for name in REQUIRED_FIELDS if name not in record]
    if missing:
        raise TranscriptError(f"{where}: missing required field {', '.join(map(repr, missing))}")
    unknown = sorted(set(record) - set(REQUIRED_FIELDS) - set(OPTIONAL_FIELDS))
    if unknown:
        known = ", ".join([*REQUIRED_FIELDS, *OPTIONAL_FIELDS])
        raise TranscriptError(f"{where}: unknown field {', '.join(map(repr, unknown))} (known fields: {known})")
    for name, expected in {**REQUIRED_FIELDS, **OPTIONAL_FIELDS}.items():
        if name not in record or expected is object:
            continue
        value = record[name]
        # bool is a subclass of int in Python, but true is no message number.
        if not isinstance(value, expected) or isinstance(value, bool):
            raise TranscriptError(f"{where}: field {name!r} must be {_json_name(expected)}, found {_json_type(value)}")
    if record["n"] < 1:
        raise TranscriptError(f"{where}: field 'n' must be a message number of 1 or more, found {record['n']}")
    if record["speaker"] not in SPEAKERS:
        raise TranscriptError(f"{where}: field 'speaker' must be one of {', '.join(SPEAKERS)}, found {record['speaker']!r}")
    if record["provenance"] not in PROVENANCES:
        raise TranscriptError(
            f"{where}: field 'provenance' must be one of {', '.join(PROVENANCES)}, found {record['provenance']!r}"
        )
    described_with = record.get("described_with", [])
    if record["provenance"] != "described" and described_with:
        raise TranscriptError(f"{where}: 'described_with' is only for described messages")
    if not all(isinstance(n, int) and not isinstance(n, bool) for n in described_with):
        raise TranscriptError(f"{where}: field 'described_with' must be a list of message numbers")
    fields = {name: record.get(name) for name in [*REQUIRED_FIELDS, *OPTIONAL_FIELDS]}
    fields["described_with"] = tuple(described_with)
    return Message(**fields, line=line_number)


def _json_name(python_type) -> str:
    return {int: "an integer", str: "a string", list: "a list", dict: "an object"}[python_type]


def _json_type(value) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, float):
        return "a number with a fraction"
    return _json_name(type(value)) if type(value) in (int, str, list, dict) else type(value).__name__


_cache: dict[str, tuple[tuple, Transcript]] = {}


def load_transcript(path: str, display_path: str | None = None) -> Transcript:
    """Read the transcript at `path`, parsing it again only when the file has changed.

    The cache lives in this module, which stays imported across the rebuilds of a
    development server, so a rebuild for an edited page reuses the parsed transcript.
    """
    display_path = display_path or path
    try:
        stat = os.stat(path)
    except FileNotFoundError:
        raise TranscriptError(f"{display_path}: transcript file not found") from None
    except OSError as error:
        raise TranscriptError(f"{display_path}: cannot read the transcript file: {error.strerror}") from None
    key = (display_path, stat.st_mtime_ns, stat.st_size, stat.st_ino)
    cached = _cache.get(path)
    if cached and cached[0] == key:
        return cached[1]
    try:
        with open(path, "rb") as file:
            transcript = parse_transcript(file, display_path)
    except IsADirectoryError:
        raise TranscriptError(f"{display_path}: is a folder, not a transcript file") from None
    _cache[path] = (key, transcript)
    return transcript
