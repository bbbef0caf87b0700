"""Tool calls shown by what their tools did, and tools' outputs (msgview.tool_views): each
view from the shapes the tools' inputs have in real logs, and any input of another shape
shown whole, as any other call's."""

import json

import pytest
from bs4 import BeautifulSoup

from conftest import selected
from msgview.tool_views import FOLDED_LINES, tool_call_html, tool_output_html


def call(name: str, tool_input: object) -> BeautifulSoup:
    return BeautifulSoup(tool_call_html(name, tool_input), "html.parser")


@pytest.mark.parametrize("name, tool_input", [
    ("Bash", {"command": "ls -la <dir>", "description": "List files"}),
    ("exec_command", {"cmd": "ls -la <dir>", "workdir": "/srv"}),  # Codex
    ("shell", {"command": ["ls", "-la", "<dir>"]}),
    ("run_shell_command", {"command": "ls -la <dir>"}),  # Gemini CLI
])
def test_a_command_is_shown_as_typed(name, tool_input):
    page = call(name, tool_input)
    assert selected(page, ".msg-tool__name").text == name
    assert selected(page, "pre.msg-command").text == "$ ls -la <dir>"


def test_an_edit_is_a_diff_of_its_lines():
    page = call("Edit", {"file_path": "src/app.py", "old_string": "a = 1\nb = 2\n", "new_string": "a = 1\nb = 3\n",
                         "replace_all": True})
    assert selected(page, ".msg-tool__path code").text == "src/app.py"
    diff = selected(page, "pre.msg-diff")
    assert [d.text for d in diff.find_all("del")] == ["-b = 2\n"]
    assert [i.text for i in diff.find_all("ins")] == ["+b = 3\n"]
    assert selected(diff, ".msg-diff__hunk").text.startswith("@@")
    # What the view does not show is there too, folded.
    assert json.loads(selected(page, "details.msg-fold pre").text) == {"replace_all": True}


def test_a_multi_edit_is_one_diff_of_each_change():
    page = call("MultiEdit", {"file_path": "a.md", "edits": [{"old_string": "x", "new_string": "y"},
                                                           {"old_string": "p", "new_string": "q"}]})
    diff = selected(page, "pre.msg-diff")
    assert [d.text for d in diff.find_all("del")] == ["-x\n", "-p\n"]
    assert [i.text for i in diff.find_all("ins")] == ["+y\n", "+q\n"]


def test_a_file_written_is_its_code_highlighted_and_folded_when_long():
    short = call("Write", {"file_path": "hello.py", "content": "print('<hi>')\n"})
    assert selected(short, ".msg-tool__path code").text == "hello.py"
    assert selected(short, "div.highlight code").text == "print('<hi>')\n" and short.find("details") is None
    assert short.select("div.highlight span.nb")  # `print`, highlighted as Python
    long_file = "\n".join(f"line {i}" for i in range(FOLDED_LINES * 2))
    folded = selected(call("write_file", {"file_path": "notes.txt", "content": long_file}), "details.msg-fold")
    assert selected(folded, "summary").text == f"The file ({FOLDED_LINES * 2} lines, {len(long_file)} bytes)"
    assert selected(folded, "pre").text.rstrip("\n") == long_file


@pytest.mark.parametrize("tool_input, said", [
    ({"file_path": "a.py", "offset": 10, "limit": 5}, "a.py, lines 10–14"),
    ({"file_path": "a.py", "offset": 10}, "a.py, from line 10"),
    ({"file_path": "a.py", "limit": 20}, "a.py, the first 20 lines"),
    ({"file_path": "a.py"}, "a.py"),
])
def test_a_file_read_is_its_path_and_lines(tool_input, said):
    assert selected(call("Read", tool_input), ".msg-tool__path").text == said


def test_a_todo_list_is_a_checklist():
    page = call("TodoWrite", {"todos": [{"content": "Read <the> code", "status": "completed"},
                                        {"content": "Fix it", "status": "in_progress"},
                                        {"content": "Test it", "status": "pending"}]})
    assert [li.text for li in page.select("ul.msg-todos li")] == [
        "☑ Read <the> code (completed)", "◐ Fix it (in progress)", "☐ Test it"]


def test_a_subagent_sent_off_shows_what_for_and_its_prompt_folded():
    page = call("Task", {"description": "Check files", "subagent_type": "general-purpose", "prompt": "Look at x"})
    assert selected(page, ".msg-tool__note").text == "general-purpose · Check files"
    assert selected(page, "details.msg-fold pre").text == "Look at x"


@pytest.mark.parametrize("name, tool_input", [
    ("Bash", {"command": 42}), ("Bash", "ls"), ("Edit", {"file_path": "a", "old_string": None}),
    ("MultiEdit", {"file_path": "a", "edits": ["x"]}), ("Write", {"content": "no path"}),
    ("TodoWrite", {"todos": [{"status": "pending"}]}), ("Read", {"file_path": ["a"]}), ("Task", {"prompt": 1}),
    ("mcp__lookup", {"query": "<b>x</b>"}), ("Unknown", None), ("Unknown", [1, "two"]),
])
def test_any_other_input_is_shown_whole_and_folded(name, tool_input):
    page = call(name, tool_input)
    assert selected(page, ".msg-tool__name").text == name
    assert json.loads(selected(page, "details.msg-fold pre").text) == tool_input
    assert page.find("b") is None


@pytest.mark.parametrize("number, written", [
    (2**70, "1180591620717411303424"), (float("nan"), "NaN"), (float("inf"), "Infinity"), (0.25, "0.25"),
])
def test_a_number_in_an_input_is_shown_as_the_transcript_holds_it(number, written):
    # The standard library reads NaN and Infinity, and integers of any size, from a transcript.
    shown = selected(call("Unknown", {"value": number}), "details.msg-fold pre").text
    assert shown == '{\n  "value": ' + written + "\n}"


def test_an_output_is_text_folded_with_its_size_when_long():
    short = BeautifulSoup(tool_output_html("total 0\n<none>", "Output of Bash"), "html.parser")
    assert selected(short, ".msg-output__label").text == "Output of Bash"
    assert selected(short, "pre.msg-output").text == "total 0\n<none>" and short.find("details") is None
    text = "x" * 12_000
    folded = selected(BeautifulSoup(tool_output_html(text, "Tool output"), "html.parser"), "details.msg-fold")
    assert selected(folded, "summary").text == "Tool output (1 line, 12 KB)" and selected(folded, "pre").text == text
    empty = BeautifulSoup(tool_output_html("  \n", "Output of Read"), "html.parser")
    assert empty.get_text() == "Output of Read: empty"
