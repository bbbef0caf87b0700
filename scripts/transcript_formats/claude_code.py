"""Claude Code session logs: JSON Lines, or a `{"loglines": [...]}` export."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from transcript.schema import Message

from . import jsonl
from .common import (
    IMAGE_MARK,
    ImageBlock,
    LogError,
    LogMessage,
    ReadStats,
    content_text,
    image_block,
    join_text,
    log_message,
    string_or_none,
    tool_call,
)
from .json_stream import elements_under
from .jsonl import read_json_lines

NAME = "claude-code"
# Record types that carry no message: titles, summaries, file snapshots, queue and
# progress notices, system notes.
NON_MESSAGE_TYPES = frozenset(
    {
        "summary",
        "system",
        "file-history-snapshot",
        "queue-operation",
        "progress",
        "custom-title",
        "tag",
        "agent-name",
        "last-prompt",
        "pr-link",
    }
)
MESSAGE_TYPES = frozenset({"user", "assistant"})
# Reasons a line is skipped. They never quote the log: what it holds in a field this
# importer does not know may be anything, a secret too.
UNKNOWN_RECORD = "a record of unknown type (its 'type' is not one this importer knows)"
NO_MESSAGE_OBJECT = {
    "user": "a user record whose 'message' is not an object",
    "assistant": "an assistant record whose 'message' is not an object",
}
UNKNOWN_BLOCK = "an assistant content block of unknown type (its 'type' is not one this importer knows)"


def looks_like(record: dict) -> bool:
    record_type = record.get("type")
    if "payload" in record:
        return False
    if record_type in MESSAGE_TYPES:
        return isinstance(record.get("message"), dict) or "uuid" in record or "sessionId" in record
    return record_type in NON_MESSAGE_TYPES


def read(file, path: str, stats: ReadStats, document: bool) -> Iterator[Message]:
    """`document`: the file is one JSON object whose `loglines` hold the records."""
    records = elements_under(file, path, "loglines") if document else read_json_lines(file, path)
    yield from messages_from_records(records, stats, path)




def messages_from_records(records: Iterable[tuple[int, object]], stats: ReadStats,
                          path: str = "") -> Iterator[Message]:
    reply = _Reply()
    for line, record in records:
        if not isinstance(record, dict):
            stats.skip(line, "not a log record (a JSON value that is not an object)")
            continue
        record_type = record.get("type")
        if record_type == "assistant" and isinstance(record.get("message"), dict):
            message = record["message"]
            reply_id = string_or_none(message.get("id"))
            if not (reply_id and reply_id == reply.id):
                yield from reply.flush()
                reply = _Reply(reply_id)
            reply.add(record, line, stats)
            if reply.size > jsonl.MAX_LINE_BYTES and reply.first is not None:
                # The reply is held until its last line: one spread over endless lines
                # would hold the whole log.
                raise LogError(path, reply.first[0], f"one assistant reply, its lines sharing a message.id up to "
                               f"line {line}, holds more than {jsonl.size_text(jsonl.MAX_LINE_BYTES)}, the most "
                               "a message may")
            continue
        if record_type == "user" and isinstance(record.get("message"), dict):
            yield from reply.flush()
            reply = _Reply()
            yield from _user_messages(record, line, stats)
        # Records that hold no message leave a reply open: its next line may follow them.
        elif record_type in MESSAGE_TYPES:
            stats.skip(line, NO_MESSAGE_OBJECT[record_type])
        elif record_type in NON_MESSAGE_TYPES:
            stats.ignore(record_type)
        elif record_type is None:
            stats.skip(line, "not a log record (no 'type')")
        else:
            stats.skip(line, UNKNOWN_RECORD)
    yield from reply.flush()


def _chars(value: object) -> int:
    """The characters of the strings in a JSON-like value, its keys too."""
    count, pending = 0, [value]
    while pending:
        item = pending.pop()
        if isinstance(item, str):
            count += len(item)
        elif isinstance(item, dict):
            pending.extend(item)
            pending.extend(item.values())
        elif isinstance(item, list):
            pending.extend(item)
    return count


def _image_chars(message: Message) -> int:
    """The characters of the image data a message holds, not yet decoded."""
    return sum(len(image.text) for image in message.image_blocks) if isinstance(message, LogMessage) else 0


def _common_fields(record: dict) -> dict:
    return {"timestamp": string_or_none(record.get("timestamp")), "origin": _origin(record)}


def _origin(record: dict) -> str | None:
    if not record.get("isSidechain"):
        return None
    agent = string_or_none(record.get("agentId"))
    return f"subagent:{agent}" if agent else "sidechain"


def _user_messages(record: dict, line: int, stats: ReadStats) -> Iterator[Message]:
    content = record["message"].get("content")
    fields = _common_fields(record)
    uuid = string_or_none(record.get("uuid"))
    if isinstance(content, str):
        yield log_message("user", content, line, source_id=uuid, **fields)
        return
    if not isinstance(content, list):
        stats.skip(line, "a user record without message content")
        return
    if not content:
        yield log_message("user", "", line, source_id=uuid, **fields)
        return
    text_parts: list[str] = []
    images: list[ImageBlock] = []
    for block in content:
        block_type = block.get("type") if isinstance(block, dict) else None
        if block_type == "tool_result":
            if text_parts:
                yield log_message("user", join_text(text_parts), line, source_id=uuid, image_blocks=tuple(images),
                                  **fields)
                text_parts, images = [], []
            result_images: list[ImageBlock] = []
            yield log_message(
                "tool",
                content_text(block.get("content"), result_images),
                line,
                source_id=string_or_none(block.get("tool_use_id")) or uuid,
                image_blocks=tuple(result_images),
                **fields,
            )
        else:
            # Text, images, and plain strings in the content list are what the person sent.
            text_parts.append(content_text(block, images))
    if text_parts:
        yield log_message("user", join_text(text_parts), line, source_id=uuid, image_blocks=tuple(images), **fields)


class _Reply:
    """One assistant reply: the lines that share a `message.id`, with no user record
    (a turn or a tool result) between them.

    Its text and thinking make one message; each tool call in it is a message after it.
    """

    def __init__(self, reply_id: str | None = None):
        self.id = reply_id
        self.text: list[str] = []
        self.images: list[ImageBlock] = []  # in the order of their marks in the text
        self.thinking: list[str] = []
        self.calls: list[Message] = []
        self.first: tuple[int, dict] | None = None
        self.size = 0  # the characters of the text held, for a bound

    def add(self, record: dict, line: int, stats: ReadStats) -> None:
        content = record["message"].get("content")
        if not isinstance(content, (str, list)):
            stats.skip(line, "an assistant record without message content")
            return
        if self.first is None:
            self.first = (line, record)
        held = (len(self.text), len(self.thinking), len(self.calls), len(self.images))
        try:
            self._add_content(content, record, line, stats)
        finally:  # what this line added, counted: its images' data too, held until the reply ends
            self.size += sum(map(len, self.text[held[0]:])) + sum(map(len, self.thinking[held[1]:]))
            self.size += sum(len(call.text) + _chars(call.tool_input) + _image_chars(call)
                             for call in self.calls[held[2]:])
            self.size += sum(len(image.text) for image in self.images[held[3]:])

    def _add_content(self, content: str | list, record: dict, line: int, stats: ReadStats) -> None:
        if isinstance(content, str):
            self.text.append(content)
            return
        fields = _common_fields(record)
        for block in content:
            block_type = block.get("type") if isinstance(block, dict) else None
            if block_type == "text":
                self.text.append(content_text(block))
            elif block_type == "image":
                self.text.append(IMAGE_MARK)
                self.images.append(image_block(block))
            elif block_type == "thinking":
                self.thinking.append(str(block.get("thinking") or ""))
            elif block_type == "redacted_thinking":
                continue  # encrypted by the model's provider: nothing readable to keep
            elif block_type in ("tool_use", "server_tool_use"):
                self.calls.append(
                    tool_call(
                        block.get("name"),
                        block.get("input"),
                        line,
                        source_id=string_or_none(block.get("id")),
                        **fields,
                    )
                )
            elif isinstance(block_type, str) and block_type.endswith("_tool_result"):
                # Results of tools the provider ran itself, such as a web search.
                images: list[ImageBlock] = []
                self.calls.append(
                    log_message(
                        "tool",
                        content_text(block.get("content"), images),
                        line,
                        source_id=string_or_none(block.get("tool_use_id")),
                        image_blocks=tuple(images),
                        **fields,
                    )
                )
            elif isinstance(block, str):
                self.text.append(block)
            else:
                stats.skip(line, UNKNOWN_BLOCK)

    def flush(self) -> Iterator[Message]:
        if self.first is None:
            return
        line, record = self.first
        text, thinking = join_text(self.text), join_text(self.thinking)
        # A reply with nothing but tool calls is those calls; an empty one is kept.
        if text or thinking or not self.calls:
            yield log_message(
                "assistant",
                text,
                line,
                source_id=string_or_none(record.get("uuid")) or self.id,
                thinking=thinking or None,
                image_blocks=tuple(self.images),
                **_common_fields(record),
            )
        yield from self.calls
        self.first = None
