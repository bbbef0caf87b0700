"""The start of a text that a shortened view shows: whole blocks of it, as its Markdown
has them, up to a number of characters and lines.

A fenced code block is one block, whatever blank lines it holds. A block is cut within
only when the blocks before it fill less than half the room (a heading alone says too
little): at a line's end, else at a word, a fence closed again. The words kept are the
text's own, in order: a cut shortens a message, it never rewrites it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# A fence's line: three backticks or tildes, after at most three spaces.
_FENCE_RE = re.compile(r" {0,3}(`{3,}|~{3,})")
ELLIPSIS = " …"


@dataclass(frozen=True)
class Cut:
    text: str  # what is shown
    left_out: int  # characters of the text left out, 0 when it is shown whole


def cut_at_block(text: str, chars: int, lines: int) -> Cut:
    """The first blocks of `text` within `chars` characters and `lines` lines; at least
    the start of the first block, cut at a line or a word if it is longer."""
    whole = text.strip("\n")
    if len(whole) <= chars and whole.count("\n") < lines:
        return Cut(whole, 0)
    kept: list[str] = []
    used_chars = used_lines = 0
    end = 0  # where in `whole` what is kept ends
    for start, block in _blocks(whole):
        block_lines = block.count("\n") + 1
        if used_chars + len(block) > chars or used_lines + block_lines > lines:
            # Only the first block is cut within, or one after blocks too short to stand
            # alone (a heading): at least half the room is used.
            if used_chars < chars // 2 and used_lines < lines:
                shown, length = _start_of(block, chars - used_chars, lines - used_lines)
                kept.append(shown)
                end = start + length
            break
        kept.append(block)
        end = start + len(block)
        used_chars += len(block) + 2
        used_lines += block_lines + 1
    return Cut("\n\n".join(kept), len(whole) - end)


def _blocks(text: str) -> list[tuple[int, str]]:
    """The text's blocks, each with where it starts: runs of lines between blank lines,
    a fenced block whole."""
    blocks: list[tuple[int, str]] = []
    start: int | None = None
    fence: str | None = None
    at = 0
    for line in text.split("\n"):
        opening = _FENCE_RE.match(line)
        if fence is None and opening:
            fence = opening.group(1)
        elif fence is not None and line.strip().startswith(fence) and not line.strip().strip(fence[0]):
            fence = None
        if fence is None and not line.strip():
            if start is not None:
                blocks.append((start, text[start : at - 1]))
                start = None
        elif start is None:
            start = at
        at += len(line) + 1
    if start is not None:
        blocks.append((start, text[start:]))
    return blocks


def _start_of(block: str, chars: int, lines: int) -> tuple[str, int]:
    """The start of one block too long to show, and how many of its characters that is:
    whole lines while they fit, else the first line cut at a word; a fenced block closed
    again as it was opened."""
    opening = _FENCE_RE.match(block)
    block_lines = block.split("\n")
    first = 1 if opening and len(block_lines) > 1 else 0  # the fence's own line is kept with its first
    kept = block_lines[:first]
    used = sum(len(line) + 1 for line in kept)
    for line in block_lines[first:lines + first]:
        if used + len(line) > chars:
            break
        kept.append(line)
        used += len(line) + 1
    if len(kept) == first:  # not one whole line fits: the first, cut at a word
        line = block_lines[first]
        words = line[: max(chars - used, 1)].rsplit(" ", 1)[0] or line[:chars]
        words = words.rstrip(" ,;:.")
        kept.append(words + ELLIPSIS)
        used += len(words) + 1
    shown = "\n".join(kept)
    if opening:
        shown += "\n" + opening.group(1).strip()
    return shown, used - 1
