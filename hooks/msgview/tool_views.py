"""A tool call and a tool's output, shown as what they did: a command and its output, an
edit as a diff, a file written as its code, a file read as its path and lines, a to-do
list or a plan as a checklist, a search as its pattern and where, a page fetched as its
address, a shell left running by its id, an MCP tool by its server and its fields; any
other call as its name and its input, folded.

The names and inputs are the session's tools' own (Claude Code's, Codex's, Gemini CLI's),
from the log: an input not of the expected shape is shown as any other call's is.
Everything is built as elements, and code is highlighted by Pygments, which escapes it.
What a log may make costly is bounded: code is highlighted only by the lexers of common
languages and only within a time, and an edit too long to diff is shown as its texts, as
are a call's edits past what a call is diffed for.
"""

from __future__ import annotations

import dataclasses
import difflib
import functools
import html
import json
import time
import xml.etree.ElementTree as etree
from collections.abc import Callable, Sequence

from pygments import format as format_tokens
from pygments.formatters import HtmlFormatter

from . import highlight
from .highlight import HIGHLIGHTED_CHARS, as_sample, lexer_for, tokens_in_time
from .html import to_html
from .message_markdown import MessageMarkdown
from .read_output import numbered_code_html, numbered_file
from .text import displayable, displayable_value, indented_json

# Longer outputs and files are folded, their size in the fold's label.
FOLDED_LINES = 12
FOLDED_CHARS = 1200
_FORMATTER = HtmlFormatter(wrapcode=True)
# Highlighted as `highlight` allows: by the lexers of common languages, within a time.
HIGHLIGHT_SECONDS = highlight.HIGHLIGHT_SECONDS
# An edit's texts longer than this, in lines together, are shown whole, folded, rather
# than diffed: difflib takes time up to the product of their lengths (two orderings of
# 20,000 lines: 7 s), and a patch longer than this is shown as text, not line by line.
DIFFED_LINES = 2_000
# A call's edits are diffed up to DIFFED_EDITS of them, and DIFFED_CALL_LINES lines in
# all (1,500 edits, each under DIFFED_LINES, took 72 s); the rest are shown whole, folded.
DIFFED_EDITS = 200
DIFFED_CALL_LINES = 10_000
# A to-do list's first items are a checklist, the rest shown as the call gives them,
# folded: a list of 100,000 items took 180 MB as elements.
TODO_ITEMS = 1_000

COMMAND_TOOLS = {"Bash": "command", "exec_command": "cmd", "shell": "command", "run_shell_command": "command",
                 "local_shell": "command"}
EDIT_TOOLS = frozenset({"Edit", "replace"})
WRITE_TOOLS = frozenset({"Write", "write_file"})
READ_TOOLS = frozenset({"Read", "read_file"})
PATCH_TOOLS = frozenset({"apply_patch"})
TASK_TOOLS = frozenset({"Task", "Agent"})
# The tools whose output may be a file's lines, each after its number (`read_output`).
NUMBERED_OUTPUT_TOOLS = READ_TOOLS | EDIT_TOOLS | {"MultiEdit"}
TODO_MARKS = {"completed": "☑", "in_progress": "◐", "pending": "☐", "cancelled": "☒"}
# To-do lists and plans (Claude Code's, Codex's, Gemini CLI's): the list's field, and
# each item's text field.
PLAN_TOOLS = {"TodoWrite": ("todos", "content"), "update_plan": ("plan", "step"),
              "write_todos": ("todos", "description")}
# The tools that look for files or text: the pattern's field, the folder's, the files'.
SEARCH_TOOLS = {"Glob": ("pattern", "path", None), "glob": ("pattern", "dir_path", None),
                "Grep": ("pattern", "path", "glob"), "search_file_content": ("pattern", "dir_path", "include"),
                "grep": ("pattern", "dir_path", "include")}
FOLDER_TOOLS = {"LS": "path", "list_directory": "dir_path", "view_image": "path"}
# A shell left running: its id's field.
SHELL_TOOLS = {"BashOutput": "bash_id", "KillShell": "shell_id", "KillBash": "shell_id", "write_stdin": "session_id"}
QUERY_TOOLS = frozenset({"WebSearch", "google_web_search", "ToolSearch"})
# Tools whose input is a few short fields, shown as a list of them, in this order.
FIELD_TOOLS = {
    "TaskCreate": ("subject", "description", "activeForm"), "TaskUpdate": ("taskId", "status", "subject", "owner"),
    "TaskGet": ("taskId",), "TaskList": (), "SendMessage": ("type", "recipient", "to", "summary", "content", "message"),
    "save_memory": ("fact",),
}
MCP_PREFIX = "mcp__"
# A line's length at most in a view bounded to a number of lines (a longer line is cut):
# a minified file's one line is its whole text.
BOUNDED_LINE_CHARS = 200
# One line's length at most, and its JSON's: a line names a call, it does not show it.
LINE_CHARS = 200
LINE_JSON_CHARS = 120

Shown = list[etree.Element | str]
View = Callable[[object, "int | None"], "Shown | None"]


