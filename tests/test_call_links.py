"""Each tool call linked to its output and each output to its call, on whatever page each
stands (transcriptsite.call_pairs, msgview.conversation)."""

from __future__ import annotations

import pytest

from conftest import attribute, entry_of, message_in, selected
from session_pages import imported, layout_of, page, records
from transcript.schema import Message
from transcripts import MemoryTranscript
from transcriptsite import call_pairs as pairs_module
from transcriptsite.call_pairs import call_pairs


def call(n: int, call_id: str, tool: str = "Bash") -> Message:
    return Message(n=n, speaker="assistant", provenance="verbatim", text="", tool_name=tool, tool_input={},
                   source_id=call_id)


def output(n: int, call_id: str) -> Message:
    return Message(n=n, speaker="tool", provenance="verbatim", text="ok", source_id=call_id)


def test_calls_made_together_are_paired_with_their_outputs_and_an_unknown_output_with_none():
    pairs = call_pairs([call(1, "a"), call(2, "b"), output(3, "b"), output(4, "a"), output(5, "z"), call(6, "c"),
                        Message(n=7, speaker="user", provenance="verbatim", text="hi", source_id="c")])
    assert [pairs.output_of(n) for n in range(1, 8)] == [4, 3, None, None, None, None, None]
    assert [pairs.call_of(n) for n in range(1, 8)] == [None, None, 2, 1, None, None, None]
    assert len(pairs) == 2


def test_only_the_latest_calls_wait_for_their_output(monkeypatch):
    monkeypatch.setattr(pairs_module, "WAITING_CALLS", 2)
    pairs = call_pairs([call(1, "a"), call(2, "b"), call(3, "c"), output(4, "a"), output(5, "c")])
    assert (pairs.call_of(4), pairs.call_of(5)) == (None, 3)


def bash_session() -> MemoryTranscript:
    return MemoryTranscript(records(
        {"speaker": "user", "text": "list it"},
        {"speaker": "assistant", "tool_name": "Bash", "tool_input": {"command": "ls"}, "source_id": "a"},
        {"speaker": "tool", "text": "a.py", "source_id": "a"},
        {"speaker": "assistant", "tool_name": "Read", "tool_input": {"file_path": "a.py"}, "source_id": "b"},
        {"speaker": "assistant", "tool_name": "Read", "tool_input": {"file_path": "b.py"}, "source_id": "c"},
        {"speaker": "tool", "text": "1", "source_id": "b"},
        {"speaker": "tool", "text": "2", "source_id": "c"}))


def test_a_call_links_to_its_result_and_a_result_to_its_call_across_pages():
    layout = layout_of(bash_session(), per_page=2)  # pages: 1-2, 3-4, 5-6, 7
    first, second, third, last = (page(layout, i) for i in range(4))
    result = selected(entry_of(first, 2), ".msg-call-result")
    assert result.get_text() == "Result: message 3"
    assert attribute(selected(result, "a"), "href") == "page-2/#msg-3"
    # Right after its call, an output is named by its tool, and its call's link is the one above it.
    assert selected(entry_of(second, 3), ".msg-output__label").get_text() == "Output of Bash (called in message 2)"
    assert attribute(selected(entry_of(second, 3), "a.msg-call-link"), "href") == "../#msg-2"
    assert attribute(selected(entry_of(second, 4), ".msg-call-result a"), "href") == "../page-3/#msg-6"
    assert selected(entry_of(third, 6), ".msg-output__label").get_text() == "Output of Read (called in message 4)"
    label = selected(entry_of(last, 7), ".msg-output__label")
    assert label.get_text() == "Output of Read (called in message 5)"
    assert attribute(selected(label, "a"), "href") == "../page-3/#msg-5"


def test_on_one_page_the_links_are_to_the_entries_and_an_output_right_after_its_call_needs_none():
    soup = page(layout_of(bash_session()))
    assert entry_of(soup, 2).select(".msg-call-result") == []  # its result, 3, stands right under it
    assert entry_of(soup, 3).select("a.msg-call-link") == []
    assert attribute(selected(entry_of(soup, 6), "a.msg-call-link"), "href") == "#msg-4"
    assert attribute(selected(entry_of(soup, 5), ".msg-call-result a"), "href") == "#msg-7"


@pytest.mark.parametrize("cited, unshown", [(7, 5), (2, 3)])
def test_a_call_or_output_not_shown_is_said_so_or_left_out_with_no_link(cited, unshown):
    soup = page(layout_of(bash_session(), cited=[cited], context=0))
    entry = entry_of(soup, cited)
    assert entry.select(f'a[href$="#msg-{unshown}"]') == []
    if cited == 7:
        assert selected(entry, ".msg-output__label").get_text() == "Tool output (its call is not shown)"
    else:
        assert entry.select(".msg-call-result") == []


def test_every_call_and_output_of_a_real_session_links_to_the_other(tmp_path):
    transcript = imported(tmp_path, "claude-code-viewer_sidechain_todowrite_multiedit.jsonl")
    layout = layout_of(transcript, per_page=10)
    pages = [page(layout, i) for i in range(len(layout.pages))]
    shown = {int(attribute(item, "data-msg")): soup for soup in pages for item in soup.select(".msg-item")}
    calls = {m.source_id: m.n for m in (message_in(transcript, n) for n in transcript.numbers) if m.tool_name}
    linked = 0
    for n in transcript.numbers:
        message = message_in(transcript, n)
        if message.speaker != "tool" or message.source_id not in calls:
            continue
        call_n = calls[message.source_id]
        right_under = call_n == n - 1 and shown[call_n] is shown[n]
        if right_under:  # an output right under its call, on its page, needs no link either way
            assert entry_of(shown[call_n], call_n).select(".msg-call-result") == []
        else:
            result_link = selected(entry_of(shown[call_n], call_n), ".msg-call-result a")
            assert attribute(result_link, "href").endswith(f"#msg-{n}") and result_link.get_text() == f"message {n}"
        if call_n != n - 1:
            assert attribute(selected(entry_of(shown[n], n), "a.msg-call-link"), "href").endswith(f"#msg-{call_n}")
        linked += 1
    assert linked >= 20
