"""A tool's output that the log marks as an error is labelled "Error", in words and in colour."""

from __future__ import annotations

from conftest import attribute, entry_of, message_in, selected
from session_pages import error_call_ids, imported, layout_of, page, records
from transcripts import MemoryTranscript

IDE_LOG = "claude-code-log_ide_wrappers_errors.jsonl"


def test_an_error_output_is_labelled_before_its_output_and_others_are_not():
    messages = MemoryTranscript(records(
        {"speaker": "assistant", "tool_name": "Bash", "tool_input": {"command": "false"}, "source_id": "a"},
        {"speaker": "tool", "text": "Exit code 1", "source_id": "a", "is_error": True},
        {"speaker": "tool", "text": "fine", "source_id": "b", "is_error": False},
        {"speaker": "tool", "text": "fine too", "source_id": "c"}))
    soup = page(layout_of(messages))
    error = entry_of(soup, 2)
    label = selected(error, ".msg-error")
    assert label.get_text() == "Error"
    assert label.find_next_sibling(class_="msg-output__label") is not None  # above the output's own label
    assert [entry_of(soup, n).select(".msg-error") for n in (1, 3, 4)] == [[], [], []]


def test_the_real_logs_errors_and_rejections_are_each_labelled(tmp_path):
    transcript = imported(tmp_path, IDE_LOG, errors_from_log=True)
    soup = page(layout_of(transcript))
    failed = error_call_ids(IDE_LOG)
    assert len(failed) == 7
    outputs = (message_in(transcript, n) for n in transcript.numbers)
    errors = [m.n for m in outputs if m.speaker == "tool" and m.source_id in failed]
    labelled = [int(attribute(item, "data-msg")) for item in soup.select(".msg-item")
                if item.select(".msg-entry .msg-error")]
    assert labelled == errors and len(errors) == 7
    rejected = [n for n in errors if "doesn't want to proceed" in entry_of(soup, n).get_text()]
    assert len(rejected) == 2
