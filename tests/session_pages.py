"""Transcript pages of real session logs and of small fixtures, as the build makes them:
a log of tests/data/transcripts/ imported as the importer writes it, read back with the
site's loader, and its pages rendered with MkDocs' addresses."""

from __future__ import annotations

import contextlib
import io
import json
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from bs4 import BeautifulSoup

import import_transcript
from sitebuild.settings import TranscriptSettings
from sitebuild.urls import relative_url
from transcript.reader import IndexedTranscript, load_transcript
from transcript.schema import MessageSource
from transcriptsite.entries import page_entries
from transcriptsite.layout import TranscriptLayout

SAMPLES = Path(__file__).resolve().parent / "data" / "transcripts"


def imported(tmp_path: Path, log: str, errors_from_log: bool = False, models_from_log: bool = False
             ) -> IndexedTranscript:
    """The sample log `log` imported (with the importer's default redaction) and read.
    `errors_from_log`: each tool output the log marks `is_error` is given `is_error`;
    `models_from_log`: each reply and call is given the model and the token counts of
    its record; in the transcript, as an importer that keeps them writes them."""
    output = tmp_path / (Path(log).stem + ".transcript.jsonl")
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        assert import_transcript.main([str(SAMPLES / log), "-o", str(output)]) == 0
    lines = [json.loads(line) for line in output.read_text(encoding="utf-8").splitlines()]
    failed = error_call_ids(log) if errors_from_log else set()
    models = models_by_id(log) if models_from_log else {}
    for record in lines:
        if record["speaker"] == "tool" and record.get("source_id") in failed:
            record["is_error"] = True
        if record["speaker"] == "assistant" and record.get("source_id") in models:
            record.update(models[record["source_id"]])
    output.write_text("".join(json.dumps(record) + "\n" for record in lines), encoding="utf-8")
    return load_transcript(str(output))


def models_by_id(log: str) -> dict[str, dict[str, Any]]:
    """The model and integer token counts of each reply of the Claude Code log `log`, by
    the ids the importer gives its messages: the record's uuid, and each call's id."""
    found: dict[str, dict[str, Any]] = {}
    for record in log_records(log):
        message = record.get("message") or {}
        if not isinstance(message.get("usage"), dict):
            continue
        usage = {key: value for key, value in message["usage"].items() if type(value) is int}
        fields = {"model": message.get("model"), "usage": usage}
        ids = [record.get("uuid")] + [block.get("id") for block in message.get("content") or []
                                      if isinstance(block, dict) and block.get("type") == "tool_use"]
        found.update({id_: fields for id_ in ids if isinstance(id_, str)})
    return found


def error_call_ids(log: str) -> set[str]:
    """The ids of the calls whose result the Claude Code log `log` marks `is_error`."""
    return {block["tool_use_id"] for record in log_records(log)
            for block in (record.get("message") or {}).get("content") or []
            if isinstance(block, dict) and block.get("type") == "tool_result" and block.get("is_error") is True}


def log_records(log: str) -> Iterable[dict[str, Any]]:
    """The JSON records of the sample log `log`, one a line."""
    for line in (SAMPLES / log).read_text(encoding="utf-8").splitlines():
        if line.strip():
            yield json.loads(line)


class DirectoryLinks:
    """Addresses as MkDocs makes them by default: transcript/page-2.md is served at transcript/page-2/."""

    def url(self, src: str) -> str:
        if not src.endswith(".md"):
            return src
        stem = src.removesuffix(".md")
        return stem.removesuffix("index") if stem.endswith("index") else stem + "/"

    def href(self, target: str, source: str) -> str:
        return relative_url(self.url(target), self.url(source))


def layout_of(messages: MessageSource, per_page: int = 500, cited: Iterable[int] = (), context: int | None = None,
              **settings: Any) -> TranscriptLayout:
    """A layout with the site's settings but these; every message shown unless `context` is given."""
    return TranscriptLayout(messages, TranscriptSettings(messages_per_page=per_page, context=context, **settings),
                            cited)


def page(layout: TranscriptLayout, index: int = 0) -> BeautifulSoup:
    """The entries of the layout's page `index`, parsed."""
    return BeautifulSoup(page_entries(layout, index, DirectoryLinks()).html, "html.parser")


def records(*fields: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Verbatim messages numbered from 1, each with `fields`."""
    return [{"n": n, "provenance": "verbatim", "text": "", **record} for n, record in enumerate(fields, start=1)]
