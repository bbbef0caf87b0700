"""One build of the site, from the moment its files are listed: the object that owns
everything a build shares.

A generator's adapter (hooks/mkdocs_hook.py for MkDocs) makes one `SiteBuild` once it has
listed the site's files: the build reads the transcript, lays out its pages, gives the
adapter the files it adds, and learns from it every file's address. The adapter then
hands the build's Markdown extensions to the Markdown parser and calls the build at each
later stage: before each page is converted (`begin_page`), once every page is converted
(`finished_files`, then `finish_page`, `head` and `added_headings` for each page before
its theme is rendered, and `page_written` after), and when the site is written
(`finished`). `transcript_start` names the page a "not found" page sends readers to.
Nothing here imports a generator.
"""

from __future__ import annotations

import gc
import logging
import os
import posixpath
import threading
import xml.etree.ElementTree as etree
from collections.abc import Callable, Container, Mapping, Sequence
from typing import Any

from essaycite.casing import sentence_case_hints
from essaycite.cff import citation_cff_text, what_differs
from essaycite.metadata import MetadataError
from essaycite.paragraphs import ParagraphLinks
from essaycite.source import ID_LINE_RE, lines_outside_code
from essaycite.zenodo import zenodo_json_text
from msgref import stranded
from msgref.citations import CitationRegistry
from msgref.extension import MessageCitations, PageInProgress
from msgview.render import MessageRenderer
from transcript.calls import CallsBefore
from transcript.home_folder import first_line_with_home
from transcript.images import image_for_site, image_src, images_folder
from transcript.reader import TranscriptError
from transcript.redact import RedactedTranscript, Redactor
from transcript.schema import Message, MessageSource
from transcript.seal import SealCheck
from transcriptsite.entries import cut_message
from transcriptsite.layout import MessageAnchors, TranscriptLayout, cited_numbers, search_folder, text_folder
from transcriptsite.message_index import MessageIndexWriter
from transcriptsite.pages import APPENDIX_ENTRY, ENTRIES_SLOT

from .between_builds import KEPT, KEPT_INDEX, KEPT_PAGES, KEPT_TEXTS, LastTranscript
from .citation_links import PREVIEWS_SLOT, CitationLinks
from .citing import APPENDIX_SLOT, PDF_SLOT, CitableEssay, PageHead, cite_as_block
from .edition_links import WHAT_CHANGED_SLOT, EditionLinks, what_changed_markdown
from .editions import PARAGRAPHS_FILE, publish
from .files import replaced_when_done
from .generated import GeneratedFile, WrittenFile, print_page, transcript_pages, whole_texts
from .how_to_cite import KEPT_EDITIONS_SLOT, example_section, how_to_cite_markdown
from .page_list import ContentsSlot, page_title, transcript_scope
from .records import FrontMatter, Heading, PageOutline, PageRecords
from .rendering import TranscriptRendering
from .settings import SettingsError
from .site_config import SiteConfig
from .site_pages import HOW_TO_CITE_PAGE, NOTE_ON_THE_TEXT, PRINT_PAGE, WHAT_CHANGED_PAGE, PageError, SitePages
from .yaml_aliases import alias_problem

CITATION_FILE = "CITATION.cff"  # beside mkdocs.yml: how to cite the repository, as the essay
ZENODO_FILE = ".zenodo.json"  # beside mkdocs.yml: what Zenodo records for an archived release
# What a build reports as one line, without a traceback.
PROBLEMS = (SettingsError, MetadataError, TranscriptError, PageError)


def _never(line: bytes) -> bool:
    return False


