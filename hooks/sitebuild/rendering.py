"""The transcript's pages and whole texts, made while the rest of the site is built.

Once the pages are listed, the build knows every message it shows and every page's
address, and nothing more is needed to make the transcript's entries. For a whole
session that is most of the build's work, so a child process on another core does it
(see `msgref.background`), page by page, each page needed only when it is written: the
first pages are written while the last are made, and the build makes the last ones
itself rather than wait. The whole texts of long messages are written as their pages
are made, straight into the built site, where the generator finds them and does not
copy them again.
"""

from __future__ import annotations

import os
import tempfile
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
    the layout is, and its pages' entries, begun by `start`.

    A child process makes the pages from the first on. This process makes a page
    itself when the child has not begun it, and, while it would wait, the last page
    that neither has begun: each takes a page by creating its claim, a file that only
    one of them can create.
    """

    def __init__(self, build: SiteBuild):
        self._build = build
        layout = build.layout
        self.sources = layout.page_sources()
        # Every source path is the file's path in the built site: a whole text is no page.
        self.text_files = [GeneratedFile(src, path=os.path.join(build.site_dir, src))
                           for src in map(layout.text_file_src, layout.text_file_numbers())]
        self._made: dict[int, PageEntries] = {}  # by page index
        self._make = None
        self._child: background.Stages | None = None
        self._claims: tempfile.TemporaryDirectory | None = None
        self.map_template: MapTemplate | None = None  # drawn once every page is converted

    def start(self, pages: SitePages, permalink: Permalink | None) -> None:
        """Begin, the pages' addresses being known. Each whole text's file is there at once,
        empty until its page is made: the generator, told that the file is where it is
        to be, leaves it alone."""
        build, layout, links = self._build, self._build.layout, _Links(pages)
        for file in self.text_files:
            os.makedirs(os.path.dirname(file.path), exist_ok=True)
            open(file.path, "wb").close()

        paths = {n: file.path for n, file in zip(layout.text_file_numbers(), self.text_files)}

        def write_text(n: int, text: bytes) -> None:
            with open(paths[n], "wb") as file:
                file.write(text)

        self._make = lambda index: page_entries(layout, index, links, permalink, write_text)
        shown = sum(len(chunk) for chunk in layout.pages)
        in_child = build.settings.parse_in_child and shown >= IN_CHILD_MIN_MESSAGES and background.can_fork()
        build.log.debug("Transcript pages: %d messages, made in %s", shown, "a child process" if in_child else "this process")
        if in_child:
            self._claims = tempfile.TemporaryDirectory(prefix="transcript-pages-")
            self._child = background.Stages(self._made_by_child, build.fatal)

    def entries(self, src: str) -> PageEntries | None:
        """The entries of transcript page `src`; None for any other page."""
        if src not in self.sources:
            return None
        index = self.sources.index(src)
        while index not in self._made:
            self._step(index)
        return self._made[index]

    def search_entries(self) -> list[dict[str, str]]:
        return [entry for page in self.sources for entry in self.entries(page).search]

    def finish(self) -> None:
        """Make what no page has asked for yet: every whole text is written once this returns."""
        for src in self.sources:
            self.entries(src)
        if self._claims is not None:
            self._claims.cleanup()

    def _made_by_child(self) -> Iterator[tuple[int, PageEntries]]:
        for index in range(len(self.sources)):
            if self._claim(index):
                yield index, self._make(index)

    def _step(self, wanted: int) -> None:
        """Take a page from the child, or make one here: the page wanted, if the child has
        not begun it, or else, rather than wait, the last page nobody has begun."""
        if self._child is not None and self._child.ready():
            return self._receive()
        if self._child is None or self._claim(wanted):
            self._made[wanted] = self._make(wanted)
            return
        for index in range(len(self.sources) - 1, wanted, -1):
            if index in self._made:
                continue
            if self._claim(index):
                self._made[index] = self._make(index)
                return
            break  # the child's: it takes the pages in order, and so has every page before too
        self._receive()

    def _receive(self) -> None:
        try:
            index, made = self._child()
        except StopIteration:  # the child has made all it will; what is left is this process's
            self._child = None
        else:
            self._made[index] = made

    def _claim(self, index: int) -> bool:
        if self._claims is None:
            return True
        try:
            os.close(os.open(os.path.join(self._claims.name, str(index)), os.O_CREAT | os.O_EXCL | os.O_WRONLY))
        except FileExistsError:
            return False
        return True


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
