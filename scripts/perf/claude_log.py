"""Synthetic Claude Code session logs with the size mix of the synthetic transcripts.

The log is JSON Lines as Claude Code writes it: `user` and `assistant` records with
uuids, parent uuids, timestamps and `message.content` blocks; one reply spread over
several lines that share a `message.id` (thinking, text, a tool call); `tool_result`
blocks answering each call; a summary line and file-history snapshots that hold no
message. Counted by the importer's rule, it holds exactly the requested number of
messages: 1% of them are tool outputs of 100 to 400 KB, the rest a few hundred bytes.
"""

from __future__ import annotations

import json
import random
import uuid
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

from .synthetic import LARGE_SHARE, large_text, log_lines, sentence, small_text

PROMPT, REPLY, CALL, RESULT = "prompt", "reply", "call", "result"
MODEL = "claude-sonnet-4-5-20250929"
START = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)


@dataclass(frozen=True)
class LogStats:
    bytes: int
    messages: int  # as the importer counts them
    records: int  # user and assistant lines
    empty_prompts: int


def message_kinds(rng: random.Random, messages: int) -> list[str]:
    """The kind of each message in turn: a prompt, then steps of an optional reply and a
    tool call with its result, then the closing reply; cut off at `messages`."""
    kinds: list[str] = []
    while len(kinds) < messages:
        kinds.append(PROMPT)
        for _ in range(rng.randint(1, 4)):
            if rng.random() < 0.6:
                kinds.append(REPLY)
            kinds += [CALL, RESULT]
        kinds.append(REPLY)
    return kinds[:messages]


def _tool_input(rng: random.Random, tool: str) -> dict:
    path = f"/srv/app/{rng.choice(('model', 'server', 'kernel', 'cache'))}/{rng.randint(1, 99)}.py"
    if tool == "Bash":
        return {"command": sentence(rng, 6).lower()[:-1], "description": sentence(rng, 4)}
    if tool == "Grep":
        return {"pattern": sentence(rng, 2)[:-1], "path": "/srv/app"}
    if tool == "Edit":
        return {"file_path": path, "old_string": sentence(rng, 8), "new_string": sentence(rng, 8)}
    return {"file_path": path}


class _Writer:
    """Writes the records of one session, each chained to the one before it."""

    def __init__(self, file, rng: random.Random):
        self.file, self.rng = file, rng
        self.session = str(self._uuid())
        self.parent: str | None = None
        self.clock = START
        self.records = 0

    def _uuid(self) -> uuid.UUID:
        return uuid.UUID(int=self.rng.getrandbits(128), version=4)

    def _id(self, prefix: str) -> str:
        return prefix + "".join(self.rng.choices("ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz0123456789", k=24))

    def write(self, record: dict) -> None:
        self.file.write(json.dumps(record, ensure_ascii=False, separators=(",", ":")) + "\n")

    def message(self, record_type: str, message: dict, **extra) -> None:
        self.clock += timedelta(seconds=self.rng.randint(1, 40), milliseconds=self.rng.randint(0, 999))
        record_uuid = str(self._uuid())
        self.write({
            "parentUuid": self.parent, "isSidechain": False, "userType": "external", "cwd": "/srv/app",
            "sessionId": self.session, "version": "2.0.46", "gitBranch": "main", "type": record_type,
            "message": message, "uuid": record_uuid,
            "timestamp": self.clock.isoformat(timespec="milliseconds").replace("+00:00", "Z"), **extra,
        })
        self.parent = record_uuid
        self.records += 1

    def prompt(self, text: str) -> None:
        self.write({"type": "file-history-snapshot", "messageId": str(self._uuid()), "isSnapshotUpdate": False,
                    "snapshot": {"trackedFileBackups": {}, "timestamp": self.clock.isoformat()}})
        self.message("user", {"role": "user", "content": text})

    def assistant(self, message_id: str, block: dict, stop_reason: str | None) -> None:
        usage = {"input_tokens": self.rng.randint(1, 9), "cache_read_input_tokens": self.rng.randint(0, 150_000),
                 "output_tokens": self.rng.randint(20, 900), "service_tier": "standard"}
        self.message("assistant", {"id": message_id, "type": "message", "role": "assistant", "model": MODEL,
                                   "content": [block], "stop_reason": stop_reason, "stop_sequence": None,
                                   "usage": usage},
                     requestId=self._id("req_"))

    def result(self, call_id: str, text: str, tool: str) -> None:
        block = {"tool_use_id": call_id, "type": "tool_result", "content": text, "is_error": False}
        # Claude Code keeps a copy of a command's output beside the block.
        extra = {"toolUseResult": {"stdout": text, "stderr": "", "interrupted": False, "isImage": False}} \
            if tool == "Bash" else {}
        self.message("user", {"role": "user", "content": [block]}, **extra)


def write_log(path: Path, messages: int, seed: int = 1) -> LogStats:
    """Write a Claude Code log of `messages` messages to `path`."""
    rng = random.Random(seed)
    kinds = message_kinds(rng, messages)
    results = [i for i, kind in enumerate(kinds) if kind == RESULT]
    large = set(rng.sample(results, min(len(results), max(1, round(messages * LARGE_SHARE)))))
    pool = log_lines(rng, 3000)
    empty = 0
    with open(path, "w", encoding="utf-8") as file:
        writer = _Writer(file, rng)
        writer.write({"type": "summary", "summary": sentence(rng, 6), "leafUuid": str(writer._uuid())})
        message_id, call_id, tool, prompts = "", "", "Bash", 0
        for i, kind in enumerate(kinds):
            if kind == PROMPT:
                prompts += 1
                text = "" if prompts % 50 == 0 else small_text(rng)  # an empty message now and then
                empty += text == ""
                writer.prompt(text)
            elif kind == REPLY:
                message_id = writer._id("msg_")  # a call right after this reply shares its id
                if rng.random() < 0.25:
                    writer.assistant(message_id, {"type": "thinking", "thinking": sentence(rng, 20),
                                                  "signature": writer._id("sig_")}, None)
                ends_turn = i + 1 == len(kinds) or kinds[i + 1] != CALL
                writer.assistant(message_id, {"type": "text", "text": small_text(rng)},
                                 "end_turn" if ends_turn else None)
            elif kind == CALL:
                if kinds[i - 1] != REPLY:
                    message_id = writer._id("msg_")
                tool = "Bash" if i + 1 in large else rng.choice(("Bash", "Read", "Grep", "Edit"))
                call_id = writer._id("toolu_")
                writer.assistant(message_id, {"type": "tool_use", "id": call_id, "name": tool,
                                              "input": _tool_input(rng, tool)}, "tool_use")
            else:
                writer.result(call_id, large_text(rng, pool) if i in large else small_text(rng), tool)
    return LogStats(path.stat().st_size, len(kinds), writer.records, empty)
