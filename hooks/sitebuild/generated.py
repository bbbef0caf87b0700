"""The files a build adds to the site: the transcript pages and the whole texts of long
messages, the whole essay on one page, and the citation downloads.

Each comes as a source path and its content (Markdown for pages), or the path of a
file that holds it, so that any generator can add them. The transcript pages' entries
and "Cited in" lists (`transcript_page`), the citation downloads, which name each
section as its page titles it, and the previews of the messages a page cites
(`message_previews`) are put in once every page has been converted.
"""

from __future__ import annotations

import functools
import posixpath
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from essaycite.formats import downloads
from essaycite.whole_essay import whole_essay_markdown
from msgref import previews
from msgref.snippets import to_html
from msgref.transcript_entries import MAP
from msgref.transcript_map import MapTemplate, marks
from msgref.transcript_pages import ENTRIES_SLOT, cited_in_fill, cited_messages, page_markdown

from . import citing
from .settings import SettingsError
from .site_pages import DOWNLOADS_FOLDER, PRINT_PAGE, SitePages
from .urls import relative_url

if TYPE_CHECKING:
    from .build import SiteBuild

TRANSCRIPT_INTRO = (
    "The messages of the session that the essay cites, as far as the essay shows them. "
    "A message the essay quotes is shown word for word; a message it only describes is shown "
    "as the essay's description, marked as such. See the [note on the text]({note})."
)
NOTE_ON_THE_TEXT = "note-on-the-text.md"
APPENDIX_TITLE = "Appendix: the messages the essay cites"
APPENDIX_SLOT = '<div class="cited-messages-slot"></div>'
PRINT_FRONT_MATTER = "---\nsearch:\n  exclude: true\n---\n\n"


@dataclass(frozen=True)
class GeneratedFile:
    src: str  # its source path, relative to the docs folder
    content: str | bytes | None = None  # text of a page; a file's text, encoded
    # Or where its content is: a file the build writes into the built site itself,
    # whole by the time the site is written.
    path: str | None = None
    # A page the navigation lists; other pages are reached by links (the transcript's
    # pager, the contents of the home page).
    in_nav: bool = False


def generated_files(build: SiteBuild, pages: Mapping[str, str]) -> list[GeneratedFile]:
    """Every file the build adds, from the Markdown of the site's pages by source path.
    The transcript pages come last: generators write pages in this order, and theirs
    are the last to be ready."""
    files = [GeneratedFile(PRINT_PAGE, print_page(build, pages))] if build.essay else []
    return [*files, *transcript_pages(build), *build.rendering.text_files]


def transcript_pages(build: SiteBuild) -> list[GeneratedFile]:
    layout = build.layout
    intro = TRANSCRIPT_INTRO.format(note=posixpath.relpath(NOTE_ON_THE_TEXT, layout.folder))
    return [GeneratedFile(layout.page_src(index), page_markdown(layout, index, intro), in_nav=index == 0)
            for index in range(len(layout.pages))]


def print_page(build: SiteBuild, pages: Mapping[str, str]) -> str:
    """The whole essay on one page, opening with its citation and ending with the
    messages it cites (`cited_messages_appendix` fills them in)."""
    missing = [src for src in build.essay.sections if src not in pages]
    if missing:
        raise SettingsError(f"mkdocs.yml: extra.essay.sections: {missing[0]} is not a page of the site")
    sections = [(posixpath.splitext(src)[0].replace("/", "-"), pages[src]) for src in build.essay.sections]
    appendix = f"## {APPENDIX_TITLE}\n\n{APPENDIX_SLOT}"
    # Left out of the search, which finds each passage on its section's page.
    return PRINT_FRONT_MATTER + whole_essay_markdown(sections, citing.cite_as_block(build), appendix)


def cited_messages_appendix(build: SiteBuild, html: str, pages: SitePages) -> str:
    """The converted one-page essay with its appendix: every message its sections cite,
    with its address."""

    def address(n: int) -> str:
        return build.meta.url_for(pages.url(build.layout.src_of(n)) or "", f"msg-{n}")

    numbers = build.citations.cited_on(build.essay.sections)
    return html.replace(APPENDIX_SLOT, to_html(cited_messages(build.layout, numbers, address)), 1)


def citation_downloads(build: SiteBuild, pages: SitePages) -> list[GeneratedFile]:
    """The citation files of the essay and each of its sections, titled as the converted
    sections are: made once every page is converted."""
    return [GeneratedFile(f"{DOWNLOADS_FOLDER}/{download.filename}", download.text)
            for download in downloads(build.meta, build.parts(pages))]


def transcript_page(build: SiteBuild, src: str, html: str, pages: SitePages) -> str:
    """Transcript page `src` with its entries, their "Cited in" lists, and how to cite
    each message, in the place its Markdown left for them."""
    cite = citing.message_boxes(build, src, pages) if build.essay else None
    citations_of = functools.partial(_citations_of, build)
    cited_in = cited_in_fill(citations_of, _link_for(src, pages), build.title_of, cite)

    def fill(kind: int, n: int) -> str:
        return transcript_map(build, src, pages, citations_of) if kind == MAP else cited_in(kind, n)

    return html.replace(ENTRIES_SLOT, build.rendering.entries(src).filled(fill), 1)


def transcript_map(build: SiteBuild, src: str, pages: SitePages, citations_of) -> str:
    """The map at the top of transcript page `src`, its marks linked from that page."""
    layout, rendering = build.layout, build.rendering

    def href_of(n: int) -> str:
        return f"#msg-{n}" if layout.src_of(n) == src else _message_href(build, n, src, pages)

    if rendering.map_template is None:  # the same for every page, but for the links and the page's own mark
        cited = [(n, [build.title_of(citation.page) for citation in citations_of(n)])
                 for n in build.citations.numbers() if layout.src_of(n) is not None]
        rendering.map_template = MapTemplate(layout.strip, marks(layout.strip, cited), len(layout.pages) > 1)
    chunk = layout.pages[layout.page_sources().index(src)]
    return rendering.map_template.page_map(href_of, (chunk[0], chunk[-1]) if chunk else None)


def message_previews(build: SiteBuild, src: str, html: str, pages: SitePages) -> str:
    """A converted page that links to messages, ending with a preview of each: made once
    every page is converted, since each lists where its message is cited."""
    numbers = build.citations.linked_from(src)
    if not numbers:
        return html
    link_for = _link_for(src, pages)
    shown = []
    for n in numbers:
        message, href = build.message(n), _message_href(build, n, src, pages)
        if message is None or href is None:
            continue
        cited_in = [(build.title_of(c.page), link_for(c)) for c in _citations_of(build, n)]
        shown.append(previews.preview(message, href, build.layout.message_chars, cited_in))
    return html + to_html(previews.previews_block(shown)) if shown else html


def _message_href(build: SiteBuild, n: int, src: str, pages: SitePages) -> str | None:
    """The address of message n's entry relative to page `src`; None if no page shows it."""
    target = pages.url(build.layout.src_of(n) or "")
    return None if target is None else relative_url(target, pages.url(src) or "") + f"#msg-{n}"


def _citations_of(build: SiteBuild, n: int):
    # In reading order: by the pages' order in the navigation, then on each page.
    return sorted(build.citations.of_message(n), key=lambda citation: build.page_rank(citation.page))


def _link_for(src: str, pages: SitePages):
    here = pages.url(src) or ""
    return lambda citation: relative_url(pages.url(citation.page) or citation.page, here) + "#" + citation.anchor
