import json

import markdown
import pytest
from bs4 import BeautifulSoup

from conftest import attribute, entry_of, found, selected
from msgref.citations import Citation
from session_pages import DirectoryLinks, layout_of
from transcript.schema import Message
from transcripts import MemoryTranscript, read
from transcriptsite.entries import BADGE, CITED_IN, ITEM, MAP, page_entries
from transcriptsite.layout import cited_numbers
from transcriptsite.message_index import PageIndex
from transcriptsite.pages import ENTRIES_SLOT, cited_in_fill, page_markdown


def transcript(*numbers, **fields):
    records = [{"n": n, "speaker": "tool", "provenance": "verbatim", "text": f"text {n}", **fields} for n in numbers]
    return MemoryTranscript(records)


def entries(layout, index, write_text=None):
    return page_entries(layout, index, DirectoryLinks(), write_text)


def to_html(layout, index) -> str:
    page = markdown.markdown(page_markdown(layout, index), extensions=["attr_list"])
    assert page.count(ENTRIES_SLOT) == 1
    return page.replace(ENTRIES_SLOT, entries(layout, index).html)


def render(layout, index) -> BeautifulSoup:
    return BeautifulSoup(to_html(layout, index), "html.parser")


def test_pages_hold_at_most_the_configured_number_of_messages():
    layout = layout_of(transcript(1, 2, 3, 5, 8), per_page=2)
    assert layout.pages == [[1, 2], [3, 5], [8]]
    assert [layout.src_of(n) for n in (1, 5, 8)] == [
        "transcript/index.md", "transcript/page-2.md", "transcript/page-3.md"]
    assert layout.href(5, "essay.md") == "transcript/page-2.md#msg-5"
    assert layout.href(5, "transcript/page-2.md") == "#msg-5"
    assert layout.href(1, "transcript/page-3.md") == "index.md#msg-1"
    assert layout.href(4, "essay.md") is None


def test_each_message_has_its_anchor_its_number_as_its_link_its_speaker_and_text():
    messages = MemoryTranscript([{"n": n, "speaker": "user", "provenance": "verbatim", "text": f"text {n}"}
                                 for n in (1, 2, 3, 5, 8)])
    page = render(layout_of(messages, per_page=2), 1)
    headings = page.find_all("h2")
    assert [(h["id"], h.text) for h in headings] == [("msg-3", "Message 3 — user"), ("msg-5", "Message 5 — user")]
    assert [attribute(selected(h, "a.msg-number"), "href") for h in headings] == ["#msg-3", "#msg-5"]
    assert [entry.text for entry in page.select(".msg-entry")] == ["text 3", "text 5"]
    # Said once, by the pages' introduction: no line under each message.
    assert page.select(".msg-provenance, .msg-neighbours") == []
    # Links are the addresses the pages are served at: page 2 is transcript/page-2/.
    steps = selected(page, ".msg-pager--top .msg-pager__steps")
    assert [(a.text, a["href"]) for a in steps.find_all("a")] == [
        ("« First", "../"), ("‹ Previous", "../"), ("Next ›", "../page-3/"), ("Last »", "../page-3/")]
    assert [a["href"] for a in page.select(".msg-pager__pages a")] == ["../", "../page-3/"]


def test_a_message_is_markdown_whose_html_stays_text():
    text = ("# A heading\n\n<img src=x onerror=alert(1)>\n\n*emphasis* [msg 1] [run](javascript:alert(1)) "
            "[site](https://example.org) ![chart](https://example.org/a.png)\n\n```python\nx = '<b>'\n```")
    messages = MemoryTranscript([{"n": 1, "speaker": "assistant", "provenance": "verbatim", "text": text}])
    entry = selected(render(layout_of(messages), 0), ".msg-entry")
    assert selected(entry, "h3").text == "A heading"  # under the message's own heading
    assert entry.find("img") is None and "<img src=x onerror=alert(1)>" in entry.text
    assert selected(entry, "em").text == "emphasis" and "[msg 1]" in entry.text
    links = [(a.text, a.get("href"), a.get("rel")) for a in entry.find_all("a")]
    assert links == [("site", "https://example.org", ["nofollow", "noopener", "ugc"]),
                     ("Image: chart", "https://example.org/a.png", ["nofollow", "noopener", "ugc"])]
    assert "run" in entry.text  # the link's words stay; its address does not
    assert selected(entry, ".highlight samp").text == "x = '<b>'\n" and entry.find("b") is None


