"""The site's pages in order, derived from the one list an author keeps (the essay's
sections in mkdocs.yml): the navigation, and the contents the home page shows where it
asks for them.

The navigation lists the transcript's first page alone, as a whole session has hundreds:
on each other page of the transcript, that page takes its place (`show_transcript_page`).

A page asks for the contents with a line of its own reading CONTENTS_SLOT. The contents
are Markdown, put in before the page is converted, so that they are converted (headings,
links, paragraph ids) like the rest of the page.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from markdown import Markdown
from markdown.extensions import Extension
from markdown.preprocessors import Preprocessor

from essaycite.source import FRONT_MATTER_RE, in_fenced_code, lines_outside_code
from msgref.tags import TAG_RE, cited_range, link_text

from .records import title_from_file_name
from .site_pages import HOW_TO_CITE_PAGE, NOTE_ON_THE_TEXT, PRINT_PAGE, WHAT_CHANGED_PAGE

CONTENTS_SLOT = '<div class="essay-contents-slot"></div>'
# A page's title as Markdown writes it: a level-one heading, without an attribute list
# such as `{ #id }`.
_TITLE_RE = re.compile(r"^#[ \t]+(.+?)[ \t]*(?:\{[^}\n]*\})?[ \t]*#*[ \t]*$")


@dataclass(frozen=True)
class PageList:
    """The essay's sections and the pages the site has beside them."""

    sections: tuple[str, ...]
    transcript_start: str  # the transcript's first page
    has_note: bool  # whether the site has a note on the text
    shows_all: bool  # whether the transcript shows every message of the session
    changed_since: int | None = None  # the edition that the page of what changed compares with

    def nav(self) -> list[str]:
        """The navigation: the sections, then how to cite, the note on the text, the transcript."""
        return [*self.sections, HOW_TO_CITE_PAGE, *([WHAT_CHANGED_PAGE] if self.changed_since else []),
                *([NOTE_ON_THE_TEXT] if self.has_note else []),
                self.transcript_start]

    def contents(self, src: str, titles: Mapping[str, str]) -> str:
        """The contents shown on page `src`: the other sections, each by its title in
        `titles`, then the site's other pages."""
        def link(target: str) -> str:
            return posixpath.relpath(target, posixpath.dirname(src) or ".")

        listed = [section for section in self.sections if section != src]
        items = [f"{number}. [{titles.get(section, section)}]({link(section)})"
                 for number, section in enumerate(listed, start=1)]
        also = [f"the [whole essay on one page]({link(PRINT_PAGE)}), for reading in one piece or printing",
                f"[how to cite]({link(HOW_TO_CITE_PAGE)}) the essay, a section, a paragraph or a message"]
        if self.changed_since:
            also.append(f"[what changed]({link(WHAT_CHANGED_PAGE)}) since edition {self.changed_since}")
        if self.has_note:
            also.append(f"a [note on the text]({link(NOTE_ON_THE_TEXT)}), listing every editorial change")
        also.append(f"the [transcript]({link(self.transcript_start)}) of {transcript_scope(self.shows_all)}")
        return "\n".join([
            '<nav class="essay-contents" aria-label="Contents" markdown>', "", "## Contents", "", *items, "",
            f"Also here: {'; '.join(also[:-1])}; and {also[-1]}.", "", "</nav>",
        ])


class SourceFile(Protocol):
    @property
    def src_uri(self) -> str: ...


class NavPage(Protocol):
    """A page as the generator's navigation holds it, as far as the transcript's entry needs it."""

    parent: Any  # the section listing it, None at the navigation's top
    active: bool  # whether it is the page shown: set, it sets its sections' too

    @property
    def file(self) -> SourceFile: ...


def show_transcript_page(entries: list[Any], listed: Sequence[NavPage], page: NavPage,
                         transcript: Sequence[str]) -> None:
    """Makes the transcript's entry in the navigation, before `page` is rendered, `page`
    itself if it is a page of the transcript that the navigation does not list: the entry
    then names that page's messages and is marked as the page shown. On any other page the
    entry is the first page, as listed.

    `entries` are the navigation's top entries, `listed` its pages, and `transcript` the
    sources of the transcript's pages, from the first."""
    first = next((listed_page for listed_page in listed if listed_page.file.src_uri == transcript[0]), None)
    if first is None:  # a navigation written without the transcript
        return
    in_nav = {id(listed_page) for listed_page in listed}

    def unlisted(entry: object) -> bool:
        """Whether `entry` is a page of the transcript that the navigation does not list."""
        return id(entry) not in in_nav and getattr(getattr(entry, "file", None), "src_uri", None) in transcript

    siblings = entries if first.parent is None else first.parent.children
    # The entry's place: the first page's, or that of another page of the transcript shown before.
    place = next(i for i, entry in enumerate(siblings) if entry is first or unlisted(entry))
    shown = page if unlisted(page) else first
    siblings[place] = shown
    if shown is page and first.parent is not None:
        page.parent = first.parent
        page.active = True  # again, now that it has a section: the section opens as the page's own


def transcript_scope(shows_all: bool) -> str:
    """What the transcript pages hold, as a phrase."""
    return "every message of the session" if shows_all else "the messages of the session that the essay cites"


def page_title(markdown: str, src: str) -> str:
    """A page's title as the text of a link to it: its first level-one heading outside
    front matter and code, a tag in it as the words the reader sees ("msg 12"), or else
    its file's name as words."""
    for line in lines_outside_code(FRONT_MATTER_RE.sub("", markdown, count=1)):
        if found := _TITLE_RE.match(line):
            return re.sub(r"([\[\]])", r"\\\1", TAG_RE.sub(lambda tag: link_text(*cited_range(tag)), found.group(1)))
    return title_from_file_name(src)


class ContentsSlot(Extension):
    """Puts the contents `contents_of()` gives for the page being converted in place of
    each CONTENTS_SLOT line, before the page's raw HTML is read."""

    def __init__(self, contents_of: Callable[[], str]):
        super().__init__()
        self._contents_of = contents_of

    def extendMarkdown(self, md: Markdown) -> None:
        # After the tags' line markers (40), before the raw HTML blocks are set aside (20).
        md.preprocessors.register(_ContentsLines(md, self._contents_of), "essay_contents", 35)


class _ContentsLines(Preprocessor):
    def __init__(self, md: Markdown, contents_of: Callable[[], str]):
        super().__init__(md)
        self._contents_of = contents_of

    def run(self, lines: list[str]) -> list[str]:
        if not any(line.strip() == CONTENTS_SLOT for line in lines):
            return lines
        slots = [line.strip() == CONTENTS_SLOT and not in_code
                 for line, in_code in zip(lines, in_fenced_code(lines), strict=True)]
        if not any(slots):  # shown as code, as an example
            return lines
        contents = self._contents_of().split("\n")
        return [part for line, slot in zip(lines, slots, strict=True) for part in (contents if slot else [line])]
