"""The Python-Markdown extension that turns `[msg N]` tags into citations.

Working inside the Markdown parser means code spans, fenced code and escaped
brackets are never touched: the parser hands this extension only the text it would
render as prose.
"""

from __future__ import annotations

import html
import itertools
import re
import xml.etree.ElementTree as etree
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from markdown import Markdown
from markdown.extensions import Extension
from markdown.inlinepatterns import InlineProcessor
from markdown.postprocessors import Postprocessor
from markdown.preprocessors import Preprocessor
from markdown.treeprocessors import Treeprocessor
from markdown.util import HTML_PLACEHOLDER_RE

from msgview import hidden_characters
from msgview.html import NOT_SEARCHED
from msgview.render import MessageRenderer, Size
from msgview.text import displayable, shorten
from transcript.schema import Message

from . import snippets, stranded, tags
from .citations import Citation, CitationRegistry

BLOCK_TAGS = {"p", "li", "dd", "dt", "td", "th", "h1", "h2", "h3", "h4", "h5", "h6"}
CONTAINER_TAGS = {"li", "dd", "dt", "td", "th"}  # snippets go inside these, not after
EXCERPT_CHARS = 140
PASSAGE_CHARS = 700  # of the citing paragraph, in the preview of its "Cited in" link
EDITORIAL_MARK_CLASS = "editorial-mark"  # marks an editor's note, left out of excerpts
_STASH_PLACEHOLDER_RE = re.compile("\x02([^\x03]*)\x03")
_ENTITY_RE = re.compile(r"&(?:#[0-9]+|#[xX][0-9a-fA-F]+|[A-Za-z0-9]+);")
_RAW_LINK_RE = re.compile(r"<(/?)a\b", re.IGNORECASE)
# The citations an inline pattern found on a page: each link and the message it cites.
_Found = list[tuple[etree.Element, Message]]
# What an inline processor returns: the replacement and where it starts and ends, or Nones.
_Replacement = tuple[etree.Element | str | None, int | None, int | None]


@dataclass(frozen=True)
class PageInProgress:
    """The page being converted."""

    src: str  # its source path, relative to the docs folder
    display_path: str  # how problems name its file
    first_line: int = 1  # the line of the file on which its Markdown body starts
    # A derived page repeats other pages (the whole essay on one page): its citations
    # and problems are theirs, so it is neither recorded nor warned about.
    derived: bool = False


class CitingBuild(Protocol):
    """What the extension needs of the build in progress."""

    @property
    def page(self) -> PageInProgress:
        """The page being converted."""

    @property
    def citations(self) -> CitationRegistry:
        """Where the citations found are recorded."""

    def message(self, n: int) -> Message | None:
        """Message n as the site shows it, or None if the transcript has none."""

    def href(self, n: int, from_page: str) -> str | None:
        """A Markdown link from the source file `from_page` to message n, if it is shown."""

    @property
    def renderer(self) -> MessageRenderer:
        """How a message looks."""

    def shown_whole(self, message: Message, from_page: str) -> tuple[Message, etree.Element | None]:
        """The message as page `from_page` quotes it whole: cut where the transcript cuts
        it, with a note that links to its whole text, or as it is (and None)."""

    def warn(self, text: str) -> None:
        """Report a problem; the text already names file and line."""


