"""The whole essay as one Markdown page, for reading in one piece, printing and PDF."""

from __future__ import annotations

import re

from .source import FRONT_MATTER_RE, ID_LINE_RE, in_fenced_code

_HTML_SECTION_RE = re.compile(r"^<(nav|aside)\b.*?^</\1>\s*$", re.MULTILINE | re.DOTALL)
_HEADING_RE = re.compile(r"^#{1,5} ")


def whole_essay_markdown(sections: list[tuple[str, str]], after_title: str = "", after_all: str = "") -> str:
    """Join the sections, given as (name, Markdown): the first keeps its headings, the
    others move down a level, and each stands in a `<section>` of its own.

    The paragraphs keep their ids, each prefixed with its section's name so that they
    stay unique on the one page ("context-p-the-initial-…"), and are numbered within
    their section as on its own page. Navigation blocks such as a table of contents are
    left out. `after_title`, a block of Markdown or HTML, goes right after the essay's
    title; `after_all` after the last section.
    """
    parts = []
    for index, (name, markdown) in enumerate(sections):
        # A section's front matter is its page's settings (a title, private notes), not its text.
        lines = _HTML_SECTION_RE.sub("", FRONT_MATTER_RE.sub("", markdown, count=1)).split("\n")
        kept = []
        for line, in_code in zip(lines, in_fenced_code(lines), strict=True):
            if not in_code:
                found = ID_LINE_RE.match(line)
                if found:
                    line = line[: found.start(1)] + f"{name}-" + line[found.start(1):]
                elif _HEADING_RE.match(line):
                    if index:
                        line = "#" + line
                    elif after_title and line.startswith("# "):
                        line, after_title = f"{line}\n\n{after_title}\n", ""
            kept.append(line)
        body = "\n".join(kept).strip()
        parts.append(f'<section class="essay-section" markdown>\n\n{body}\n\n</section>')
    return "\n\n".join([*parts, after_all] if after_all else parts) + "\n"
