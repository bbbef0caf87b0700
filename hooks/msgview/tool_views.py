"""A tool call and a tool's output, shown as what they did: a command and its output, an
edit as a diff, a file written as its code, a file read as its path and lines, a to-do
list as a checklist; any other call as its name and its input, folded.

The names and inputs are the session's tools' own (Claude Code's, Codex's, Gemini CLI's),
from the log: an input not of the expected shape is shown as any other call's is.
Everything is built as elements, and code is highlighted by Pygments, which escapes it.
What a log may make costly is bounded: code is highlighted only by the lexers of common
languages and only within a time, and an edit too long to diff is shown as its texts, as
are a call's edits past what a call is diffed for.
"""

from __future__ import annotations

import difflib
import functools
import html
import posixpath
import time
import xml.etree.ElementTree as etree
from collections.abc import Callable, Sequence

from pygments import format as format_tokens
from pygments.formatters import HtmlFormatter
from pygments.lexer import Lexer
from pygments.lexers import get_lexer_by_name, get_lexer_for_filename
from pygments.token import _TokenType
from pygments.util import ClassNotFound

from .html import to_html
from .text import displayable, displayable_value, indented_json

# Longer outputs and files are folded, their size in the fold's label.
FOLDED_LINES = 12
FOLDED_CHARS = 1200
# Longer files are shown without highlighting: Pygments takes a second for a few
# hundred kilobytes, and a session writes many files.
HIGHLIGHTED_CHARS = 20_000
_FORMATTER = HtmlFormatter(wrapcode=True)
# The lexer is the log's to choose, by a file's name or a fence's language, and many of
# Pygments' take time by the square of a text made for them (C on blank lines: 15 s for
# 20,000), some exponential time (mcschema on "<!--": minutes for 100 characters). Only
# the lexers of these languages, which sessions most write, are used (by their first
# names, none of them handing code to a lexer it names), and code not lexed within
# HIGHLIGHT_SECONDS is shown without highlighting: only code made to stall a lexer is.
HIGHLIGHTED_LANGUAGES = frozenset({
    "bash", "c", "console", "cpp", "csharp", "css", "diff", "docker", "go", "graphql", "haskell", "html", "ini",
    "java", "javascript", "json", "jsx", "kotlin", "lua", "make", "perl", "php", "powershell", "pycon", "pytb",
    "python", "ruby", "rust", "scala", "scss", "sql", "swift", "text", "toml", "tsx", "typescript", "xml", "yaml"})
HIGHLIGHT_SECONDS = 0.2
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
# The longest file name most file systems allow: a longer "name" is no file's, and
# matching it against every lexer's patterns took a second for a megabyte.
_NAME_CHARS = 255

COMMAND_TOOLS = {"Bash": "command", "exec_command": "cmd", "shell": "command", "run_shell_command": "command",
                 "local_shell": "command"}
EDIT_TOOLS = frozenset({"Edit", "replace"})
WRITE_TOOLS = frozenset({"Write", "write_file"})
READ_TOOLS = frozenset({"Read", "read_file"})
TODO_TOOLS = frozenset({"TodoWrite"})
PATCH_TOOLS = frozenset({"apply_patch"})
TASK_TOOLS = frozenset({"Task", "Agent"})
TODO_MARKS = {"completed": "☑", "in_progress": "◐", "pending": "☐"}


def tool_call_html(name: str, tool_input: object) -> str:
    """A tool call as HTML: the view of its tool, or its name and input, folded."""
    tool_input = displayable_value(tool_input)  # every field, the ones a view shows as they are too
    view = _VIEWS.get(name)
    shown = view(tool_input) if view else None
    if shown is None:
        pretty = indented_json(tool_input)
        shown = [_folded_text(pretty, f"Input ({_size(pretty)})")]
    elif isinstance(tool_input, dict):
        # What the view leaves out (a timeout, `replace_all`) is shown too, folded.
        rest = {key: value for key, value in tool_input.items() if key not in _VIEW_KEYS[name]}
        if rest:
            pretty = indented_json(rest)
            shown.append(_folded_text(pretty, f"Other input ({len(rest)} field{'s' if len(rest) > 1 else ''})"))
    parts = (part if isinstance(part, str) else to_html(part) for part in shown)
    return f'<div class="msg-tool">{_paragraph("msg-tool__name", displayable(name))}{"".join(parts)}</div>'


