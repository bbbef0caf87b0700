"""Claude Code's wrappers in a message's text, shown as what they are (msgview.wrappers):
on small texts of the tests' own, and on the pages of real session logs."""

from __future__ import annotations

import time

import pytest
from bs4 import BeautifulSoup

from conftest import attribute, entry_of, selected
from msgview.message_markdown import MessageMarkdown
from msgview.wrappers import text_html
from session_pages import imported, layout_of, page, records
from transcripts import MemoryTranscript

MARKDOWN = MessageMarkdown()


def shown(text: str) -> BeautifulSoup:
    return BeautifulSoup(text_html(text, MARKDOWN.html), "html.parser")


def words(soup: BeautifulSoup) -> list[str]:
    return soup.get_text(" ").split()


def test_a_slash_command_shows_its_name_as_code_then_its_arguments_and_keeps_every_word():
    text = ("<command-message>review is running…</command-message>\n<command-name>/review</command-name>\n"
            "<command-args>the <b>parser</b> & tests</command-args>")
    soup = shown(text)
    line = selected(soup, "p.msg-slash")
    assert selected(line, "code.msg-slash__name").text == "/review"
    assert selected(line, ".msg-slash__args").text == "the <b>parser</b> & tests"
    assert line.find("b") is None and soup.select("p:not(.msg-slash)") == []
    assert "Slash command:" in selected(line, ".visually-hidden").text
    assert sorted(words(soup)) == sorted(["Slash", "command:", "/review", "the", "<b>parser</b>", "&", "tests",
                                          "review", "is", "running…"])


def test_a_local_commands_output_is_preformatted_under_its_label():
    soup = shown("<local-command-stdout>Total cost: $0.01\n  two  spaces</local-command-stdout>\n"
                 "<local-command-stderr>no <i>such</i> file</local-command-stderr>")
    outputs = soup.select(".msg-local-output")
    assert [selected(o, ".msg-output__label").text for o in outputs] == ["Command output", "Command error output"]
    assert [selected(o, "pre > samp").text for o in outputs] == ["Total cost: $0.01\n  two  spaces",
                                                                "no <i>such</i> file"]


def test_what_the_ide_showed_is_a_quiet_note_and_the_words_after_it_are_markdown():
    soup = shown("<ide_opened_file>The user opened the file a.md in the IDE.</ide_opened_file>\n\n"
                 "Please add **these**")
    note = selected(soup, "p.msg-ide")
    assert selected(note, ".msg-ide__label").text == "IDE"
    assert selected(note, ".msg-ide__text").text == "The user opened the file a.md in the IDE."
    assert selected(soup, "p:not(.msg-ide) strong").text == "these"


def test_a_system_reminder_is_folded():
    soup = shown("Do it.\n<system-reminder>\nThe todo list is empty.\n</system-reminder>")
    reminder = selected(soup, "details.msg-reminder")
    assert reminder.get("open") is None and selected(reminder, "summary").text == "System reminder"
    assert selected(reminder, ".msg-reminder__text").text.strip() == "The todo list is empty."
    assert selected(soup, "p").text == "Do it."


@pytest.mark.parametrize("text", [
    "<system-reminder>never closed",
    "<system-reminder>a <system-reminder>b</system-reminder>",
    "<system-reminder>a</system-reminder> b</system-reminder>",
    "see <ide_opened_file>a.md</ide_opened_file>",
    "<ide_opened_file>a.md</ide_opened_file> and more",
    "<command-name>/x</command-args>",
    "<Command-name>/x</Command-name>",
])
def test_anything_not_exactly_a_wrapper_stays_text(text):
    soup = shown(text)
    assert soup.select(".msg-slash, .msg-ide, .msg-reminder, .msg-local-output, .msg-event") == []
    assert soup.get_text() == text


def test_an_interruption_is_an_event_and_counts_as_work():
    messages = MemoryTranscript(records(
        {"speaker": "user", "text": "[Request interrupted by user for tool use]"},
        {"speaker": "user", "text": "[Request interrupted by user]"},
        {"speaker": "user", "text": "[Request interrupted by user] and then I said this"}))
    soup = page(layout_of(messages))
    assert [selected(entry_of(soup, n), ".msg-event").text for n in (1, 2)] == [
        "Request interrupted by user for tool use", "Request interrupted by user"]
    assert entry_of(soup, 3).select(".msg-event") == []
    assert [attribute(item, "data-msg") for item in soup.select(".msg-item:has(> .msg-entry--work)")] == ["1", "2"]


def test_many_unclosed_tags_cost_time_by_the_texts_length():
    text = "<system-reminder>x\n" * 20_000 + "</ide_selection>\n" * 20_000
    started = time.monotonic()
    made = text_html(text, MARKDOWN.html)
    assert time.monotonic() - started < 1
    assert 'class="msg-reminder' not in made and made.count("&lt;system-reminder&gt;") == 20_000


def test_the_real_logs_slash_command_ide_notes_and_interruption(tmp_path):
    viewer = page(layout_of(imported(tmp_path, "claude-code-viewer_sidechain_todowrite_multiedit.jsonl")))
    command = selected(entry_of(viewer, 1), "p.msg-slash")
    assert selected(command, "code").text == "/orchestrator"
    assert selected(command, ".msg-slash__args").text == "@CLAUDE.md を最新の状態にアップデートしてください"
    assert "<command" not in entry_of(viewer, 1).get_text()

    ide = page(layout_of(imported(tmp_path, "claude-code-log_ide_wrappers_errors.jsonl")))
    first = entry_of(ide, 1)
    assert selected(first, ".msg-ide__text").text.startswith("The user selected the lines 508 to 508 from ")
    assert selected(first, "p:not(.msg-ide)").text.startswith("How can I make this possible to install")
    assert selected(entry_of(ide, 60), ".msg-ide__text").text.startswith("The user opened the file ")
    assert "<ide_" not in entry_of(ide, 60).get_text()
    assert selected(entry_of(ide, 216), ".msg-event").text == "Request interrupted by user for tool use"
    assert "msg-entry--work" in entry_of(ide, 216)["class"]


def test_a_real_replys_single_line_breaks_are_line_breaks(tmp_path):
    soup = page(layout_of(imported(tmp_path, "claude-code-viewer_sidechain_todowrite_multiedit.jsonl")))
    paragraph = next(p for p in entry_of(soup, 22).select("p") if "Key Dependencies:" in p.get_text())
    assert paragraph.find("br") is not None
    assert paragraph.get_text().split("\n")[1].startswith("Core runtime includes Next.js")
