"""Session logs and transcripts among the site's files, told by their first bytes.

Only the transcript the build reads is published, and only as its pages, redacted. A
second transcript, or a coding session's raw log dropped beside the pages (a Claude Code,
Codex or Gemini CLI log, an OpenAI chat or a ShareGPT file: the formats the importer
reads), would be published byte for byte, every secret in it. Each `.jsonl`, `.ndjson`
and `.json` file is told by the start of its text alone (HEAD_BYTES): the first records
of JSON Lines (or the start of the first, when it is longer), or the keys a JSON document
of a log opens with.
"""

from __future__ import annotations

import json
import re

from transcript.schema import REQUIRED_FIELDS

HEAD_BYTES = 65_536
JSON_EXTENSIONS = (".jsonl", ".ndjson", ".json")
TRANSCRIPT = "a transcript"
_RECORDS = 20  # the first records of JSON Lines looked at

# The records of each log's JSON Lines, as the importer's formats tell them apart.
_CLAUDE_MESSAGES = frozenset({"user", "assistant"})
_CODEX_RECORDS = frozenset({"session_meta", "turn_context", "response_item", "event_msg", "compacted"})
_CODEX_ITEMS = frozenset({"message", "reasoning", "function_call", "function_call_output", "custom_tool_call",
                          "custom_tool_call_output", "local_shell_call", "web_search_call"})
# The start of a JSON document that is a log, by the keys it opens with.
_DOCUMENTS = (
    ("a Claude Code session log", re.compile(r'"loglines"\s*:\s*\[')),
    ("a Gemini CLI session log", re.compile(r'"projectHash"\s*:\s*"[\s\S]*"messages"\s*:\s*\[|'
                                            r'"messages"\s*:\s*\[[\s\S]*"projectHash"\s*:\s*"')),
    ("an OpenAI chat log", re.compile(r'^(?:\[|\{[\s\S]*"messages"\s*:\s*\[)\s*\{[^{}]*'
                                      r'"role"\s*:\s*"(?:system|developer|user|assistant|tool|function)"')),
    ("a ShareGPT log", re.compile(r'"(?:conversations?|items)"\s*:\s*\[\s*\{[^{}]*"from"\s*:')),
    # JSON Lines whose first record is longer than the head (a pasted image): its start.
    ("a Codex session log", re.compile(r'^\{[^\n]*"type"\s*:\s*"(?:session_meta|turn_context|response_item|'
                                       r'event_msg|compacted)"\s*,\s*"payload"\s*:')),
    ("a Claude Code session log", re.compile(r'^\{[^\n]*"(?:sessionId|parentUuid)"\s*:')),
)


def session_file(path: str) -> str | None:
    """What the file at `path` is, if its start is a transcript's or a session log's
    ("a transcript", "a Codex session log"); None for any other file, one that is no
    JSON among them, and one that cannot be read (the generator says so)."""
    try:
        with open(path, "rb") as file:
            head = file.read(HEAD_BYTES)
    except OSError:
        return None
    text = head.decode("utf-8", "replace").lstrip("\ufeff \t\r\n")
    if not text.startswith(("{", "[")):
        return None
    lines = text.split("\n")
    if len(head) == HEAD_BYTES:
        lines.pop()  # cut short where the head ends
    for line in [line for line in lines if line.strip()][:_RECORDS]:
        try:
            record = json.loads(line)
        except ValueError:
            break  # no JSON Lines: a JSON document, written over several lines
        if isinstance(record, dict) and (kind := _record_kind(record)):
            return kind
    return next((kind for kind, start in _DOCUMENTS if start.search(text)), None)


def _record_kind(record: dict[str, object]) -> str | None:
    if all(name in record for name in REQUIRED_FIELDS):
        return TRANSCRIPT
    kind = record.get("type")
    if ("payload" in record and kind in _CODEX_RECORDS) or (
            kind in _CODEX_ITEMS and ("role" in record or "call_id" in record)):
        return "a Codex session log"
    if "sessionId" in record or (kind in _CLAUDE_MESSAGES and isinstance(record.get("message"), dict)):
        return "a Claude Code session log"
    return None
