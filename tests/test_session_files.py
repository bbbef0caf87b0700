"""Transcripts and session logs told by their start (`sitebuild.session_files`), and
copies of the transcript by their names (`sitebuild.files.transcript_copy`): what the
build refuses to publish. The build's own stop at each is in test_hostile_files."""

from __future__ import annotations

import base64
import json
from pathlib import Path

import pytest

from author_project import LOGS
from conftest import TRANSCRIPT
from sitebuild.files import ITS_COPY, transcript_copy
from sitebuild.files import TRANSCRIPT as THE_TRANSCRIPT
from sitebuild.session_files import HEAD_BYTES, session_file

KINDS = {"claude-code": "a Claude Code session log", "codemie-code_claude": "a Claude Code session log",
         "codex": "a Codex session log", "codemie-code_codex": "a Codex session log",
         "codemie-code_gemini": "a Gemini CLI session log", "openai": "an OpenAI chat log",
         "sharegpt": "a ShareGPT log"}


@pytest.mark.parametrize("log", sorted(path.name for path in LOGS.glob("*.json*")))
def test_every_log_the_importer_reads_is_told_by_its_start(log):
    kind = next(kind for start, kind in sorted(KINDS.items(), key=lambda item: -len(item[0]))
                if log.startswith(start))
    assert session_file(str(LOGS / log)) == kind


def test_a_transcript_is_told_by_its_fields():
    assert session_file(str(TRANSCRIPT)) == "a transcript"


def test_a_log_whose_first_record_is_longer_than_the_head_is_told_by_its_start(tmp_path):
    """A screenshot pasted in the first message: the record is read no further than the head."""
    pasted = base64.b64encode(b"\x89PNG" + b"\0" * HEAD_BYTES).decode()
    claude = {"parentUuid": None, "isSidechain": False, "sessionId": "s", "type": "user",
              "message": {"role": "user", "content": [{"type": "image", "source": {"data": pasted}}]}}
    codex = {"timestamp": "t", "type": "response_item",
             "payload": {"type": "message", "role": "user", "content": [{"image_url": pasted}]}}
    for name, record, kind in [("claude.jsonl", claude, "a Claude Code session log"),
                               ("codex.jsonl", codex, "a Codex session log")]:
        path = tmp_path / name
        path.write_text(json.dumps(record) + "\n", encoding="utf-8")
        assert path.stat().st_size > HEAD_BYTES and session_file(str(path)) == kind


@pytest.mark.parametrize("content", [
    b'{"name": "site", "version": "1.0.0", "dependencies": {}}',
    b'[{"date": "2026-01-01", "role": "editor"}]',
    b'{"n": 1, "speaker": "a"}\n{"type": "user"}\n',
    b"",
    b"\0" * 100,
    "caf\u00e9 {".encode("latin-1"),
])
def test_other_json_is_no_log(tmp_path, content):
    path = tmp_path / "data.json"
    path.write_bytes(content)
    assert session_file(str(path)) is None


@pytest.mark.parametrize("name, why", [
    ("transcript.jsonl", THE_TRANSCRIPT),
    ("transcript.jsonl~", ITS_COPY), ("transcript.jsonl.bak", ITS_COPY), ("#transcript.jsonl#", ITS_COPY),
    ("transcript.old.jsonl", ITS_COPY), ("transcript (copy).jsonl", ITS_COPY), ("Transcript copy.jsonl", ITS_COPY),
    ("Copy of transcript.jsonl", ITS_COPY), ("transcript - Copy.jsonl", ITS_COPY), ("transcript.bak", ITS_COPY),
    ("transcript.old", ITS_COPY), ("transcript.jsonl.gz", ITS_COPY), ("old/transcript.jsonl", ITS_COPY),
    ("transcript.md", None), ("transcript-notes.md", None), ("transcription.txt", None), ("index.md", None),
])
def test_a_copy_of_the_transcript_is_told_by_its_name(tmp_path, name, why):
    docs = tmp_path / "docs"
    (docs / "old").mkdir(parents=True)
    source = docs / "transcript.jsonl"
    source.write_text("{}\n")
    path = Path(docs / name)
    if not path.exists():
        path.write_text("{}\n")
    assert transcript_copy(str(path), str(source)) == why
