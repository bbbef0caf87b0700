"""Tool calls shown by what their tools did, and tools' outputs (msgview.tool_views): each
view from the shapes the tools' inputs have in real logs, and any input of another shape
shown whole, as any other call's."""

import json
from typing import Any

import pytest
from bs4 import BeautifulSoup, Tag

from conftest import attribute, selected
from msgview import highlight
from msgview.conversation import ConversationView
from msgview.message_markdown import MessageMarkdown
from msgview.read_output import NUMBERED_LINES
from msgview.tool_views import (
    BOUNDED_LINE_CHARS,
    FOLDED_LINES,
    LINE_CHARS,
    LINE_JSON_CHARS,
    tool_call_html,
    tool_call_line,
    tool_output_html,
)
from test_import_transcript import SAMPLES, import_sample
from transcripts import MemoryTranscript


def call(name: str, tool_input: object, lines: int | None = None) -> BeautifulSoup:
    return BeautifulSoup(tool_call_html(name, tool_input, lines), "html.parser")


def logged_calls(tmp_path, sample: str, tool: str) -> list[Any]:
    """The inputs of the calls of `tool` in a real log of tests/data/transcripts, as imported."""
    records = import_sample(tmp_path, SAMPLES / sample, "--keep-home")  # paths as the log has them
    return [record["tool_input"] for record in records if record.get("tool_name") == tool]


def fields_listed(page: BeautifulSoup) -> list[tuple[str, str]]:
    return list(zip((dt.text for dt in page.select("dl.msg-fields dt")),
                    (dd.text for dd in page.select("dl.msg-fields dd")), strict=True))


def with_markup(value: object) -> object:
    """`value` with HTML after each of its texts, which a view must show as text."""
    if isinstance(value, str):
        return value + "<b>bold</b>"
    if isinstance(value, dict):
        return {key: with_markup(item) for key, item in value.items()}
    if isinstance(value, list):
        return [with_markup(item) for item in value]
    return value


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
    assert selected(short, "div.highlight samp").text == "print('<hi>')\n" and short.find("details") is None
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


def test_a_subagent_sent_off_shows_what_for_and_its_prompt_as_markdown_folded(tmp_path):
    page = call("Task", {"description": "Check files", "subagent_type": "general-purpose",
                         "prompt": "Look at **x** <b>y</b>"})
    assert selected(page, ".msg-tool__note").text == "general-purpose · Check files"
    prompt = selected(page, "details.msg-fold .msg-tool__markdown")
    assert selected(prompt, "p strong").text == "x" and prompt.text == "Look at x <b>y</b>" and not page.find("b")
    logged = logged_calls(tmp_path, "claude-code-viewer_sidechain_todowrite_multiedit.jsonl", "Task")
    package = next(tool_input for tool_input in logged if tool_input["description"] == "Check package configuration")
    steps = call("Task", package).select("details.msg-fold .msg-tool__markdown ol > li")
    assert steps[0].text == "Dependencies (both dependencies and devDependencies)" and len(steps) == 4


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


# --- The views of other tools, from the real logs where they occur -------------------------

IDE_TOOLS = "claude-code-log_ide_wrappers_errors_tools.jsonl"
LOGGED_TOOLS = [
    ("claude-code-viewer_sidechain_todowrite_multiedit.jsonl", "Glob"), ("claude-code-log_sidechain_integrated.jsonl",
                                                                        "Grep"),
    (IDE_TOOLS, "Grep"), (IDE_TOOLS, "BashOutput"), (IDE_TOOLS, "ExitPlanMode"), (IDE_TOOLS, "AskUserQuestion"),
    ("codemie-code_codex_rollout_reasoning_message.jsonl", "write_stdin"),
    ("codemie-code_gemini_session_thoughts.json", "list_directory"), ("codex-rollout_synthetic.jsonl",
                                                                      "mcp__synthetic__lookup"),
]


@pytest.mark.parametrize("sample, tool", LOGGED_TOOLS)
def test_a_logged_call_has_a_view_whose_texts_stay_text(tmp_path, sample, tool):
    for tool_input in logged_calls(tmp_path, sample, tool):
        page = call(tool, with_markup(tool_input))
        assert page.find("b") is None and "<b>bold</b>" in page.get_text()
        assert page.select(".msg-tool > :not(.msg-tool__name, details)")  # shown, not only folded


