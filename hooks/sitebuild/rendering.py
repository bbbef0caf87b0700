"""The transcript pages' entries and the whole texts of long messages, made while the rest
of the site is built.

Once every page's address is known, nothing more is needed to make the transcript's
entries. For a whole session they are most of the build's work, so a worker process
makes them beside the build (see `worker`), page by page, each page needed only when it
is written. The whole text of a long message is written as its page is made, straight
into the built site, where the generator finds it and does not copy it again.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Mapping

from msgref.redact import RedactedTranscript, Redaction
from msgref.transcript_entries import PageEntries, Permalink, page_entries
from msgref.transcript_layout import TranscriptLayout

from .site_pages import SitePages
from .urls import relative_url
from .worker import MadeByIndex

# A worker process is worth its start and the copying of its pages back for this many
# messages or more; fewer are made in the build's own process, when first needed.
IN_WORKER_MIN_MESSAGES = 1000


class TranscriptRendering:
    """The entries of the transcript's pages, made from `layout` with the site's
    addresses, and the whole texts of long messages, written to `text_paths` (by message
    number). In a worker process if `in_worker` and the pages show enough messages.
    `redacted` is the layout's transcript, if it is redacted: what it redacts for a page
    is told here as the page is taken, once, whichever process made the page."""

    def __init__(self, layout: TranscriptLayout, pages: SitePages, permalink: Permalink | None,
                 text_paths: Mapping[int, str], redacted: RedactedTranscript | None, in_worker: bool,
                 log: logging.Logger):
        self.sources = layout.page_sources()
        # Each whole text's file is there at once, empty until its page is made: the
        # generator, told that the file is where it is to be, leaves it alone.
        for path in text_paths.values():
            os.makedirs(os.path.dirname(path), exist_ok=True)
            open(path, "wb").close()

        def write_text(n: int, text: bytes) -> None:
            with open(text_paths[n], "wb") as file:
                file.write(text)

        links = _Links(pages)
        self._redacted = redacted

        def make(index: int) -> tuple[PageEntries, list[Redaction]]:
            if redacted is None:
                return page_entries(layout, index, links, permalink, write_text), []
            with redacted.held() as found:
                return page_entries(layout, index, links, permalink, write_text), found

        shown = sum(len(chunk) for chunk in layout.pages)
        self._pages = MadeByIndex(make, len(self.sources), in_worker and shown >= IN_WORKER_MIN_MESSAGES)
        log.debug("Transcript pages: %d messages, made in %s", shown,
                  "a worker process" if self._pages.in_worker else "this process")

    def entries(self, src: str) -> PageEntries:
        """The entries of transcript page `src`, one of `sources`."""
        return self._page(self.sources.index(src))

    def search_entries(self) -> list[dict[str, str]]:
        return [entry for index in range(len(self.sources)) for entry in self._page(index).search]

    def finish(self) -> None:
        """Make what no page has asked for yet, then end the worker: every whole text is
        written once this returns. If a page cannot be made, the worker is killed."""
        try:
            for index in range(len(self.sources)):
                self._page(index)
        except BaseException:
            self._pages.end()
            raise
        self._pages.close()

    def _page(self, index: int) -> PageEntries:
        entries, found = self._pages[index]
        if self._redacted is not None:
            for n, kinds in found:
                self._redacted.tell(n, kinds)
        return entries


class _Links:
    def __init__(self, pages: SitePages):
        self._pages = pages

    def url(self, src: str) -> str:
        return self._pages.url(src) or src

    def href(self, target: str, source: str) -> str:
        return relative_url(self.url(target), self.url(source))
