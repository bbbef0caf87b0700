"""Claude Code session logs: JSON Lines, or a `{"loglines": [...]}` export."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Iterator

from transcript.schema import Message

from . import jsonl
from .common import (
    IMAGE_MARK,
    ImageBlock,
    LogError,
    ReadStats,
    content_text,
    held_chars,
    image_block,
    join_text,
    known_name,
    log_message,
    string_or_none,
    token_counts,
    tool_call,
)
from .json_stream import elements_under
from .jsonl import read_json_lines

NAME = "claude-code"
# Record types that carry no message: titles, summaries, file snapshots, queue and
# progress notices, system notes, the permission mode; and attachments, but for the
# hooks' output among them (HOOK_OUTPUTS).
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
        "permission-mode",
        "attachment",
    }
)
# The attachments that hold what a hook wrote, shown in the session as its output: a
# message of its own, speaker "tool", with the hook's name. True: the hook failed.
HOOK_OUTPUTS = {
    "hook_success": False,
    "hook_additional_context": False,
    "hook_blocking_error": True,
    "hook_non_blocking_error": True,
}
# The kinds of attachment and of system record named in the report, as Claude Code
# writes them; any other is "other" (a report never repeats a value it does not know).
ATTACHMENT_TYPES = frozenset(
    {
        *HOOK_OUTPUTS, "hook_cancelled", "hook_error_during_execution", "hook_stopped_continuation",
        "hook_system_message", "hook_permission_decision", "async_hook_response", "deferred_tools_delta",
        "mcp_instructions_delta", "agent_listing_delta", "skill_listing", "invoked_skills", "todo_reminder",
        "task_reminder", "plan_mode", "plan_mode_exit", "plan_mode_reentry", "critical_system_reminder",
        "nested_memory", "file", "edited_text_file", "edited_image_file", "directory", "compact_file_reference",
        "selected_lines_in_ide", "opened_file_in_ide", "diagnostics", "queued_command", "command_permissions",
        "date_change", "output_style", "token_usage", "budget_usd",
    }
)
SYSTEM_SUBTYPES = frozenset(
    {
        "stop_hook_summary", "turn_duration", "compact_boundary", "microcompact_boundary", "api_error",
        "local_command", "informational", "away_summary",
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
    # The last reply whose token counts were given: its lines may go on after a tool's
    # result (calls run while the reply is written), each repeating the counts.
    counted: list[str | None] = [None]
    for line, record in records:
        if not isinstance(record, dict):
            stats.skip(line, "not a log record (a JSON value that is not an object)")
            continue
        record_type = record.get("type")
        if record_type == "assistant" and isinstance(record.get("message"), dict):
            message = record["message"]
            reply_id = string_or_none(message.get("id"))
            if not (reply_id and reply_id == reply.id):
                yield from reply.flush(counted)
                reply = _Reply(reply_id)
            reply.add(record, line, stats)
            reply.check_size(line, path)
            continue
        if record_type == "user" and isinstance(record.get("message"), dict):
            yield from reply.flush(counted)
            reply = _Reply()
            yield from _user_messages(record, line, stats)
        # Records that hold no message leave a reply open: its next line may follow them.
        # A hook's output waits for the reply to end, after its tool calls.
        elif record_type in MESSAGE_TYPES:
            stats.skip(line, NO_MESSAGE_OBJECT[record_type])
        elif record_type == "attachment":
            hook_output = _hook_output(record, line)
            if hook_output is None:
                attachment = record.get("attachment")
                kind = attachment.get("type") if isinstance(attachment, dict) else None
                stats.ignore("attachment", known_name(kind, ATTACHMENT_TYPES) or "other")
            elif reply.first is not None:
                reply.after.append(hook_output)
                reply.size += held_chars(hook_output)
                reply.check_size(line, path)
            else:
                yield hook_output
        elif record_type == "system":
            stats.ignore("system", known_name(record.get("subtype"), SYSTEM_SUBTYPES) or "other")
        elif record_type in NON_MESSAGE_TYPES:
            stats.ignore(record_type)
        elif record_type is None:
            stats.skip(line, "not a log record (no 'type')")
        else:
            stats.skip(line, UNKNOWN_RECORD)
    yield from reply.flush(counted)


def _common_fields(record: dict) -> dict:
    return {"timestamp": string_or_none(record.get("timestamp")), "origin": _origin(record)}


def _origin(record: dict) -> str | None:
    if not record.get("isSidechain"):
        return None
    agent = string_or_none(record.get("agentId"))
    return f"subagent:{agent}" if agent else "sidechain"


def _hook_output(record: dict, line: int) -> Message | None:
    """The message of an attachment that holds a hook's output: speaker "tool", the output
    as its text, `hook` the hook's name as Claude Code shows it ("PostToolUse:Edit", else
    its event), `is_error` when the hook failed. None for any other attachment, and for a
    hook that wrote nothing."""
    attachment = record.get("attachment")
    if not isinstance(attachment, dict) or attachment.get("type") not in HOOK_OUTPUTS:
        return None
    text = _hook_text(attachment)
    if not text.strip():
        return None
    name = string_or_none(attachment.get("hookName")) or string_or_none(attachment.get("hookEvent")) or "hook"
    failed = HOOK_OUTPUTS[attachment["type"]]
    return log_message("tool", text, line, source_id=string_or_none(record.get("uuid")), hook=name,
                       is_error=True if failed else None, **_common_fields(record))


def _hook_text(attachment: dict) -> str:
    """What a hook wrote, as the attachment holds it: its `content` (a string, or lines of
    additional context), else the reason it blocked, else its standard output and error."""
    content = attachment.get("content")
    if isinstance(content, list):
        content = "\n".join(part for part in content if isinstance(part, str))
    if isinstance(content, str) and content.strip():
        return content
    blocking = attachment.get("blockingError")
    if isinstance(blocking, dict):
        blocking = blocking.get("blockingError")
    if isinstance(blocking, str) and blocking.strip():
        return blocking
    return join_text(value for value in (attachment.get("stdout"), attachment.get("stderr"))
                     if isinstance(value, str) and value.strip())


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
                # A failed call, a refused one ("The user doesn't want to proceed..."), a
                # <tool_use_error>: as the log marks it, never guessed from the text.
                is_error=True if block.get("is_error") is True else None,
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
    Each of them has the reply's model; the first has its token counts: those of its last
    line, as each line of a reply repeats them, the output counted up to that line. A
    reply whose lines go on after a tool's result is two replies of one id; the counts
    are given to the first only, so that no reply's are counted twice.
    """

    def __init__(self, reply_id: str | None = None):
        self.id = reply_id
        self.text: list[str] = []
        self.images: list[ImageBlock] = []  # in the order of their marks in the text
        self.thinking: list[str] = []
        self.calls: list[Message] = []
        self.first: tuple[int, dict] | None = None
        self.size = 0  # the characters of the text held, for a bound
        self.model: str | None = None
        self.usage: dict[str, int] | None = None
        self.after: list[Message] = []  # hooks' output, written while the reply was open

    def add(self, record: dict, line: int, stats: ReadStats) -> None:
        content = record["message"].get("content")
        if not isinstance(content, (str, list)):
            stats.skip(line, "an assistant record without message content")
            return
        if self.first is None:
            self.first = (line, record)
        self.model = string_or_none(record["message"].get("model")) or self.model
        self.usage = token_counts(record["message"].get("usage")) or self.usage
        held = (len(self.text), len(self.thinking), len(self.calls), len(self.images))
        try:
            self._add_content(content, record, line, stats)
        finally:  # what this line added, counted: its images' data too, held until the reply ends
            self.size += sum(map(len, self.text[held[0]:])) + sum(map(len, self.thinking[held[1]:]))
            self.size += sum(map(held_chars, self.calls[held[2]:]))
            self.size += sum(len(image.text) for image in self.images[held[3]:])

    def check_size(self, line: int, path: str) -> None:
        """LogError if what the reply holds, up to `line`, is more than a message may hold:
        it is held until its last line, and one spread over endless lines (or followed by
        endless hooks' output) would hold the whole log."""
        if self.size > jsonl.MAX_LINE_BYTES and self.first is not None:
            raise LogError(path, self.first[0], f"one assistant reply, its lines sharing a message.id up to "
                           f"line {line}, holds more than {jsonl.size_text(jsonl.MAX_LINE_BYTES)}, the most "
                           "a message may")

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

    def flush(self, counted: list[str | None]) -> Iterator[Message]:
        """The reply's messages, then the hooks' output written while it was open.
        `counted` holds the id of the last reply given its token counts, and is updated."""
        if self.first is None:
            yield from self.after
            return
        line, record = self.first
        text, thinking = join_text(self.text), join_text(self.thinking)
        messages = [dataclasses.replace(call, model=self.model) for call in self.calls]
        # A reply with nothing but tool calls is those calls; an empty one is kept.
        if text or thinking or not self.calls:
            messages.insert(0, log_message(
                "assistant",
                text,
                line,
                source_id=string_or_none(record.get("uuid")) or self.id,
                thinking=thinking or None,
                image_blocks=tuple(self.images),
                model=self.model,
                **_common_fields(record),
            ))
        if self.id is None or self.id != counted[0]:
            messages[0] = dataclasses.replace(messages[0], usage=self.usage)
            counted[0] = self.id
        yield from messages
        yield from self.after
        self.first = None
        self.after = []