class MessageCitations(Extension):
    """Expand `[msg N]` against the transcript of the build it is given.

    The build tells which page is being converted (`build.page`), gives the messages
    and the links to them, and keeps the citations found.
    """

    def __init__(self, build: CitingBuild):
        super().__init__()
        self.build = build
        self.source_lines: list[str] = []  # the Markdown of the page being converted

    def report(self, line: int | None, problem: str) -> None:
        page = self.build.page
        if not page.derived:
            self.build.warn(f"{page.display_path}:{line}: {problem}" if line else f"{page.display_path}: {problem}")

    def extendMarkdown(self, md: Markdown) -> None:
        md.registerExtension(self)
        found: _Found = []
        # Before every other preprocessor: fenced code is collapsed into one line later.
        md.preprocessors.register(LineMarkers(md, self), "msgref_line_markers", 40)
        # Near misses after code spans (190) and backslash escapes (180), before links
        # (160); tags after links, images and raw HTML (90), so that a tag in a link's
        # address, title or text, an image's alt text or an attribute stays as written.
        md.inlinePatterns.register(NearMissPattern(self), "msgref_near_miss", 174)
        md.inlinePatterns.register(TagPattern(md, self, found), "msgref_tag", 85)
        # After inline patterns (20) and attribute lists (8), before the table of contents (5).
        md.treeprocessors.register(SnippetPlacer(md, self, found), "msgref_snippets", 6)
        md.treeprocessors.register(EditorialMarksUnsearched(md), "msgref_editorial_marks", 5)
        # After stashed raw HTML and highlighted code are put back (30).
        md.postprocessors.register(StrandedTagReporter(md, self), "msgref_stranded_tags", 6)
        md.postprocessors.register(HiddenReferences(md, self), "msgref_hidden_references", 6)
        md.postprocessors.register(MarkerRemover(md), "msgref_marker_remover", 5)


class LineMarkers(Preprocessor):
    def __init__(self, md: Markdown, extension: MessageCitations):
        super().__init__(md)
        self.extension = extension

    def run(self, lines: list[str]) -> list[str]:
        self.extension.source_lines = lines
        return tags.mark_lines(lines, self.extension.build.page.first_line)


class TagPattern(InlineProcessor):
    # No link inside a link, a details summary or a tab label (see `stranded`).
    ANCESTOR_EXCLUDES = ("a", "summary", "label")

    def __init__(self, md: Markdown, extension: MessageCitations, found: _Found):
        super().__init__(tags.MARKED_TAG_RE, md)
        self.extension = extension
        self.found = found
        self._raw_read: tuple[object, int, bool] = (None, 0, False)  # stash, blocks read, a link among them
        self._link_depth: tuple[object, str, int] = (None, "", 0)  # stash, text read, raw links open after it

    def _has_raw_link(self) -> bool:
        """Whether the page's raw HTML so far holds a link's tag; each stashed block read once."""
        stash = self.md.htmlStash.rawHtmlBlocks  # a new list for each page
        seen, read, found = self._raw_read
        if seen is not stash:
            read, found = 0, False
        found = found or any(isinstance(raw, str) and _RAW_LINK_RE.search(raw) for raw in stash[read:])
        self._raw_read = (stash, len(stash), found)
        return found

    # Python-Markdown's InlineProcessor takes the text too, unlike the Pattern it derives from.
    def handleMatch(self, m: re.Match[str], data: str) -> _Replacement:  # type: ignore[override]
        if tags.in_attribute_list(data, m.start(), m.end()) or self._in_raw_link(data[: m.start()]):
            return None, None, None  # left as written, and reported (see `stranded`)
        build = self.extension.build
        n, line = int(m.group(1)), tags.line_of(m.group("line"))
        message = build.message(n)
        href = build.href(n, build.page.src) if message else None
        if message is None or href is None:
            self.extension.report(line, f"[msg {n}] is not in the transcript"
                                  + (": message numbers are 1 or more" if n == 0 else ""))
            return snippets.citation_link(None, n, None), m.start(0), m.end(0)
        link = snippets.citation_link(message, n, href)
        self.found.append((link, message))
        return link, m.start(0), m.end(0)

    def _in_raw_link(self, before: str) -> bool:
        """True if `before` opens a link of raw HTML (`<a href=…>`) that it does not close.
        Each tag of a paragraph comes with the text before it, which grows by one tag at a
        time: what the last call read is not read again, or a paragraph of thousands of
        tags would take a time growing with their square."""
        if not self._has_raw_link():
            return False  # the common case, at once
        stash = self.md.htmlStash.rawHtmlBlocks
        seen, read, depth = self._link_depth
        if seen is not stash or not before.startswith(read):
            read, depth = "", 0
        for placeholder in HTML_PLACEHOLDER_RE.finditer(self.unescape(before[len(read):])):
            raw = stash[int(placeholder.group(1))]
            opening = _RAW_LINK_RE.match(raw) if isinstance(raw, str) else None
            if opening:
                depth = max(0, depth + (-1 if opening.group(1) else 1))
        self._link_depth = (stash, before, depth)
        return depth > 0


