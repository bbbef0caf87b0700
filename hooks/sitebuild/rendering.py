"""The transcript's pages and whole texts, made while the rest of the site is built.

Once the pages are listed, the build knows every message it shows and every page's
address, and nothing more is needed to make the transcript's entries. For a whole
session that is most of the build's work, so a child process on another core does it
(see `msgref.background`) in stages: first the whole texts of long messages, into a
folder of their own, from which the generator copies them with the site's other files;
then the entries of each page in turn, each needed only when its page is written, so
that the first pages are written while the last are made.
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
    the layout is, and its pages' entries, begun by `start`."""

    def __init__(self, build: SiteBuild):
        self._build = build
        layout = build.layout
        self.sources = layout.page_sources()
        self._numbers = layout.text_file_numbers()
        self._folder = tempfile.TemporaryDirectory(prefix="transcript-texts-") if self._numbers else None
        self.text_files = [GeneratedFile(layout.text_file_src(n), path=self._text_path(n)) for n in self._numbers]
        self._next_stage = None
        self._texts_written = False
        self._entries: list[PageEntries] = []  # of the pages received so far, in order
        self.map_template: MapTemplate | None = None  # drawn once every page is converted

    def start(self, pages: SitePages, permalink: Permalink | None) -> None:
        """Begin, the pages' addresses being known."""
        build, layout, links = self._build, self._build.layout, _Links(pages)

        def stages() -> Iterator[PageEntries | None]:
            for n in self._numbers:
                with open(self._text_path(n), "wb") as file:
                    file.write(layout.whole_text(n))
            yield None
            for index in range(len(layout.pages)):
                yield page_entries(layout, index, links, permalink)

        shown = sum(len(chunk) for chunk in layout.pages)
        in_child = build.settings.parse_in_child and shown >= IN_CHILD_MIN_MESSAGES and background.can_fork()
        build.log.debug("Transcript pages: %d messages, made in %s", shown, "a child process" if in_child else "this process")
        self._next_stage = background.start_stages(stages, 1 + len(layout.pages), build.fatal, in_child)

    def texts_written(self) -> list[GeneratedFile]:
        """The whole texts' files, once they are written."""
        if not self._texts_written:
            self._next_stage()
            self._texts_written = True
        return self.text_files

    def entries(self, src: str) -> PageEntries | None:
        """The entries of transcript page `src`; None for any other page."""
        if src not in self.sources:
            return None
        self.texts_written()
        index = self.sources.index(src)
        while len(self._entries) <= index:
            self._entries.append(self._next_stage())
        return self._entries[index]

    def search_entries(self) -> list[dict[str, str]]:
        return [entry for page in self.sources for entry in self.entries(page).search]

    def close(self) -> None:
        """Remove the whole texts' folder, once the generator has copied them."""
        if self._folder is not None:
            self._folder.cleanup()

    def _text_path(self, n: int) -> str:
        return os.path.join(self._folder.name, f"msg-{n}.txt")


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
