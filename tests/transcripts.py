"""Transcripts for the tests: a file written from records and read as the build reads it,
or, for tests of what reads a transcript rather than of the reading, the same messages
held in memory."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

from transcript.reader import IndexedTranscript, TranscriptError, load_transcript
from transcript.schema import Message, message_from_record, record_problem


def jsonl(*records: Mapping[str, Any] | str | bytes) -> bytes:
    """The lines of a transcript file: each record as JSON, or a line as written."""
    def line(record: Mapping[str, Any] | str | bytes) -> bytes:
        if isinstance(record, bytes):
            return record
        return (record if isinstance(record, str) else json.dumps(record)).encode()

    return b"".join(line(record) + b"\n" for record in records)


def read(folder: Path, *records: Mapping[str, Any] | str | bytes, name: str = "t.jsonl") -> IndexedTranscript:
    """The transcript file of `records` written in `folder` and read, named `name` in errors."""
    path = folder / name
    path.write_bytes(jsonl(*records))
    return load_transcript(str(path), name)


class MemoryTranscript:
    """Messages held in memory, each record checked as a line of a transcript file is."""

    def __init__(self, records: Iterable[Mapping[str, Any]], path: str = "t.jsonl"):
        messages = []
        for line, record in enumerate(records, start=1):
            problem = record_problem(dict(record))
            if problem is not None:
                raise TranscriptError(f"{path}:{line}: {problem}")
            messages.append(message_from_record(dict(record), line))
        self.path = path
        self._by_number = {message.n: message for message in sorted(messages, key=lambda message: message.n)}
        self.numbers = list(self._by_number)
        self.described = frozenset(message.n for message in messages if message.is_described)

    def __len__(self) -> int:
        return len(self.numbers)

    def __iter__(self) -> Iterator[Message]:
        return iter(self._by_number.values())

    def __contains__(self, n: int) -> bool:
        return n in self._by_number

    def get(self, n: int) -> Message | None:
        return self._by_number.get(n)

    def size_hint(self, n: int) -> int:
        return len(self._by_number[n].text)
