import json

import markdown
from bs4 import BeautifulSoup

from msgref.citations import Citation
from msgref.transcript import parse_transcript
from msgref.transcript_pages import TranscriptEntries, TranscriptLayout, fill_cited_in, page_markdown


def transcript(*numbers, **fields):
    records = [{"n": n, "speaker": "tool", "provenance": "verbatim", "text": f"text {n}", **fields} for n in numbers]
    return parse_transcript([json.dumps(r).encode() for r in records], "t.jsonl")


def to_html(layout, index) -> str:
    return markdown.markdown(page_markdown(layout, index), extensions=["attr_list", TranscriptEntries(lambda: layout)])


def render(layout, index) -> BeautifulSoup:
    return BeautifulSoup(to_html(layout, index), "html.parser")


def test_pages_hold_at_most_the_configured_number_of_messages():
    layout = TranscriptLayout(transcript(1, 2, 3, 5, 8), per_page=2)
    assert layout.pages == [[1, 2], [3, 5], [8]]
    assert [layout.src_of(n) for n in (1, 5, 8)] == ["transcript/index.md", "transcript/page-2.md", "transcript/page-3.md"]
    assert layout.href(5, "essay.md") == "transcript/page-2.md#msg-5"
    assert layout.href(5, "transcript/page-2.md") == "#msg-5"
    assert layout.href(1, "transcript/page-3.md") == "index.md#msg-1"
    assert layout.href(4, "essay.md") is None


def test_each_message_has_its_anchor_speaker_text_provenance_and_neighbours():
    page = render(TranscriptLayout(transcript(1, 2, 3, 5, 8), per_page=2), 1)
    headings = page.find_all("h2")
    assert [(h["id"], h.text) for h in headings] == [("msg-3", "Message 3 — tool"), ("msg-5", "Message 5 — tool")]
    assert page.select_one(".msg-body--verbatim").text == "text 3"
    assert page.select_one(".msg-provenance").text == "Quoted verbatim."
    neighbours = [[a["href"] for a in p.find_all("a")] for p in page.select(".msg-neighbours")]
    assert neighbours == [["index.md#msg-2", "#msg-5"], ["#msg-3", "page-3.md#msg-8"]]
    assert [a["href"] for a in page.select(".msg-pager a")] == ["index.md", "page-3.md"]


def test_text_that_looks_like_markdown_or_html_stays_text():
    text = "# not a heading\n\n    <img src=x onerror=alert(1)>\n\n*not emphasis* [msg 1]"
    page = render(TranscriptLayout(transcript(1, text=text)), 0)
    body = page.select_one(".msg-body__text")
    assert body.text == text
    assert page.find("img") is None and page.find("em") is None and len(page.find_all("h1")) == 1


def test_imported_details_are_shown_as_text():
    page = render(TranscriptLayout(transcript(1, text="", tool_name="Bash", tool_input={"command": "<b>ls</b>"},
                                              thinking="Let me think", source_id="toolu_1", origin="sidechain")), 0)
    assert page.select_one(".msg-body--tool").text == "Tool call: Bash"
    assert '"command": "<b>ls</b>"' in page.select_one(".msg-tool code").text
    assert page.select_one(".msg-thinking summary").text.startswith("Reasoning")
    assert page.select_one(".msg-meta").text == "Source id: toolu_1 · Origin: sidechain"


def test_cited_in_lists_link_back_to_each_citation():
    layout = TranscriptLayout(transcript(1, 2))
    html = to_html(layout, 0)
    citations = {1: [Citation(1, "a.md", "cite-1", "An excerpt.")]}
    filled = BeautifulSoup(
        fill_cited_in(html, lambda n: citations.get(n, []), lambda c: f"../{c.page}#{c.anchor}", lambda src: src.upper()),
        "html.parser",
    )
    first, second = filled.select(".msg-cited-in")
    assert first.a["href"] == "../a.md#cite-1" and first.li.text == "A.MD: “An excerpt.”"
    assert second.text == "Not cited in the essay."
