"""A real session's whole transcript page, as scripts/perf/transcript_lighthouse.py builds it
for Lighthouse: every message shown, and headings that never skip a level, so that a
reader who walks the page by heading meets each message's own headings under it."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest
from bs4 import BeautifulSoup

from conftest import selected
from perf.transcript_lighthouse import DEFAULT_LOG, page_weight, whole_session_site

HEADINGS = ["h1", "h2", "h3", "h4", "h5", "h6"]


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> tuple[Path, str]:
    return whole_session_site(DEFAULT_LOG, tmp_path_factory.mktemp("whole-session"))


@pytest.fixture(scope="module")
def page(built) -> BeautifulSoup:
    site, path = built
    return BeautifulSoup((site / path / "index.html").read_text(encoding="utf-8"), "html.parser")


def test_the_page_shows_every_message_of_the_log(built, page):
    site, _ = built
    with open(site.parent / "transcript.jsonl", encoding="utf-8") as transcript:
        messages = sum(1 for _ in transcript)
    assert messages > 200  # hundreds of messages on one page
    assert len(page.select(".msg-item")) == messages
    assert all(heading.name == "h2" for heading in page.select(".msg-head > [id^=msg-]"))


def test_no_heading_is_more_than_one_level_under_the_one_before(page):
    article = selected(page, "article")
    levels = [int(heading.name[1]) for heading in article.find_all(HEADINGS)]
    assert levels.count(1) == 1 and levels[0] == 1
    skips = [(before, after) for before, after in itertools.pairwise(levels) if after > before + 1]
    assert skips == []
    # The messages' own headings are there, under theirs.
    assert {3, 4} <= set(levels)


def test_the_pages_weight_is_the_html_written_and_gzipped(built):
    site, path = built
    written, gzipped = page_weight(site, path)
    assert written == (site / path / "index.html").stat().st_size and 0 < gzipped < written / 3
