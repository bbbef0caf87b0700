"""A message's text rendered as Markdown, as the session's people wrote it, and safely.

The text comes from a session log, so it is untrusted: raw HTML in it stays text,
links go only to http, https and mailto addresses (any other link keeps its words and
loses its address), an image becomes a link to it (the site loads nothing from other
hosts), and its headings sit below the heading of the message that holds them. A single
line break is a line break, as the session's own interface shows it (nl2br). Code
with a language is highlighted as the essay's own code is (pymdownx.highlight).

Most messages hold no Markdown at all: those are made into paragraphs directly, which
is many times faster than the parser, and gives the same HTML. So is a text the parser
would take too long over, or recurse too deep in (`too_costly`): such text is a dump, or
made to stall the build, rather than writing.
"""

from __future__ import annotations

import html
import re
import time
import xml.etree.ElementTree as etree
from typing import Any, cast
from urllib.parse import urlsplit

import markdown
from markdown.preprocessors import Preprocessor
from markdown.treeprocessors import Treeprocessor
from markdown.util import AMP_SUBSTITUTE
from pymdownx.superfences import highlight_validator  # type: ignore[import-untyped]  # pymdownx ships no type hints

from .fence_options import bounded_line_options
from .hidden_characters import REFERENCE_RE, hidden_by
from .highlight import HIGHLIGHT_SECONDS, as_sample, lexer_for, tokens_in_time
from .text import displayable

LINK_SCHEMES = frozenset({"http", "https", "mailto"})
# A message's own headings sit under the message's <h2>: its highest, whatever its level,
# is <h3>, the others as many levels below it as the author put them, down to <h6>.
_TOP_HEADING_LEVEL = 3
_HEADING_TAGS = frozenset(f"h{level}" for level in range(1, 7))
# A character, a line start or a line end that Markdown, as configured here, may read as
# syntax (see `has_syntax`).
_SYNTAX_CHAR_RE = re.compile(r"[\\`*_\[\]<>&!#|~\t\r]")
_SYNTAX_LINE_START = r"(?: {0,3}(?:[-+=]|\d+[.)])| {4})"
_SYNTAX_FIRST_LINE_RE = re.compile(_SYNTAX_LINE_START)
_SYNTAX_LINE_RE = re.compile("\n" + _SYNTAX_LINE_START)
_LIST_ITEM_RE = re.compile(r" {0,3}(?:[-*+]|\d{1,9}[.)]) ")
_PARAGRAPH_BREAK_RE = re.compile(r"\n[ \t]*\n")

# What the parser would take too long over, or recurse too deep in (`too_costly`).
# Longer texts (a thinking is not cut as a message is): the parser reads a hundred
# kilobytes a second at worst, with a block every few characters.
MARKDOWN_CHARS = 50_000
# More code blocks: each is highlighted on its own, in half a millisecond.
CODE_BLOCKS = 200
# The parser reads a block (lines between blank lines) in time up to the square of its
# length: it splits what is left of it at each heading, table row or code span (a block
# of 20,000 characters of "#" lines took 8 s). A text whose blocks' lengths, squared,
# sum to more than this (one block of 5,000 characters, half a second at worst) is not
# parsed; its fenced code, stashed away before, does not count.
BLOCK_CHARS_SQUARED = 5_000**2
# Deeper lists and quotes: the parser reads each level by recursion, a few frames a level
# (lists 250 deep passed Python's recursion limit), in time by the square of the depth.
NESTING_LEVELS = 32
# A link's end is looked for from each "[" and "(" to the bracket that closes it, or else
# to the end of the block: a text of many unclosed brackets takes time by the square of
# its length (5,000 "[" took 4 s). A text whose scans would read more characters than
# this in all (a tenth of a second) is not parsed.
LINK_SCAN_CHARS = 200_000
# A fence's line, which opens or closes a fenced code block, in a quote or not.
_FENCE_RE = re.compile(r"^[ \t>]*(?:`{3}|~{3})", re.MULTILINE)
# An indented code block's start, once blank lines are emptied and tabs expanded.
_INDENTED_CODE_RE = re.compile(r"\n\n {4}")
# A line's start that may nest deep enough to be looked at: quote marks, list markers, spaces.
_DEEP_LINE_RE = re.compile(rf"^(?:[ \t>]|(?:[-*+]|\d{{1,9}}[.)])(?=[ \t])){{{NESTING_LEVELS},}}", re.MULTILINE)
_LIST_MARKER_RE = re.compile(r"(?:[-*+]|\d{1,9}[.)])(?=[ \t])")
# The brackets of links, and the blank lines that end the paragraphs the parser reads them in.
_BRACKET_RE = re.compile(r"[\[\]()]|\n[ \t]*\n")
_OPENING = {"]": "[", ")": "("}


