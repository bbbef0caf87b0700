"""What the transcript's search reads of a message (msgview.search_text): all its entry
shows, its tool call's input and its thinking too, while its result shows its heading and
the start of its text as before; on a transcript of the tests' own and on real logs."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from bs4 import BeautifulSoup

from author_project import LOGS, ROOT
from message_index_reader import BuiltIndex
from msgview.search_text import searchable_text
from sitebuild.settings import TranscriptSettings
from transcript.reader import load_transcript
from transcripts import MemoryTranscript
from transcriptsite import entries
from transcriptsite.entries import page_entries
from transcriptsite.layout import TranscriptLayout
from transcriptsite.message_index import MessageIndexWriter, words

THINKING = "The zebrafish server needs a moment before the benchmark starts."
RECORDS = [
    {"n": 1, "speaker": "user", "provenance": "verbatim", "text": "Start the server, then measure it."},
    {"n": 2, "speaker": "assistant", "provenance": "verbatim", "text": "", "thinking": THINKING},
    {"n": 3, "speaker": "assistant", "provenance": "verbatim", "text": "", "tool_name": "Bash",
     "tool_input": {"command": "sleep 2 && curl -s localhost:8000/health", "description": "Wait for the server",
                    "timeout": 9000}},
    {"n": 4, "speaker": "tool", "provenance": "verbatim", "text": "ok"},
    {"n": 5, "speaker": "assistant", "provenance": "verbatim", "text": "", "tool_name": "MultiEdit",
     "tool_input": {"file_path": "/srv/app/quokka.py",
                    "edits": [{"old_string": "retries = 1", "new_string": "retries = wombat_limit"}]}},
    {"n": 6, "speaker": "assistant", "provenance": "described", "text": "The assistant read a file.",
     "tool_name": "Read", "tool_input": {"file_path": "/srv/app/platypus.py"}},
]


class Links:
    def url(self, src: str) -> str:
        return src

    def href(self, target: str, source: str) -> str:
        return target


def layout_of(transcript) -> TranscriptLayout:
    return TranscriptLayout(transcript, TranscriptSettings(messages_per_page=20, context=None), ())


def indexed(folder: Path, layout: TranscriptLayout) -> BuiltIndex:
    """The search index of `layout`'s pages, as the build writes it, in the site `folder`."""
    writer = MessageIndexWriter(str(folder / "transcript" / "search"))
    for index in range(len(layout.pages)):
        url = "../" if index == 0 else f"../page-{index + 1}/"
        writer.add_page(index, url, page_entries(layout, index, Links()).search)
    writer.finish()
    return BuiltIndex(folder)


def shown_with(layout: TranscriptLayout, word: str) -> list[int]:
    """The messages whose entries, read as text (their folds' insides too), hold a word
    starting with `word`: what a reader finds on the pages."""
    found = []
    for index in range(len(layout.pages)):
        page = BeautifulSoup(page_entries(layout, index, Links()).html, "html.parser")
        for item in page.select(".msg-item"):
            for furniture in item.select(".msg-head"):  # the heading and its labels
                furniture.decompose()
            if any(found_word.startswith(word) for found_word in words(item.get_text(" "))):
                found.append(int(str(item["data-msg"])))
    return found


def test_a_tool_call_is_found_by_its_input_and_a_thinking_by_its_words(tmp_path):
    index = indexed(tmp_path, layout_of(MemoryTranscript(RECORDS)))
    assert index.search("sleep 2") == [3]
    assert index.search("localhost 8000 health") == [3]
    assert index.search("bash") == [3]
    assert index.search("zebrafish moment") == [2]
    assert index.search("wombat_limit quokka") == [5]  # a text of the input at any depth, its path too
    assert index.search("edits") == index.search("old_string") == index.search("9000") == []  # keys, numbers: not
    assert index.search("platypus") == []  # a described message: the description alone is shown
    assert index.search("assistant read") == [6]
    messages = index.messages()  # as its result shows it: its heading and the start of its text
    assert messages[3][1:] == ("Message 3 — assistant", "$ sleep 2 && curl -s localhost:8000/health")
    assert messages[2][1:] == ("Message 2 — assistant", THINKING)  # a message of thinking alone shows it


def test_the_words_searched_are_the_words_shown(tmp_path):
    layout = layout_of(MemoryTranscript(RECORDS))
    index = indexed(tmp_path, layout)
    for word in ("sleep", "localhost", "zebrafish", "wombat_limit", "quokka", "platypus", "server"):
        assert index.search(word) == shown_with(layout, word), word


def test_the_text_searched_names_each_part_once_a_line_apart():
    [*_, bash, _, multi_edit, described] = MemoryTranscript(RECORDS)
    assert searchable_text(bash).splitlines() == [
        "Bash", "sleep 2 && curl -s localhost:8000/health", "Wait for the server"]
    assert searchable_text(multi_edit).splitlines()[1:] == ["/srv/app/quokka.py", "retries = 1",
                                                            "retries = wombat_limit"]
    assert searchable_text(described) == "The assistant read a file."


def imported(log: str, destination: Path):
    """A real log of tests/data/transcripts, imported as an author does."""
    transcript = destination / "transcript.jsonl"
    result = subprocess.run([sys.executable, str(ROOT / "scripts" / "import_transcript.py"), str(LOGS / log),
                             "-o", str(transcript)], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    return load_transcript(str(transcript), "transcript.jsonl")


# A real log, a word, and how many of its messages show it: in their text alone (what the
# search read before), and anywhere in their entries.
REAL_CASES = [
    ("claude-code-log_image_edit_bash.jsonl", "workspace", 2, 10),  # Bash commands, Edit paths
    ("claude-code-log_thinking_progress.jsonl", "wants", 0, 5),  # thinking
]


@pytest.mark.parametrize(("log", "word", "in_text", "shown"), REAL_CASES, ids=[case[1] for case in REAL_CASES])
def test_a_real_log_is_searched_in_all_its_entries_show(tmp_path, monkeypatch, log, word, in_text, shown):
    layout = layout_of(imported(log, tmp_path))
    after = indexed(tmp_path / "after", layout).search(word)
    assert after == shown_with(layout, word) and len(after) == shown
    monkeypatch.setattr(entries, "searchable_text", lambda message: message.text)  # the text alone, as before
    before = indexed(tmp_path / "before", layout).search(word)
    assert len(before) == in_text and set(before) < set(after)
