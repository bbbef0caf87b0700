"""The whole essay as one Markdown page, for reading in one piece, printing and PDF."""

from __future__ import annotations

import re

_ATTR_ID_LINE_RE = re.compile(r"^\s*(?:>\s*)?\{:?\s*#[\w-]+[^}]*\}\s*$")
_HTML_SECTION_RE = re.compile(r"^<(nav|aside)\b.*?^</\1>\s*$", re.MULTILINE | re.DOTALL)
_HEADING_RE = re.compile(r"^(#{1,5}) ", re.MULTILINE)


def whole_essay_markdown(sections: list[str]) -> str:
    """Join the sections' Markdown: the first keeps its headings, the others move down a level.

    Paragraph ids are dropped, since the sections' own pages are where paragraphs are
    cited, and navigation blocks such as a table of contents are left out.
    """
    parts = []
    for index, markdown in enumerate(sections):
        markdown = _HTML_SECTION_RE.sub("", markdown)
        lines = [line for line in markdown.split("\n") if not _ATTR_ID_LINE_RE.match(line)]
        markdown = "\n".join(lines).strip()
        if index:
            markdown = _HEADING_RE.sub(lambda m: "#" + m.group(1) + " ", markdown)
        parts.append(markdown)
    return "\n\n".join(parts) + "\n"
