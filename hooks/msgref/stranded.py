"""Tags left where no citation can stand: found in a converted page by their markers.

A tag inside an HTML attribute, a link's address, title or text, an image's alt text,
a tab label, a details summary or a block of raw HTML is never expanded: a link there
would break the markup or nest inside another link. It keeps its line marker, so that
this module finds it in the page's HTML and the author is told where it is. Markers
inside code are those of tags written as code, which stay as they are without a word.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

from msgview.html import VOID_TAGS

from . import tags

_CODE_TAGS = {"code", "pre", "kbd", "samp", "script", "style"}
_MARKER_RE = re.compile(tags.MARKER_RE)
_MARKED_CANDIDATE_RE = re.compile(tags.MARKED_CANDIDATE_RE)
_ATTRIBUTES = {("a", "href"): "a link's address", ("a", "title"): "a link's title",
               ("img", "alt"): "an image's alt text",
               ("img", "src"): "an image's address", ("img", "title"): "an image's title"}
_CONTAINERS = {"a": "a link's text", "summary": "a details summary", "label": "a tab label"}


def stranded_tags(html: str) -> list[tuple[int | None, str]]:
    """(line, problem) for each tag left as written in the page's `html`, in page order."""
    if tags.MARK_OPEN not in html:
        return []
    finder = _Finder()
    finder.feed(html)
    finder.close()
    # A tag in an autolink is in its address and its text: one problem, where it is first.
    first: dict[tuple[int | None, str], str] = {}
    for line, written, where in finder.found:
        first.setdefault((line, written), where)
    return [(line, f"'{written}' is inside {where}, where no citation can stand; it is left as written")
            for (line, written), where in first.items()]


def tags_in_titles(front_matter: str, first_line: int = 1) -> list[tuple[int, str]]:
    """(line, problem) for each tag or near miss in a page's front matter (its title, its
    description): the theme writes these as text, where no citation can stand."""
    found = []
    for match in tags.CANDIDATE_RE.finditer(front_matter):
        line = first_line + front_matter.count("\n", 0, match.start())
        found.append((line, f"'{_one_line(match.group())}' is in the page's front matter, "
                            "where no citation can stand; it is left as written"))
    return found


def tag_in_nav_title(title: str) -> str | None:
    """The problem with a `nav` title that holds a tag or a near miss, or None."""
    match = tags.CANDIDATE_RE.search(title)
    return None if match is None else (f"'{_one_line(match.group())}' is in the title {title!r}, "
                                       "where no citation can stand; it is left as written")


def _one_line(written: str) -> str:
    return " ".join(written.split())


class _Finder(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.open: list[str] = []
        self.found: list[tuple[int | None, str, str]] = []  # (line, the tag as written, where)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if not self._in_code():
            for name, value in attrs:
                where = _ATTRIBUTES.get((tag, name), f"the HTML attribute {name}")
                self._look(value or "", where)
        if tag not in VOID_TAGS:
            self.open.append(tag)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)
        if tag not in VOID_TAGS:
            self.open.pop()

    def handle_endtag(self, tag: str) -> None:
        if tag in self.open:
            while self.open.pop() != tag:
                pass

    def handle_data(self, data: str) -> None:
        if not self._in_code():
            inner = next((_CONTAINERS[tag] for tag in reversed(self.open) if tag in _CONTAINERS), "raw HTML")
            self._look(data, inner)

    def _in_code(self) -> bool:
        return any(tag in _CODE_TAGS for tag in self.open)

    def _look(self, text: str, where: str) -> None:
        for marker in _MARKER_RE.finditer(text):
            self.found.append((tags.line_of(marker.group("line")), _written_tag(text, marker), where))


def _written_tag(text: str, marker: re.Match[str]) -> str:
    """The tag as written around `marker`; where Markdown took its brackets as a link's
    or an image's (`[msg N](url)`), the tag of the number before the marker."""
    for candidate in _MARKED_CANDIDATE_RE.finditer(text):
        if candidate.start("line") - 1 == marker.start():
            return tags.strip_markers(candidate.group("written") + candidate.group("closing"))
    number = re.search(r"[-+]?\w+$", text[: marker.start()])
    return f"[msg {number.group() if number else '?'}]"
