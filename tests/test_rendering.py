"""The transcript's pages and whole texts, as the build makes them (in its own process
here; `test_whole_session_build` compares them with a worker's)."""

from __future__ import annotations

import dataclasses
import itertools
import logging
import os
from pathlib import Path
from typing import Any

import pytest
from mkdocs.utils import clean_directory

from message_index_reader import data_of
from sitebuild.between_builds import LastMade, SetAside
from sitebuild.rendering import TranscriptRendering, _Links, _Made, _made_from
from sitebuild.settings import TranscriptSettings
from transcripts import MemoryTranscript
from transcriptsite.entries import page_entries
from transcriptsite.layout import LAYOUT_SETTINGS, TranscriptLayout
from transcriptsite.message_index import MessageIndexWriter

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


def rendering_of(layout: TranscriptLayout, texts: dict[int, str], kept: LastMade[_Made],
                 kept_texts: SetAside | None = None, index: MessageIndexWriter | None = None,
                 kept_index: SetAside | None = None) -> TranscriptRendering:
    return TranscriptRendering(layout, DirectoryPages(), texts, layout.transcript, False,
                               logging.getLogger("test"), kept, kept_texts or SetAside(), index,
                               kept_index or SetAside())


def test_each_page_and_whole_text_is_made_whichever_page_is_asked_for_first(tmp_path):
    layout = layout_of(40, 10)  # four pages
    texts = {n: str(tmp_path / "site" / layout.text_file_src(n)) for n in layout.text_file_numbers()}
    index = tmp_path / "site" / "transcript" / "search"
    rendering = rendering_of(layout, texts, LastMade(), index=MessageIndexWriter(str(index)))
    assert all((tmp_path / "site" / layout.text_file_src(n)).read_bytes() == b"" for n in (5, 35))  # there at once
    sources = layout.page_sources()
    last = rendering.entries(sources[-1])  # asked for first, before the pages before it
    assert last.search is not None and list(last.search.shown()) == list(range(31, 41))
    rendering.finish()
    links = _Links(DirectoryPages())
    assert [rendering.entries(src).html for src in sources] == [page_entries(layout, i, links).html for i in range(4)]
    # Each page in the search index once, in order, whichever was made first.
    assert data_of(index / "index.js")["pages"] == [
        [1, "page-0.js", "../"], [11, "page-1.js", "../page-2/"], [21, "page-2.js", "../page-3/"],
        [31, "page-3.js", "../page-4/"]]
    deltas = dict(data_of(index / "74.js"))["text"]  # "t…" of a small index: "text 1", … but 5 and 35
    assert list(itertools.accumulate(deltas)) == [n for n in range(1, 41) if n not in (5, 35)]
    for n in (5, 35):  # written once their pages are made
        assert (tmp_path / "site" / layout.text_file_src(n)).read_text(encoding="utf-8") == LONG


def test_a_build_that_would_make_the_same_entries_takes_those_of_the_last(tmp_path: Path) -> None:
    layout, kept = layout_of(40, 10), LastMade[_Made]()
    texts = {n: str(tmp_path / layout.text_file_src(n)) for n in layout.text_file_numbers()}
    first = rendering_of(layout, texts, kept)
    first.finish()
    made = [first.entries(src) for src in layout.page_sources()]
    for path in texts.values():
        Path(path).unlink()  # as the generator cleans the site's folder before a build

    def relaid(per_page: int) -> TranscriptLayout:
        """The same transcript, laid out again by a later build."""
        return TranscriptLayout(layout.transcript, TranscriptSettings(messages_per_page=per_page, context=None), ())

    again = rendering_of(relaid(10), texts, kept)
    assert all(again.entries(src) is entries for src, entries in zip(layout.page_sources(), made, strict=True))
    assert all(Path(path).read_text(encoding="utf-8") == LONG for path in texts.values())
    again.finish()

    paged = rendering_of(relaid(20), texts, kept)  # other pages: made anew
    first_page = paged.entries("transcript/index.md").search
    assert first_page is not None and list(first_page.shown())[-1] == 20
    paged.finish()
    other = rendering_of(layout_of(40, 20), texts, kept)  # another transcript: made anew
    assert other.entries("transcript/index.md") is not paged.entries("transcript/index.md")
    other.finish()


@pytest.mark.parametrize("name, value", [("folder", "log"), ("messages_per_page", 7), ("message_chars", 100),
                                         ("search", False), ("context", 2)])
