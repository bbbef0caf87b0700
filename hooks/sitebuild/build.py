"""One build of the site: the object that owns everything a build shares.

A generator's adapter (hooks/mkdocs_hook.py for MkDocs) makes one `SiteBuild` when it
reads its configuration, hands its Markdown extensions to the Markdown parser, and calls
it at each stage: when the pages are listed (`generated_files`, then `files_listed` with
their addresses), before each page is converted (`begin_page`), once every page is
converted (`finished_files`, then `finish_page`, `head` and `added_headings` for each
page before its theme is rendered, and `page_written` after), and when the site is
written (`search_entries`, `finished`).
Nothing here imports a generator.
"""

from __future__ import annotations

import logging
import os
import posixpath
from collections.abc import Mapping
from typing import Any

from essaycite.metadata import MetadataError, Part
from essaycite.paragraphs import ParagraphLinks
from msgref.citations import CitationRegistry
from msgref.extension import MessageCitations, PageInProgress
from msgref.redact import Redactor, redacted_view
from msgref.schema import Message, MessageSource
from msgref.transcript import TranscriptError, start_loading
from msgref.transcript_entries import PageEntries, Permalink, cut_message
from msgref.transcript_pages import TranscriptLayout, cited_numbers

from . import citing
from .generated import citation_downloads, cited_messages_appendix, generated_files, message_previews, transcript_page
from .records import Heading, PageOutline
from .rendering import TranscriptRendering
from .site_pages import PRINT_PAGE, PageError, SitePages
from .settings import EssaySettings, SettingsError, TranscriptSettings, essay_metadata, read_settings


# What a build reports as one line, without a traceback.
PROBLEMS = (SettingsError, MetadataError, TranscriptError, PageError)