def tool_call_html(name: str, tool_input: object, lines: int | None = None) -> str:
    """A tool call as HTML: the view of its tool, or its name and input, folded.

    `lines` bounds each code block, diff, checklist and text shown to that many lines,
    each cut at BOUNDED_LINE_CHARS characters, with a note of how many more lines there
    are, and folds nothing: a view for a preview or a quotation. The fields of its input
    the view leaves out are then only named."""
    tool_input = displayable_value(tool_input)  # every field, the ones a view shows as they are too
    lines = None if lines is None else max(lines, 1)
    view = _view(name)
    shown = view(tool_input, lines) if view else None
    if shown is None:
        pretty = indented_json(tool_input)
        shown = [_text_block(pretty, f"Input ({_size(pretty)})", lines)]
    elif isinstance(tool_input, dict):
        # What the view leaves out (a timeout, `replace_all`) is shown too, folded.
        shown_keys = _shown_keys(name, tool_input)
        rest = {key: value for key, value in tool_input.items() if key not in shown_keys}
        if rest and lines is None:
            pretty = indented_json(rest)
            shown.append(_folded_text(pretty, f"Other input ({len(rest)} field{'s' if len(rest) > 1 else ''})"))
        elif rest:
            shown.append(_paragraph("msg-more", "Other input: " + ", ".join(map(str, rest))))
    parts = (part if isinstance(part, str) else to_html(part) for part in shown)
    return f'<div class="msg-tool">{_paragraph("msg-tool__name", displayable(name))}{"".join(parts)}</div>'


def tool_output_html(text: str, label: str, lines: int | None = None, *, tool: str | None = None,
                     call_input: object = None) -> str:
    """A tool's output, as preformatted text under `label`: folded, with its size, when
    long; bounded by `lines`, as `tool_call_html`'s views are, if given. A file read, given
    the `tool` and the `call_input` of the call it answers, is shown as its code, with
    its line numbers, if the output is the file's numbered lines."""
    if not text.strip():
        return _paragraph("msg-output msg-output--empty", f"{label}: empty")
    lines = None if lines is None else max(lines, 1)
    read = _file_read(text, label, lines, tool, call_input)
    if read is not None:
        return read
    if lines is not None:
        return _paragraph("msg-output__label", label) + _bounded_pre(text, lines)
    if _is_long(text):
        return _folded_text(text, f"{label} ({_size(text)})")
    return _paragraph("msg-output__label", label) + _pre(text)


def tool_call_line(name: str, tool_input: object) -> str:
    """A tool call as one line of plain text, what a reader needs first: `$ make test`,
    `Edit src/app.py`, `Read src/x.py, lines 10–30`, `Grep "TODO" in src`, `TodoWrite: 5
    items, 2 done`, `mcp: server · tool`; any other call as its name and its input as
    JSON, cut near LINE_JSON_CHARS characters. Every character displayable, whitespace
    collapsed, and at most about LINE_CHARS characters."""
    if name in PATCH_TOOLS and isinstance(tool_input, str):  # Codex's patch, the call's whole input
        tool_input = {"input": tool_input}
    said = _said(name, tool_input) if isinstance(tool_input, dict) else None
    if said is None:
        if tool_input in (None, {}, []):
            said = name
        else:
            written = json.dumps(tool_input, ensure_ascii=False, default=str)[:4 * LINE_JSON_CHARS]
            said = f"{name} {_one_line(written, LINE_JSON_CHARS)}"
    return _one_line(said, LINE_CHARS)