def test_a_glob_is_its_pattern_and_folder(tmp_path):
    first = logged_calls(tmp_path, "claude-code-viewer_sidechain_todowrite_multiedit.jsonl", "Glob")[0]
    page = call("Glob", first)
    assert selected(page, ".msg-tool__path").text == "**/*.md in ~/.claude/commands"
    assert [code.text for code in page.select(".msg-tool__path code")] == ["**/*.md", "~/.claude/commands"]
    assert page.find("details") is None


def test_a_grep_is_its_pattern_and_where_its_options_folded(tmp_path):
    logged = logged_calls(tmp_path, IDE_TOOLS, "Grep")[0]
    page = call("Grep", logged)
    pattern, path = (code.text for code in page.select(".msg-tool__path code"))
    assert pattern == r"def main\(\):|ArgumentParser|add_argument|pr_input"
    assert path == "/Users/dain/workspace/coderabbit-review-helper/extract-coderabbit-feedback.py"
    assert json.loads(selected(page, "details.msg-fold pre").text) == {"output_mode": "content", "-n": True}
    (anywhere,) = logged_calls(tmp_path, "claude-code-log_sidechain_integrated.jsonl", "Grep")
    assert selected(call("Grep", anywhere), ".msg-tool__path").text == "data-border-color"


def test_a_shell_left_running_is_named_and_what_is_written_to_it_shown(tmp_path):
    (shell, *_) = logged_calls(tmp_path, IDE_TOOLS, "BashOutput")
    assert selected(call("BashOutput", shell), ".msg-tool__path").text == "Shell 7d95c5"
    written = logged_calls(tmp_path, "codemie-code_codex_rollout_reasoning_message.jsonl", "write_stdin")
    interrupt = next(tool_input for tool_input in written if tool_input["chars"])
    page = call("write_stdin", interrupt)
    assert selected(page, ".msg-tool__path").text == "Shell 20936"
    assert selected(page, ".msg-tool > pre.msg-output").text == "\u2403"  # Ctrl-C, as its Control Picture
    waiting = call("write_stdin", next(tool_input for tool_input in written if not tool_input["chars"]))
    assert waiting.select(".msg-tool > pre") == []


def test_a_plan_and_a_question_are_shown_as_written(tmp_path):
    (plan,) = logged_calls(tmp_path, IDE_TOOLS, "ExitPlanMode")
    shown = selected(call("ExitPlanMode", plan), ".msg-tool > .msg-tool__markdown")  # as Markdown, not folded
    assert selected(shown, "h3").text == "Plan: Make Project Installable as UV Tool"  # its highest heading, "##"
    (question,) = logged_calls(tmp_path, IDE_TOOLS, "AskUserQuestion")
    asked = selected(call("AskUserQuestion", question), ".msg-tool > .msg-tool__markdown")
    assert [strong.text for strong in asked.select("strong")][:2] == ["Installation method", "global tool"]


def test_a_folder_listed_is_its_path(tmp_path):
    (listed,) = logged_calls(tmp_path, "codemie-code_gemini_session_thoughts.json", "list_directory")
    page = call("list_directory", listed)
    assert selected(page, ".msg-tool__path").text == "/Users/Jane_Smith/Documents/projects/epm-cdme/assistants/"


def test_an_mcp_tool_is_its_server_its_tool_and_its_fields(tmp_path):
    (lookup,) = logged_calls(tmp_path, "codex-rollout_synthetic.jsonl", "mcp__synthetic__lookup")
    page = call("mcp__synthetic__lookup", lookup)
    assert selected(page, ".msg-tool__note").text == "MCP server synthetic · tool lookup"
    assert fields_listed(page) == [("query", "fixture")]
    nested = call("mcp__github__search", {"q": "<b>x</b>", "filters": {"state": "open"}})
    assert selected(nested, "dl.msg-fields dd").text == "<b>x</b>" and nested.find("b") is None
    assert json.loads(selected(nested, "details.msg-fold pre").text) == {"filters": {"state": "open"}}


