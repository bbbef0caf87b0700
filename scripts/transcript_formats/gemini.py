"""Gemini CLI sessions: one JSON document, `{sessionId, projectHash, startTime,
lastUpdated, messages: [...]}`, as Gemini CLI saves a chat under
`~/.gemini/tmp/<project hash>/chats/session-*.json`.

Each element of `messages` has an `id`, a `timestamp`, a `type` and a `content` (a
string, or a list of parts such as `{"text": ...}`). A `gemini` message is one reply:
its `content` is the text, its `thoughts` (`{subject, description}`) the thinking, and
its `toolCalls` the calls it made, each holding its own `result` (a list of parts, the
`functionResponse` among them). `info`, `warning` and `error` messages are what the
terminal showed beside the conversation, not part of it.
"""

from __future__ import annotations

import json
from collections.abc import Iterator

from transcript.schema import Message

from .common import IMAGE_MARK, NO_IMAGE_DATA, ImageBlock, ReadStats, join_text, log_message, string_or_none, tool_call
from .json_stream import elements_under

NAME = "gemini"
# Keys of the session object that only Gemini CLI writes beside its `messages`.
SESSION_KEYS = ("sessionId", "projectHash")
MESSAGE_TYPES = frozenset({"user", "gemini"})
# Notices shown in the terminal: not counted, named in the report.
NOTICE_TYPES = frozenset({"info", "warning", "error"})
# Reasons an element is skipped. They never quote the log: what it holds in a field
# this importer does not know may be anything, a secret too.
NOT_A_MESSAGE = "not a Gemini CLI message (a JSON value that is not an object)"
NO_TYPE = "a Gemini CLI message without a 'type'"
UNKNOWN_TYPE = "a Gemini CLI message of unknown type (its 'type' is not one this importer knows)"
BAD_CONTENT = "a Gemini CLI message whose 'content' is neither text nor a list of parts"


def looks_like(item: dict) -> bool:
    """The first element of a `messages` list, as a Gemini CLI message: a `type`
    of its own and no `role` (which an OpenAI chat message has)."""
    return "role" not in item and item.get("type") in MESSAGE_TYPES | NOTICE_TYPES


def looks_like_session(document: dict) -> bool:
    """The keys of the object that holds `messages`, read before it."""
    return all(isinstance(document.get(key), str) for key in SESSION_KEYS)


def read(file, path: str, stats: ReadStats, document: bool = True) -> Iterator[Message]:
    for line, value in elements_under(file, path, "messages"):
        yield from _messages(value, line, stats)


def _messages(item, line: int, stats: ReadStats) -> Iterator[Message]:
    if not isinstance(item, dict):
        stats.skip(line, NOT_A_MESSAGE)
        return
    kind = item.get("type")
    if kind in NOTICE_TYPES:
        stats.ignore(f"{kind} message")
        return
    if kind not in MESSAGE_TYPES:
        stats.skip(line, NO_TYPE if kind is None else UNKNOWN_TYPE)
        return
    content = item.get("content")
    if not (content is None or isinstance(content, (str, list, dict))):
        stats.skip(line, BAD_CONTENT)
        return
    images: list[ImageBlock] = []
    text, part_thinking = _parts_text(content, images)
    source_id = string_or_none(item.get("id"))
    timestamp = string_or_none(item.get("timestamp"))
    if kind == "user":
        yield log_message("user", text, line, source_id=source_id, timestamp=timestamp, image_blocks=tuple(images))
        return
    thinking = join_text([_thoughts(item.get("thoughts")), part_thinking])
    calls = [call for call in item.get("toolCalls") or [] if isinstance(call, dict)]
    # A reply with nothing but tool calls is those calls; an empty one is kept.
    if text or thinking or not calls:
        yield log_message("assistant", text, line, source_id=source_id, timestamp=timestamp, thinking=thinking or None,
                          image_blocks=tuple(images))
    for call in calls:
        call_id = string_or_none(call.get("id"))
        call_time = string_or_none(call.get("timestamp")) or timestamp
        yield tool_call(call.get("name"), call.get("args"), line, source_id=call_id, timestamp=call_time)
        result = call.get("result")
        # A call cancelled or refused before it ran has no result: nothing to count.
        if result is not None and result != []:
            result_images: list[ImageBlock] = []
            yield log_message("tool", _result_text(result, result_images), line, source_id=call_id,
                              timestamp=call_time, image_blocks=tuple(result_images))


def _thoughts(thoughts) -> str:
    """Each thought as its subject, then its description, as Gemini CLI shows them."""
    if not isinstance(thoughts, list):
        return ""
    parts = []
    for thought in thoughts:
        if isinstance(thought, dict):
            subject, description = thought.get("subject"), thought.get("description")
            parts.append(join_text(value for value in (subject, description) if isinstance(value, str)))
        elif isinstance(thought, str):
            parts.append(thought)
    return join_text(parts)


def _parts_text(content, images: list[ImageBlock]) -> tuple[str, str]:
    """The text and the thinking of a message's content: a string, one part, or a list
    of parts and strings. A part marked `thought` is thinking. The image parts are
    added to `images`."""
    if content is None:
        return "", ""
    if isinstance(content, str):
        return content, ""
    parts = content if isinstance(content, list) else [content]
    text, thinking = [], []
    for part in parts:
        if isinstance(part, dict) and part.get("thought") is True and isinstance(part.get("text"), str):
            thinking.append(part["text"])
        else:
            text.append(_part_text(part, images))
    return join_text(text), join_text(thinking)


def _result_text(result, images: list[ImageBlock]) -> str:
    """A tool call's result: its parts, the function response's output among them."""
    parts = result if isinstance(result, list) else [result]
    return join_text([_part_text(part, images) for part in parts])


def _part_text(part, images: list[ImageBlock]) -> str:
    if isinstance(part, str):
        return part
    if isinstance(part, dict):
        if isinstance(part.get("text"), str):
            return part["text"]
        response = part.get("functionResponse")
        if isinstance(response, dict):
            return _response_text(response.get("response"))
        for key in ("inlineData", "fileData"):
            data = part.get(key)
            if isinstance(data, dict):
                mime = data.get("mimeType")
                if not (isinstance(mime, str) and mime.startswith("image/")):
                    return "[file]"
                images.append(_image_block(data))
                return IMAGE_MARK
    return json.dumps(part, ensure_ascii=False)


def _image_block(data: dict) -> ImageBlock:
    """An image part: `inlineData` holds its base64 `data`, `fileData` its `fileUri`."""
    if isinstance(data.get("data"), str):
        return ImageBlock(data["data"])
    if isinstance(data.get("fileUri"), str):
        return ImageBlock.from_url(data["fileUri"])
    return ImageBlock(problem=NO_IMAGE_DATA)


def _response_text(response) -> str:
    """A function response: `{"output": ...}` when the tool ran, `{"error": ...}` when
    it failed; anything else as JSON."""
    if isinstance(response, dict):
        for key in ("output", "error"):
            value = response.get(key)
            if isinstance(value, str):
                return value
    if isinstance(response, str):
        return response
    return "" if response is None else json.dumps(response, ensure_ascii=False)