def _said(name: str, tool_input: dict[object, object]) -> str | None:
    """What a call did, in words, if its input has the shape its tool's view expects."""
    def text(*keys: str) -> str | None:
        value = next((tool_input[key] for key in keys if key in tool_input), None)
        return value if isinstance(value, str) else None

    path = text("file_path", "absolute_path", "notebook_path")
    if name in COMMAND_TOOLS:
        command = tool_input.get(COMMAND_TOOLS[name])
        if isinstance(command, list) and all(isinstance(word, str) for word in command):
            command = " ".join(command)
        return f"$ {command}" if isinstance(command, str) else None
    if name in EDIT_TOOLS and path is not None:
        return f"{name} {path}"
    if name == "MultiEdit" and path is not None and isinstance(edits := tool_input.get("edits"), list):
        count = len(edits)
        return f"{name} {path} ({count} edit{'s' if count != 1 else ''})"
    if name in WRITE_TOOLS and path is not None and isinstance(content := tool_input.get("content"), str):
        count = content.count("\n") + (not content.endswith("\n"))
        return f"{name} {path} ({count:,} line{'s' if count != 1 else ''})"
    if name in READ_TOOLS and path is not None:
        offset, limit = tool_input.get("offset"), tool_input.get("limit")
        read = _lines_read(offset, limit) if _is_line_number(offset) and _is_line_number(limit) else ""
        return f"{name} {path}{read}"
    if name in PLAN_TOOLS and isinstance(items := tool_input.get(PLAN_TOOLS[name][0]), list):
        done = sum(1 for item in items if isinstance(item, dict) and item.get("status") == "completed")
        return f"{name}: {len(items)} item{'s' if len(items) != 1 else ''}, {done} done"
    if name in TASK_TOOLS and (what := text("description", "subagent_type", "prompt")) is not None:
        return f"{name}: {what}"
    if name in PATCH_TOOLS:
        patch = tool_input.get("input")
        files = [line.split(":", 1)[1].strip() for line in patch.splitlines()[:DIFFED_LINES]
                 if line.startswith("*** ") and "File:" in line] if isinstance(patch, str) else []
        return f"{name} {', '.join(files)}" if files else None
    if name in SEARCH_TOOLS and (pattern := text(SEARCH_TOOLS[name][0])) is not None:
        folder, files_key = text(SEARCH_TOOLS[name][1], "path"), SEARCH_TOOLS[name][2]
        among = text(files_key) if files_key else None
        shown = pattern if name.lower() == "glob" else f'"{pattern}"'
        return f"{name} {shown}{f' in {folder}' if folder else ''}{f', files {among}' if among else ''}"
    if name in FOLDER_TOOLS and (folder := text(FOLDER_TOOLS[name], "path")) is not None:
        return f"{name} {folder}"
    if name == "read_many_files" and isinstance(paths := tool_input.get("paths"), list):
        return f"{name} {', '.join(str(path) for path in paths[:20])}"
    if name in SHELL_TOOLS and isinstance(shell := tool_input.get(SHELL_TOOLS[name]), str | int):
        written = text("chars")
        return f"{name}: shell {shell}{f', writes {json.dumps(written, ensure_ascii=False)}' if written else ''}"
    if name in ("WebFetch", "web_fetch") and (what := text("url", "prompt")) is not None:
        return f"{name} {what}"
    if name in QUERY_TOOLS and (query := text("query")) is not None:
        return f'{name} "{query}"'
    if name == "NotebookEdit" and path is not None:
        cell = text("cell_id")
        return f"{name} {path}{f', cell {cell}' if cell else ''}"
    if name in ("ExitPlanMode", "AskUserQuestion") and (words := text("plan", "question")) is not None:
        return f"{name}: {words}"
    if name in FIELD_TOOLS:
        values = [str(tool_input[key]) for key in FIELD_TOOLS[name] if key in tool_input and _is_field(tool_input[key])]
        return f"{name}: {' · '.join(values)}" if values else name
    if (names := _mcp_names(name)) is not None:
        return f"mcp: {names[0]} · {names[1]}"
    return None


