"""The files a build adds to the site: the transcript pages and the whole texts of long
messages, the whole essay on one page, and the citation downloads.

Each comes as a source path and its content (Markdown for pages), so that any generator
can add them. The transcript pages' "Cited in" lists (`cited_in_lists`) and the citation
downloads, which name each section as its page titles it, are made once every page has
been converted.
"""

from __future__ import annotations

import posixpath
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from essaycite.formats import downloads
from essaycite.whole_essay import whole_essay_markdown
from msgref.snippets import to_html
from msgref.transcript_pages import cited_messages, fill_cited_in, page_markdown

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
    content: str
    # A page the navigation lists; other pages are reached by links (the transcript's
    # pager, the contents of the home page).
    in_nav: bool = False


def generated_files(build: SiteBuild, pages: Mapping[str, str]) -> list[GeneratedFile]:
    """Every file the build adds, from the Markdown of the site's pages by source path."""
    files = [*transcript_pages(build), *whole_texts(build)]
    if build.essay:
        files.append(GeneratedFile(PRINT_PAGE, print_page(build, pages)))
    return files


def transcript_pages(build: SiteBuild) -> list[GeneratedFile]:
    layout = build.layout
    intro = TRANSCRIPT_INTRO.format(note=posixpath.relpath(NOTE_ON_THE_TEXT, layout.folder))
    return [GeneratedFile(layout.page_src(index), page_markdown(layout, index, intro), in_nav=index == 0)
            for index in range(len(layout.pages))]


def whole_texts(build: SiteBuild) -> list[GeneratedFile]:
    """The messages too long to show whole on their page, as plain text."""
    return [GeneratedFile(src, text) for src, text in build.layout.whole_texts()]


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


def cited_in_lists(build: SiteBuild, src: str, html: str, pages: SitePages) -> str:
    """A converted transcript page with its "Cited in" lists, and how to cite each message."""
    here = pages.url(src) or ""

    def link_for(citation) -> str:
        return relative_url(pages.url(citation.page) or citation.page, here) + "#" + citation.anchor

    def citations_of(n: int):
        # In reading order: by the pages' order in the navigation, then on each page.
        return sorted(build.citations.of_message(n), key=lambda citation: build.page_rank(citation.page))

    cite = (lambda n: citing.message_box(build, n, pages)) if build.essay else None
    return fill_cited_in(html, citations_of, link_for, build.title_of, cite)
