"""What every log reader shares: the message it yields, its errors, its tallies."""

from __future__ import annotations

import json
from dataclasses import dataclass, field


class LogError(Exception):
    """Input that cannot be imported; str() is `path:line: what is wrong`."""

    def __init__(self, path: str, line: int | None, problem: str):
        self.path, self.line, self.problem = path, line, problem
        where = f"{path}:{line}" if line else path
        super().__init__(f"{where}: {problem}")


@dataclass
class LogMessage:
    """One message a reader would count, before it is given its number."""

    speaker: str  # user, assistant, tool or unknown
    text: str
    line: int  # where it starts in the log, for reports
    source_id: str | None = None
    timestamp: str | None = None
    origin: str | None = None
    thinking: str | None = None
    tool_name: str | None = None
    tool_input: object = None
    has_tool_input: bool = False

    def record(self, n: int) -> dict:
        """The transcript record, with only the fields that have a value."""
        record = {"n": n, "speaker": self.speaker, "provenance": "verbatim", "text": self.text}
        for name in ("source_id", "timestamp", "origin", "thinking", "tool_name"):
            value = getattr(self, name)
            if value is not None:
                record[name] = value
        if self.has_tool_input:
            record["tool_input"] = self.tool_input
        return record


def tool_call(name, arguments, line: int, **fields) -> LogMessage:
    return LogMessage(
        "assistant", "", line, tool_name=str(name or "unknown"), tool_input=arguments, has_tool_input=True, **fields
    )


def parse_arguments(arguments):
    """Tool arguments that a log stores as JSON text become the JSON value."""
    if isinstance(arguments, str):
        try:
            return json.loads(arguments)
        except ValueError:
            return arguments
    return arguments


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
