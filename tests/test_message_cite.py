"""How a transcript message is cited: each entry's one "Cite" button, on its heading's
line but outside its heading, and one citation panel a page, written once as a template
that assets/message-cite.js makes out for the message asked for; none of it searched."""

import re

from bs4 import BeautifulSoup

from conftest import attribute, built_cleanly, copy_project, found, selected, soup
from message_index_reader import BuiltIndex
from sitebuild.settings import TranscriptSettings
from transcripts import MemoryTranscript
from transcriptsite.entries import page_entries
from transcriptsite.layout import TranscriptLayout

HOLE = "987654321987654321"  # the number the template holds for the message's


class Links:
    def url(self, src: str) -> str:
        return src

    def href(self, target: str, source: str) -> str:
        return target


def page_of(count: int, first: int = 5400):
    records = [{"n": n, "speaker": "tool", "provenance": "verbatim", "text": f"text {n}"}
               for n in range(first, first + count)]
    layout = TranscriptLayout(MemoryTranscript(records), TranscriptSettings(messages_per_page=500, context=None), ())
    return page_entries(layout, 0, Links())


def check_buttons(page: BeautifulSoup) -> int:
    """Each entry's head holds its heading, then one "Cite" button; the heading holds none.
    Returns how many entries there are."""
    items = page.select(".msg-item")
    for item in items:
        n = attribute(item, "data-msg")
        heading = selected(item, ".msg-head > h2")
        buttons = item.select("button")
        assert attribute(heading, "id") == f"msg-{n}"
        assert [b.get_text() for b in buttons] == ["Cite"], n
        assert found(buttons[0].parent, "the button's parent").get("class") == ["msg-head"]
        assert heading.find("button") is None and not re.search(r"\bCite\b", heading.get_text()), n
    return len(items)


def test_each_entry_has_one_cite_button():
    page = page_of(500)
    assert page.search is not None and len(page.search.shown()) == 500
    assert check_buttons(BeautifulSoup(page.html, "html.parser")) == 500


def test_a_page_of_500_messages_is_light():
    html = page_of(500, first=99_500).filled(lambda kind, n: "", ())  # five-digit numbers, none cited
    per_message = len(html.encode()) / 500
    assert per_message < 470, per_message  # its entry's frame, its head and its short text


def test_search_entries_hold_no_button_label():
    search = page_of(20).search
    assert search is not None
    for title, text in search.shown().values():
        assert "Cite" not in title and "Cite" not in text, title


def test_the_built_transcript_has_one_panel_for_every_message_and_none_in_the_search(tmp_path):
    site = built_cleanly(copy_project(tmp_path / "project"))
    page = soup(site / "transcript/index.html")
    assert check_buttons(page) == len(page.select("h2[id^=msg-]")) == 7
    [template] = page.select("template#msg-cite-template")
    assert attribute(template, "data-number") == HOLE
    panel = BeautifulSoup(template.decode_contents(), "html.parser")
    assert selected(panel, ".msg-cite-panel__title").text == "Cite this message"
    assert selected(panel, "button.msg-tag").text == f"Copy [msg {HOLE}]"
    assert [dt.text for dt in panel.select("dt")] == ["APA", "MLA", "Chicago", "BibTeX", "biblatex"]
    # Each style named on its entry, so that a page shows only the reader's choice (cite-style.js).
    assert [attribute(dd, "data-style") for dd in panel.select("dd")] == [dt.text for dt in panel.select("dt")]
    address = selected(panel, ".cite-address a")
    assert attribute(address, "href").endswith(f"/transcript/#msg-{HOLE}")
    assert HOLE in selected(panel, "dd .citation").text
    index = BuiltIndex(site)
    assert len(index.messages()) == 7 and not index.search("copy msg") and not index.search("cite")
    assert not any("Copy" in title + text for _, title, text in index.messages().values())
    assert "Copy [msg" not in (site / "search/search_index.json").read_text(encoding="utf-8")