def test_imported_details_are_shown_as_text():
    page = render(layout_of(transcript(1, text="", tool_name="Bash", tool_input={"command": "<b>ls</b>"},
                                              thinking="Let me think", source_id="toolu_1", origin="sidechain",
                                              timestamp="2026-03-01T09:05:00.000Z")), 0)
    assert selected(page, ".msg-tool__name").text == "Bash"
    assert selected(page, ".msg-command").text == "$ <b>ls</b>" and page.find("b") is None
    assert selected(page, ".msg-thinking summary").text == "Thinking"
    assert selected(page, ".msg-thinking p").text == "Let me think"
    assert selected(page, ".msg-origin").text == "sidechain"
    time = selected(page, "time.msg-time")
    assert (time.text, time["datetime"]) == ("1 March 2026, 09:05 UTC", "2026-03-01T09:05:00+00:00")
    assert "toolu_1" not in page.text  # the log's ids stay in the transcript file


def test_cited_in_lists_link_back_to_each_citation():
    made = entries(layout_of(transcript(1, 2)), 0)
    citations = {1: [Citation(1, "a.md", "cite-1", "An excerpt.", "An excerpt, <b>longer</b>.")]}
    fill = cited_in_fill(citations, lambda c: f"../{c.page}#{c.anchor}", lambda src: src.upper())
    filled = BeautifulSoup(made.filled(lambda kind, n: "<p>the map</p>" if kind == MAP else fill(kind, n),
                                       citations), "html.parser")
    [cited_in] = filled.select(".msg-cited-in")  # an uncited message has no list
    assert selected(cited_in, "a")["href"] == "../a.md#cite-1"
    assert selected(cited_in, "li").text == "A.MD: “An excerpt.”"
    assert attribute(found(cited_in.find_parent(class_="msg-item"), "its entry"), "data-msg") == "1"
    # The link's preview: the citing passage, as text, with a link to it (assets/previews.js).
    preview = selected(filled, f"#{attribute(selected(cited_in, 'li a'), 'data-passage')}")
    assert preview.find_parent(class_="msg-cited-in") is None  # beside the list: its links are the citations'
    assert attribute(preview, "popover") == "manual" and attribute(preview, "role") == "dialog"
    assert selected(preview, ".msg-preview__passage").text == "“An excerpt, <b>longer</b>.”" and not preview.find("b")
    assert attribute(selected(preview, ".msg-preview__more a"), "href") == "../a.md#cite-1"
    assert [item["class"] for item in filled.select("[data-msg]")] == [["msg-item", "msg-item--cited"], ["msg-item"]]
    assert [h.text for h in filled.find_all("h2")] == ["Message 1 — tool: Cited", "Message 2 — tool"]
    assert selected(filled, "p").text == "the map"
    assert not filled.select(".msg-map-slot, .msg-badge-slot, [data-msg] > .msg-cited-in[data-msg]")


def test_the_entries_holes_are_filled_in_order():
    made = entries(layout_of(transcript(1, 2, 3), per_page=2), 0)
    assert len(made.texts) == len(made.holes) + 1
    assert made.holes == ((MAP, 0), (ITEM, 1), (BADGE, 1), (CITED_IN, 1), (ITEM, 2), (BADGE, 2), (CITED_IN, 2))
    page = BeautifulSoup(made.html, "html.parser")  # each hole an empty element that names it
    assert len(page.select(".msg-map-slot")) == 1 and len(page.select(".msg-badge-slot")) == 2


# --- Large transcripts: only the cited messages and their context are shown ---


def windowed(numbers, cited, context=1, per_page=500, **options):
    return layout_of(transcript(*numbers), per_page=per_page, cited=cited, context=context, **options)


def test_only_cited_messages_and_their_context_are_shown():
    layout = windowed(range(1, 21), cited={5, 15, 99}, context=1)
    assert layout.pages == [[4, 5, 6, 14, 15, 16]]
    assert layout.href(7, "essay.md") is None and layout.href(15, "essay.md") == "transcript/index.md#msg-15"
    page = render(layout, 0)
    assert [h["id"] for h in page.find_all("h2")] == ["msg-4", "msg-5", "msg-6", "msg-14", "msg-15", "msg-16"]
    assert [p.text for p in page.select(".msg-gap")] == [
        "Not shown: messages 1–3 (3 messages), which the essay does not cite.",
        "Not shown: messages 7–13 (7 messages), which the essay does not cite.",
        "Not shown: messages 17–20 (4 messages), which the essay does not cite.",
    ]
    summary = selected(page, ".msg-summary").text
    assert "20 messages" in summary
    assert "the 2 that the essay cites and the 1 before and after each, 6 in all" in summary


def test_a_window_at_the_edges_and_context_zero():
    assert windowed(range(1, 11), cited={1, 10}, context=2).pages == [[1, 2, 3, 8, 9, 10]]
    assert windowed(range(1, 11), cited={4}, context=0).pages == [[4]]
    assert windowed(range(1, 4), cited={2}, context=1).shows_all