class SiteBuild:
    """The transcript, its layout and rendering, the citations and what each page records.

    `pages` holds the Markdown of the site's pages by source path. `add_files` is given
    the files the build adds, and returns the addresses of every file of the site.
    `fatal` is the error type the generator reports without a traceback, for problems
    found while it converts a page. Problems found here are raised as one of PROBLEMS.
    """

    def __init__(self, site: SiteConfig, pages: Mapping[str, str],
                 add_files: Callable[[Sequence[GeneratedFile | WrittenFile]], SitePages], log: logging.Logger,
                 fatal: type[Exception] = PageError, kept: LastTranscript = KEPT):
        _spare_the_collector()
        self.site, self.log = site, log
        read = self._read_transcript(kept)
        self.transcript = _Reading(read, fatal)
        cited = cited_numbers(pages.values())
        self.layout = TranscriptLayout(self.transcript, site.transcript, cited)
        self.records = PageRecords(site.reading_order, site.nav_titles)
        self.page = PageInProgress("", "")  # none yet: see begin_page
        has_note = NOTE_ON_THE_TEXT in pages
        self.page_list = site.page_list(has_note)
        self._titles = {src: page_title(pages.get(src, ""), src) for src in site.essay.sections} if site.essay else {}
        texts = whole_texts(self.layout, site.site_dir)
        added: list[GeneratedFile | WrittenFile] = [*self._essay_pages(pages),
                                                    *transcript_pages(self.layout, has_note),
                                                    *texts.values()]
        self.pages = add_files(added)
        index = MessageIndexWriter(os.path.join(site.site_dir, search_folder(self.layout.folder))) \
            if self.layout.search and self.layout.pages else None
        self.rendering = TranscriptRendering(self.layout, self.pages,
                                             {n: file.path for n, file in texts.items()}, read,
                                             site.transcript.render_in_worker, log, index=index)
        # How the essay's quotes, snippets, previews and appendix show a message.
        ids = _Reading(read.unredacted, fatal) if isinstance(read, RedactedTranscript) else None
        self.renderer = MessageRenderer(call_of=CallsBefore(self.transcript, ids))
        self.links = CitationLinks(self.layout, self.records, self.pages, self.renderer)
        self.essay = CitableEssay(site.essay, self.records, self.pages, self.layout) if site.essay else None
        self.editions = EditionLinks(site.essay, self.pages, site.docs_path) if site.essay else None
        for hint in sentence_case_hints(site.essay.meta) if site.essay else []:
            log.info(hint)
        if site.essay and site.essay.settings.pdf and not site.essay.pdf:
            pdf = site.essay.settings.pdf
            log.info(f"No page links to {pdf}, which this build does not make: to publish it, build with "
                     f"PRINT_PDF=true, then run scripts/essay_pdf.py SITE -o SITE/{pdf}, as the Pages workflow does")

    @staticmethod
    def of(extensions: Sequence[Any]) -> SiteBuild:
        """The build whose Markdown extensions are among `extensions`."""
        for extension in extensions:
            if isinstance(extension, MessageCitations) and isinstance(extension.build, SiteBuild):
                return extension.build
        raise LookupError("no SiteBuild among the Markdown extensions: was it made when the files were listed?")

    # --- stages of the build, in order ---------------------------------------------------

    def markdown_extensions(self, configured: Sequence[Any] = ()) -> list[Any]:
        """The extensions to add to those `configured` (names or instances)."""
        added: list[Any] = [MessageCitations(self), ParagraphLinks(self._record_paragraphs),
                            PageOutline(self._record_outline), ContentsSlot(self._contents)]
        return added if "attr_list" in configured else [*added, "attr_list"]  # paragraphs carry ids

    def begin_page(self, src: str, source: str | None = None, body: str = "") -> None:
        """Start converting page `src`: `source` is its file's text (None for a generated
        page), `body` its Markdown without front matter."""
        self.page = PageInProgress(src, self.site.display_path(src), body_line(source, body),
                                   derived=src == PRINT_PAGE)
        self.records.forget(src)
        if source is not None and self.page.first_line > 1:
            front_matter = source[: len(source) - len(body)]
            # Read already, but not yet walked: the theme writes the title of every page into each.
            if aliased := alias_problem(front_matter):
                raise PageError(f"{self.page.display_path}:{aliased[0]}: front matter: {aliased[1]}")
            for line, problem in stranded.tags_in_titles(front_matter):
                self.warn(f"{self.page.display_path}:{line}: {problem}")

    def named(self, front_matter: FrontMatter) -> None:
        """What the front matter of the page being converted names it (its title, cite_as)."""
        self.records.front_matter[self.page.src] = front_matter

    def finished_files(self) -> list[GeneratedFile]:
        """The files the build adds once every page is converted: the citation downloads.
        A section that nothing names is warned of: its citations name it by its file."""
        if not self.essay:
            return []
        for src in self.essay.sections_named_by_file():
            self.warn(f"{self.site.display_path(src)}: the section has no title, so its citations name it "
                      f"{self.essay.section_part(src).title!r}, after its file: give the page a level-one "
                      "heading, or the name to cite it by in its front matter (cite_as: ...)")
        return self.essay.downloads()

    def finish_page(self, src: str, html: str) -> str:
        """A converted page's HTML, once every page is converted: a section's "Cite this
        section" block, the citations that the "How to cite" page shows, the one-page
        essay's appendix. The previews of the messages a page cites and a transcript page's
        entries are put in only when it is written (`page_written`)."""
        essay = self.essay
        if essay and src in essay.sections:
            title_end = html.find("</h1>")
            at = title_end + len("</h1>") if title_end >= 0 else 0  # under the title, or first
            editions = self.editions.byline(src) if self.editions else []
            html = (html[:at] + essay.byline(src, editions) + html[at:] + essay.section_box(src)
                    + essay.passage_cite_template(src))
        if self.records.citations.linked_from(src):
            html += PREVIEWS_SLOT  # filled as the page is written: no stage reads them
        if not essay:
            return html
        if src == PRINT_PAGE:
            html = essay.with_appendix(html, self.records.citations, self.renderer)
        if self.editions and WHAT_CHANGED_SLOT in html:
            html = html.replace(WHAT_CHANGED_SLOT, self.editions.what_changed(self.records), 1)
        if self.editions and KEPT_EDITIONS_SLOT in html:
            html = html.replace(KEPT_EDITIONS_SLOT, self.editions.kept_list(src), 1)
        return essay.fill_slots(src, html)

    def head(self, src: str) -> PageHead:
        """The metadata of a page's <head> (see `citing.PageHead`)."""
        return self.essay.head(src) if self.essay else {}

    def authors(self) -> str | None:
        """The essay's authors as a page's author metadata names them, "; " between two
        (a comma is part of some organisations' names); None if the essay is unsigned."""
        if self.site.essay is None or not self.site.essay.meta.authors:
            return None
        return "; ".join(author.display for author in self.site.essay.meta.authors)

    def added_headings(self, src: str) -> tuple[Container[str], tuple[tuple[str, str], ...]] | None:
        """The ids of the messages a page gets after its conversion, which links may point
        to, and the (id, title) of those its table of contents lists: a transcript page's
        headings, when it is written, and the entries of the one-page essay's appendix;
        None for other pages."""
        if src == PRINT_PAGE and self.essay:
            cited = self.records.citations.cited_on(self.essay.sections)
            return {APPENDIX_ENTRY.format(n=n) for n in cited}, ()
        if src not in self.rendering.sources:
            return None
        index = self.rendering.sources.index(src)
        anchors = MessageAnchors(self.layout.pages[index], set(self._ranges_from(src)))
        return anchors, self.rendering.entries(src).contents

    def _ranges_from(self, src: str) -> list[tuple[int, int]]:
        """The ranges cited that begin on transcript page `src`, in order."""
        return sorted(cited for cited in self.records.citations.cited_ranges() if self.layout.src_of(cited[0]) == src)

    def page_written(self, src: str, output: str) -> str:
        """A page as the generator writes it, its theme around it: a page that cites messages
        gets their previews; a transcript page gets its entries, their "Cited in" lists and
        how to cite each message. They go in last, so that no stage of the generator reads
        them: the site's search, for one, would parse them only to leave them out."""
        if PREVIEWS_SLOT in output:
            output = output.replace(PREVIEWS_SLOT, self.links.previews(src), 1)
        if PDF_SLOT in output and self.essay:
            output = output.replace(PDF_SLOT, self.essay.pdf_link(src), 1)
        if src not in self.rendering.sources:
            return output
        panel = (self.essay.message_cite_template(src) + self.essay.range_cite_templates(src, self._ranges_from(src))
                 + self.essay.passage_cite_template(src) if self.essay else "")
        entries = self.rendering.entries(src)
        self._publish_images(entries.images)
        output = output.replace(ENTRIES_SLOT, self.links.entries_html(src, entries) + panel, 1)
        self.rendering.written(src)
        return output

    def _publish_images(self, images: Sequence[tuple[int, str]]) -> None:
        """The images of the messages a page shows, written into the site beside the pages
        without their text and location; PageError naming the message's line if one cannot
        be published."""
        folder = images_folder(self.site.source_path)
        for n, name in images:
            target = os.path.join(self.site.site_dir, image_src(self.layout.folder, name))
            if os.path.exists(target):  # shown on another page too
                continue
            source = os.path.join(folder, name)
            image = image_for_site(source)
            if isinstance(image, str):
                shown = os.path.relpath(source, self.site.project_dir)
                line = self.layout.message(n).line
                raise PageError(f"{self.transcript.path}:{line}: message {n}'s image {shown} {image}")
            os.makedirs(os.path.dirname(target), exist_ok=True)
            with open(target, "wb") as file:
                file.write(image.data)

    def transcript_start(self) -> str:
        """The source path of the transcript's first page."""
        return self.layout.page_src(0)

    def transcript_scope(self) -> str:
        """What the transcript pages hold, as a phrase."""
        return transcript_scope(shows_all=self.layout.context is None)

    def finished(self) -> None:
        """The site is written: so are, once this returns, the whole texts of long messages,
        and CITATION.cff and .zenodo.json beside the site's configuration, if they no
        longer said what the settings do."""
        self.rendering.finish()
        essay = self.site.essay
        if essay is None or self.editions is None:
            return
        if essay.settings.kept_copy:  # a copy at its own address: the files beside mkdocs.yml are not its
            with open(os.path.join(self.site.site_dir, PARAGRAPHS_FILE), "w", encoding="utf-8") as file:
                file.write(self.editions.paragraphs_json(self.records))
            return
        for edition in essay.earlier:
            publish(self.site.docs_path, self.site.site_dir, edition,
                    self.editions.later_line(edition, self.site.site_dir))
        self._write_citation_file(CITATION_FILE, citation_cff_text(essay.meta))
        self._write_citation_file(ZENODO_FILE, zenodo_json_text(essay.meta))

    @staticmethod
    def before_cleaning(site: SiteConfig) -> None:
        """Before the generator empties the site's folder for a build: what the last build
        of this process wrote there and this one may take as it is (the whole texts of long
        messages, the transcript's search index) is set aside."""
        if KEPT_PAGES.holds_any():
            KEPT_TEXTS.set_aside(os.path.join(site.site_dir, text_folder(site.transcript.folder)), site.site_dir)
            KEPT_INDEX.set_aside(os.path.join(site.site_dir, search_folder(site.transcript.folder)), site.site_dir)

    # --- what the extensions ask of the build (msgref.extension.CitingBuild) ----------------

    @property
    def citations(self) -> CitationRegistry:
        return self.records.citations

    def message(self, n: int) -> Message | None:
        return self.transcript.get(n)

    def href(self, n: int, from_page: str) -> str | None:
        if from_page == PRINT_PAGE and self.essay and self.layout.src_of(n):
            # The one-page essay (and its PDF) holds each message it cites in its appendix:
            # a citation there jumps to it, and the appendix gives the message's address.
            return f"#{APPENDIX_ENTRY.format(n=n)}"
        return self.layout.href(n, from_page)

    def shown_whole(self, message: Message, from_page: str) -> tuple[Message, etree.Element | None]:
        # A link of a page's Markdown, which the generator makes the file's address.
        text_file = posixpath.relpath(self.layout.text_file_src(message.n), posixpath.dirname(from_page) or ".")
        return cut_message(self.layout, message, lambda: text_file)

    def warn(self, text: str) -> None:
        self.log.warning(text)

    # --- internals ---------------------------------------------------------------------------

    def _read_transcript(self, kept: LastTranscript) -> MessageSource:
        settings, log = self.site.transcript, self.log
        redactor = Redactor(settings.redact_patterns, settings.redact_allow) if settings.redact else None

        def report(n: int, kinds: list[str]) -> None:
            log.info("Redacted in %s, message %d: %s", settings.source, n, ", ".join(kinds))

        transcript, reused = kept.read(self.site.source_path, settings.source, redactor, report)
        if reused:
            log.debug("Transcript %s unchanged since the last build; not parsed again", settings.source)
        else:
            log.debug("Parsed transcript %s: %d messages", settings.source, len(transcript))
            seals = SealCheck(redactor.fingerprint) if redactor else None
            if (home := first_line_with_home(self.site.source_path, seals.matches if seals else _never)) is not None:
                line, folder, lines = home
                log.warning("%s:%d: holds a home folder, %s (%d lines hold one), which publishes its owner's user "
                            "name: import the log again without --keep-home, or write ~ for it", settings.source,
                            line, folder, lines)
        return transcript

    def _essay_pages(self, pages: Mapping[str, str]) -> list[GeneratedFile]:
        """The whole essay on one page, and the "How to cite" page when the author wrote none."""
        essay = self.site.essay
        if essay is None:
            return []
        made = [print_page(essay.sections, pages, cite_as_block(essay.meta), APPENDIX_SLOT)]
        if HOW_TO_CITE_PAGE not in pages:
            lines = [line for src in essay.sections for line in lines_outside_code(pages[src])]
            markdown = how_to_cite_markdown(example_section(essay.sections), signed=bool(essay.meta.authors),
                                            anchors_paragraphs=any(ID_LINE_RE.match(line) for line in lines),
                                            cites_messages=bool(cited_numbers(lines)),
                                            transcript_start=self.layout.page_src(0),
                                            has_note=NOTE_ON_THE_TEXT in pages, pdf=essay.pdf is not None)
            made.append(GeneratedFile(HOW_TO_CITE_PAGE, markdown, in_nav=True))
        if essay.earlier:
            made.append(GeneratedFile(WHAT_CHANGED_PAGE, what_changed_markdown(essay.meta.edition), in_nav=True))
        return made

    def _contents(self) -> str:
        """The contents that the page being converted asks for (none on the one-page essay)."""
        if self.page_list is None or self.page.src == PRINT_PAGE:
            return ""
        return self.page_list.contents(self.page.src, self._titles)

    def _write_citation_file(self, name: str, text: str) -> None:
        """Writes `text` to the file `name` beside mkdocs.yml, unless it holds it already."""
        path = os.path.join(self.site.project_dir, name)
        try:
            with open(path, encoding="utf-8") as file:
                current: str | None = file.read()
        except FileNotFoundError:
            current = None
        except (OSError, UnicodeDecodeError):
            current = ""  # unreadable: written anew
        reason = what_differs(current, text)
        if reason is None:
            return
        try:
            with replaced_when_done(path) as temporary, open(temporary, "w", encoding="utf-8") as file:
                file.write(text)
        except OSError as error:  # a checkout that cannot be written: the site is built all the same
            self.log.warning("%s: cannot be written from mkdocs.yml (%s: %s)", name, reason, error.strerror)
            return
        self.log.info("%s written from mkdocs.yml: %s", name, reason)

    def _record_paragraphs(self, paragraphs: list[tuple[str, str]]) -> None:
        self.records.paragraphs[self.page.src] = [anchor for anchor, _ in paragraphs]
        self.records.paragraph_words[self.page.src] = [words for _, words in paragraphs]

    def _record_outline(self, headings: list[Heading], opening: str | None) -> None:
        self.records.outlines[self.page.src] = headings
        if opening is not None:
            self.records.openings[self.page.src] = opening


def _spare_the_collector() -> None:
    """Leave what exists as a build starts (the generator's configuration and theme, the
    modules) out of the garbage collector's passes, which would walk it over and over:
    up to a tenth of a build, most of it in the pass at the process's end. A worker
    forked meanwhile then does not copy the memory those passes would touch, as Python's
    documentation advises before a fork. Only while this thread runs alone (`mkdocs
    build`, or a development server's first build); a later build of the process first
    gives the objects back to the collector, and has it collect what was left behind."""
    if gc.get_freeze_count():
        gc.unfreeze()
        gc.collect()
    if threading.active_count() == 1:
        gc.freeze()


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
        self.path, self.numbers, self.described = transcript.path, transcript.numbers, transcript.described

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
