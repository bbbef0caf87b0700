"""A hook's output (a speaker-"tool" message with `hook`), folded under its name where it
stands, marked when it is an error, and never taken for the output of a call."""

from __future__ import annotations

from conftest import entry_of, selected
from session_pages import layout_of, page, records
from transcripts import MemoryTranscript


def test_a_hooks_output_is_folded_under_its_name_and_an_error_is_marked():
    messages = MemoryTranscript(records(
        {"speaker": "assistant", "tool_name": "Edit", "tool_input": {}, "source_id": "toolu_x"},
        {"speaker": "tool", "text": "ruff check <failed>", "hook": "PostToolUse:Edit", "is_error": True,
         "source_id": "toolu_x"},
        {"speaker": "tool", "text": "edited", "source_id": "toolu_x"},
        {"speaker": "tool", "text": "prompt registered\n", "hook": "UserPromptSubmit"}))
    soup = page(layout_of(messages))
    fold = selected(entry_of(soup, 2), "details.msg-hook")
    assert fold.get("open") is None
    assert selected(fold, "summary").get_text() == "Hook output: PostToolUse:Edit"
    assert selected(fold, "pre samp").get_text() == "ruff check <failed>"
    assert selected(entry_of(soup, 2), ".msg-error").get_text() == "Error"
    assert selected(entry_of(soup, 4), "details.msg-hook summary").get_text() == "Hook output: UserPromptSubmit"
    assert entry_of(soup, 4).select(".msg-error") == []
    # The call's result is the tool's own output, not the hook's that came between.
    assert selected(entry_of(soup, 1), ".msg-call-result").get_text() == "Result: message 3"
    assert "msg-entry--work" in entry_of(soup, 2)["class"]
