"""The whole essay as one Markdown page, for reading in one piece, printing and PDF."""

from __future__ import annotations

import re

from .source import ID_LINE_RE, in_fenced_code

_HTML_SECTION_RE = re.compile(r"^<(nav|aside)\b.*?^</\1>\s*$", re.MULTILINE | re.DOTALL)
_HEADING_RE = re.compile(r"^#{1,5} ")


def whole_essay_markdown(sections: list[str], after_title: str = "") -> str:
    """Join the sections' Markdown: the first keeps its headings, the others move down a level.

    Paragraph ids are dropped, since the sections' own pages are where paragraphs are
    cited, and navigation blocks such as a table of contents are left out.
    `after_title`, a block of Markdown or HTML, goes right after the essay's title.
    """
    parts = []
    for index, markdown in enumerate(sections):
        lines = _HTML_SECTION_RE.sub("", markdown).split("\n")
        kept = []
        for line, in_code in zip(lines, in_fenced_code(lines)):
            if not in_code:
                if ID_LINE_RE.match(line):
                    continue
                if _HEADING_RE.match(line):
                    if index:
                        line = "#" + line
                    elif after_title and line.startswith("# "):
                        line, after_title = f"{line}\n\n{after_title}\n", ""
            kept.append(line)
        parts.append("\n".join(kept).strip())
    return "\n\n".join(parts) + "\n"
