"""The transcript's pages made by a child process and by the build itself: each page
once, by whichever takes it first, and the same pages either way."""

import json
import logging
import os
import time
from types import SimpleNamespace

import pytest

from msgref import background
from msgref.transcript import parse_transcript
from msgref.transcript_pages import TranscriptLayout
from sitebuild import rendering
from sitebuild.settings import TranscriptSettings

LONG = "a long tool output\n" * 400  # past message_chars: it gets a file of its whole text


def layout_of(count: int, per_page: int) -> TranscriptLayout:
    records = [{"n": n, "speaker": "tool", "provenance": "verbatim", "text": LONG if n in (5, 35) else f"text {n}"}
               for n in range(1, count + 1)]
    transcript = parse_transcript([json.dumps(r).encode() for r in records], "t.jsonl")
    return TranscriptLayout(transcript, TranscriptSettings(messages_per_page=per_page, context=None), ())


class DirectoryPages:
    def url(self, src: str) -> str | None:
        stem = src.removesuffix(".md")
        return stem.removesuffix("index") if stem.endswith("index") else stem + "/"


def build_of(layout: TranscriptLayout, site: str) -> SimpleNamespace:
    return SimpleNamespace(layout=layout, site_dir=site, settings=SimpleNamespace(parse_in_child=True),
                           log=logging.getLogger("test"), fatal=RuntimeError)


@pytest.fixture
def in_child(monkeypatch):
    monkeypatch.setattr(background, "can_fork", lambda: True)
    monkeypatch.setattr(rendering, "IN_CHILD_MIN_MESSAGES", 1)


def test_the_build_makes_the_last_pages_while_the_child_is_busy(tmp_path, monkeypatch, in_child):
    parent, made_here = os.getpid(), []
    real = rendering.page_entries

    def slow_in_the_child(layout, index, *args):
        if os.getpid() != parent:
            time.sleep(0.5)
        else:
            made_here.append(index)
        return real(layout, index, *args)

    monkeypatch.setattr(rendering, "page_entries", slow_in_the_child)
    layout = layout_of(40, 10)  # four pages
    made = rendering.TranscriptRendering(build_of(layout, str(tmp_path / "site")))
    made.start(DirectoryPages(), None)
    time.sleep(0.2)  # the child has begun the first page
    pages = [made.entries(src) for src in layout.page_sources()]
    made.finish()
    assert made_here == [3, 2, 1]  # from the last, while the child made the first
    links = rendering._Links(DirectoryPages())
    assert [page.html for page in pages] == [real(layout, i, links).html for i in range(4)]
    for n in (5, 35):  # whole texts, written by the child and by the build
        assert (tmp_path / "site" / layout.text_file_src(n)).read_text(encoding="utf-8") == LONG


def test_the_last_page_asked_for_first_comes_with_the_others(tmp_path, in_child):
    layout = layout_of(30, 10)
    made = rendering.TranscriptRendering(build_of(layout, str(tmp_path / "site")))
    made.start(DirectoryPages(), None)
    last = made.entries(layout.page_sources()[-1])  # asked for first, before the pages before it
    assert [h for h, _ in last.headings] == [f"msg-{n}" for n in range(21, 31)]
    assert [len(made.entries(src).headings) for src in layout.page_sources()] == [10, 10, 10]
    made.finish()