def test_with_nothing_cited_the_page_says_what_is_left_out():
    page = render(windowed(range(1, 6), cited=set()), 0)
    assert page.find("h2") is None
    assert selected(page, ".msg-gap").text.startswith("Not shown: messages 1–5 (5 messages)")


def test_shown_messages_are_paginated_with_links_across_pages():
    layout = windowed(range(1, 31), cited={5, 20}, context=2, per_page=3)
    assert layout.pages == [[3, 4, 5], [6, 7, 18], [19, 20, 21], [22]]
    page = render(layout, 1)
    assert [h["id"] for h in page.find_all("h2")] == ["msg-6", "msg-7", "msg-18"]
    assert len(page.select(".msg-gap")) == 1 and len(render(layout, 3).select(".msg-gap")) == 1


def test_every_message_is_shown_when_context_is_none():
    layout = layout_of(transcript(*range(1, 8)), per_page=3)
    assert layout.shows_all and layout.pages == [[1, 2, 3], [4, 5, 6], [7]]
    assert render(layout, 0).select(".msg-summary, .msg-gap") == []


def test_a_long_message_is_cut_and_linked_to_its_whole_text():
    text = "\n".join(f"line {i} of the output" for i in range(40))
    layout = layout_of(transcript(1, 2, text=text), message_chars=100)
    page = render(layout, 0)
    shown = selected(page, ".msg-output samp").text
    assert text.startswith(shown) and len(shown) <= 100 and shown.endswith("of the output")
    note = selected(page, ".msg-cut")
    assert note.text.startswith(f"Shown: the first {len(shown)} of {len(text)} characters.")
    assert selected(note, "a")["href"] == "messages/msg-1.txt"
    first = found(layout.transcript.get(1), "message 1")
    assert layout.text_file_numbers() == [1, 2] and layout.whole_text(first) == text.encode()
    assert layout.text_file_src(1) == "transcript/messages/msg-1.txt"
    assert layout_of(transcript(1, text=text)).text_file_numbers() == []


def test_search_gets_one_record_a_message_and_never_reads_the_pages_back():
    messages = MemoryTranscript([
        {"n": 1, "speaker": "user", "provenance": "verbatim", "text": "<b>bold</b> & \x1b"},
        {"n": 2, "speaker": "user", "provenance": "verbatim", "text": ""},
        {"n": 3, "speaker": "tool", "provenance": "verbatim", "text": "x" * 300}])
    layout = layout_of(messages, per_page=2, message_chars=100)
    shown = {n: found for index in (0, 1) for n, found in found_in(entries(layout, index).search).items()}
    assert [(n, title) for n, (title, _) in shown.items()] == [
        (1, "Message 1 — user"), (2, "Message 2 — user"), (3, "Message 3 — tool")]
    # Plain text, as the page shows it: the search's script writes it as text, never as HTML.
    assert [shown[n][1] for n in (1, 2)] == ["<b>bold</b> & \u241b", "Empty message: no content"]
    assert shown[3][1] == "x" * 100  # cut as the page cuts it
    assert page_markdown(layout_of(messages), 0).startswith("---\nsearch:\n  exclude: true\n---\n")


def test_a_searched_transcript_has_a_search_box_that_finds_its_index():
    layout = layout_of(transcript(1, 2, 3), per_page=2)
    forms = [selected(render(layout, index), "form.msg-search") for index in (0, 1)]
    assert [form["data-index"] for form in forms] == ["search/", "../search/"]
    assert all(form.has_attr("hidden") for form in forms)  # until the script shows it
    assert selected(forms[0], "label")["for"] == selected(forms[0], "input")["id"]
    assert render(layout_of(transcript(1), search=False), 0).select("form.msg-search") == []


def found_in(part: PageIndex | None) -> dict[int, tuple[str, str]]:
    assert part is not None
    return part.shown()


def test_without_search_the_transcript_has_no_entries():
    assert entries(layout_of(transcript(1), search=False), 0).search is None
    assert len(found_in(entries(layout_of(transcript(1)), 0).search)) == 1


