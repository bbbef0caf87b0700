"""OpenAI chat messages: a JSON list of `{role, content, tool_calls}` objects, or an
object whose `messages` hold that list."""

from __future__ import annotations

from collections.abc import Iterator

from transcript.schema import Message

from .common import (
    ImageBlock,
    LogError,
    ReadStats,
    content_text,
    log_message,
    parse_arguments,
    string_or_none,
    tool_call,
)
from .json_stream import JsonDocument

NAME = "openai"
ROLES = frozenset({"system", "developer", "user", "assistant", "tool", "function"})


def looks_like(item: dict) -> bool:
    return item.get("role") in ROLES


def read(file, path: str, stats: ReadStats, document: bool = True) -> Iterator[Message]:
    json_doc = JsonDocument(file, path)
    if json_doc.peek() == "[":
        yield from _messages(json_doc, stats)
    else:
        found = False
        for key in json_doc.iter_object():
            if key == "messages" and json_doc.peek() == "[":
                found = True
                yield from _messages(json_doc, stats)
            else:
                json_doc.read_value()
        if not found:
            raise LogError(path, 1, "a JSON object without a 'messages' list")
    json_doc.finish()


def _messages(json_doc: JsonDocument, stats: ReadStats) -> Iterator[Message]:
    for line in json_doc.iter_array():
        item = json_doc.read_value()
        if not isinstance(item, dict) or "role" not in item:
            stats.skip(line, "not a chat message (no 'role')")
            continue
        yield from _from_message(item, line, stats)


def _from_message(item: dict, line: int, stats: ReadStats) -> Iterator[Message]:
    role = item["role"]
    images: list[ImageBlock] = []
    text = content_text(item.get("content"), images)
    image_blocks = tuple(images)
    source_id = string_or_none(item.get("id"))
    if role == "user":
        yield log_message("user", text, line, source_id=source_id, image_blocks=image_blocks)
    elif role == "assistant":
        thinking = string_or_none(item.get("reasoning_content")) or string_or_none(item.get("reasoning"))
        calls = [call for call in item.get("tool_calls") or [] if isinstance(call, dict)]
        legacy_call = item.get("function_call")
        if text or thinking or not (calls or legacy_call):
            yield log_message("assistant", text, line, source_id=source_id, thinking=thinking,
                              image_blocks=image_blocks)
        for call in calls:
            nested = call.get("function")
            function = nested if isinstance(nested, dict) else call
            yield tool_call(
                function.get("name"),
                parse_arguments(function.get("arguments")),
                line,
                source_id=string_or_none(call.get("id")),
            )
        if isinstance(legacy_call, dict):
            yield tool_call(legacy_call.get("name"), parse_arguments(legacy_call.get("arguments")), line)
    elif role in ("tool", "function"):
        yield log_message("tool", text, line, source_id=string_or_none(item.get("tool_call_id")) or source_id,
                          image_blocks=image_blocks)
    elif role in ("system", "developer"):
        stats.ignore(f"{role} message")
    else:
        yield log_message("unknown", text, line, source_id=source_id, image_blocks=image_blocks)
