"""The button of each transcript message that copies its tag `[msg N]` for the essay's text
(assets/copy.js): one an entry, after its heading, left out of the search, and small
enough for pages of hundreds of messages."""

import re

from bs4 import BeautifulSoup

from conftest import attribute, built_cleanly, copy_project, soup
from message_index_reader import BuiltIndex
from msgref.transcript_entries import Permalink, page_entries
from msgref.transcript_layout import TranscriptLayout
from sitebuild.settings import TranscriptSettings
from transcripts import MemoryTranscript

BUTTON = re.compile(r'<button class="msg-tag"[^>]*>[^<]*</button>')
MAX_BYTES = 60  # a button's markup, at most


class Links:
    def url(self, src: str) -> str:
        return src

    def href(self, target: str, source: str) -> str:
        return target


def page_of(count: int, first: int = 5400):
    records = [{"n": n, "speaker": "tool", "provenance": "verbatim", "text": f"text {n}"}
               for n in range(first, first + count)]
    layout = TranscriptLayout(MemoryTranscript(records), TranscriptSettings(messages_per_page=500, context=None), ())
    return page_entries(layout, 0, Links(), Permalink())


def check_buttons(page: BeautifulSoup) -> int:
    """Each entry holds one button, right after its heading, naming the entry's tag; the
    heading holds none. Returns how many entries there are."""
    items = page.select(".msg-item")
    for item in items:
        n = attribute(item, "data-msg")
        heading = item.find("h2")
        buttons = item.select("button.msg-tag")
        assert heading is not None and attribute(heading, "id") == f"msg-{n}"
        assert len(buttons) == 1, (n, buttons)
        assert buttons[0].get_text() == f"Copy [msg {n}]"
        assert heading.find_next_sibling() is buttons[0], n
        assert heading.find("button") is None and "Copy" not in heading.get_text(), n
    return len(items)


def test_each_entry_has_one_button_with_its_tag():
    page = page_of(500)
    assert page.search is not None and len(page.search.shown()) == 500
    assert check_buttons(BeautifulSoup(page.html, "html.parser")) == 500


def test_a_page_of_500_messages_grows_by_at_most_60_bytes_a_message():
    html = page_of(500, first=99_500).html  # five-digit numbers
    buttons = BUTTON.findall(html)
    assert len(buttons) == 500
    assert max(len(b.encode()) for b in buttons) <= MAX_BYTES, buttons[-1]


def test_search_entries_hold_no_button_label():
    search = page_of(20).search
    assert search is not None
    for title, text in search.shown().values():
        assert "Copy" not in title and "Copy" not in text, title


def test_the_built_transcript_has_a_button_an_entry_and_none_in_the_search(tmp_path):
    site = built_cleanly(copy_project(tmp_path / "project"))
    page = soup(site / "transcript/index.html")
    assert check_buttons(page) == len(page.select("h2[id^=msg-]")) == 7
    index = BuiltIndex(site)
    assert len(index.messages()) == 7 and not index.search("copy msg")
    assert not any("Copy" in title + text for _, title, text in index.messages().values())
    assert "Copy [msg" not in (site / "search/search_index.json").read_text(encoding="utf-8")