def tool_output_html(text: str, label: str) -> str:
    """A tool's output, as preformatted text under `label`: folded, with its size, when long."""
    if not text.strip():
        return _paragraph("msg-output msg-output--empty", f"{label}: empty")
    if _is_long(text):
        return _folded_text(text, f"{label} ({_size(text)})")
    return _paragraph("msg-output__label", label) + _pre(text)


def _command(key: str) -> Callable[[object], list[etree.Element | str] | None]:
    def view(tool_input: object) -> list[etree.Element | str] | None:
        if not isinstance(tool_input, dict):
            return None
        command = tool_input.get(key)
        if isinstance(command, list) and all(isinstance(word, str) for word in command):
            command = " ".join(command)
        if not isinstance(command, str):
            return None
        shown: list[etree.Element | str] = []
        description = tool_input.get("description")
        if isinstance(description, str) and description.strip():
            note = etree.Element("p", {"class": "msg-tool__note"})
            note.text = description
            shown.append(note)
        shown.append(_pre("$ " + command, "msg-command"))
        return shown

    return view


def _edit(tool_input: object) -> list[etree.Element | str] | None:
    if not isinstance(tool_input, dict):
        return None
    path, old, new = (tool_input.get(key) for key in ("file_path", "old_string", "new_string"))
    if not (isinstance(path, str) and isinstance(old, str) and isinstance(new, str)):
        return None
    shown, _ = _diff([(old, new)])
    return [_path(path), *shown]


def _multi_edit(tool_input: object) -> list[etree.Element | str] | None:
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
    shown, diffed = _diff(pairs)
    if diffed < len(pairs):
        rest = indented_json(tool_input["edits"][diffed:])
        left = len(pairs) - diffed
        note = (f"{left:,} more edit{'s' if left > 1 else ''}, past the {DIFFED_EDITS} edits or {DIFFED_CALL_LINES:,} "
                "lines a call is diffed for, shown as the call gives them:")
        shown += [_paragraph("msg-tool__note", note), _folded_text(rest, f"The other edits ({_size(rest)})")]
    return [_path(path), *shown]


def _write(tool_input: object) -> list[etree.Element | str] | None:
    if not isinstance(tool_input, dict):
        return None
    path, content = tool_input.get("file_path"), tool_input.get("content")
    if not (isinstance(path, str) and isinstance(content, str)):
        return None
    code = _highlighted(content, path)
    if _is_long(content):
        return [_path(path), f'<details class="msg-fold"><summary>The file ({_size(content)})</summary>'
                             f"{code}</details>"]
    return [_path(path), code]


def _read(tool_input: object) -> list[etree.Element | str] | None:
    if not isinstance(tool_input, dict):
        return None
    path = tool_input.get("file_path", tool_input.get("absolute_path"))
    if not isinstance(path, str):
        return None
    offset, limit = tool_input.get("offset"), tool_input.get("limit")
    # Line numbers as a file has them: a number of thousands of digits is no line's.
    if not all(number is None or (type(number) is int and abs(number) < 2**63) for number in (offset, limit)):
        return None
    where = _path(path)
    if type(offset) is int and type(limit) is int:
        where[-1].tail = f", lines {offset}–{offset + limit - 1}"
    elif type(offset) is int:
        where[-1].tail = f", from line {offset}"
    elif type(limit) is int:
        where[-1].tail = f", the first {limit} lines"
    return [where]