def test_every_setting_of_the_pages_tells_kept_entries_from_new_ones(name: str, value: object) -> None:
    assert name in LAYOUT_SETTINGS and len(LAYOUT_SETTINGS) == 5  # a new setting: add it here
    layout = layout_of(40, 10)
    settings = TranscriptSettings(messages_per_page=10, context=None)
    change: dict[str, Any] = {name: value}
    changed = TranscriptLayout(layout.transcript, dataclasses.replace(settings, **change), [3])
    links = _Links(DirectoryPages())
    assert _made_from(changed, links) != _made_from(TranscriptLayout(layout.transcript, settings, [3]), links)


def test_the_whole_texts_set_aside_before_the_site_is_emptied_are_taken_back(tmp_path: Path) -> None:
    layout, kept, kept_texts = layout_of(40, 10), LastMade[_Made](), SetAside()
    site = tmp_path / "site"
    texts = {n: str(site / layout.text_file_src(n)) for n in layout.text_file_numbers()}
    rendering_of(layout, texts, kept, kept_texts).finish()
    written = {n: os.stat(path).st_ino for n, path in texts.items()}
    folder = site / "transcript" / "messages"
    kept_texts.set_aside(str(folder), str(site))
    clean_directory(str(site))  # as MkDocs empties the site's folder: hidden entries stay
    assert not folder.exists() and len(list(site.glob(".essay-site-set-aside-*"))) == 1

    again = TranscriptLayout(layout.transcript, TranscriptSettings(messages_per_page=10, context=None), ())
    rendering_of(again, texts, kept, kept_texts).finish()
    assert {n: os.stat(path).st_ino for n, path in texts.items()} == written  # moved back, not written again
    assert all(Path(path).read_text(encoding="utf-8") == LONG for path in texts.values())
    assert not list(site.glob(".essay-site-set-aside-*"))

    # A build that makes its pages anew removes what was set aside, writes the texts itself,
    # and keeps nothing of the last build until it has made every page.
    kept_texts.set_aside(str(folder), str(site))
    anew = rendering_of(layout_of(40, 20), texts, kept, kept_texts)
    assert not list(site.glob(".essay-site-set-aside-*")) and not kept.holds_any()
    anew.finish()
    assert kept.holds_any()
    assert all(Path(path).read_text(encoding="utf-8") == LONG for path in texts.values())


def test_a_build_no_later_build_follows_lets_go_of_each_page_once_written(tmp_path: Path) -> None:
    layout, kept = layout_of(40, 10), LastMade[_Made]()
    kept.wanted = False  # a single `mkdocs build`, not `serve`
    texts = {n: str(tmp_path / layout.text_file_src(n)) for n in layout.text_file_numbers()}
    rendering = rendering_of(layout, texts, kept)
    first, second = layout.page_sources()[:2]
    whole = rendering.entries(first)
    rendering.written(first)
    light = rendering.entries(first)
    assert light.html == "" and whole.html.count('id="msg-') == 10
    assert (light.contents, light.search) == (whole.contents, None)  # indexed once taken
    assert rendering.entries(second).html.count('id="msg-') == 10  # not written yet: whole
    rendering.finish()
    assert not kept.holds_any()


def test_the_search_index_set_aside_is_taken_back_with_the_pages(tmp_path: Path) -> None:
    layout, kept, kept_index = layout_of(40, 10), LastMade[_Made](), SetAside()
    site = tmp_path / "site"
    folder = site / "transcript" / "search"
    texts = {n: str(site / layout.text_file_src(n)) for n in layout.text_file_numbers()}
    rendering_of(layout, texts, kept, index=MessageIndexWriter(str(folder)), kept_index=kept_index).finish()
    written = {path.name: path.stat().st_ino for path in folder.iterdir()}
    assert "index.js" in written
    kept_index.set_aside(str(folder), str(site))
    clean_directory(str(site))
    again = TranscriptLayout(layout.transcript, TranscriptSettings(messages_per_page=10, context=None), ())
    rendering_of(again, texts, kept, index=MessageIndexWriter(str(folder)), kept_index=kept_index).finish()
    assert {path.name: path.stat().st_ino for path in folder.iterdir()} == written  # moved back, not written again
    assert not list(site.glob(".essay-site-set-aside-*"))
