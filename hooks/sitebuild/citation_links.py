"""The links between the essay's citations and the transcript's messages, made once every
page is converted: the preview of each message a page cites, with the places it is cited,
and on the transcript pages each message's "Cited in" list and the map's marks."""

from __future__ import annotations

import functools
from collections.abc import Callable

from msgref import previews
from msgref.citations import Citation
from msgview.html import to_html
from msgview.render import MessageRenderer, Size
from transcriptsite.entries import MAP, PageEntries
from transcriptsite.layout import TranscriptLayout
from transcriptsite.message_map import MapTemplate, marks
from transcriptsite.pages import cited_in_fill

from .records import PageRecords
from .site_pages import SitePages
from .urls import relative_url

PREVIEWS_SLOT = '<div class="msg-previews-slot"></div>'


class CitationLinks:
    def __init__(self, layout: TranscriptLayout, records: PageRecords, pages: SitePages, renderer: MessageRenderer):
        self._layout, self._records, self._pages, self._renderer = layout, records, pages, renderer
        self._between: dict[tuple[str, str], str | None] = {}  # (to, from) -> a link between two pages

    def previews(self, src: str) -> str:
        """The previews of the messages page `src` links to, as the HTML that ends the page;
        "" for none."""
        numbers = self._records.citations.linked_from(src)
        if not numbers:
            return ""
        link_for = self._link_for(src)
        shown = []
        for n in numbers:
            message, href = self._layout.transcript.get(n), self._message_href(n, src)
            if message is None or href is None:
                continue
            cited_in = [(self._records.title_of(c.page), link_for(c)) for c in self._cited.get(n, [])]
            body = self._renderer.quotation(message, Size.PREVIEW)
            shown.append(previews.preview(message, body, href, cited_in))
        return to_html(previews.previews_block(shown)) if shown else ""

    def entries_html(self, src: str, entries: PageEntries) -> str:
        """The entries of transcript page `src` with their holes filled: the map, and each
        cited message's "Cited in" list."""
        cited_in = cited_in_fill(self._cited, self._link_for(src), self._records.title_of)

        def fill(kind: int, n: int) -> str:
            return self._map(src) if kind == MAP else cited_in(kind, n)

        return entries.filled(fill, self._cited)

    @functools.cached_property
    def _cited(self) -> dict[int, list[Citation]]:
        """Each cited message's citations, in reading order: known once every page is converted."""
        return {n: self._records.citations_of(n) for n in self._records.citations.numbers()}

    @functools.cached_property
    def _map_template(self) -> MapTemplate | None:
        """The map, the same for every page but for its links and the page's own mark:
        drawn once, when the first page asks for it."""
        strip = self._layout.strip
        if strip is None:
            return None
        cited = [(n, [self._records.title_of(citation.page) for citation in citations])
                 for n, citations in self._cited.items() if self._layout.src_of(n) is not None]
        return MapTemplate(strip, marks(strip, cited), len(self._layout.pages) > 1)

    def _map(self, src: str) -> str:
        """The map at the top of transcript page `src`, its marks linked from that page."""
        template = self._map_template
        if template is None:  # no message, so no map; the entries hold no hole for one
            return ""
        layout = self._layout

        def href_of(n: int) -> str:
            return f"#msg-{n}" if layout.src_of(n) == src else self._message_href(n, src) or ""

        chunk = layout.pages[layout.page_sources().index(src)]
        return template.page_map(href_of, (chunk[0], chunk[-1]) if chunk else None)

    def _message_href(self, n: int, src: str) -> str | None:
        """The address of message n's entry relative to page `src`; None if no page shows it."""
        key = (self._layout.src_of(n) or "", src)
        if key not in self._between:  # a page's map and previews link to a few pages, many times
            target = self._pages.url(key[0])
            self._between[key] = None if target is None else relative_url(target, self._pages.url(src) or "")
        link = self._between[key]
        return None if link is None else f"{link}#msg-{n}"

    def _link_for(self, src: str) -> Callable[[Citation], str]:
        here, url = self._pages.url(src) or "", self._pages.url
        return lambda citation: f"{relative_url(url(citation.page) or citation.page, here)}#{citation.anchor}"