def _todos(tool_input: object) -> list[etree.Element | str] | None:
    todos = tool_input.get("todos") if isinstance(tool_input, dict) else None
    if not isinstance(todos, list) or not all(
            isinstance(todo, dict) and isinstance(todo.get("content"), str) for todo in todos):
        return None
    checklist = etree.Element("ul", {"class": "msg-todos"})
    for todo in todos[:TODO_ITEMS]:
        status = todo.get("status")
        known = isinstance(status, str) and status in TODO_MARKS  # a list or an object is no status
        item = etree.SubElement(checklist, "li", {"class": f"msg-todo msg-todo--{status}" if known else "msg-todo"})
        mark = etree.SubElement(item, "span", {"class": "msg-todo__mark"})
        mark.text = TODO_MARKS[status] if known else "☐"
        mark.tail = " " + displayable(todo["content"])
        if isinstance(status, str) and status != "pending":
            state = etree.SubElement(item, "span", {"class": "msg-todo__status"})
            state.text = f" ({displayable(status.replace('_', ' '))})"
    if len(todos) <= TODO_ITEMS:
        return [checklist]
    rest = indented_json(todos[TODO_ITEMS:])
    note = f"{len(todos) - TODO_ITEMS:,} more items, past the {TODO_ITEMS:,} a checklist shows, as the call gives them:"
    return [checklist, _paragraph("msg-tool__note", note), _folded_text(rest, f"The other items ({_size(rest)})")]


def _task(tool_input: object) -> list[etree.Element | str] | None:
    """A subagent sent off: what for, and its prompt, folded."""
    if not isinstance(tool_input, dict):
        return None
    description, agent, prompt = (tool_input.get(key) for key in ("description", "subagent_type", "prompt"))
    if not all(isinstance(value, str) or value is None for value in (description, agent, prompt)):
        return None
    shown: list[etree.Element | str] = []
    if description or agent:
        note = etree.Element("p", {"class": "msg-tool__note"})
        note.text = displayable(" · ".join(str(value) for value in (agent, description) if value))
        shown.append(note)
    if prompt:
        shown.append(_folded_text(prompt, f"Prompt ({_size(prompt)})"))
    return shown


def _patch(tool_input: object) -> list[etree.Element | str] | None:
    patch = tool_input.get("input") if isinstance(tool_input, dict) else tool_input
    if not isinstance(patch, str):
        return None
    lines = patch.splitlines()
    if len(lines) > DIFFED_LINES:
        return [_folded_text(patch, f"Patch ({_size(patch)})")]
    return [_diff_lines(lines)]


def _path(path: str) -> etree.Element:
    line = etree.Element("p", {"class": "msg-tool__path"})
    etree.SubElement(line, "code").text = displayable(path)
    return line


def _diff(pairs: Sequence[tuple[str, str]]) -> tuple[list[etree.Element | str], int]:
    """The changes from each old text to its new one, as a unified diff of their lines;
    a change of more than DIFFED_LINES lines as its two texts, folded, after the diff;
    and how many of the pairs that is, the first DIFFED_EDITS at most, of at most
    DIFFED_CALL_LINES lines diffed in all."""
    lines: list[str] = []
    whole: list[etree.Element | str] = []
    diffed_lines, shown = 0, 0
    for old, new in pairs[:DIFFED_EDITS]:
        old_lines, new_lines = old.splitlines(), new.splitlines()
        count = len(old_lines) + len(new_lines)
        if count > DIFFED_LINES:
            whole += [_folded_text(old, f"Old text ({_size(old)})"), _folded_text(new, f"New text ({_size(new)})")]
        elif diffed_lines + count > DIFFED_CALL_LINES:
            break
        else:
            diffed_lines += count
            changes = difflib.unified_diff(old_lines, new_lines, lineterm="", n=3)
            lines.extend(line for line in changes if not line.startswith(("---", "+++")))
        shown += 1
    return ([_diff_lines(lines), *whole] if lines or not whole else whole), shown


def _diff_lines(lines: Sequence[str]) -> etree.Element:
    pre = etree.Element("pre", {"class": "msg-diff"})
    code = etree.SubElement(pre, "code")
    for line in lines:
        kind = {"+": "ins", "-": "del", "@": "span"}.get(line[:1], "span")
        part = etree.SubElement(code, kind, {"class": "msg-diff__hunk"} if line.startswith("@@") else {})
        part.text = displayable(line) + "\n"
    return pre


