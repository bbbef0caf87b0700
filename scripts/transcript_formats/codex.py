"""Codex CLI rollout logs: JSON Lines of `{timestamp, type, payload}`.

The conversation is in the `response_item` records. `event_msg` records are what the
terminal showed; the messages among them (user_message, agent_message,
agent_reasoning) repeat response items, so they are not counted again.

Rollouts of earlier Codex CLI versions open with a session line (`id`, `timestamp`,
`instructions`) followed by the response items themselves, without the envelope,
and `{"record_type": "state"}` lines; they are read the same way.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator

from transcript.schema import Message

from .common import (
    ImageBlock,
    ReadStats,
    content_text,
    known_name,
    log_message,
    parse_arguments,
    string_or_none,
    tool_call,
)
from .jsonl import read_json_lines

NAME = "codex"
RECORD_TYPES = frozenset({"session_meta", "turn_context", "response_item", "event_msg", "compacted"})
# Response items that hold no message: snapshots for undo, and compacted history.
NON_MESSAGE_ITEMS = frozenset({"ghost_snapshot", "compaction", "compaction_summary"})


ITEM_TYPES = frozenset(
    {
        "message",
        "reasoning",
        "function_call",
        "function_call_output",
        "custom_tool_call",
        "custom_tool_call_output",
        "local_shell_call",
        "web_search_call",
    }
)


# What the terminal showed (`event_msg` payloads): none is counted. They are named in the
# report by type when the type is one of these, Codex CLI's own; any other is "other".
EVENT_TYPES = frozenset(
    {
        "user_message", "agent_message", "agent_reasoning", "agent_reasoning_raw_content", "token_count",
        "context_compacted", "entered_review_mode", "exited_review_mode", "undo_started", "undo_completed",
        "turn_aborted", "error", "warning", "stream_error", "task_started", "task_complete",
        "agent_message_delta", "agent_reasoning_delta", "agent_reasoning_raw_content_delta",
        "agent_reasoning_section_break", "raw_response_item", "session_configured", "mcp_tool_call_begin",
        "mcp_tool_call_end", "mcp_startup_update", "mcp_startup_complete", "mcp_list_tools_response",
        "web_search_begin", "web_search_end", "exec_command_begin", "exec_command_output_delta",
        "exec_command_end", "terminal_interaction", "exec_approval_request", "elicitation_request",
        "apply_patch_approval_request", "background_event", "patch_apply_begin", "patch_apply_end",
        "turn_diff", "get_history_entry_response", "list_custom_prompts_response", "list_skills_response",
        "plan_update", "shutdown_complete", "view_image_tool_call", "deprecation_notice", "item_started",
        "item_completed", "agent_message_content_delta", "reasoning_content_delta",
        "reasoning_raw_content_delta", "skills_update_available",
    }
)
# Roles of messages to the model that are not the conversation, passed over.
INSTRUCTION_ROLES = frozenset({"developer", "system"})
# Reasons a line is skipped. They never quote the log: what it holds in a field this
# importer does not know may be anything, a secret too.
UNKNOWN_RECORD = "a record of unknown type (its 'type' is not one this importer knows)"
UNKNOWN_ITEM = "a response_item of unknown type (its payload's 'type' is not one this importer knows)"


def looks_like(record: dict) -> bool:
    if "payload" in record:
        return record.get("type") in RECORD_TYPES
    return record.get("record_type") == "state" or _is_bare_item(record)


def _is_bare_item(record: dict) -> bool:
    """A response item written without its envelope, as earlier rollouts did."""
    return record.get("type") in ITEM_TYPES and any(key in record for key in ("role", "call_id", "summary"))


def read(file, path: str, stats: ReadStats, document: bool = False) -> Iterator[Message]:
    reasoning: Message | None = None  # thinking waiting for the reply it belongs to
    for line, record in read_json_lines(file, path):
        if not isinstance(record, dict):
            stats.skip(line, "not a log record (a JSON value that is not an object)")
            continue
        record_type = record.get("type")
        payload = record.get("payload")
        if "payload" not in record and _is_bare_item(record):
            record_type, payload = "response_item", record
        elif "payload" not in record and ("record_type" in record or "instructions" in record):
            if "instructions" in record:
                stats.ignore("session header")
            else:
                stats.ignore(f"{known_name(record['record_type'], {'state'}) or 'other'} record")
            continue
        if record_type != "response_item":
            if record_type == "event_msg" and isinstance(payload, dict):
                stats.ignore(f"event_msg {known_name(payload.get('type'), EVENT_TYPES) or 'other'}")
            elif record_type in RECORD_TYPES:
                stats.ignore(record_type)
            else:
                stats.skip(line, UNKNOWN_RECORD)
            continue
        if not isinstance(payload, dict):
            stats.skip(line, "a response_item without a payload object")
            continue
        message = _message(payload, line, string_or_none(record.get("timestamp")), stats)
        if message is None:
            continue
        if message.speaker == "assistant" and message.thinking is not None and message.tool_name is None:
            if reasoning is not None:
                yield reasoning
            reasoning = message
            continue
        if reasoning is not None:
            if message.speaker == "assistant" and message.tool_name is None:
                # Reasoning followed by the reply it led to: one message.
                message = dataclasses.replace(
                    message, thinking=reasoning.thinking, line=reasoning.line, timestamp=reasoning.timestamp,
                    source_id=message.source_id or reasoning.source_id)
            else:
                yield reasoning
            reasoning = None
        yield message
    if reasoning is not None:
        yield reasoning


def _message(payload: dict, line: int, timestamp: str | None, stats: ReadStats) -> Message | None:
    item_type = payload.get("type")
    item_id = string_or_none(payload.get("id"))
    call_id = string_or_none(payload.get("call_id")) or item_id
    if item_type == "message":
        role = payload.get("role")
        if role in ("user", "assistant"):
            images: list[ImageBlock] = []
            text = content_text(payload.get("content"), images)
            return log_message(role, text, line, source_id=item_id, timestamp=timestamp, image_blocks=tuple(images))
        # Developer and system instructions to the model; a role of no known kind is
        # named "other" (it may be anything).
        stats.ignore(f"{known_name(role, INSTRUCTION_ROLES) or 'other'} message")
        return None
    if item_type == "reasoning":
        thinking = content_text(payload.get("summary")) or content_text(payload.get("content"))
        if not thinking:
            stats.ignore("reasoning with no readable text")  # only encrypted content
            return None
        return log_message("assistant", "", line, source_id=item_id, timestamp=timestamp, thinking=thinking)
    if item_type == "function_call":
        return tool_call(payload.get("name"), parse_arguments(payload.get("arguments")), line,
                         source_id=call_id, timestamp=timestamp)
    if item_type == "custom_tool_call":
        return tool_call(payload.get("name"), payload.get("input"), line, source_id=call_id, timestamp=timestamp)
    if item_type in ("local_shell_call", "web_search_call"):
        return tool_call(item_type.removesuffix("_call"), payload.get("action"), line,
                         source_id=call_id, timestamp=timestamp)
    if item_type in ("function_call_output", "custom_tool_call_output"):
        images = []
        text = _output_text(payload.get("output"), images)
        return log_message("tool", text, line, source_id=call_id, timestamp=timestamp, image_blocks=tuple(images))
    if item_type in NON_MESSAGE_ITEMS:
        stats.ignore(item_type)
        return None
    stats.skip(line, UNKNOWN_ITEM)
    return None


def _output_text(output, images: list[ImageBlock]) -> str:
    if isinstance(output, dict) and "content" in output:
        return content_text(output["content"], images)
    return content_text(output, images)