class NearMissPattern(InlineProcessor):
    def __init__(self, extension: MessageCitations):
        super().__init__(tags.MARKED_CANDIDATE_RE)
        self.extension = extension

    # Python-Markdown's InlineProcessor takes the text too, unlike the Pattern it derives from.
    def handleMatch(self, m: re.Match[str], data: str) -> _Replacement:  # type: ignore[override]
        text = m.group("written") + m.group("closing")
        if tags.TAG_RE.fullmatch(text):
            return None, None, None  # a tag: TagPattern's
        self.extension.report(tags.line_of(m.group("line")), tags.near_miss_problem(text))
        return text, m.start(0), m.end(0)


class EditorialMarksUnsearched(Treeprocessor):
    """Leave each editorial mark out of the site's search: glued to the text before it,
    it made a result read "(msg 5852ed.)"."""

    def run(self, root: etree.Element) -> None:
        for element in root.iter():
            if EDITORIAL_MARK_CLASS in (element.get("class") or "").split():
                element.attrib.update(NOT_SEARCHED)


class SnippetPlacer(Treeprocessor):
    """Show each cited message beside the paragraph that cites it, and record the citation."""

    def __init__(self, md: Markdown, extension: MessageCitations, found: _Found):
        super().__init__(md)
        self.extension = extension
        self.found = found

    def run(self, root: etree.Element) -> None:
        parents = {child: parent for parent in root.iter() for child in parent}
        # The inline patterns find tags in nested blocks late: number them in page order.
        position = {element: index for index, element in enumerate(root.iter())}
        found = sorted(self.found, key=lambda f: position.get(f[0], -1))
        self.found.clear()
        page = self.extension.build.page
        for _, message in found:
            self.extension.build.citations.link(page.src, message.n)
        cited = [(link, message, block) for link, message in found
                 if (block := _enclosing_block(link, parents)) is not None]
        by_block: dict[etree.Element, list[tuple[etree.Element, Message]]] = {}
        for link, message, block in cited:
            by_block.setdefault(block, []).append((link, message))
        texts = {block: _plain_text(block, self.md.htmlStash.rawHtmlBlocks) for block in by_block}
        ids: dict[int, int] = {}
        for link, message, block in cited:
            ids[message.n] = ids.get(message.n, 0) + 1
            anchor = f"cite-{message.n}" + ("" if ids[message.n] == 1 else f"-{ids[message.n]}")
            link.set("id", anchor)
            if not page.derived:
                text = texts[block]
                self.extension.build.citations.record(Citation(message.n, page.src, anchor,
                                                               shorten(text, EXCERPT_CHARS),
                                                               shorten(text, PASSAGE_CHARS)))
        # Quotes and snippets are put in place at the end, each parent's children in one
        # pass: finding each block among its siblings made a page's time grow with the
        # square of its tags.
        following = {child: after for parent in dict.fromkeys(parents[block] for block in by_block)
                     for child, after in itertools.pairwise(parent)}
        replaced: dict[etree.Element, etree.Element] = {}
        added: dict[etree.Element, etree.Element] = {}
        for block, citations in by_block.items():
            if _is_alone(block, citations):
                replaced[block] = self._quote(block, *citations[0])
            elif (shown := self._snippets(block, following.get(block), citations)) is not None:
                if block.tag in CONTAINER_TAGS:
                    block.append(shown)
                else:
                    added[block] = shown
        for parent in dict.fromkeys(parents[block] for block in (*replaced, *added)):
            parent[:] = [element for child in parent
                         for element in (replaced.get(child, child), added.get(child)) if element is not None]

    def _quote(self, block: etree.Element, link: etree.Element, message: Message) -> etree.Element:
        """The block quote of the whole message that stands for `block`, a tag alone."""
        build = self.extension.build
        shown, cut_note = build.shown_whole(message, build.page.src)
        # Every word, nothing folded away: the author quotes it whole to be read here.
        body = self._stashed(build.renderer.quotation(shown, Size.PRINT).html)
        quote = snippets.snippet(shown, body, link.get("href", ""))
        if cut_note is not None:
            quote.insert(1, cut_note)  # after the text, before the caption
        anchor, citation = block.get("id"), link.get("id", "")
        if anchor:  # the paragraph's own anchor stays; the citation's goes on the caption
            quote.set("id", anchor)
            quote[-1][0].set("id", citation)  # the caption's first link
        else:
            quote.set("id", citation)
        quote.set("class", quote.get("class", "") + " msg-snippet--full")
        _as_written(quote)
        quote.tail = block.tail
        return quote

    def _snippets(self, block: etree.Element, following: etree.Element | None,
                  citations: _Found) -> etree.Element | None:
        """The snippets of the messages `block` cites, to show beside it, if any is shown.
        `following` is the block's next sibling."""
        shown = etree.Element("div", {"class": "msg-snippets"})
        cited = {message.n: (message, link.get("href", "")) for link, message in citations}
        paragraph = _plain_text(block, self.md.htmlStash.rawHtmlBlocks)
        beside = _words(paragraph) + "\n" + _words(self._quotation(following))
        # Nothing shown twice: a message whose text the reader has just read, in the citing
        # paragraph or in the quotation after it, gets no snippet; its link still leads to it.
        done = {n for n, (message, _) in cited.items() if (text := _words(message.text)) and text in beside}
        for n, (message, href) in cited.items():
            if n in done:
                continue
            # Messages the essay describes in one breath, cited together: one description.
            together = tuple(
                cited[other] for other in message.described_with
                if other in cited and other not in done and cited[other][0].text == message.text
            )
            done.update([n, *(other.n for other, _ in together)])
            shown_with = tuple(other.n for other, _ in together)
            body = self.extension.build.renderer.quotation(message, Size.SNIPPET, href, shown_with)
            figure = snippets.snippet(message, self._stashed(body.html), href, together=together)
            # Beside the paragraph, the text is the transcript's or, described, the essay's
            # own. Marked on each figure: Material's search ends a left-out element at the
            # first end tag of its name, so the <div> around them would end too soon.
            figure.attrib.update(NOT_SEARCHED)
            shown.append(figure)
        _as_written(shown)
        return shown if len(shown) else None

    def _stashed(self, made: str) -> etree.Element:
        """An element that holds `made`, the renderer's HTML, as the page's Markdown
        holds raw HTML: stored aside and put back as it is once the page is written."""
        body = etree.Element("div", {"class": "msg-snippet__body"})
        body.text = self.md.htmlStash.store(made)
        return body

    def _quotation(self, following: etree.Element | None) -> str:
        """The text of `following` if it is a quotation."""
        if following is None or following.tag != "blockquote":
            return ""
        return _plain_text(following, self.md.htmlStash.rawHtmlBlocks)


