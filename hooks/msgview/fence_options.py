"""A fenced code block's line options in a message (`hl_lines`, `linenums`), bounded by
the block's own lines before pymdownx.highlight sees them.

pymdownx lists every line of every range of `hl_lines`, each clamped to one past the
block's end: `hl_lines="1-99999"` written 3,000 times over 22,000 lines listed 66
million numbers (3 GB). Here the ranges are merged, within the block's lines, so that
no line is listed twice. A line number of more digits than LINE_NUMBER_DIGITS is no
line's: Python refuses to read one of thousands of digits, and as the first of
`linenums` it would be written at every line.
"""

from __future__ import annotations

import re
from typing import Any

LINE_NUMBER_DIGITS = 9
_NUMBER_RE = re.compile(r"\d+")


def bounded_line_options(options: dict[str, Any], code: str) -> dict[str, Any]:
    """`options` with `hl_lines` as the merged ranges of `code`'s lines it names (left out
    if it names none), and without `linenums` if a number of it is too long."""
    bounded = dict(options)
    if isinstance(hl_lines := options.get("hl_lines"), str):
        ranges = highlighted_ranges(hl_lines, code.count("\n") + 1)
        if ranges:
            bounded["hl_lines"] = " ".join(f"{first}-{last}" for first, last in ranges)
        else:
            del bounded["hl_lines"]
    linenums = options.get("linenums")
    if isinstance(linenums, str) and any(len(n) > LINE_NUMBER_DIGITS for n in _NUMBER_RE.findall(linenums)):
        del bounded["linenums"]
    return bounded


def highlighted_ranges(hl_lines: str, line_count: int) -> list[tuple[int, int]]:
    """The lines of a block of `line_count` lines that `hl_lines` ("1 3-5") names, as
    ranges in order that neither overlap nor touch."""
    ranges: list[tuple[int, int]] = []
    for entry in hl_lines.split():
        parts = entry.split("-")
        if not all(part.isascii() and part.isdigit() for part in parts):
            continue
        numbers = [_line_number(part, line_count) for part in parts]
        first, last = max(numbers[0], 1), min(numbers[-1], line_count)
        if first <= last:
            ranges.append((first, last))
    merged: list[tuple[int, int]] = []
    for first, last in sorted(ranges):
        if merged and first <= merged[-1][1] + 1:
            merged[-1] = (merged[-1][0], max(merged[-1][1], last))
        else:
            merged.append((first, last))
    return merged


def _line_number(digits: str, line_count: int) -> int:
    """A line number as written, or one past the block's end if it is beyond it."""
    return line_count + 1 if len(digits) > LINE_NUMBER_DIGITS else min(int(digits), line_count + 1)
