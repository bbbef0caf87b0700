"""The whole essay as one Markdown page, for reading in one piece, printing and PDF."""

from __future__ import annotations

import re

from .paragraphs import ID_LINE_RE

_HTML_SECTION_RE = re.compile(r"^<(nav|aside)\b.*?^</\1>\s*$", re.MULTILINE | re.DOTALL)
_HEADING_RE = re.compile(r"^#{1,5} ")
_FENCE_RE = re.compile(r"^\s*(`{3,}|~{3,})")


def whole_essay_markdown(sections: list[str]) -> str:
    """Join the sections' Markdown: the first keeps its headings, the others move down a level.

    Paragraph ids are dropped, since the sections' own pages are where paragraphs are
    cited, and navigation blocks such as a table of contents are left out.
    """
    parts = []
    for index, markdown in enumerate(sections):
        lines, fence = [], None
        for line in _HTML_SECTION_RE.sub("", markdown).split("\n"):
            opening = _FENCE_RE.match(line)
            if fence:  # inside fenced code: kept as it is
                fence = None if line.strip().startswith(fence) else fence
            elif opening:
                fence = opening.group(1)
            elif ID_LINE_RE.match(line):
                continue
            elif index and _HEADING_RE.match(line):
                line = "#" + line
            lines.append(line)
        parts.append("\n".join(lines).strip())
    return "\n\n".join(parts) + "\n"
