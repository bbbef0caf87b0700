"""A transcript message: its fields, defined once, and the check of a record read from JSON.

`Message` is the one definition of the transcript's fields. Each field's metadata says
what JSON type the transcript file holds for it, whether a record must have it, and
whether its text comes from the session log (and so is searched for secrets).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

SPEAKERS = ("user", "assistant", "tool", "unknown")
# How deep a message's JSON may nest: far deeper than any tool input, and far below
# Python's recursion limit, which the standard library's parser and the redaction reach.
MAX_NESTING = 100
PROVENANCES = ("verbatim", "described")
# The images of a message are files in a folder beside the transcript (IMAGES_FOLDER),
# named by their content's hash and their kind, as the importer writes them: any other
# name (a path, `..`) is refused, so the build reads nothing but those files.
IMAGE_NAME_RE = re.compile(r"[0-9a-f]{32}\.(?:png|jpg|gif|webp)")
IMAGES_FOLDER = "{stem}-images"  # beside the transcript file `stem`.jsonl
MAX_IMAGES = 100  # images one message may hold
# The largest message number: the index of a transcript keeps them as 64-bit integers.
MAX_MESSAGE_NUMBER = 2**63 - 1


def _json(kind: type, required: bool = False, from_log: bool = False) -> dict[str, object]:
    return {"json": kind, "required": required, "from_log": from_log}


@dataclass(frozen=True)
class Message:
    n: int = field(metadata=_json(int, required=True))
    speaker: str = field(metadata=_json(str, required=True))  # one of SPEAKERS
    provenance: str = field(metadata=_json(str, required=True))  # one of PROVENANCES
    text: str = field(metadata=_json(str, required=True, from_log=True))
    # For a described message: the other messages one description covers.
    described_with: tuple[int, ...] = field(default=(), metadata=_json(list))
    # Kept from imported session logs:
    source_id: str | None = field(default=None, metadata=_json(str, from_log=True))  # uuid, message id, call id
    timestamp: str | None = field(default=None, metadata=_json(str, from_log=True))
    origin: str | None = field(default=None, metadata=_json(str, from_log=True))  # a sidechain, a subagent
    thinking: str | None = field(default=None, metadata=_json(str, from_log=True))  # the model's reasoning
    tool_name: str | None = field(default=None, metadata=_json(str, from_log=True))  # for a tool call, with its
    tool_input: object = field(default=None, metadata=_json(object, from_log=True))  # input: any JSON value
    images: tuple[str, ...] = field(default=(), metadata=_json(list))  # file names in IMAGES_FOLDER
    # Written by the importer, last on the line, over the line's bytes (see transcript.seal).
    redaction_seal: str | None = field(default=None, metadata=_json(str))
    line: int = 0  # where the message is in the file it was read from; not a field of the file

    @property
    def is_described(self) -> bool:
        return self.provenance == "described"


def _json_fields() -> Iterator[dataclasses.Field[object]]:
    return (f for f in dataclasses.fields(Message) if "json" in f.metadata)


FIELD_TYPES = {f.name: f.metadata["json"] for f in _json_fields()}
REQUIRED_FIELDS = tuple(f.name for f in _json_fields() if f.metadata["required"])
# The fields that hold text from the session log, in the order reports name them.
LOG_TEXT_FIELDS = tuple(f.name for f in _json_fields() if f.metadata["from_log"])


class MessageSource(Protocol):
    """What every view of a transcript offers: the name of its file, its message
    numbers in order, and its messages by number."""

    @property
    def path(self) -> str:
        """How problems name the transcript's file."""

    @property
    def numbers(self) -> Sequence[int]:
        """The message numbers, in order."""

    @property
    def described(self) -> frozenset[int]:
        """The numbers of the messages given as a description of them, not quoted."""

    def __len__(self) -> int: ...

    def __contains__(self, n: int) -> bool: ...

    def get(self, n: int) -> Message | None: ...

    def size_hint(self, n: int) -> int:
        """The length of message n's text in the file, known without reading the message."""