class _ListsAfterText(Preprocessor):
    """A blank line before a list that starts right under a line of text, as people and
    models write lists ("Focus on:" then "1. ..."), which Python-Markdown would otherwise
    run into the paragraph. Code blocks are stashed away before this runs."""

    def run(self, lines: list[str]) -> list[str]:
        spaced: list[str] = []
        for line in lines:
            if _LIST_ITEM_RE.match(line) and spaced and spaced[-1].strip() and not _LIST_ITEM_RE.match(spaced[-1]):
                spaced.append("")
            spaced.append(line)
        return spaced


class _TooCostly(Exception):
    """Stops the parse of a text that `too_costly` finds too costly."""


class _CostGuard(Preprocessor):
    """Stops the parse of a text the parser would take too long over (`too_costly`),
    seen once its fenced code is stashed away: code is highlighted, not parsed."""

    def run(self, lines: list[str]) -> list[str]:
        if too_costly("\n".join(lines)):
            raise _TooCostly
        return lines


class _SafeElements(Treeprocessor):
    """Links only to the schemes allowed, images as links, headings moved down."""

    def run(self, root: etree.Element) -> None:
        headings = []
        for element in root.iter():
            if element.tag == "a":
                _keep_safe_link(element)
            elif element.tag == "img":
                _image_as_link(element)
            elif element.tag in _HEADING_TAGS:
                headings.append(element)
        _move_under_message(headings)


def _move_under_message(headings: list[etree.Element]) -> None:
    """The headings moved so that the highest is <h3>, one level under the message's own
    heading (a page whose headings skip a level is harder to walk by heading), the
    others kept as far below it as they were, and none below <h6>."""
    if not headings:
        return
    shift = _TOP_HEADING_LEVEL - min(int(heading.tag[1]) for heading in headings)
    for heading in headings:
        heading.tag = f"h{min(int(heading.tag[1]) + shift, 6)}"


def _allowed(address: str) -> bool:
    try:
        parts = urlsplit(address.strip())
    except ValueError:  # such as an invalid IPv6 host
        return False
    scheme = parts.scheme.lower()
    # "https:page" without a host is a link into this site, as "page" is, in a browser.
    return scheme in LINK_SCHEMES and (scheme == "mailto" or bool(parts.netloc))


def _keep_safe_link(link: etree.Element) -> None:
    address = link.get("href", "")
    if address.startswith(AMP_SUBSTITUTE):
        # A mail address in <>, which Python-Markdown writes as character references,
        # each behind its placeholder for "&": the log's text holds no placeholder.
        address = html.unescape(address.replace(AMP_SUBSTITUTE, "&"))
    link.attrib.clear()
    if _allowed(address):
        # Written by the session's people, not by the essay's author: no endorsement, and
        # the page it opens gets no handle on this one.
        link.attrib.update({"href": address, "rel": "nofollow noopener ugc"})
    else:
        link.tag = "span"


def _image_as_link(image: etree.Element) -> None:
    address, alt = image.get("src", ""), image.get("alt", "")
    image.attrib.clear()
    image.text = f"Image: {alt}" if alt else "Image"
    if _allowed(address):
        image.tag = "a"
        image.attrib.update({"href": address, "rel": "nofollow noopener ugc"})
    else:
        image.tag = "span"


class MessageMarkdown:
    """One Markdown converter, reset for each message: making one takes longer than
    converting most messages."""

    def __init__(self) -> None:
        # Every fence ("*") is highlighted, with its title and line options, by `_fenced_code`.
        fence = {"name": "*", "class": "highlight", "format": self._fenced_code, "validator": highlight_validator}
        self._highlight_until = 0.0  # when the highlighting of the text being converted is to end
        self._converter = markdown.Markdown(
            extensions=["tables", "nl2br", "pymdownx.superfences", "pymdownx.highlight"],
            extension_configs={"pymdownx.highlight": {"guess_lang": False},
                               "pymdownx.superfences": {"custom_fences": [fence]}},
        )
        # Raw HTML is text here: without these, Python-Markdown passes it through.
        self._converter.preprocessors.deregister("html_block")
        self._converter.inlinePatterns.deregister("html")
        # After the fenced code is stashed (25), before the blocks are read.
        self._converter.preprocessors.register(_CostGuard(self._converter), "cost_guard", 20)
        self._converter.preprocessors.register(_ListsAfterText(self._converter), "lists_after_text", 15)
        # After the inline patterns (20), which make the links and images.
        self._converter.treeprocessors.register(_SafeElements(self._converter), "safe_elements", 5)

    def html(self, text: str) -> str:
        """The HTML of `text`, which holds only displayable characters (snippets.displayable):
        Python-Markdown's own placeholders are control characters."""
        if not has_syntax(text) or _too_long(text):
            return plain_paragraphs(text)
        self._converter.reset()
        self._highlight_until = time.monotonic() + HIGHLIGHT_SECONDS
        try:
            converted = self._converter.convert(text)
        except _TooCostly:
            return plain_paragraphs(text)
        if "<pre" in converted:  # fenced and indented code alike
            converted = as_sample(converted)
        return REFERENCE_RE.sub(_shown_reference, converted) if "&" in converted else converted

    def _fenced_code(self, source: str, language: str, class_name: str, options: dict[str, Any],
                     md: markdown.Markdown, **attributes: Any) -> str:
        """Fenced code highlighted as pymdownx.superfences does, by a lexer of
        highlight.HIGHLIGHTED_LANGUAGES while the text's time lasts (else as text), and
        without the id, classes and attributes its opening line may give
        (```{.python #id .class}): superfences writes them into the page unescaped, and
        an id or a class of the page's own is not the log's to give; its line options
        bounded by its lines (`fence_options`)."""
        lexer = lexer_for(language=language) if language else None
        if lexer is None or tokens_in_time(lexer, source, self._highlight_until) is None:
            language = "text"
        fences = cast(Any, md.preprocessors["fenced_code_block"])  # superfences' own, with its highlighter
        return str(fences.highlight(src=source, language=language, options=bounded_line_options(options, source), md=md,
                                    classes=[], id_value="", attrs={}))