class SiteBuild:
    """Settings, transcript, transcript layout, citations and page records of one build.

    `config` is the generator's configuration as a mapping (site_name, site_url, extra,
    ...); `project_dir` the folder of its configuration file, from which the transcript's
    path is read. `fatal` is the error type the generator reports without a traceback,
    for problems found while it converts a page. Problems found in the calls below are
    raised as one of PROBLEMS.
    """

    def __init__(self, config: Mapping[str, Any], project_dir: str, log: logging.Logger,
                 fatal: type[Exception] = PageError):
        extra = config.get("extra") or {}
        self.settings = read_settings(TranscriptSettings, extra.get("transcript"), "extra.transcript")
        # A site that cites messages need not be a citable essay: without `extra.essay`
        # it has no citations of its own, no one-page essay and no scholarly metadata.
        self.essay = read_settings(EssaySettings, extra["essay"], "extra.essay") if "essay" in extra else None
        self.meta = essay_metadata(config) if self.essay else None
        if self.essay and not self.essay.sections:
            raise SettingsError("mkdocs.yml: extra.essay.sections: required: the essay's pages, in reading order")
        self.log, self.fatal, self.project_dir = log, fatal, project_dir
        self.docs_dir = config.get("docs_dir") or "docs"  # relative to `project_dir`, or absolute
        self.site_dir = os.path.join(project_dir, config.get("site_dir") or "site")  # where the site is built
        self.permalink = _permalink(config)
        self.reading_order = _nav_sources(config.get("nav"))  # the pages in the navigation, in its order
        source = self.settings.source
        self.source_path = os.path.abspath(os.path.join(project_dir, source))
        self._redactor = Redactor(self.settings.redact_patterns, self.settings.redact_allow) if self.settings.redact else None
        # A large transcript is parsed meanwhile, on another core; `generated_files` takes it.
        # Lines sealed by an import under the same rules are found then, and not redacted again.
        self._loading = start_loading(self.source_path, source, self.settings.parse_in_child,
                                      seal_key=self._redactor.fingerprint if self._redactor else None)
        self.citations = CitationRegistry()
        self.paragraphs: dict[str, list[str]] = {}  # page -> ids of its paragraphs, in ¶ order
        self.outlines: dict[str, list[Heading]] = {}  # page -> its headings
        self.page = PageInProgress("", "")
        self.transcript: MessageSource | None = None
        self.layout: TranscriptLayout | None = None
        self.rendering: TranscriptRendering | None = None
        self.site_pages: SitePages | None = None

    @staticmethod
    def of(extensions) -> SiteBuild:
        """The build whose Markdown extensions are among `extensions`."""
        for extension in extensions:
            if isinstance(extension, MessageCitations) and isinstance(extension.build, SiteBuild):
                return extension.build
        raise LookupError("no SiteBuild among the Markdown extensions: was it made when the configuration was read?")

    def meta_line(self) -> str | None:
        """Who (if the essay is signed), when and which edition, as the footer of every page says it."""
        return self.meta.imprint if self.meta else None

    # --- stages of the build, in order ---------------------------------------------------

    def markdown_extensions(self, configured=()) -> list:
        """The extensions to add to those `configured` (names or instances)."""
        added = [MessageCitations(self), ParagraphLinks(self._record_paragraphs), PageOutline(self._record_outline)]
        return added if "attr_list" in configured else [*added, "attr_list"]  # transcript headings carry ids

    def generated_files(self, pages: Mapping[str, str]):
        """The files the build adds, from the Markdown of the site's pages by source path."""
        self._load_transcript(cited_numbers(pages.values()))
        return generated_files(self, pages)

    def files_listed(self, pages: SitePages) -> None:
        """Every file of the site is listed, with its address: the transcript's pages
        begin to render, on another core if they are many."""
        self.site_pages = pages
        self.rendering.start(pages, self.permalink)

    def begin_page(self, src: str, source: str | None = None, body: str = "") -> None:
        """Start converting page `src`: `source` is its file's text (None for a generated
        page), `body` its Markdown without front matter. Problems name the page as the
        transcript is named: by its path from the project's folder."""
        display_path = os.path.relpath(os.path.join(self.project_dir, self.docs_dir, src), self.project_dir)
        self.page = PageInProgress(src, display_path, body_line(source, body), derived=src == PRINT_PAGE)
        self.citations.forget_page(src)
        self.paragraphs.pop(src, None)
        self.outlines.pop(src, None)

    def finish_page(self, src: str, html: str) -> str:
        """A converted page's HTML, once every page is converted: the previews of the
        messages a page cites, a section's "Cite this section" block and the citations
        that the "How to cite" page shows. A transcript page's entries are put in only
        when it is written (`page_written`)."""
        pages = self.site_pages
        if self.essay and src in self.essay.sections:
            html += citing.section_box(self, self.section_part(src, pages), src, pages)
        if self.layout is not None:
            html = message_previews(self, src, html, pages)
        if not self.essay:
            return html
        if src == PRINT_PAGE:
            html = cited_messages_appendix(self, html, pages)
        return citing.fill_slots(self, src, html, pages)

    def finished_files(self) -> list:
        """The files the build adds once every page is converted: the citation downloads."""
        return citation_downloads(self, self.site_pages) if self.essay else []

    def added_headings(self, src: str) -> PageEntries | None:
        """The message headings a transcript page gets when it is written (their ids,
        which links may point to) and those its table of contents lists; None for other
        pages."""
        return self.rendering.entries(src) if self.rendering else None

    def page_written(self, src: str, output: str) -> str:
        """A page as the generator writes it, its theme around it: a transcript page
        gets its entries, their "Cited in" lists and how to cite each message. They go
        in last, so that no stage of the generator reads them: they are most of a whole
        session's pages, and a pass over them took longer than making them."""
        if self.rendering is None or src not in self.rendering.sources:
            return output
        return transcript_page(self, src, output, self.site_pages)

    def search_entries(self) -> list[dict[str, str]]:
        """The transcript's entries in the site's search, one a message: `location`
        (URL and anchor), `title` and `text`, as a search index takes them. The
        transcript pages themselves are left out of the index that the generator makes."""
        return self.rendering.search_entries() if self.layout.search else []

    def finished(self) -> None:
        """The site is written: so are, once this returns, the whole texts of long messages."""
        if self.rendering is not None:
            self.rendering.finish()

    def head(self, src: str) -> dict:
        """The metadata of a page's <head>: `meta` and `link` elements (as attribute
        mappings) and the JSON-LD text."""
        return citing.head(self, src, self.site_pages) if self.essay else {}

    # --- what the stages share -------------------------------------------------------------

    def message(self, n: int) -> Message | None:
        return self.transcript.get(n)

    def href(self, n: int, from_page: str) -> str | None:
        return self.layout.href(n, from_page)

    def shown_whole(self, message: Message, from_page: str):
        # A link of a page's Markdown, which the generator makes the file's address.
        text_file = posixpath.relpath(self.layout.text_file_src(message.n), posixpath.dirname(from_page) or ".")
        return cut_message(self.layout, message, lambda: text_file)

    def page_rank(self, src: str) -> int:
        """Where page `src` comes in the navigation; pages outside it come after."""
        return self.reading_order.get(src, len(self.reading_order))

    def watched_files(self, docs_dir: str) -> list[str]:
        """The inputs of the build outside `docs_dir` that a development server must watch."""
        inside = os.path.commonpath([self.source_path, os.path.abspath(docs_dir)]) == os.path.abspath(docs_dir)
        return [] if inside else [self.source_path]

    def warn(self, text: str) -> None:
        self.log.warning(text)

    def title_of(self, src: str) -> str:
        """A page's title: its first heading."""
        headings = self.outlines.get(src) or [Heading(1, "", src)]
        return headings[0].name

    def section_part(self, src: str, pages: SitePages) -> Part:
        """The section of the essay that page `src` is: its title and address. The home
        page's title is the essay's; its section is its first heading below the title."""
        headings = self.outlines.get(src, [])
        title, anchor = self.title_of(src), None
        if src == self.essay.sections[0] and len(headings) > 1:
            title, anchor = headings[1].name, headings[1].id
        return self.meta.part(title, pages.url(src) or "", anchor)

    def parts(self, pages: SitePages) -> list[Part]:
        return [self.section_part(src, pages) for src in self.essay.sections]

    def paragraph_number(self, src: str, anchor: str) -> int | None:
        ids = self.paragraphs.get(src, [])
        return ids.index(anchor) + 1 if anchor in ids else None

    # --- internals ---------------------------------------------------------------------------

    def _load_transcript(self, cited: set[int]) -> None:
        loading, name = self._loading, self.settings.source
        transcript = loading.result()
        if loading.reused:
            self.log.debug("Transcript %s unchanged since the last build; not parsed again", name)
        else:
            self.log.debug("Parsed transcript %s: %d messages", name, len(transcript))
        if self._redactor is not None:
            def report(n, kinds):
                self.log.info("Redacted in %s, message %d: %s", name, n, ", ".join(kinds))

            transcript = redacted_view(transcript, self._redactor, report)
        self.transcript = _Reading(transcript, self.fatal)
        self.layout = TranscriptLayout(self.transcript, self.settings, cited)
        self.rendering = TranscriptRendering(self)

    def _record_paragraphs(self, ids: list[str]) -> None:
        self.paragraphs[self.page.src] = ids

    def _record_outline(self, headings: list[Heading]) -> None:
        self.outlines[self.page.src] = headings