@functools.lru_cache(maxsize=256)  # finding a lexer takes longer than lexing most code; a lexer is reusable
def lexer_for(*, language: str | None = None, path: str | None = None) -> Lexer | None:
    """The lexer of a language, by one of its names, or of a file, by its path: None if
    there is none, or none of HIGHLIGHTED_LANGUAGES."""
    try:
        if language is not None:
            lexer = get_lexer_by_name(language, stripnl=False)
        elif path is not None and len(posixpath.basename(path)) <= _NAME_CHARS:
            lexer = get_lexer_for_filename(path, stripnl=False)
        else:
            return None
    except ClassNotFound:
        return None
    return lexer if lexer.aliases and lexer.aliases[0] in HIGHLIGHTED_LANGUAGES else None


def tokens_in_time(lexer: Lexer, text: str, until: float) -> list[tuple[_TokenType, str]] | None:
    """The tokens of `text`, or None if they are not all lexed by the time.monotonic() `until`."""
    tokens = []
    for token in lexer.get_tokens(text):
        tokens.append(token)
        if time.monotonic() > until:
            return None
    return tokens


def _highlighted(text: str, path: str) -> str:
    shown = displayable(text)
    lexer = lexer_for(path=path) if len(shown) <= HIGHLIGHTED_CHARS else None
    tokens = tokens_in_time(lexer, shown, time.monotonic() + HIGHLIGHT_SECONDS) if lexer is not None else None
    if tokens is None:
        return _pre(shown)
    return str(format_tokens(tokens, _FORMATTER))  # in a <div class="highlight">, as the site's own code


# The commonest elements of a tool's view, written as `snippets.to_html` writes them, but
# without building them first: a whole session holds tens of thousands of them. Their
# classes are the module's own.

def _paragraph(css: str, text: str) -> str:
    return f'<p class="{css}">{html.escape(text, quote=False)}</p>'


def _pre(text: str, css: str = "msg-output") -> str:
    return f'<pre class="{css}"><code>{html.escape(displayable(text), quote=False)}</code></pre>'


def _folded_text(text: str, label: str) -> str:
    return f'<details class="msg-fold"><summary>{html.escape(label, quote=False)}</summary>{_pre(text)}</details>'


def _is_long(text: str) -> bool:
    return len(text) > FOLDED_CHARS or text.count("\n") >= FOLDED_LINES


def _size(text: str) -> str:
    lines = text.count("\n") + (not text.endswith("\n"))
    size = len(text.encode(errors="replace"))
    amount = f"{size:,} bytes" if size < 10_000 else f"{size / 1000:,.0f} KB"
    return f"{lines:,} line{'s' if lines != 1 else ''}, {amount}"


_VIEWS: dict[str, Callable[[object], list[etree.Element | str] | None]] = {
    **{name: _command(key) for name, key in COMMAND_TOOLS.items()},
    **dict.fromkeys(EDIT_TOOLS, _edit), "MultiEdit": _multi_edit, **dict.fromkeys(WRITE_TOOLS, _write),
    **dict.fromkeys(READ_TOOLS, _read), **dict.fromkeys(TODO_TOOLS, _todos), **dict.fromkeys(PATCH_TOOLS, _patch),
    **dict.fromkeys(TASK_TOOLS, _task),
}
# The fields of its input each view shows.
_VIEW_KEYS: dict[str, frozenset[str]] = {
    **{name: frozenset({key, "description"}) for name, key in COMMAND_TOOLS.items()},
    **dict.fromkeys(EDIT_TOOLS, frozenset({"file_path", "old_string", "new_string"})),
    "MultiEdit": frozenset({"file_path", "edits"}), **dict.fromkeys(WRITE_TOOLS, frozenset({"file_path", "content"})),
    **dict.fromkeys(READ_TOOLS, frozenset({"file_path", "absolute_path", "offset", "limit"})),
    **dict.fromkeys(TODO_TOOLS, frozenset({"todos"})), **dict.fromkeys(PATCH_TOOLS, frozenset({"input"})),
    **dict.fromkeys(TASK_TOOLS, frozenset({"description", "subagent_type", "prompt"})),
}