def _one_line(text: str, limit: int) -> str:
    """`text` displayable, its whitespace collapsed, cut near `limit` characters with "…":
    at a space near the end, or else within a word."""
    words = " ".join(displayable(text[:4 * limit + 64]).split())
    if len(words) <= limit and len(text) <= 4 * limit + 64:
        return words
    cut = words[:limit - 1]
    space = cut.rfind(" ")
    return (cut[:space] if space > limit * 3 // 4 else cut).rstrip(" ,;:.") + "…"


def _file_read(text: str, label: str, lines: int | None, tool: str | None, call_input: object) -> str | None:
    """The output of a call that reads or edits a file, when it is the file's numbered
    lines: their code, highlighted by the type of the call's path, each line after its
    number; what the tool says before the lines as words, what it adds after them folded.
    None for any other output."""
    if tool not in NUMBERED_OUTPUT_TOOLS or not isinstance(call_input, dict):
        return None
    path = call_input.get("file_path", call_input.get("absolute_path"))
    read = numbered_file(text) if isinstance(path, str) else None
    if read is None or not isinstance(path, str):
        return None
    before = _paragraph("msg-tool__note", read.before) if read.before else ""
    read_lines = len(read.lines)
    if lines is not None:  # the lines shown, each cut as a bounded view's are
        read = dataclasses.replace(read, lines=[_cut_line(line) for line in read.lines[:lines]])
    code = numbered_code_html(read, path, lines)
    if lines is not None and read_lines > lines:
        return _paragraph("msg-output__label", label) + before + code + _more(read_lines - lines, "line")
    # What the tool adds after the lines, such as a reminder to the model.
    after = _text_block(read.after, f"After the lines ({_size(read.after)})", lines) if read.after else ""
    if lines is None and (len(read.lines) >= FOLDED_LINES or len(text) - len(read.after) > FOLDED_CHARS):
        return f'<details class="msg-fold"><summary>{html.escape(label, quote=False)} ({_size(text)})</summary>' \
               f"{before}{code}{after}</details>"
    return _paragraph("msg-output__label", label) + before + code + after


def _view(name: str) -> View | None:
    view = _VIEWS.get(name)
    if view is None and (names := _mcp_names(name)) is not None:
        return _mcp(*names)
    return view


def _shown_keys(name: str, tool_input: dict[object, object]) -> frozenset[object]:
    """The fields of its input a call's view shows."""
    if name in _VIEW_KEYS:
        return _VIEW_KEYS[name]
    return frozenset(key for key, value in tool_input.items() if _is_field(value))


# --- The views, each of the input of a tool ---------------------------------------------

def _command(key: str) -> View:
    def view(tool_input: object, lines: int | None) -> Shown | None:
        if not isinstance(tool_input, dict):
            return None
        command = tool_input.get(key)
        if isinstance(command, list) and all(isinstance(word, str) for word in command):
            command = " ".join(command)
        if not isinstance(command, str):
            return None
        shown: Shown = []
        description = tool_input.get("description")
        if isinstance(description, str) and description.strip():
            shown.append(_paragraph("msg-tool__note", _bounded_line(description, lines)))
        shown.append(_bounded_pre("$ " + command, lines, "msg-command"))
        return shown

    return view


def _edit(tool_input: object, lines: int | None) -> Shown | None:
    if not isinstance(tool_input, dict):
        return None
    path, old, new = (tool_input.get(key) for key in ("file_path", "old_string", "new_string"))
    if not (isinstance(path, str) and isinstance(old, str) and isinstance(new, str)):
        return None
    shown, _ = _diff([(old, new)], lines)
    return [_path(path), *shown]


def _multi_edit(tool_input: object, lines: int | None) -> Shown | None:
    if not isinstance(tool_input, dict) or not isinstance(tool_input.get("edits"), list):
        return None
    path, pairs = tool_input.get("file_path"), []
    for edit in tool_input["edits"]:
        old, new = (edit.get("old_string"), edit.get("new_string")) if isinstance(edit, dict) else (None, None)
        if not (isinstance(old, str) and isinstance(new, str)):
            return None
        pairs.append((old, new))
    if not isinstance(path, str):
        return None
    shown, diffed = _diff(pairs, lines)
    if diffed < len(pairs):
        rest = indented_json(tool_input["edits"][diffed:])
        left = len(pairs) - diffed
        note = (f"{left:,} more edit{'s' if left > 1 else ''}, past the {DIFFED_EDITS} edits or {DIFFED_CALL_LINES:,} "
                "lines a call is diffed for, shown as the call gives them:")
        shown += [_paragraph("msg-tool__note", note), _text_block(rest, f"The other edits ({_size(rest)})", lines)]
    return [_path(path), *shown]


def _write(tool_input: object, lines: int | None) -> Shown | None:
    if not isinstance(tool_input, dict):
        return None
    path, content = tool_input.get("file_path"), tool_input.get("content")
    if not (isinstance(path, str) and isinstance(content, str)):
        return None
    code = _highlighted(content, path, lines)
    if lines is None and _is_long(content):
        return [_path(path), f'<details class="msg-fold"><summary>The file ({_size(content)})</summary>'
                             f"{code}</details>"]
    return [_path(path), code]


def _read(tool_input: object, lines: int | None) -> Shown | None:
    if not isinstance(tool_input, dict):
        return None
    path = tool_input.get("file_path", tool_input.get("absolute_path"))
    if not isinstance(path, str):
        return None
    offset, limit = tool_input.get("offset"), tool_input.get("limit")
    if not (_is_line_number(offset) and _is_line_number(limit)):
        return None
    where = _path(path)
    where[-1].tail = _lines_read(offset, limit)
    return [where]


def _plan(tool_input: object, lines: int | None, items_key: str, text_key: str) -> Shown | None:
    """A to-do list or a plan, as a checklist: each item's text and its status."""
    items = tool_input.get(items_key) if isinstance(tool_input, dict) else None
    if not isinstance(items, list) or not all(
            isinstance(item, dict) and isinstance(item.get(text_key), str) for item in items):
        return None
    shown: Shown = []
    explanation = tool_input.get("explanation") if isinstance(tool_input, dict) else None
    if isinstance(explanation, str) and explanation.strip():  # Codex's reason for the plan
        shown.append(_paragraph("msg-tool__note", _bounded_line(explanation, lines)))
    listed = TODO_ITEMS if lines is None else min(lines, TODO_ITEMS)
    checklist = etree.Element("ul", {"class": "msg-todos"})
    for item in items[:listed]:
        status = item.get("status")
        known = isinstance(status, str) and status in TODO_MARKS  # a list or an object is no status
        entry = etree.SubElement(checklist, "li", {"class": f"msg-todo msg-todo--{status}" if known else "msg-todo"})
        mark = etree.SubElement(entry, "span", {"class": "msg-todo__mark"})
        mark.text = TODO_MARKS[status] if known else "☐"
        mark.tail = " " + displayable(item[text_key] if lines is None else _cut_line(item[text_key]))
        if isinstance(status, str) and status != "pending":
            state = etree.SubElement(entry, "span", {"class": "msg-todo__status"})
            state.text = f" ({displayable(status.replace('_', ' '))})"
    shown.append(checklist)
    if len(items) <= listed:
        return shown
    if lines is not None:
        return [*shown, _more(len(items) - listed, "item")]
    rest = indented_json(items[TODO_ITEMS:])
    note = f"{len(items) - TODO_ITEMS:,} more items, past the {TODO_ITEMS:,} a checklist shows, as the call gives them:"
    return [*shown, _paragraph("msg-tool__note", note), _folded_text(rest, f"The other items ({_size(rest)})")]


def _checklist(items_key: str, text_key: str) -> View:
    def view(tool_input: object, lines: int | None) -> Shown | None:
        return _plan(tool_input, lines, items_key, text_key)

    return view


def _task(tool_input: object, lines: int | None) -> Shown | None:
    """A subagent sent off: what for, and its prompt, as Markdown, folded."""
    if not isinstance(tool_input, dict):
        return None
    description, agent, prompt = (tool_input.get(key) for key in ("description", "subagent_type", "prompt"))
    if not all(isinstance(value, str) or value is None for value in (description, agent, prompt)):
        return None
    shown: Shown = []
    if description or agent:
        shown.append(_paragraph("msg-tool__note", " · ".join(str(value) for value in (agent, description) if value)))
    if prompt and lines is None:
        shown.append(f'<details class="msg-fold"><summary>Prompt ({_size(prompt)})</summary>'
                     f"{_markdown_block(prompt, None)}</details>")
    elif prompt:
        shown += [_paragraph("msg-tool__note", f"Prompt ({_size(prompt)})"), _markdown_block(prompt, lines)]
    return shown


def _patch(tool_input: object, lines: int | None) -> Shown | None:
    patch = tool_input.get("input") if isinstance(tool_input, dict) else tool_input
    if not isinstance(patch, str):
        return None
    patch_lines = patch.splitlines()
    if len(patch_lines) > DIFFED_LINES:
        return [_text_block(patch, f"Patch ({_size(patch)})", lines)]
    return _diff_lines(patch_lines, lines)


def _search(pattern_key: str, folder_key: str, files_key: str | None) -> View:
    """A search for files or text: its pattern, in which folder, among which files."""
    def view(tool_input: object, lines: int | None) -> Shown | None:
        if not isinstance(tool_input, dict):
            return None
        pattern = tool_input.get(pattern_key)
        folder = tool_input.get(folder_key, tool_input.get("path"))
        files = tool_input.get(files_key) if files_key else None
        if not (isinstance(pattern, str) and _is_text_or_none(folder) and _is_text_or_none(files)):
            return None
        line = etree.Element("p", {"class": "msg-tool__path"})
        _code(line, pattern)
        if isinstance(folder, str):
            _code(line, folder, " in ")
        if isinstance(files, str):
            _code(line, files, ", files ")
        return [line]

    return view


def _folder(key: str) -> View:
    """A folder listed, or an image looked at: its path."""
    def view(tool_input: object, lines: int | None) -> Shown | None:
        path = tool_input.get(key, tool_input.get("path")) if isinstance(tool_input, dict) else None
        return [_path(path)] if isinstance(path, str) else None

    return view


def _many_files(tool_input: object, lines: int | None) -> Shown | None:
    """Gemini CLI's read_many_files: its paths or patterns, one a line."""
    paths = tool_input.get("paths") if isinstance(tool_input, dict) else None
    if not isinstance(paths, list) or not all(isinstance(path, str) for path in paths):
        return None
    listed = etree.Element("ul", {"class": "msg-paths"})
    for path in paths[:_items(lines)]:
        _code(etree.SubElement(listed, "li"), path)
    return [listed, _more(len(paths) - len(listed), "path")]


def _shell(key: str) -> View:
    """A shell left running, asked for its output, written to or ended: which one, and
    what was written to it."""
    def view(tool_input: object, lines: int | None) -> Shown | None:
        if not isinstance(tool_input, dict):
            return None
        shell, written, matching = tool_input.get(key), tool_input.get("chars"), tool_input.get("filter")
        if not (isinstance(shell, str | int) and not isinstance(shell, bool) and _is_text_or_none(written)
                and _is_text_or_none(matching)):
            return None
        line = etree.Element("p", {"class": "msg-tool__path"})
        line.text = "Shell "
        _code(line, str(shell))
        if isinstance(matching, str):
            _code(line, matching, ", the lines matching ")
        shown: Shown = [line]
        if written:
            shown += [_paragraph("msg-tool__note", "Written to it:"), _bounded_pre(written, lines)]
        return shown

    return view


def _web_fetch(tool_input: object, lines: int | None) -> Shown | None:
    """A page fetched (Gemini CLI's web_fetch names its pages in its prompt), and what was asked of it."""
    if not isinstance(tool_input, dict):
        return None
    url, prompt = tool_input.get("url"), tool_input.get("prompt")
    if not (_is_text_or_none(url) and isinstance(prompt, str)):
        return None
    shown: Shown = [_path(url)] if isinstance(url, str) else []
    return [*shown, _words(prompt, "Prompt", lines)]


def _query(tool_input: object, lines: int | None) -> Shown | None:
    """A search of the web, or of the session's tools: its query."""
    query = tool_input.get("query") if isinstance(tool_input, dict) else None
    if not isinstance(query, str):
        return None
    line = etree.Element("p", {"class": "msg-tool__path"})
    _code(line, query)
    return [line]


def _notebook_edit(tool_input: object, lines: int | None) -> Shown | None:
    """A notebook's cell replaced, inserted or deleted: which, and its new source."""
    if not isinstance(tool_input, dict):
        return None
    path, cell, source = (tool_input.get(key) for key in ("notebook_path", "cell_id", "new_source"))
    mode, kind = tool_input.get("edit_mode"), tool_input.get("cell_type")
    if not (isinstance(path, str) and all(_is_text_or_none(value) for value in (cell, source, mode, kind))):
        return None
    where = _path(path)
    where[-1].tail = "".join(part for part in (
        f", cell {cell}" if isinstance(cell, str) else "", f" ({mode})" if isinstance(mode, str) else "") if part)
    if not isinstance(source, str) or mode == "delete":
        return [where]
    # A cell's language is its notebook's: most are Python, and a Markdown cell is text.
    return [where, _highlighted(source, "cell.md" if kind == "markdown" else "cell.py", lines)]


def _plan_shown(tool_input: object, lines: int | None) -> Shown | None:
    """Claude Code's plan, written for the user to approve."""
    plan = tool_input.get("plan") if isinstance(tool_input, dict) else None
    return [_markdown_block(plan, lines)] if isinstance(plan, str) else None


def _question(tool_input: object, lines: int | None) -> Shown | None:
    """Claude Code's questions to the user: each with its choices, if it gives them."""
    if not isinstance(tool_input, dict):
        return None
    if isinstance(tool_input.get("question"), str):
        return [_markdown_block(str(tool_input["question"]), lines)]
    questions = tool_input.get("questions")
    if not isinstance(questions, list) or not all(
            isinstance(question, dict) and isinstance(question.get("question"), str) for question in questions):
        return None
    shown: Shown = []
    for question in questions:
        shown.append(_paragraph("msg-tool__note", _bounded_line(question["question"], lines)))
        options = question.get("options")
        if not isinstance(options, list):
            continue
        labels = [option.get("label") if isinstance(option, dict) else option for option in options]
        choices = etree.Element("ul", {"class": "msg-choices"})
        for label in labels[:_items(lines)]:
            etree.SubElement(choices, "li").text = _bounded_line(str(label), lines)
        shown += [choices, _more(len(labels) - len(choices), "choice")]
    return shown


def _fields(keys: Sequence[str]) -> View:
    """A call of a few short fields, as a list of them."""
    def view(tool_input: object, lines: int | None) -> Shown | None:
        if not isinstance(tool_input, dict) or not all(_is_field(tool_input.get(key)) for key in keys):
            return None
        return [_field_list([(key, tool_input[key]) for key in keys if key in tool_input], lines)]

    return view


def _mcp(server: str, tool: str) -> View:
    """A tool of an MCP server: the server, the tool, and its short fields as a list."""
    def view(tool_input: object, lines: int | None) -> Shown | None:
        if not isinstance(tool_input, dict):
            return None
        fields = [(key, value) for key, value in tool_input.items() if _is_field(value)]
        return [_paragraph("msg-tool__note", f"MCP server {server} · tool {tool}"), _field_list(fields, lines)]

    return view


def _mcp_names(name: str) -> tuple[str, str] | None:
    """The server and the tool of an MCP tool's name, `mcp__<server>__<tool>`."""
    server, _, tool = name.removeprefix(MCP_PREFIX).partition("__")
    return (server, tool) if name.startswith(MCP_PREFIX) and server and tool else None


# --- The blocks a view is made of -------------------------------------------------------

def _path(path: str) -> etree.Element:
    line = etree.Element("p", {"class": "msg-tool__path"})
    etree.SubElement(line, "code").text = displayable(path)
    return line


def _code(parent: etree.Element, text: str, before: str = "") -> None:
    """`text` as code at the end of `parent`, after the words `before`."""
    if len(parent):
        parent[-1].tail = (parent[-1].tail or "") + before
    else:
        parent.text = (parent.text or "") + before
    etree.SubElement(parent, "code").text = displayable(text)


def _words(text: str, label: str, lines: int | None) -> str:
    """A text written for a reader, such as a prompt: as a paragraph if short, else as a block."""
    if lines is None and not _is_long(text):
        return _paragraph("msg-tool__note", text)
    return _text_block(text, f"{label} ({_size(text)})", lines)


def _markdown_block(text: str, lines: int | None) -> str:
    """Words a model wrote for a reader (a prompt, a plan), as Markdown, as a message's
    text is shown; their first `lines` lines if given."""
    shown, more = _first_lines(text, lines) if lines is not None else (text, 0)
    return f'<div class="msg-tool__markdown">{_markdown().html(shown)}</div>{_more(more, "line")}'


@functools.cache  # one converter, reset for each text: making one takes longer than most conversions
def _markdown() -> MessageMarkdown:
    return MessageMarkdown()


def _field_list(fields: Sequence[tuple[object, object]], lines: int | None) -> str:
    """Short fields as a definition list: each name, and its value as text."""
    if not fields:
        return ""
    listed = etree.Element("dl", {"class": "msg-fields"})
    for key, value in fields[:_items(lines)]:
        etree.SubElement(listed, "dt").text = str(key)
        text = value if isinstance(value, str) else indented_json(value)
        kept, more = _first_lines(text, lines) if lines is not None else (text, 0)
        etree.SubElement(listed, "dd").text = kept + (f"… {more:,} more line{'s' if more > 1 else ''}" if more else "")
    return to_html(listed) + _more(len(fields) - len(listed) // 2, "field")


def _diff(pairs: Sequence[tuple[str, str]], bound: int | None) -> tuple[Shown, int]:
    """The changes from each old text to its new one, as a unified diff of their lines;
    a change of more than DIFFED_LINES lines as its two texts, folded, after the diff;
    and how many of the pairs that is, the first DIFFED_EDITS at most, of at most
    DIFFED_CALL_LINES lines diffed in all."""
    lines: list[str] = []
    whole: Shown = []
    diffed_lines, shown = 0, 0
    for old, new in pairs[:DIFFED_EDITS]:
        old_lines, new_lines = old.splitlines(), new.splitlines()
        count = len(old_lines) + len(new_lines)
        if count > DIFFED_LINES:
            whole += [_text_block(old, f"Old text ({_size(old)})", bound),
                      _text_block(new, f"New text ({_size(new)})", bound)]
        elif diffed_lines + count > DIFFED_CALL_LINES:
            break
        else:
            diffed_lines += count
            changes = difflib.unified_diff(old_lines, new_lines, lineterm="", n=3)
            lines.extend(line for line in changes if not line.startswith(("---", "+++")))
        shown += 1
    return ([*_diff_lines(lines, bound), *whole] if lines or not whole else whole), shown


def _diff_lines(lines: Sequence[str], bound: int | None) -> Shown:
    """The lines of a diff, its first `bound` lines if given."""
    pre = etree.Element("pre", {"class": "msg-diff"})
    code = etree.SubElement(pre, "samp")
    for line in lines[:bound]:
        kind = {"+": "ins", "-": "del", "@": "span"}.get(line[:1], "span")
        part = etree.SubElement(code, kind, {"class": "msg-diff__hunk"} if line.startswith("@@") else {})
        part.text = displayable(line if bound is None else _cut_line(line)) + "\n"
    return [pre, _more(len(lines) - len(code), "line")]


def _highlighted(text: str, path: str, lines: int | None = None) -> str:
    """Code highlighted by the lexer of its file's type, if `highlight` allows; its first
    `lines` lines if given."""
    shown, more = _first_lines(displayable(text), lines) if lines is not None else (displayable(text), 0)
    lexer = lexer_for(path=path) if len(shown) <= HIGHLIGHTED_CHARS else None
    tokens = tokens_in_time(lexer, shown, time.monotonic() + HIGHLIGHT_SECONDS) if lexer is not None else None
    if tokens is None:
        return _pre(shown) + _more(more, "line")
    # In a <div class="highlight">, as the site's own code.
    return as_sample(str(format_tokens(tokens, _FORMATTER))) + _more(more, "line")


# The commonest elements of a tool's view, written as `snippets.to_html` writes them, but
# without building them first: a whole session holds tens of thousands of them. Their
# classes are the module's own.

def _paragraph(css: str, text: str) -> str:
    return f'<p class="{css}">{html.escape(text, quote=False)}</p>'


def _pre(text: str, css: str = "msg-output") -> str:
    return f'<pre class="{css}"><samp>{html.escape(displayable(text), quote=False)}</samp></pre>'


def _bounded_pre(text: str, lines: int | None, css: str = "msg-output") -> str:
    """`text` preformatted, its first `lines` lines if given, and a note of the rest."""
    if lines is None:
        return _pre(text, css)
    kept, more = _first_lines(text, lines)
    return _pre(kept, css) + _more(more, "line")


def _folded_text(text: str, label: str) -> str:
    return f'<details class="msg-fold"><summary>{html.escape(label, quote=False)}</summary>{_pre(text)}</details>'


def _text_block(text: str, label: str, lines: int | None) -> str:
    """`text` folded under `label`; or, bounded by `lines`, its first lines under it."""
    if lines is None:
        return _folded_text(text, label)
    return _paragraph("msg-tool__note", label) + _bounded_pre(text, lines)


def _more(count: int, what: str) -> str:
    """The note of what a bounded view leaves out: "… 40 more lines"."""
    return _paragraph("msg-more", f"… {count:,} more {what}{'s' if count > 1 else ''}") if count > 0 else ""


def _items(lines: int | None) -> int:
    """How many items of a list (paths, choices, fields) are shown: as many as its lines
    if bounded, and at most TODO_ITEMS, as a checklist's."""
    return TODO_ITEMS if lines is None else min(lines, TODO_ITEMS)


def _first_lines(text: str, count: int) -> tuple[str, int]:
    """The first `count` lines of `text` (a line break that ends it starts no line), each
    cut at BOUNDED_LINE_CHARS, and how many lines are left out. Found line by line: a
    text may be an output of megabytes."""
    end = -1
    for _ in range(count):
        end = text.find("\n", end + 1)
        if end < 0:
            return _cut_lines(text), 0
    rest = text[end + 1:]
    if not rest:
        return _cut_lines(text), 0
    return _cut_lines(text[:end + 1]), rest.count("\n") + (not rest.endswith("\n"))


def _cut_lines(text: str) -> str:
    """`text` with each line longer than BOUNDED_LINE_CHARS cut there, marked with "…"."""
    if len(text) <= BOUNDED_LINE_CHARS:
        return text
    return "\n".join(_cut_line(line) for line in text.split("\n"))


def _bounded_line(text: str, lines: int | None) -> str:
    """A short text shown whole, such as a description: cut as a line is, if bounded."""
    return text if lines is None else _cut_line(text)


def _cut_line(line: str) -> str:
    return line if len(line) <= BOUNDED_LINE_CHARS else line[:BOUNDED_LINE_CHARS - 1] + "…"


def _is_long(text: str) -> bool:
    return len(text) > FOLDED_CHARS or text.count("\n") >= FOLDED_LINES


def _size(text: str) -> str:
    lines = text.count("\n") + (not text.endswith("\n"))
    size = len(text.encode(errors="replace"))
    amount = f"{size:,} bytes" if size < 10_000 else f"{size / 1000:,.0f} KB"
    return f"{lines:,} line{'s' if lines != 1 else ''}, {amount}"


def _is_text_or_none(value: object) -> bool:
    return value is None or isinstance(value, str)


def _is_field(value: object) -> bool:
    """Whether a value is a short field's: a text, a number, true, false or null."""
    return value is None or isinstance(value, str | int | float)


def _is_line_number(number: object) -> bool:
    # Line numbers as a file has them: a number of thousands of digits is no line's.
    return number is None or (type(number) is int and abs(number) < 2**63)


def _lines_read(offset: object, limit: object) -> str:
    """Which lines of a file a call reads, after its path: ", lines 10–14"."""
    if type(offset) is int and type(limit) is int:
        return f", lines {offset}–{offset + limit - 1}"
    if type(offset) is int:
        return f", from line {offset}"
    if type(limit) is int:
        return f", the first {limit} lines"
    return ""


_VIEWS: dict[str, View] = {
    **{name: _command(key) for name, key in COMMAND_TOOLS.items()},
    **dict.fromkeys(EDIT_TOOLS, _edit), "MultiEdit": _multi_edit, **dict.fromkeys(WRITE_TOOLS, _write),
    **dict.fromkeys(READ_TOOLS, _read), **dict.fromkeys(PATCH_TOOLS, _patch), **dict.fromkeys(TASK_TOOLS, _task),
    **{name: _checklist(*keys) for name, keys in PLAN_TOOLS.items()},
    **{name: _search(*keys) for name, keys in SEARCH_TOOLS.items()},
    **{name: _folder(key) for name, key in FOLDER_TOOLS.items()}, "read_many_files": _many_files,
    **{name: _shell(key) for name, key in SHELL_TOOLS.items()},
    "WebFetch": _web_fetch, "web_fetch": _web_fetch, **dict.fromkeys(QUERY_TOOLS, _query),
    "NotebookEdit": _notebook_edit, "ExitPlanMode": _plan_shown, "AskUserQuestion": _question,
    **{name: _fields(keys) for name, keys in FIELD_TOOLS.items()},
}
# The fields of its input each view shows.
_VIEW_KEYS: dict[str, frozenset[object]] = {
    **{name: frozenset({key, "description"}) for name, key in COMMAND_TOOLS.items()},
    **dict.fromkeys(EDIT_TOOLS, frozenset({"file_path", "old_string", "new_string"})),
    "MultiEdit": frozenset({"file_path", "edits"}), **dict.fromkeys(WRITE_TOOLS, frozenset({"file_path", "content"})),
    **dict.fromkeys(READ_TOOLS, frozenset({"file_path", "absolute_path", "offset", "limit"})),
    **dict.fromkeys(PATCH_TOOLS, frozenset({"input"})),
    **dict.fromkeys(TASK_TOOLS, frozenset({"description", "subagent_type", "prompt"})),
    **{name: frozenset({items, "explanation"}) for name, (items, _) in PLAN_TOOLS.items()},
    **{name: frozenset({pattern, folder, "path", files} - {None}) for name, (pattern, folder, files)
       in SEARCH_TOOLS.items()},
    **{name: frozenset({key, "path"}) for name, key in FOLDER_TOOLS.items()}, "read_many_files": frozenset({"paths"}),
    **{name: frozenset({key, "chars", "filter"}) for name, key in SHELL_TOOLS.items()},
    "WebFetch": frozenset({"url", "prompt"}), "web_fetch": frozenset({"url", "prompt"}),
    **dict.fromkeys(QUERY_TOOLS, frozenset({"query"})),
    "NotebookEdit": frozenset({"notebook_path", "cell_id", "new_source", "edit_mode", "cell_type"}),
    "ExitPlanMode": frozenset({"plan"}), "AskUserQuestion": frozenset({"question", "questions"}),
    **{name: frozenset(keys) for name, keys in FIELD_TOOLS.items()},
}