class StrandedTagReporter(Postprocessor):
    """Warns of each tag left as written where no citation can stand."""

    def __init__(self, md: Markdown, extension: MessageCitations):
        super().__init__(md)
        self.extension = extension

    def run(self, text: str) -> str:
        for line, problem in stranded.stranded_tags(text):
            self.extension.report(line, problem)
        return text


class HiddenReferences(Postprocessor):
    """Warns of each character reference in the page's own text (not in code, where it
    shows as written) that writes a control character or a bidirectional control, and
    shows that character as a message's text does: by its Control Picture, its code point."""

    def __init__(self, md: Markdown, extension: MessageCitations):
        super().__init__(md)
        self.extension = extension

    def run(self, text: str) -> str:
        return hidden_characters.REFERENCE_RE.sub(self._shown, text) if "&" in text else text

    def _shown(self, reference: re.Match[str]) -> str:
        char = hidden_characters.hidden_by(reference)
        if char is None:
            return reference.group()
        written = reference.group()
        lines = self.extension.source_lines
        index = next((i for i, line in enumerate(lines) if written in line), None)
        line = None if index is None else self.extension.build.page.first_line + index
        self.extension.report(line, f"{written} writes U+{ord(char):04X}, a control character or a bidirectional "
                                    "control, which no page shows: remove it, or write it as code")
        return html.escape(displayable(char), quote=False)


