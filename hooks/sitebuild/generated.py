"""The files a build adds to the site before its pages are converted: the transcript pages,
the whole texts of long messages, and the whole essay on one page.

Each comes as a source path and its content (Markdown for pages), or, for a file the
build writes into the built site itself, the path it has there, so that any generator can
add them. What depends on the converted pages (the transcript pages' entries, the
previews, the citations) is put in later.
"""

from __future__ import annotations

import os
import posixpath
from collections.abc import Mapping
from dataclasses import dataclass

from essaycite.whole_essay import whole_essay_markdown
from transcriptsite.layout import TranscriptLayout
from transcriptsite.pages import page_markdown

from .page_list import transcript_scope
from .settings import SettingsError
from .site_pages import NOTE_ON_THE_TEXT, PRINT_PAGE

APPENDIX_TITLE = "Appendix: the messages the essay cites"
PRINT_FRONT_MATTER = "---\nsearch:\n  exclude: true\n---\n\n"


@dataclass(frozen=True)
class GeneratedFile:
    src: str  # its source path, relative to the docs folder
    content: str | bytes  # the text of a page; a file's text, encoded
    # A page the navigation lists; other pages are reached by links (the transcript's
    # pager, the contents of the home page).
    in_nav: bool = False


@dataclass(frozen=True)
class WrittenFile:
    """A file the build writes into the built site itself, at `path`: whole by the time
    the site is written, where the generator finds it and does not copy it."""

    src: str
    path: str


def transcript_pages(layout: TranscriptLayout, has_note: bool) -> list[GeneratedFile]:
    """The transcript pages, their entries left to be put in as each is written; their
    introduction links to the note on the text if the site `has_note`."""
    intro = transcript_intro(layout, posixpath.relpath(NOTE_ON_THE_TEXT, layout.folder) if has_note else None)
    return [GeneratedFile(layout.page_src(index), page_markdown(layout, index, intro), in_nav=index == 0)
            for index in range(len(layout.pages))]


def transcript_intro(layout: TranscriptLayout, note_link: str | None) -> str:
    """What the transcript pages show, and how: descriptions are mentioned only where
    some are shown."""
    described = any(layout.src_of(n) is not None for n in layout.transcript.described)
    scope = transcript_scope(shows_all=layout.context is None)  # `all`: the transcript is the whole session
    if described and layout.context is not None:
        scope += ", as far as the essay shows them"
    scope = f"{scope[0].upper()}{scope[1:]}."
    how = ("A message the essay quotes is shown word for word; a message it only describes is shown as the "
           "essay's description, marked as such." if described else "Each is shown word for word.")
    form = ("A message's text is set as the Markdown it was written in (any HTML in it shown as text); a tool "
            "call is shown by what it did, its output after it; thinking and long outputs are folded.")
    note = f" See the [note on the text]({note_link})." if note_link else ""
    return f"{scope} {how} {form}{note}"


def whole_texts(layout: TranscriptLayout, site_dir: str) -> dict[int, WrittenFile]:
    """The files of the long messages' whole texts, by message number."""
    return {n: WrittenFile(src, os.path.join(site_dir, src))
            for n in layout.text_file_numbers() for src in [layout.text_file_src(n)]}


def print_page(sections: tuple[str, ...], pages: Mapping[str, str], cite_as: str, appendix_slot: str) -> GeneratedFile:
    """The whole essay on one page, from the Markdown of the site's pages by source path:
    opening with its citation `cite_as`, ending with the messages it cites (put in
    `appendix_slot` once every page is converted). Left out of the search, which finds each
    passage on its section's page."""
    missing = [src for src in sections if src not in pages]
    if missing:
        raise SettingsError(f"mkdocs.yml: extra.essay.sections: {missing[0]} is not a page of the site")
    named = [(posixpath.splitext(src)[0].replace("/", "-"), pages[src]) for src in sections]
    appendix = f"## {APPENDIX_TITLE}\n\n{appendix_slot}"
    return GeneratedFile(PRINT_PAGE, PRINT_FRONT_MATTER + whole_essay_markdown(named, cite_as, appendix))