def test_which_messages_get_a_text_file_is_known_before_any_is_read(tmp_path, monkeypatch):
    # Long lines, short texts but two: the text's length decides, as the file's index tells it.
    lines = [{"n": n, "speaker": "tool", "provenance": "verbatim", "text": "x" * (40 if n == 2 else 60),
              "tool_input": {"padding": "p" * 500}} for n in (1, 2, 3)]
    indexed = read(tmp_path, *lines)
    asked: list[int] = []
    get = indexed.get

    def get_and_note(n: int) -> Message | None:
        asked.append(n)
        return get(n)

    monkeypatch.setattr(indexed, "get", get_and_note)
    assert [indexed.size_hint(n) for n in (1, 2, 3)] == [60, 40, 60]
    layout = layout_of(indexed, message_chars=50)
    assert layout.text_file_numbers() == [1, 3] and asked == []
    written: dict[int, bytes] = {}
    entries(layout, 0, write_text=written.__setitem__)
    # Each asked for the pairs of the page's tool calls and outputs, then for the page
    # itself (the second time from the transcript's cache of the messages it last read).
    assert written == {1: b"x" * 60, 3: b"x" * 60} and asked == [1, 2, 3, 1, 2, 3]
    entries(layout, 0)
    assert asked == [1, 2, 3] * 4
    assert layout_of(indexed, message_chars=500).text_file_numbers() == []


def test_cited_numbers_are_found_in_the_pages_markdown():
    assert cited_numbers(["See [msg 3] and [msg 12].", "`[msg 4]`", "[msg5] [MSG 6]"]) == {3, 12, 4}


@pytest.mark.parametrize("count, listed", [(50, 50), (51, 0)])
def test_a_page_of_many_messages_lists_only_its_title_in_its_contents(count, listed):
    layout = layout_of(transcript(*range(1, count + 1)))
    made = entries(layout, 0)
    page = BeautifulSoup(made.html, "html.parser")
    headings = page.find_all("h2", id=True)  # every message keeps its anchor and permanent link
    assert [(h["id"], selected(h, "a.msg-number")["href"]) for h in headings] == [
        (f"msg-{n}", f"#msg-{n}") for n in range(1, count + 1)]
    assert made.contents == tuple((f"msg-{n}", f"Message {n} — tool") for n in range(1, count + 1))[:listed]


def test_a_tool_call_without_text_is_named_once():
    messages = MemoryTranscript([{"n": 1, "speaker": "assistant", "provenance": "verbatim", "text": "",
                                  "tool_name": "Read", "tool_input": {"file": "a.py"}}])
    entry = selected(render(layout_of(messages), 0), ".msg-entry")
    assert entry.get_text().count("Read") == 1 and selected(entry, ".msg-tool__name").text == "Read"
    # Not the input Read takes: shown as any other tool's, folded.
    assert json.loads(selected(entry, ".msg-tool details.msg-fold pre samp").get_text()) == {"file": "a.py"}


def test_a_page_of_several_has_an_id_that_reads_as_its_range():
    layout = layout_of(transcript(*range(1, 8)), per_page=3)
    assert [attribute(selected(render(layout, i), "h1"), "id") for i in range(3)] == [
        "messages-1-3", "messages-4-6", "messages-7-7"]
    assert selected(render(layout, 1), "h1").text == "Transcript, messages 4–6"
    assert selected(render(layout_of(transcript(1, 2)), 0), "h1").text == "Transcript"


def test_a_tools_output_is_labelled_with_its_call_and_the_calls_message_when_not_right_before():
    messages = MemoryTranscript([
        {"n": 1, "speaker": "assistant", "provenance": "verbatim", "text": "", "tool_name": "Bash",
         "tool_input": {"command": "ls"}, "source_id": "call-a"},
        {"n": 2, "speaker": "assistant", "provenance": "verbatim", "text": "", "tool_name": "Read",
         "tool_input": {"file_path": "a.py"}, "source_id": "call-b"},
        {"n": 3, "speaker": "tool", "provenance": "verbatim", "text": "a.py", "source_id": "call-a"},
        {"n": 4, "speaker": "tool", "provenance": "verbatim", "text": "print(1)", "source_id": "call-b"},
        {"n": 5, "speaker": "assistant", "provenance": "verbatim", "text": "", "tool_name": "Bash",
         "tool_input": {"command": "pwd"}, "source_id": "call-c"},
        {"n": 6, "speaker": "tool", "provenance": "verbatim", "text": "/srv", "source_id": "call-c"},
        {"n": 7, "speaker": "tool", "provenance": "verbatim", "text": "?", "source_id": "call-unknown"}])
    page = render(layout_of(messages), 0)
    labels = {n: selected(entry_of(page, n), ".msg-output__label").text for n in (3, 4, 6, 7)}
    assert labels == {3: "Output of Bash (called in message 1)", 4: "Output of Read (called in message 2)",
                      6: "Output of Bash", 7: "Tool output (its call is not shown)"}
    assert [attribute(item, "data-msg") for item in page.select(".msg-item:has(> .msg-entry--work)")] == [
        str(n) for n in range(1, 8)]
