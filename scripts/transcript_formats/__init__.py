"""Readers for the session log formats a transcript can be imported from.

Each reader is a generator of the log's messages (`transcript.schema.Message`, not yet
numbered) in log order, reading its file as a
stream; `detect` tells the formats apart. Numbering, redaction and writing the
transcript are the importer's.
"""

from __future__ import annotations

from collections.abc import Iterator

from transcript.schema import Message

from . import claude_code, codex, gemini, openai_chat, sharegpt
from .common import LogError, ReadStats
from .detect import Shape, detect

READERS = {module.NAME: module for module in (claude_code, codex, gemini, openai_chat, sharegpt)}
FORMAT_NAMES = tuple(READERS)
FORMAT_TITLES = {
    claude_code.NAME: "Claude Code session",
    codex.NAME: "Codex CLI rollout",
    gemini.NAME: "Gemini CLI session",
    openai_chat.NAME: "OpenAI chat messages",
    sharegpt.NAME: "ShareGPT conversation",
}


def read_messages(file, path: str, format_name: str, shape: Shape, stats: ReadStats) -> Iterator[Message]:
    """The messages of a log in a named format; `shape` comes from `detect`."""
    return READERS[format_name].read(file, path, stats, document=shape.document)


__all__ = [
    "FORMAT_NAMES",
    "FORMAT_TITLES",
    "LogError",
    "ReadStats",
    "Shape",
    "detect",
    "read_messages",
]