# Tools none of the real logs here calls, with inputs shaped as their tools document them.
@pytest.mark.parametrize("name, tool_input, said", [
    ("LS", {"path": "/srv/<app>", "ignore": ["*.pyc"]}, "/srv/<app>"),
    ("KillShell", {"shell_id": "bash_1"}, "Shell bash_1"),
    ("WebFetch", {"url": "https://example.org/<a>", "prompt": "Summarize"}, "https://example.org/<a>"),
    ("WebSearch", {"query": "mkdocs <strict>", "allowed_domains": ["mkdocs.org"]}, "mkdocs <strict>"),
    ("ToolSearch", {"query": "select:Read", "max_results": 3}, "select:Read"),
    ("NotebookEdit", {"notebook_path": "a.ipynb", "cell_id": "c1", "new_source": "x = 1", "edit_mode": "replace"},
     "a.ipynb, cell c1 (replace)"),
    ("view_image", {"path": "shot.png"}, "shot.png"),  # Codex
    ("glob", {"pattern": "src/**/*.ts", "dir_path": "web"}, "src/**/*.ts in web"),  # Gemini CLI
    ("search_file_content", {"pattern": "TODO", "dir_path": "src", "include": "*.py"}, "TODO in src, files *.py"),
    ("grep", {"pattern": "TODO"}, "TODO"),
    ("google_web_search", {"query": "pygments lexers"}, "pygments lexers"),
])
def test_each_tool_is_shown_by_what_it_did(name, tool_input, said):
    page = call(name, tool_input)
    assert selected(page, ".msg-tool__path").text == said
    assert call(name, with_markup(tool_input)).find("b") is None


def test_a_plan_or_a_gemini_todo_list_is_a_checklist():
    plan = call("update_plan", {"explanation": "Why", "plan": [{"step": "Read <it>", "status": "completed"},
                                                              {"step": "Fix", "status": "in_progress"}]})
    assert [li.text for li in plan.select("ul.msg-todos li")] == ["☑ Read <it> (completed)", "◐ Fix (in progress)"]
    assert selected(plan, ".msg-tool__note").text == "Why"
    todos = call("write_todos", {"todos": [{"description": "Look", "status": "cancelled"}]})
    assert [li.text for li in todos.select("ul.msg-todos li")] == ["☒ Look (cancelled)"]


@pytest.mark.parametrize("name, tool_input, fields", [
    ("TaskCreate", {"subject": "Fix <it>", "description": "Details", "activeForm": "Fixing"},
     [("subject", "Fix <it>"), ("description", "Details"), ("activeForm", "Fixing")]),
    ("TaskUpdate", {"taskId": "3", "status": "completed"}, [("taskId", "3"), ("status", "completed")]),
    ("SendMessage", {"type": "message", "recipient": "tester", "content": "Go", "summary": "Start"},
     [("type", "message"), ("recipient", "tester"), ("summary", "Start"), ("content", "Go")]),
    ("save_memory", {"fact": "Uses <uv>"}, [("fact", "Uses <uv>")]),
])
def test_a_call_of_a_few_fields_lists_them(name, tool_input, fields):
    page = call(name, tool_input)
    assert fields_listed(page) == fields


def test_a_web_fetch_shows_its_prompt_and_read_many_files_its_paths():
    fetched = call("web_fetch", {"prompt": "Summarize https://example.org/<x>"})
    assert selected(fetched, ".msg-tool__note").text == "Summarize https://example.org/<x>"
    files = call("read_many_files", {"paths": ["src/<a>.py", "docs/*.md"], "exclude": ["*.log"]})
    assert [code.text for code in files.select("ul.msg-paths code")] == ["src/<a>.py", "docs/*.md"]


# --- A file read, as its code with its line numbers ---------------------------------------

def read_outputs(tmp_path, sample: str) -> list[BeautifulSoup]:
    """The outputs of the Read calls of a real log, as its transcript page shows them."""
    view = ConversationView(MessageMarkdown(), image_href=lambda name: name)
    shown = [(message, view.body_html(message))
             for message in MemoryTranscript(import_sample(tmp_path, SAMPLES / sample, "--keep-home"))]
    return [BeautifulSoup(body, "html.parser") for message, body in shown
            if message.speaker == "tool" and "Output of Read" in body]