def record_problem(record: object) -> str | None:
    """What is wrong with a JSON value as a message record, or None."""
    # This runs for every line of transcripts of hundreds of thousands of messages:
    # the common case, a valid record, takes as few steps as it can.
    if type(record) is not dict:
        return f"expected a JSON object, found {_json_type(record)}"
    names = record.keys()
    if not names >= _REQUIRED_NAMES:
        missing = [name for name in REQUIRED_FIELDS if name not in record]
        return f"missing required field {', '.join(map(repr, missing))}"
    if not names <= FIELD_TYPES.keys():
        unknown = ", ".join(sorted({shown_key(name) for name in record if name not in FIELD_TYPES}))
        return f"unknown field {unknown} (known fields: {', '.join(FIELD_TYPES)})"
    for name, value in record.items():
        expected = FIELD_TYPES[name]
        # Exact types: JSON values are never subclasses, and a boolean (in Python a
        # subclass of int) is no message number.
        if type(value) is not expected and expected is not object:
            return f"field {name!r} must be {_json_name(expected)}, found {_json_type(value)}"
    if not 1 <= record["n"] <= MAX_MESSAGE_NUMBER:
        return f"field 'n' must be a message number from 1 to {MAX_MESSAGE_NUMBER:,}"
    if record["speaker"] not in SPEAKERS:
        return f"field 'speaker' must be one of {', '.join(SPEAKERS)}"
    if record["provenance"] not in PROVENANCES:
        return f"field 'provenance' must be one of {', '.join(PROVENANCES)}"
    if nests_deeper(record.get("tool_input"), MAX_NESTING):
        return f"field 'tool_input' nests deeper than {MAX_NESTING} levels, the most a message may hold"
    images = record.get("images")
    if images is not None and (len(images) > MAX_IMAGES or not all(
            type(name) is str and IMAGE_NAME_RE.fullmatch(name) for name in images)):
        return (f"field 'images' must be a list of at most {MAX_IMAGES} image file names as the importer writes "
                "them (32 hexadecimal digits, then .png, .jpg, .gif or .webp)")
    described_with = record.get("described_with")
    if described_with:
        if record["provenance"] != "described":
            return "'described_with' is only for described messages"
        if not all(type(n) is int for n in described_with):
            return "field 'described_with' must be a list of message numbers"
    return None


_REQUIRED_NAMES = frozenset(REQUIRED_FIELDS)


# A key that reads as a field name is named in messages; any other key may be text
# from the log, a secret even, and is not repeated.
_FIELD_NAME = re.compile(r"[a-z][a-z_]{0,39}")


def shown_key(key: str) -> str:
    """How a problem names a key of a record: quoted if it reads as a field name."""
    return repr(key) if _FIELD_NAME.fullmatch(key) else "(a name that is not shown)"


def nests_deeper(value: object, limit: int) -> bool:
    """True if the JSON-like `value` has lists or objects nested more than `limit` deep."""
    if type(value) not in (dict, list):  # the common case: a string, or nothing
        return False
    level: list[Any] = [value]
    depth = 0
    while level:
        depth += 1
        if depth > limit:
            return True
        level = [item for container in level for item in (container.values() if type(container) is dict else container)
                 if type(item) in (dict, list)]
    return False


def holds_float(value: object) -> bool:
    """Whether the JSON-like `value` holds a number that is not an integer, at any depth."""
    if type(value) is float:
        return True
    if type(value) is dict:
        return any(map(holds_float, value.values()))
    if type(value) is list:
        return any(map(holds_float, value))
    return False


def message_from_record(record: dict[str, Any], line: int) -> Message:
    """A message from a record that `record_problem` found nothing wrong with."""
    if "described_with" not in record and "images" not in record:  # the common case: its fields as they are
        return Message(**record, line=line)
    lists: dict[str, tuple[Any, ...]] = {name: tuple(record[name]) for name in ("described_with", "images")
                                         if name in record}
    return Message(**{**record, **lists}, line=line)


def record_of(message: Message) -> dict[str, Any]:
    """The record of a message as the transcript file holds it: the required fields and
    those of the others that have a value. A tool call always has its input, null or not.
    The redaction seal is left out: it belongs to the bytes of the line it was read from,
    and a record written again is a new line, to be sealed again if it is redacted."""
    record: dict[str, Any] = {}
    for f in _json_fields():
        value = getattr(message, f.name)
        if f.name == "redaction_seal":
            continue
        if f.metadata["required"] or value not in (None, ()) or (f.name == "tool_input" and message.tool_name):
            record[f.name] = list(value) if f.name in ("described_with", "images") else value
    return record


def _json_name(python_type: type) -> str:
    return {int: "an integer", str: "a string", list: "a list", dict: "an object"}[python_type]


def _json_type(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, float):
        return "a number with a fraction"
    return _json_name(type(value)) if type(value) in (int, str, list, dict) else type(value).__name__