def _shown_reference(reference: re.Match[str]) -> str:
    """A character reference of the text, which Markdown keeps as it is, shown as the
    character it writes would be: a control character or a bidirectional control as
    `snippets.displayable` shows it, any other left to the browser."""
    char = hidden_by(reference)
    return reference.group() if char is None else html.escape(displayable(char), quote=False)


def has_syntax(text: str) -> bool:
    """Whether `text` has a character, a line start or a line end ("  ", a line break)
    that Markdown may read as syntax. Looked for one way at a time: one expression for
    them all is tried at every character, and took six times as long over most texts,
    which have none."""
    return bool(_SYNTAX_CHAR_RE.search(text) or _SYNTAX_FIRST_LINE_RE.match(text) or _SYNTAX_LINE_RE.search(text)
                or "  \n" in text or text.endswith("  "))


def _too_long(text: str) -> bool:
    """Whether `text` is too long, or has too many fenced code blocks, to be given to
    the parser at all; the rest is looked at once its fenced code is stashed (`too_costly`)."""
    return len(text) > MARKDOWN_CHARS or sum(1 for _ in _FENCE_RE.finditer(text)) > 2 * CODE_BLOCKS


def too_costly(text: str) -> bool:
    """Whether the parser would take too long over `text`, its fenced code stashed
    away, or recurse too deep in it: whether it is too long, has too long blocks or too
    many code blocks, nests too deep, or has too many brackets left open."""
    if len(text) > MARKDOWN_CHARS or sum(1 for _ in _INDENTED_CODE_RE.finditer(text)) > CODE_BLOCKS:
        return True
    if sum(len(block) ** 2 for block in _PARAGRAPH_BREAK_RE.split(text)) > BLOCK_CHARS_SQUARED:
        return True
    if any(_nesting(line.group()) >= NESTING_LEVELS for line in _DEEP_LINE_RE.finditer(text)):
        return True
    return _link_scans(text) > LINK_SCAN_CHARS


def _nesting(line_start: str) -> int:
    """The levels a line's start may nest: a quote mark, a list marker, or four columns of
    indentation each."""
    indentation = line_start.expandtabs(4).count(" ")
    return line_start.count(">") + len(_LIST_MARKER_RE.findall(line_start)) + indentation // 4


def _link_scans(text: str) -> int:
    """How many characters the parser's link patterns may read, looking from each
    bracket for the one that closes it, or else to the end of its paragraph."""
    scanned = 0
    open_at: dict[str, list[int]] = {"[": [], "(": []}
    for found in _BRACKET_RE.finditer(text + "\n\n"):
        char, at = found.group(), found.start()
        if char in open_at:
            open_at[char].append(at)
        elif char in _OPENING:
            starts = open_at[_OPENING[char]]
            scanned += at - starts.pop() if starts else 0
        else:  # a paragraph's end, which the brackets still open were read to
            for starts in open_at.values():
                scanned += len(starts) * at - sum(starts)
                starts.clear()
    return scanned


def _without_blank_end(part: str) -> str:
    """`part` without the blank lines that end it: from the line break after its last
    character that is not a space (the spaces before that break stay, as Markdown keeps them)."""
    kept = part.rstrip(" \n")
    cut = part.find("\n", len(kept))
    return part if cut < 0 else part[:cut]


def plain_paragraphs(text: str) -> str:
    """Text without Markdown syntax as Markdown makes it: a paragraph between blank lines,
    the spaces before it and its blank lines after dropped, each line break in it kept
    (nl2br)."""
    paragraphs = (_without_blank_end(part.lstrip()) for part in _PARAGRAPH_BREAK_RE.split(text))
    return "\n".join(f"<p>{_line_breaks(html.escape(part, quote=False))}</p>" for part in paragraphs if part)


def _line_breaks(paragraph: str) -> str:
    """A paragraph's line breaks as nl2br makes them: each a <br /> then a line break, a
    line after one that is only whitespace to Python left empty (the parser tidies the
    text after a <br /> so)."""
    first, *rest = paragraph.split("\n")
    return "<br />\n".join([first, *(line if line.strip() else "" for line in rest)])
