"""Reading an essay page's Markdown source line by line: fenced code, and paragraph ids."""

from __future__ import annotations

import re

# The source line that gives the paragraph above it its id: `{ #p-some-words }`, also
# inside a quotation (`> { #… }`). Group 1 is the id.
ID_LINE_RE = re.compile(r"^\s*(?:>\s*)?\{:?\s*#([\w-]+)[^}]*\}\s*$")
# A page's YAML front matter, which the generator reads as the page's settings, not its text.
FRONT_MATTER_RE = re.compile(r"\A---[ \t]*\n.*?^(?:---|\.\.\.)[ \t]*$", re.MULTILINE | re.DOTALL)
_FENCE_RE = re.compile(r"^\s*(`{3,}|~{3,})")


def in_fenced_code(lines: list[str]) -> list[bool]:
    """For each line, whether it belongs to fenced code (the fence lines included)."""
    flags, fence = [], None
    for line in lines:
        if fence:
            flags.append(True)
            if line.strip().startswith(fence):
                fence = None
            continue
        opening = _FENCE_RE.match(line)
        if opening:
            fence = opening.group(1)
        flags.append(bool(opening))
    return flags


def lines_outside_code(markdown: str) -> list[str]:
    """The lines of a page's Markdown that are not fenced code."""
    lines = markdown.split("\n")
    return [line for line, in_code in zip(lines, in_fenced_code(lines), strict=True) if not in_code]
