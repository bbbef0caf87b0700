"""The transcript pages' entries and the whole texts of long messages, made while the rest
of the site is built.

Once every page's address is known, nothing more is needed to make the transcript's
entries. For a whole session they are most of the build's work, so a worker process
makes them beside the build (see `worker`), page by page, each page needed only when it
is written; and a build that would make them just as the last build of its process did
(a development server's, after an edit of the essay) takes them from that build. The
whole text of a long message is written as its page is made, straight into the built
site, where the generator finds it and does not copy it again.
"""

from __future__ import annotations

import hashlib
import logging
import os
from array import array
from collections.abc import Hashable, Mapping, Sequence

from transcript.redact import RedactedTranscript, Redaction
from transcript.schema import MessageSource
from transcriptsite.entries import PageEntries, page_entries
from transcriptsite.layout import TranscriptLayout, search_folder
from transcriptsite.message_index import MessageIndexWriter

from .between_builds import KEPT_INDEX, KEPT_PAGES, KEPT_TEXTS, LastMade, SetAside
from .site_pages import SitePages
from .urls import relative_url
from .worker import MadeByIndex

_Made = tuple[PageEntries, list[Redaction]]

# A worker process is worth its start and the copying of its pages back for this many
# messages or more; fewer are made in the build's own process, when first needed.
IN_WORKER_MIN_MESSAGES = 1000


class TranscriptRendering:
    """The entries of the transcript's pages, made from `layout` with the site's
    addresses, and the whole texts of long messages, written to `text_paths` (by message
    number). In a worker process if `in_worker` and the pages show enough messages.
    `source` is the transcript the layout reads, as the build read it; `redacted` is the
    same, if it is redacted: what it redacts for a page is told here as the page is taken,
    once, whichever process made the page. Each page's part of the transcript's search
    index goes to `index`, if it is searched, as the page is made in this process or taken
    from the worker, and the index is written once every page is in.
    What the last build of this process made from the same transcript, the same way, is
    taken from `kept`, and its index from `kept_index`."""

    def __init__(self, layout: TranscriptLayout, pages: SitePages,
                 text_paths: Mapping[int, str], source: MessageSource, in_worker: bool, log: logging.Logger,
                 kept: LastMade[_Made] = KEPT_PAGES, kept_texts: SetAside = KEPT_TEXTS,
                 index: MessageIndexWriter | None = None, kept_index: SetAside = KEPT_INDEX):
        self.sources = layout.page_sources()
        self._index, self._folder = index, layout.folder
        self._taken, self._indexed = set[int](), set[int]()  # the pages taken, and those in the index

        def write_text(n: int, text: bytes) -> None:
            with open(text_paths[n], "wb") as file:
                file.write(text)

        links = self._links = _Links(pages)
        redacted = source if isinstance(source, RedactedTranscript) else None
        self._redacted, self._source, self._kept = redacted, source, kept
        self._key = _made_from(layout, links)
        made_before = kept.get(source, self._key)
        if made_before is not None:
            # The generator emptied the site's folder since the last build: its whole texts
            # are moved back, or else written again.
            folder = os.path.dirname(next(iter(text_paths.values()), ""))
            if not kept_texts.take_back(folder) and text_paths:
                os.makedirs(folder, exist_ok=True)
                for n in text_paths:
                    write_text(n, layout.whole_text(layout.message(n)))
            self._pages: MadeByIndex[_Made] | _MadeBefore = _MadeBefore(made_before)
            if index is not None and kept_index.take_back(index.folder):
                self._index = None  # the last build's index, of the same pages, is in place
            log.debug("Transcript pages: as the last build made them")
            return
        # Until this build has made every page, nothing of the last one is to be taken.
        kept.forget()
        kept_texts.drop()
        kept_index.drop()
        # Each whole text's file is there at once, empty until its page is made: the
        # generator, told that the file is where it is to be, leaves it alone.
        for path in text_paths.values():
            os.makedirs(os.path.dirname(path), exist_ok=True)
            open(path, "wb").close()

        here = os.getpid()

        def make(index: int) -> _Made:
            if redacted is None:
                made: _Made = page_entries(layout, index, links, write_text), []
            else:
                with redacted.held() as found:
                    made = page_entries(layout, index, links, write_text), found
            if os.getpid() == here:  # not the worker: indexed at once, rather than when it is taken
                self._add_to_index(index, made[0])
            return made

        shown = sum(len(chunk) for chunk in layout.pages)
        self._pages = MadeByIndex(make, len(self.sources), in_worker and shown >= IN_WORKER_MIN_MESSAGES)
        log.debug("Transcript pages: %d messages, made in %s", shown,
                  "a worker process" if self._pages.in_worker else "this process")

    def entries(self, src: str) -> PageEntries:
        """The entries of transcript page `src`, one of `sources`."""
        return self._page(self.sources.index(src))

    def written(self, src: str) -> None:
        """Transcript page `src` is written: unless a later build may take the pages as
        they are, its HTML is let go, the most memory a build of a whole session holds."""
        if self._kept.wanted or not isinstance(self._pages, MadeByIndex):
            return
        index = self.sources.index(src)
        entries = self._page(index)  # indexed, if it was not yet
        self._pages.replace(index, (entries.without_html(), self._pages[index][1]))

    def _index_href(self, src: str) -> str:
        """The link from the search index's folder to page `src`."""
        return self._links.href(src, search_folder(self._folder) + "/")

    def finish(self) -> None:
        """Make what no page has asked for yet, then end the worker: every whole text is
        written once this returns. If a page cannot be made, the worker is ended too."""
        count = len(self.sources)
        try:
            for index in range(count):
                self._page(index)
            if self._index is not None:
                self._index.finish()
        finally:
            self._pages.close()
            if self._index is not None:
                self._index.discard()
        if self._kept.wanted:
            self._kept.keep(self._source, self._key, [self._pages[index] for index in range(count)])

    def _page(self, index: int) -> PageEntries:
        entries, found = self._pages[index]
        if index not in self._taken:  # the first time the page is taken
            self._taken.add(index)
            if self._redacted is not None:
                for n, kinds in found:
                    self._redacted.tell(n, kinds)
            self._add_to_index(index, entries)
        return entries

    def _add_to_index(self, index: int, entries: PageEntries) -> None:
        """The page's part of the search index, added once."""
        if self._index is None or index in self._indexed:
            return
        self._indexed.add(index)
        self._index.add_page(index, self._index_href(self.sources[index]), entries.search)


class _MadeBefore:
    """The pages a build before this one made, as `MadeByIndex` gives them."""

    in_worker = False

    def __init__(self, made: Sequence[_Made]):
        self._made = made

    def __getitem__(self, index: int) -> _Made:
        return self._made[index]

    def close(self) -> None:
        pass


def _made_from(layout: TranscriptLayout, links: _Links) -> Hashable:
    """Everything the entries are made from, but the transcript: the settings that shape
    them, which messages each page shows and the pages' addresses."""
    shown = hashlib.blake2b(digest_size=32)  # the numbers of the messages each page shows
    for chunk in layout.pages:
        shown.update(array("q", chunk).tobytes() + b"|")
    return layout.settings, shown.digest(), tuple(links.url(src) for src in layout.page_sources())


class _Links:
    def __init__(self, pages: SitePages):
        self._pages = pages

    def url(self, src: str) -> str:
        return self._pages.url(src) or src

    def href(self, target: str, source: str) -> str:
        return relative_url(self.url(target), self.url(source))