def numbers(page: Tag) -> list[str]:
    """The line numbers beside a file's code, which the code's text does not hold."""
    return [attribute(number, "data-linenos").strip() for number in page.select("div.highlight samp span.linenos")]


def test_a_file_read_is_its_code_highlighted_with_its_line_numbers(tmp_path):
    (hello,) = read_outputs(tmp_path, "codemie-code_claude_write_edit_bash.jsonl")  # "     1→#!/usr/bin/env python3"
    assert numbers(hello) == [str(n) for n in range(1, 9)]
    code = selected(hello, "div.highlight samp")
    assert code.text.startswith('#!/usr/bin/env python3\n\ndef main():\n    print("Hello, World!")\n')
    assert "→" not in code.text
    assert [span.text for span in code.select("span.nb")] == ["print"]  # highlighted as Python, by the path
    after = selected(hello, "details.msg-fold")  # what the tool adds after the lines, folded
    assert selected(after, "summary").text.startswith("After the lines (")
    assert selected(after, "pre").text.startswith("<system-reminder>\nWhenever you read a file")
    assert hello.find("system-reminder") is None
    config, _ = read_outputs(tmp_path, "claude-code-log_image_edit_bash.jsonl")  # offset 188, limit 20
    assert numbers(config)[0] == "188" and numbers(config)[-1] == "204"
    assert selected(config, "div.highlight samp").select("span:not(.linenos)")  # next.config.js: as JavaScript


def test_an_edits_output_of_numbered_lines_is_the_code_after_what_the_tool_says(tmp_path):
    view = ConversationView(MessageMarkdown(), image_href=lambda name: name)
    records = import_sample(tmp_path, SAMPLES / "claude-code-log_image_edit_bash.jsonl", "--keep-home")
    shown = [BeautifulSoup(view.body_html(message), "html.parser") for message in MemoryTranscript(records)]
    edited = next(page for page in shown if "has been updated" in page.text and page.select("span.linenos"))
    assert selected(edited, ".msg-tool__note").text == (
        "The file /Users/dain/workspace/danieldemmel.me-next/next.config.js has been updated. Here's the result of "
        "running `cat -n` on a snippet of the edited file:")
    assert numbers(edited)[0] == "186" and selected(edited, "div.highlight samp").select("span:not(.linenos)")
    hostile = tool_output_html("The file <b>a</b> has been updated:\n     1→x", "Output of Edit", tool="Edit",
                               call_input={"file_path": "a.py"})
    assert BeautifulSoup(hostile, "html.parser").find("b") is None


def test_a_file_read_numbered_by_tabs_is_its_lines_folded_when_long(tmp_path):
    plan, *_ = read_outputs(tmp_path, "claude-code-log_subagent_2-1_opus.jsonl")  # "1\t# Plan Mode in Claude Code"
    fold = selected(plan, "details.msg-fold")
    assert selected(fold, "summary").text.startswith("Output of Read (")
    assert numbers(fold) == [str(n) for n in range(1, 106)]
    assert selected(fold, "div.highlight samp").text.startswith("# Plan Mode in Claude Code\n\n## 1. Overview\n")


def test_what_is_not_a_files_numbered_lines_is_shown_as_any_output(monkeypatch):
    def read(text: str, path: str = "a.py") -> BeautifulSoup:
        return BeautifulSoup(tool_output_html(text, "Output of Read", tool="Read", call_input={"file_path": path}),
                             "html.parser")

    for text in ("<tool_use_error>File does not exist.</tool_use_error>", "     1→a\n     3→b\n", "1→a\nmore text"):
        assert str(read(text)) == tool_output_html(text, "Output of Read")
    assert tool_output_html("     1→x = 1", "Output of Bash", tool="Bash", call_input={"file_path": "a.py"}) == \
        tool_output_html("     1→x = 1", "Output of Bash")
    hostile = read("     1→<b>x</b>\n     2→y", "a.html")
    assert selected(hostile, "div.highlight samp").text == "<b>x</b>\ny\n" and hostile.find("b") is None
    longest = "".join(f"{n}\tx\n" for n in range(1, NUMBERED_LINES + 2))  # a table too long to write
    assert str(read(longest)) == tool_output_html(longest, "Output of Read")
    monkeypatch.setattr(highlight, "HIGHLIGHT_SECONDS", -1.0)  # not lexed in time: the lines as text, numbered
    late = read("     1→x = 1\n")
    assert numbers(late) == ["1"] and not selected(late, "div.highlight samp").select("span:not(.linenos)")


