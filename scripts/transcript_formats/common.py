"""What every log reader shares: the message it yields, its errors, its tallies."""

from __future__ import annotations

import json
import re
from collections import Counter
from dataclasses import dataclass, field

from msgref.schema import MAX_NESTING, Message, nests_deeper, shown_key

TOO_DEEP = f"nested deeper than {MAX_NESTING} levels, the most a transcript message may hold"
# What a name from the log must look like to be printed in a report (and be known too).
_NAME = re.compile(r"[a-z_-]{1,40}")


class LogError(Exception):
    """Input that cannot be imported; str() is `path:line: what is wrong`."""

    def __init__(self, path: str, line: int | None, problem: str):
        self.path, self.line, self.problem = path, line, problem
        where = f"{path}:{line}" if line else path
        super().__init__(f"{where}: {problem}")


def log_message(speaker: str, text: str, line: int, **fields) -> Message:
    """A message as a reader finds it in the log, before the importer numbers it: number
    0, verbatim, and `line` where it starts in the log, for reports. `fields` are the
    other fields of a transcript message (source_id, timestamp, thinking, ...)."""
    return Message(0, speaker, "verbatim", text, line=line, **fields)


def tool_call(name, arguments, line: int, **fields) -> Message:
    return log_message("assistant", "", line, tool_name=str(name or "unknown"), tool_input=arguments, **fields)


def parse_json(text: str, path: str, line: int):
    """The JSON value of `text`, found on `line` of the log at `path`; LogError if it
    nests deeper than a transcript message may, gives a key twice in one object (a
    reader would keep one of the two values without a word) or holds NaN or Infinity
    (no JSON: a page would show them as null). JSONDecodeError if it is not JSON."""
    try:
        value = json.loads(text, object_pairs_hook=_object, parse_constant=_no_constant)
    except RecursionError:
        raise LogError(path, line, TOO_DEEP) from None
    except _NotJson as problem:
        raise LogError(path, line, str(problem)) from None
    if nests_deeper(value, MAX_NESTING):
        raise LogError(path, line, TOO_DEEP)
    return value


class _NotJson(Exception):
    """What json.loads reads, but JSON does not allow."""


def _object(pairs: list[tuple[str, object]]) -> dict[str, object]:
    value = dict(pairs)
    if len(value) < len(pairs):
        counts = Counter(key for key, _ in pairs)
        twice = next(key for key, count in counts.items() if count > 1)
        raise _NotJson(f"a key given twice in one object ({shown_key(twice)})")
    return value


def _no_constant(name: str) -> object:
    raise _NotJson(f"not valid JSON: {name} is no JSON number")


def parse_arguments(arguments):
    """Tool arguments that a log stores as JSON text become the JSON value, unless the
    text is not JSON or nests too deeply for a transcript: such arguments stay text."""
    if isinstance(arguments, str):
        try:
            value = json.loads(arguments)
        except (ValueError, RecursionError):
            return arguments
        return arguments if nests_deeper(value, MAX_NESTING) else value
    return arguments


def known_name(value, known) -> str | None:
    """`value`, a name the log gives (a record type, a role), when it is one of the
    `known` names, and so safe to print in a report; else None. A report never prints
    what the log holds in a field whose value it does not know: that value may be a
    secret written where a name belongs."""
    if isinstance(value, str) and _NAME.fullmatch(value) and value in known:
        return value
    return None


def string_or_none(value) -> str | None:
    return value if isinstance(value, str) and value else None


def join_text(parts) -> str:
    return "\n\n".join(part for part in parts if part)


def content_text(content) -> str:
    """Readable text of a message or tool result's content: a string, or a list of
    parts (text, images, other JSON), as the formats store it."""
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return join_text(_part_text(part) for part in content)
    return _part_text(content)


def _part_text(part) -> str:
    if isinstance(part, str):
        return part
    if isinstance(part, dict):
        kind = part.get("type")
        for key in ("text", "content", "output"):
            value = part.get(key)
            if isinstance(value, str):
                return value
            if key == "content" and isinstance(value, list):
                return content_text(value)
        if isinstance(kind, str) and "image" in kind:
            return "[image]"
    return json.dumps(part, ensure_ascii=False)


@dataclass
class ReadStats:
    """What a reader passed over: records that hold no message, and lines skipped."""

    ignored: dict[str, int] = field(default_factory=dict)
    # reason -> [count, first few line numbers]
    skipped: dict[str, list] = field(default_factory=dict)

    def ignore(self, what: str) -> None:
        self.ignored[what] = self.ignored.get(what, 0) + 1

    def skip(self, line: int, reason: str) -> None:
        entry = self.skipped.setdefault(reason, [0, []])
        entry[0] += 1
        if len(entry[1]) < 5:
            entry[1].append(line)

    @property
    def skipped_count(self) -> int:
        return sum(count for count, _ in self.skipped.values())