def _permalink(config: Mapping[str, Any]) -> Permalink | None:
    """The permanent link that Python-Markdown's table of contents, as configured, gives a heading."""
    toc = (config.get("mdx_configs") or {}).get("toc") or {}
    text = toc.get("permalink")
    if not text:
        return None
    return Permalink("¶" if text is True else str(text), toc.get("permalink_class", "headerlink"),
                     toc.get("permalink_title", "Permanent link"))


def _nav_sources(nav) -> dict[str, int]:
    """The page sources in a navigation as mkdocs.yml writes it (paths, `{title: path}`,
    `{title: [...]}`), by their order."""
    found: dict[str, int] = {}

    def walk(item):
        if isinstance(item, str):
            found.setdefault(item, len(found))
        elif isinstance(item, Mapping):
            for value in item.values():
                walk(value)
        elif isinstance(item, list):
            for value in item:
                walk(value)

    walk(nav or [])
    return found


def body_line(source: str | None, body: str) -> int:
    """The line of a page's source file on which its Markdown `body` starts, after any
    front matter; 1 for a page without a file of its own (`source` None)."""
    if source is None or not source.endswith(body):
        return 1
    return source[: len(source) - len(body)].count("\n") + 1


class _Reading:
    """The transcript as pages read it while they are converted. A message that can no
    longer be read, because the file changed since it was parsed, stops the build as
    the generator's `fatal` error, which it reports without a traceback."""

    def __init__(self, transcript: MessageSource, fatal: type[Exception]):
        self._transcript, self._fatal = transcript, fatal
        self.path, self.numbers = transcript.path, transcript.numbers

    def __len__(self) -> int:
        return len(self._transcript)

    def __contains__(self, n: int) -> bool:
        return n in self._transcript

    def size_hint(self, n: int) -> int:
        return self._transcript.size_hint(n)

    def get(self, n: int) -> Message | None:
        try:
            return self._transcript.get(n)
        except TranscriptError as error:
            raise self._fatal(str(error)) from None