# --- A call as one line, and views bounded to a number of lines ---------------------------

@pytest.mark.parametrize("sample, tool, line", [
    ("claude-code-transcripts_sample_session.jsonl", "Bash", "$ git add . && git commit -m 'Add hello function'"),
    ("codemie-code_claude_write_edit_bash.jsonl", "Edit", "Edit /tmp/private/hello.py"),
    ("claude-code-transcripts_sample_session.jsonl", "Write", "Write /project/hello.py (2 lines)"),
    ("claude-code-log_image_edit_bash.jsonl", "Read",
     "Read /Users/dain/workspace/danieldemmel.me-next/next.config.js, lines 188–207"),
    ("claude-code-log_edge_cases.jsonl", "MultiEdit", "MultiEdit /tmp/complex_example.py (1 edit)"),
    ("claude-code-log_edge_cases.jsonl", "TodoWrite", "TodoWrite: 5 items, 0 done"),
    ("claude-code-log_sidechain_integrated.jsonl", "Task",
     "Task: Research data-border-color usage and CSS class mat..."),
    ("claude-code-viewer_sidechain_todowrite_multiedit.jsonl", "Glob", "Glob **/*.md in ~/.claude/commands"),
    ("claude-code-log_sidechain_integrated.jsonl", "Grep", 'Grep "data-border-color"'),
    (IDE_TOOLS, "BashOutput", "BashOutput: shell 7d95c5"),
    ("codemie-code_codex_rollout_reasoning_message.jsonl", "write_stdin", "write_stdin: shell 48230"),
    ("codex-rollout_synthetic.jsonl", "apply_patch", "apply_patch gamma.txt"),
    ("codex-rollout_synthetic.jsonl", "exec_command", "$ find . -maxdepth 1 -type f"),
    ("codex-rollout_synthetic.jsonl", "mcp__synthetic__lookup", "mcp: synthetic · lookup"),
    ("codemie-code_gemini_session_thoughts.json", "list_directory",
     "list_directory /Users/Jane_Smith/Documents/projects/epm-cdme/assistants/"),
    ("claude-code-log_edge_cases.jsonl", "FailingTool",
     'FailingTool {"test_param": "This tool will fail to demonstrate error handling"}'),
])
def test_a_logged_call_as_one_line(tmp_path, sample, tool, line):
    assert tool_call_line(tool, logged_calls(tmp_path, sample, tool)[0]) == line


@pytest.mark.parametrize("name, tool_input, line", [
    ("WebFetch", {"url": "https://example.org/a", "prompt": "Summarize"}, "WebFetch https://example.org/a"),
    ("WebSearch", {"query": "mkdocs strict"}, 'WebSearch "mkdocs strict"'),
    ("Agent", {"description": "Review <it>", "prompt": "..."}, "Agent: Review <it>"),
    ("Read", {"file_path": "src/x.py", "offset": 10, "limit": 21}, "Read src/x.py, lines 10–30"),
    ("search_file_content", {"pattern": "TODO", "dir_path": "src", "include": "*.py"},
     'search_file_content "TODO" in src, files *.py'),
    ("update_plan", {"plan": [{"step": "a", "status": "completed"}, {"step": "b", "status": "pending"}]},
     "update_plan: 2 items, 1 done"),
    ("TaskUpdate", {"taskId": "3", "status": "completed"}, "TaskUpdate: 3 · completed"),
    ("Bash", {"command": "printf 'a\x1b[0m'\n  && make\ttest"}, "$ printf 'a\u241b[0m' && make test"),
    ("Unknown", None, "Unknown"), ("Bash", {"command": 42}, 'Bash {"command": 42}'),
])
def test_a_call_as_one_line(name, tool_input, line):
    assert tool_call_line(name, tool_input) == line


