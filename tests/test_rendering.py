"""The transcript's pages and whole texts, as the build makes them (in its own process
here; `test_whole_session_build` compares them with a worker's)."""

from __future__ import annotations

import logging

from msgref.transcript_entries import page_entries
from msgref.transcript_layout import TranscriptLayout
from sitebuild.rendering import TranscriptRendering, _Links
from sitebuild.settings import TranscriptSettings
from transcripts import MemoryTranscript

LONG = "a long tool output\n" * 400  # past message_chars: it gets a file of its whole text


def layout_of(count: int, per_page: int) -> TranscriptLayout:
    records = [{"n": n, "speaker": "tool", "provenance": "verbatim", "text": LONG if n in (5, 35) else f"text {n}"}
               for n in range(1, count + 1)]
    transcript = MemoryTranscript(records)
    return TranscriptLayout(transcript, TranscriptSettings(messages_per_page=per_page, context=None), ())


class DirectoryPages:
    def url(self, src: str) -> str | None:
        stem = src.removesuffix(".md")
        return stem.removesuffix("index") if stem.endswith("index") else stem + "/"


def test_each_page_and_whole_text_is_made_whichever_page_is_asked_for_first(tmp_path):
    layout = layout_of(40, 10)  # four pages
    texts = {n: str(tmp_path / "site" / layout.text_file_src(n)) for n in layout.text_file_numbers()}
    rendering = TranscriptRendering(layout, DirectoryPages(), None, texts, None, False, logging.getLogger("test"))
    assert all((tmp_path / "site" / layout.text_file_src(n)).read_bytes() == b"" for n in (5, 35))  # there at once
    sources = layout.page_sources()
    last = rendering.entries(sources[-1])  # asked for first, before the pages before it
    assert [h for h, _ in last.headings] == [f"msg-{n}" for n in range(31, 41)]
    rendering.finish()
    links = _Links(DirectoryPages())
    assert [rendering.entries(src).html for src in sources] == [page_entries(layout, i, links).html for i in range(4)]
    assert [entry["location"] for entry in rendering.search_entries()][:2] == ["transcript/#msg-1", "transcript/#msg-2"]
    for n in (5, 35):  # written once their pages are made
        assert (tmp_path / "site" / layout.text_file_src(n)).read_text(encoding="utf-8") == LONG
