"""The transcript's pages and whole texts, made while the rest of the site is built.

Once the pages are listed, the build knows every message it shows and every page's
address, and nothing more is needed to make the transcript's entries. For a whole
session that is most of the build's work, so a child process on another core does it
(see `msgref.background`), page by page, each page needed only when it is written: the
first pages are written while the last are made. The whole texts of long messages are
written as their pages are made, straight into the built site, where the generator
finds them and does not copy them again.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import TYPE_CHECKING

from msgref import background
from msgref.transcript_entries import PageEntries, Permalink, page_entries
from msgref.transcript_map import MapTemplate

from .generated import GeneratedFile
from .site_pages import SitePages
from .urls import relative_url

if TYPE_CHECKING:
    from .build import SiteBuild

# A child process is worth its start and the copying of its results back for this many
# messages or more; fewer are rendered in the build's own process, when first needed.
IN_CHILD_MIN_MESSAGES = 1000


class TranscriptRendering:
    """The rendering of one build's transcript: its whole texts' files, known as soon as
    the layout is, and its pages' entries, begun by `start`."""

    def __init__(self, build: SiteBuild):
        self._build = build
        layout = build.layout
        self.sources = layout.page_sources()
        # Every source path is the file's path in the built site: a whole text is no page.
        self.text_files = [GeneratedFile(src, path=os.path.join(build.site_dir, src))
                           for src in map(layout.text_file_src, layout.text_file_numbers())]
        self._next_stage = None
        self._entries: list[PageEntries] = []  # of the pages received so far, in order
        self.map_template: MapTemplate | None = None  # drawn once every page is converted

    def start(self, pages: SitePages, permalink: Permalink | None) -> None:
        """Begin, the pages' addresses being known. Each whole text's file is there at once,
        empty until its page is made: the generator, told that the file is where it is
        to be, leaves it alone."""
        build, layout, links = self._build, self._build.layout, _Links(pages)
        for file in self.text_files:
            os.makedirs(os.path.dirname(file.path), exist_ok=True)
            open(file.path, "wb").close()

        def write_text(n: int, text: bytes) -> None:
            with open(os.path.join(build.site_dir, layout.text_file_src(n)), "wb") as file:
                file.write(text)

        def stages() -> Iterator[PageEntries]:
            for index in range(len(layout.pages)):
                yield page_entries(layout, index, links, permalink, write_text)

        shown = sum(len(chunk) for chunk in layout.pages)
        in_child = build.settings.parse_in_child and shown >= IN_CHILD_MIN_MESSAGES and background.can_fork()
        build.log.debug("Transcript pages: %d messages, made in %s", shown, "a child process" if in_child else "this process")
        self._next_stage = background.start_stages(stages, len(layout.pages), build.fatal, in_child)

    def entries(self, src: str) -> PageEntries | None:
        """The entries of transcript page `src`; None for any other page."""
        if src not in self.sources:
            return None
        index = self.sources.index(src)
        while len(self._entries) <= index:
            self._entries.append(self._next_stage())
        return self._entries[index]

    def search_entries(self) -> list[dict[str, str]]:
        return [entry for page in self.sources for entry in self.entries(page).search]

    def finish(self) -> None:
        """Make what no page has asked for yet: every whole text is written once this returns."""
        if self.sources:
            self.entries(self.sources[-1])


class _Links:
    def __init__(self, pages: SitePages):
        self._pages = pages
        self._urls: dict[str, str] = {}  # a generator's lookup can take longer than the rest of a link

    def url(self, src: str) -> str:
        url = self._urls.get(src)
        if url is None:
            url = self._urls[src] = self._pages.url(src) or src
        return url

    def href(self, target: str, source: str) -> str:
        return relative_url(self.url(target), self.url(source))