def test_a_long_call_as_one_line_is_cut_near_its_bound():
    command = tool_call_line("Bash", {"command": "echo " + "word " * 1_000})
    assert command.startswith("$ echo word word") and command.endswith("word…") and len(command) <= LINE_CHARS
    path = tool_call_line("Read", {"file_path": "/" + "a" * 100_000})
    assert path.startswith("Read /aaa") and path.endswith("a…") and len(path) <= LINE_CHARS
    other = tool_call_line("lookup", {"query": "x " * 500, "deep": {"a": [1, 2]}})
    assert other.startswith('lookup {"query": "x x') and other.endswith("…")
    assert len(other) <= len("lookup ") + LINE_JSON_CHARS


def lines_shown(block: Tag) -> int:
    return len(block.text.rstrip("\n").split("\n"))


def test_a_bounded_view_shows_its_first_lines_and_what_it_leaves_out():
    old = "".join(f"line {n}\n" for n in range(100))
    edit = call("Edit", {"file_path": "a.py", "old_string": old, "new_string": "", "replace_all": True}, lines=10)
    assert lines_shown(selected(edit, "pre.msg-diff")) == 10  # the hunk's head and 9 of its 100 lines
    assert [note.text for note in edit.select(".msg-more")] == ["… 91 more lines", "Other input: replace_all"]
    written = call("Write", {"file_path": "a.py", "content": old[:-1]}, lines=10)
    assert lines_shown(selected(written, "div.highlight samp")) == 10
    assert selected(written, ".msg-more").text == "… 90 more lines"
    todos = call("TodoWrite", {"todos": [{"content": f"item {n}", "status": "pending"} for n in range(30)]}, lines=10)
    assert len(todos.select("ul.msg-todos li")) == 10 and selected(todos, ".msg-more").text == "… 20 more items"
    unknown = call("Unknown", {"lines": list(range(50))}, lines=10)
    assert lines_shown(selected(unknown, "pre")) == 10 and selected(unknown, ".msg-more").text.endswith("more lines")
    for page in (edit, written, todos, unknown):
        assert page.find("details") is None
    output = BeautifulSoup(tool_output_html(old, "Output of Bash", lines=10), "html.parser")
    assert lines_shown(selected(output, "pre.msg-output")) == 10
    assert selected(output, ".msg-more").text == "… 90 more lines"
    read = BeautifulSoup(tool_output_html("".join(f"{n}\tx = {n}\n" for n in range(1, 101)), "Output of Read", lines=10,
                                          tool="Read", call_input={"file_path": "a.py"}), "html.parser")
    assert numbers(read) == [str(n) for n in range(1, 11)] and selected(read, ".msg-more").text == "… 90 more lines"
    assert read.find("details") is None


def test_a_bounded_view_cuts_a_long_line():
    minified = "var a=1;" * 5_000
    written = call("Write", {"file_path": "a.js", "content": minified}, lines=5)
    code = selected(written, "div.highlight samp").text.rstrip("\n")  # Pygments ends the code with a line break
    assert len(code) == BOUNDED_LINE_CHARS and code.startswith("var a=1;var") and code.endswith("…")
    edit = call("Edit", {"file_path": "a.js", "old_string": minified, "new_string": ""}, lines=5)
    assert max(len(line) for line in selected(edit, "pre.msg-diff").text.splitlines()) == BOUNDED_LINE_CHARS
    read = BeautifulSoup(tool_output_html(f"1\t{minified}\n", "Output of Read", lines=5, tool="Read",
                                          call_input={"file_path": "a.js"}), "html.parser")
    assert selected(read, "div.highlight samp").text == minified[:BOUNDED_LINE_CHARS - 1] + "…\n"
    output = BeautifulSoup(tool_output_html(minified, "Output of Bash", lines=5), "html.parser")
    assert len(selected(output, "pre").text) == BOUNDED_LINE_CHARS
    assert len(tool_call_html("Write", {"file_path": "a.js", "content": minified}, lines=5)) < 10_000
    described = call("Bash", {"command": "ls", "description": "<b>x</b>" * 100}, lines=5)
    assert len(selected(described, ".msg-tool__note").text) == BOUNDED_LINE_CHARS and described.find("b") is None


def test_a_bounded_view_of_a_short_call_is_the_whole_view():
    short = {"command": "ls", "description": "List"}
    assert call("Bash", short, lines=10).select(".msg-more") == []
    assert str(call("Bash", short, lines=10)) == tool_call_html("Bash", short)
