"""ShareGPT conversations: `{"conversations": [{"from": ..., "value": ...}]}`.

The file holds one conversation object, a list of them, or a bare list of turns.
A list of several conversations becomes one transcript, in file order.
"""

from __future__ import annotations

import json
from collections.abc import Iterator

from transcript.schema import Message

from .common import ReadStats, log_message, parse_arguments, tool_call
from .json_stream import JsonDocument

NAME = "sharegpt"
TURN_LISTS = ("conversations", "conversation", "items")
SPEAKERS = {
    "human": "user",
    "user": "user",
    "gpt": "assistant",
    "assistant": "assistant",
    "chatgpt": "assistant",
    "bard": "assistant",
    "bing": "assistant",
    "model": "assistant",
    "observation": "tool",
    "tool": "tool",
    "function_response": "tool",
}
TOOL_CALLS = frozenset({"function_call", "tool_call"})


def looks_like(item: dict) -> bool:
    return any(isinstance(item.get(key), list) for key in TURN_LISTS) or ("from" in item and "value" in item)


def read(file, path: str, stats: ReadStats, document: bool = True) -> Iterator[Message]:
    json_doc = JsonDocument(file, path)
    if json_doc.peek() == "[":
        for line in json_doc.iter_array():
            if json_doc.peek() == "{":
                yield from _conversation_or_turn(json_doc, line, stats)
            else:
                json_doc.read_value()
                stats.skip(line, "neither a conversation nor a turn")
    else:
        yield from _conversation_or_turn(json_doc, json_doc.line, stats)
    json_doc.finish()


def _conversation_or_turn(json_doc: JsonDocument, line: int, stats: ReadStats) -> Iterator[Message]:
    """Walk one object: a conversation, whose turns are read one at a time, or a turn."""
    fields: dict = {}
    conversation_id = None
    had_turns = False
    for key in json_doc.iter_object():
        if key in TURN_LISTS and json_doc.peek() == "[":
            had_turns = True
            for index, turn_line in enumerate(json_doc.iter_array()):
                turn = json_doc.read_value()
                source_id = f"{conversation_id}#{index}" if conversation_id else None
                yield from _turn(turn, turn_line, source_id, stats)
        else:
            value = json_doc.read_value()
            if key in ("from", "value"):
                fields[key] = value
            elif key == "id" and isinstance(value, (str, int)):
                conversation_id = str(value)
    if not had_turns:
        if "from" in fields:
            yield from _turn(fields, line, None, stats)
        else:
            stats.skip(line, "an object with neither 'conversations' nor 'from'")


def _turn(turn, line: int, source_id: str | None, stats: ReadStats) -> Iterator[Message]:
    if not isinstance(turn, dict) or "from" not in turn:
        stats.skip(line, "a turn without 'from'")
        return
    sender = str(turn["from"]).lower()
    value = turn.get("value")
    text = value if isinstance(value, str) else ("" if value is None else json.dumps(value, ensure_ascii=False))
    if sender == "system":
        stats.ignore("system turn")
    elif sender in TOOL_CALLS:
        call = parse_arguments(text)
        if isinstance(call, dict) and "name" in call:
            yield tool_call(call["name"], parse_arguments(call.get("arguments")), line, source_id=source_id)
        else:
            yield tool_call(sender, call, line, source_id=source_id)
    else:
        yield log_message(SPEAKERS.get(sender, "unknown"), text, line, source_id=source_id)
