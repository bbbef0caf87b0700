"""The `[msg N]` tag, its near misses, and the line markers that carry source lines.

Python-Markdown does not tell an inline pattern which source line it is on. Before any
other processing, `mark_lines` puts an invisible marker after every tag and near miss,
encoding its line number; the inline patterns read it back, and `strip_markers` removes
whatever markers remain (those inside code, which the patterns never see).
"""

from __future__ import annotations

import re

TAG_RE = re.compile(r"\[msg (\d+)\]")

# A tag, or an attempt at one: `[msg N]` itself, and the near misses `<msg id=N]`,
# `[msg N` (unclosed), `[msgN]`, `[MSG N]` and `[message N]`.
CANDIDATE_RE = re.compile(
    r"<\s*msg\s+id\s*=\s*\d+\s*[\]>]|\[\s*msg\s*\d+\s*\]?|\[\s*message\s*\d+\s*\]",
    re.IGNORECASE,
)
NUMBER_RE = re.compile(r"\d+")

# Private-use characters: an opening and closing mark, and one per decimal digit.
MARK_OPEN, MARK_CLOSE = "\ue000", "\ue001"
_DIGITS = "".join(chr(0xE010 + d) for d in range(10))
_TO_MARK_DIGITS = str.maketrans("0123456789", _DIGITS)
_FROM_MARK_DIGITS = str.maketrans(_DIGITS, "0123456789")
MARKER_RE = f"{MARK_OPEN}(?P<line>[{_DIGITS}]+){MARK_CLOSE}"
_ANY_MARKER_CHAR_RE = re.compile(f"[{MARK_OPEN}{MARK_CLOSE}{_DIGITS}]")


def marker(line_number: int) -> str:
    return MARK_OPEN + str(line_number).translate(_TO_MARK_DIGITS) + MARK_CLOSE


def line_of(marker_digits: str | None) -> int | None:
    return int(marker_digits.translate(_FROM_MARK_DIGITS)) if marker_digits else None


def mark_lines(lines: list[str], first_line: int = 1) -> list[str]:
    """Return the lines with a line marker after each tag and near miss."""
    return [
        CANDIDATE_RE.sub(lambda m, n=n: m.group(0) + marker(n), line)
        for n, line in enumerate(lines, start=first_line)
    ]


def strip_markers(text: str) -> str:
    """Remove line markers, also where a highlighter split them into pieces."""
    return _ANY_MARKER_CHAR_RE.sub("", text)