class MarkerRemover(Postprocessor):
    def run(self, text: str) -> str:
        for token in getattr(self.md, "toc_tokens", []):
            _clean_toc_token(token)
        if isinstance(toc := getattr(self.md, "toc", None), str):  # the table of contents, if the page has one
            self.md.toc = tags.strip_markers(toc)  # type: ignore[attr-defined]  # the toc extension's; no stub has it
        return tags.strip_markers(text)


def _enclosing_block(element: etree.Element, parents: dict[etree.Element, etree.Element]) -> etree.Element | None:
    while element in parents:
        element = parents[element]
        if element.tag in BLOCK_TAGS:
            return element
    return None


def _is_alone(block: etree.Element, citations: _Found) -> bool:
    """True for a paragraph that holds one tag and nothing else."""
    link = citations[0][0]
    return (
        block.tag == "p"
        and len(citations) == 1
        and list(block) == [link]
        and not (block.text or "").strip()
        and not (link.tail or "").strip()
    )


def _as_written(element: etree.Element) -> None:
    """`element`, a message's snippet or quotation for the page's Markdown tree, made to
    show its texts as written: Python-Markdown's serializer leaves "&" before what reads
    as a character reference, so that "&#x202e;" in a message would write U+202E, a
    bidirectional control, and "&lt;" a "<"; written "&amp;", each "&" shows as itself."""
    for inner in element.iter():
        if inner.text and "&" in inner.text:
            inner.text = inner.text.replace("&", "&amp;")
        if inner is not element and inner.tail and "&" in inner.tail:
            inner.tail = inner.tail.replace("&", "&amp;")
        for name, value in inner.attrib.items():
            if "&" in value:
                inner.set(name, value.replace("&", "&amp;"))


def _plain_text(element: etree.Element, stash: Sequence[object] = ()) -> str:
    """The words of a block, without the marks an editor added to them. `stash` holds
    the raw HTML that placeholders in the text stand for: its entities are kept."""
    parts = [element.text or ""]
    for child in element:
        if EDITORIAL_MARK_CLASS not in (child.get("class") or "").split():
            parts.append(_plain_text(child, stash))
        parts.append(child.tail or "")
    return tags.strip_markers(_STASH_PLACEHOLDER_RE.sub(lambda m: _placeholder_text(m.group(1), stash), "".join(parts)))


def _words(text: str) -> str:
    """Text as a reader compares it: its words, in one case, whatever the spacing."""
    return " ".join(displayable(text).split()).casefold()


def _placeholder_text(placeholder: str, stash: Sequence[object]) -> str:
    """The text a placeholder of Python-Markdown stands for: an escaped character, an
    entity (`&amp;`), or nothing for raw HTML."""
    if placeholder.isdigit():
        return chr(int(placeholder))  # a backslash escape
    index = placeholder.removeprefix("wzxhzdk:")
    raw = stash[int(index)] if index.isdigit() and int(index) < len(stash) else None
    return html.unescape(raw) if isinstance(raw, str) and _ENTITY_RE.fullmatch(raw) else ""


def _clean_toc_token(token: dict[str, Any]) -> None:
    token["name"] = tags.strip_markers(token["name"])
    for child in token.get("children", []):
        _clean_toc_token(child)
