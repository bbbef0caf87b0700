"""A file as a tool that reads files returns it, each line after its number, shown as the
file's code: highlighted by its type, each line after its own number, as the essay's
code with line numbers is (pymdownx.highlight's `pymdownx-inline` style: a line that
wraps stays after its number, and a copy of the code holds no numbers).

Claude Code writes each line as its number, right-aligned, an arrow and the line
("     1→import os"), or, since 2.1, as its number, a tab and the line ("1\timport os");
an edit's output may say what it shows first, on a line of its own ("The file a.py has
been updated. Here's the result of running `cat -n` on a snippet of the edited file:");
after the last line the tool may add a note of its own, after a blank line
("<system-reminder>…"). Both are kept, as text, around the code.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass

from pygments import format as format_tokens
from pygments.formatters import HtmlFormatter
from pygments.token import Text

from . import highlight
from .text import displayable

# A line's number, as Claude Code writes it before the line: at most 19 digits, which is
# more lines than any file has.
_NUMBER_RE = re.compile(r" *([0-9]{1,19})(?:→|\t)")
# A line's number as Pygments writes it, inline; the code it precedes is escaped.
_PYGMENTS_NUMBER_RE = re.compile(r'<span class="linenos">( *[0-9]+)</span>')
# A file of more lines is shown as any output is: Claude Code reads 2,000 lines at a time
# unless told, and a table of 100,000 numbered lines took most of a second to write.
NUMBERED_LINES = 10_000


@dataclass(frozen=True)
class NumberedFile:
    """The lines of a file read: the number of the first, the lines, what the tool says
    before them and after them."""

    first: int
    lines: list[str]
    before: str
    after: str


def numbered_file(text: str) -> NumberedFile | None:
    """The lines of `text`, if it is a file's lines each after its number, numbered one by
    one from the first, after a line of the tool's ending with ":" or none, and then
    nothing, or a blank line and what the tool adds."""
    lines: list[str] = []
    first = 0
    said = text.find("\n")
    said = said if said > 0 and text[said - 1] == ":" and not _NUMBER_RE.match(text, 0, said) else 0
    start = said + 1 if said else 0
    while start <= len(text):
        end = text.find("\n", start)
        end = len(text) if end < 0 else end
        number = _NUMBER_RE.match(text, start, end)
        if number is None:
            break
        if len(lines) >= NUMBERED_LINES:
            return None
        if not lines:
            first = int(number.group(1))
        elif int(number.group(1)) != first + len(lines):
            return None
        lines.append(text[number.end():end])
        start = end + 1
    after = text[start:]
    if not lines or (after and not after.startswith("\n") and after.strip()):
        return None
    return NumberedFile(first, lines, text[:said].strip(), after.strip("\n"))


def numbered_code_html(read: NumberedFile, path: str, lines: int | None = None) -> str:
    """The lines, their first `lines` if given, highlighted by the lexer of the file's type
    if `highlight` allows, each after its number, which the theme shows and a copy leaves out."""
    code = displayable("\n".join(read.lines[:lines]) + "\n")
    lexer = highlight.lexer_for(path=path) if len(code) <= highlight.HIGHLIGHTED_CHARS else None
    until = time.monotonic() + highlight.HIGHLIGHT_SECONDS
    tokens = highlight.tokens_in_time(lexer, code, until) if lexer is not None else None
    formatter = HtmlFormatter(linenos="inline", linenostart=read.first, wrapcode=True)
    written = str(format_tokens(tokens if tokens is not None else [(Text, code)], formatter))
    return highlight.as_sample(_PYGMENTS_NUMBER_RE.sub(r'<span class="linenos" data-linenos="\1 "></span>', written))
