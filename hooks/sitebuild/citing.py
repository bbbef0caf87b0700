"""The essay as a citable work on its pages: the "Cite this section" blocks, the
citations the "How to cite" page asks for, how to cite each message of the transcript,
the appendix of the one-page essay, the citation downloads and the metadata of each
page's head. The citations themselves come from `essaycite`."""

from __future__ import annotations

import re
import xml.etree.ElementTree as etree
from collections.abc import Sequence
from typing import TypedDict
from urllib.parse import urlsplit

from essaycite import head as head_data
from essaycite.cite_box import NOT_SEARCHED, citation_list, cite_box, link_line
from essaycite.doi import doi_url
from essaycite.formats import downloads, message_references, references
from essaycite.metadata import EssayMetadata, Part
from essaycite.passage import passage_template
from msgref.citations import CitationRegistry
from msgview.html import to_html
from msgview.render import MessageRenderer
from transcriptsite.layout import TranscriptLayout
from transcriptsite.pages import cited_messages

from .generated import GeneratedFile
from .how_to_cite import FIRST_MESSAGE, FIRST_PARAGRAPH
from .records import FrontMatter, PageRecords
from .settings import is_address
from .site_config import Essay
from .site_pages import DOWNLOADS_FOLDER, HOW_TO_CITE_PAGE, PRINT_PAGE, PageError, SitePages
from .urls import relative_url

# Written in a page as raw HTML:
# <div class="citation-slot" data-part="essay | page.md | page.md#anchor | message N"></div>
# and on the page the build writes, "first paragraph" and "first message" of the essay.
_SLOT_RE = re.compile(r'<div class="citation-slot" data-part="([^"]*)"></div>')
APPENDIX_SLOT = '<div class="cited-messages-slot"></div>'
# The number given to the one panel rendered for a transcript page, then replaced by the
# number of the message a reader cites: the first of these that the rest of it does not hold.
_NUMBER_HOLES = (987654321987654321, 918273645546372819, 897867564534231201)
MESSAGE_CITE_TEMPLATE = "msg-cite-template"


class PageHead(TypedDict, total=False):
    """What the theme writes in a page's <head> (hooks/theme/main.html)."""

    meta: list[dict[str, str]]  # attributes of <meta> elements
    link: list[dict[str, str]]  # attributes of <link> elements
    json_ld: str  # the text of a <script type="application/ld+json">
    style: str  # a style sheet, safe inside <style>


def cite_as_block(meta: EssayMetadata) -> str:
    """The whole essay's citation, which opens the one-page essay so that a printout carries it."""
    block = etree.Element("div", {"class": "essay-citation"})
    etree.SubElement(block, "p").text = "Cite as:"
    block.append(citation_list({"APA": references(meta)["APA"]}))
    return to_html(block)


# In the footer's imprint, on every page, where the essay's PDF is linked (see pdf_link).
PDF_SLOT = '<span class="essay-pdf-slot"></span>'
SECTION_BOX_ID = "cite-this-section"  # a section's citations, which its byline links to


class CitableEssay:
    """The essay's citations on the site's pages, once every page's address is known;
    what they name of a page (its title, its paragraphs) is read from `records` once
    every page is converted."""

    def __init__(self, essay: Essay, records: PageRecords, pages: SitePages, layout: TranscriptLayout):
        self.meta, self.sections, self.pdf = essay.meta, essay.sections, essay.pdf
        self._records, self._pages, self._layout = records, pages, layout

    def section_part(self, src: str) -> Part:
        """The section of the essay that page `src` is: its name and address. A section is
        named by its front matter's `cite_as`, or else by its page's title; but the home
        page's title is the essay's, so a home page whose text opens with a heading of its
        own below the title is named by that heading, at its anchor."""
        records = self._records
        if cite_as := records.front_matter.get(src, FrontMatter()).cite_as:
            return self.meta.part(cite_as, self._url(src))
        if src == self.sections[0] and (opening := records.opening_heading(src)):
            return self.meta.part(opening.name, self._url(src), opening.id)
        return self.meta.part(records.title_of(src), self._url(src))

    def sections_named_by_file(self) -> list[str]:
        """The sections that neither a title nor their front matter names, nor a heading
        their text opens with: their citations can only name their files."""
        records = self._records
        return [src for src in self.sections if not records.front_matter.get(src, FrontMatter()).cite_as
                and records.given_title(src) is None and records.opening_heading(src) is None]

    def parts(self) -> list[Part]:
        return [self.section_part(src) for src in self.sections]

    def section_box(self, src: str) -> str:
        return to_html(cite_box("Cite this section", references(self.meta, self.section_part(src)), self._links(src),
                                box_id=SECTION_BOX_ID))

    def byline(self, src: str, editions: Sequence[tuple[str, str]] = ()) -> str:
        """The line under a section's title: the essay's date and edition, then the links
        `editions` (to what changed, and to the section in earlier editions), its DOI's
        address if it has one, a link to the section's citations and one to the PDF,
        where a reader looks for them first."""
        date = self.meta.published
        line = etree.Element("p", {"class": "essay-byline", **NOT_SEARCHED})
        line.text = f"Published {date.day} {date.strftime('%B')} {date.year} · Edition {self.meta.edition} · "
        for label, href in editions:
            etree.SubElement(line, "a", {"href": href}).text = label
            line[-1].tail = " · "
        if self.meta.doi:  # the essay's, so also on a section's page
            doi = etree.SubElement(line, "a", {"href": doi_url(self.meta.doi), "class": "essay-doi"})
            doi.text, doi.tail = "DOI", " · "
        cite = etree.SubElement(line, "a", {"href": f"#{SECTION_BOX_ID}"})
        cite.text = "Cite"
        if self.pdf:
            cite.tail = " · "
            pdf = dict(self._links(src))["PDF"]
            etree.SubElement(line, "a", {"href": pdf, "type": "application/pdf"}).text = "PDF"
        return to_html(line)

    def pdf_link(self, src: str | None) -> str:
        """The link to the essay's PDF that follows the imprint in the footer of page `src`,
        relative to it; where `src` is None (the "not found" page, served at any address),
        by its path from the host's root, as that page's other links are."""
        pdf = self.pdf or ""
        from_root = pdf if is_address(pdf) else urlsplit(self.meta.url_for(pdf)).path
        href = dict(self._links(src))["PDF"] if src is not None else from_root
        link = etree.Element("a", {"href": href, "type": "application/pdf"})
        link.text = "PDF"
        return " · " + to_html(link)

    def message_cite_template(self, src: str) -> str:
        """How to cite a message of transcript page `src`, written once for the page: a
        template whose number the page's script (assets/message-cite.js) replaces with that
        of the message a reader asks to cite. The citations of a page's messages differ in
        nothing else, and written for each message they were most of a page's weight."""
        url = self._url(src)
        hole = self._number_hole(url)
        template = etree.Element("template", {"id": MESSAGE_CITE_TEMPLATE, "data-number": str(hole)})
        template.append(self._message_panel(hole, url))
        return to_html(template)

    def passage_cite_template(self, src: str) -> str:
        """How to cite a passage of page `src`, a section or a transcript page, written once
        for the page: a template with holes for the words quoted and their address, which
        the page's script (assets/passage-cite.js) fills; on a transcript page, also for the
        number of the message they are quoted from, as in `message_cite_template`."""
        if src in self.sections:
            part = self.section_part(src)
            return to_html(passage_template(references(self.meta, part), part.url))
        url = self._url(src)
        hole = self._number_hole(url)
        message = self.meta.message(hole, url)
        return to_html(passage_template(references(self.meta, message), message.url, number_hole=hole))

    def _number_hole(self, url: str) -> int:
        """A number that nothing else in a message's panel on the page at `url` holds (not
        the essay's title, say), to stand for the number of the message cited."""
        return next(number for number in _NUMBER_HOLES
                    if to_html(self._message_panel(number, url)).replace(str(number), "1")
                    == to_html(self._message_panel(1, url)))

    def range_cite_templates(self, src: str, ranges: list[tuple[int, int]]) -> str:
        """How to cite each range of messages cited that begins on transcript page `src`:
        a template each, `msg-cite-range-A-B`, which the page's script (assets/message-cite.js)
        opens from the range's own "Cite" when a reader lands on the range."""
        url = self._url(src)
        templates = []
        for first, last in ranges:
            template = etree.Element("template", {"id": f"{MESSAGE_CITE_TEMPLATE.removesuffix('-template')}"
                                                        f"-range-{first}-{last}"})
            template.append(self._message_panel(first, url, last))
            templates.append(to_html(template))
        return "".join(templates)

    def _message_panel(self, n: int, page_url: str, last: int | None = None) -> etree.Element:
        """How to cite message n (or the messages n to `last`) of the transcript page at
        `page_url`, as the panel its "Cite" opens: its tag, its permanent address and its
        citation in each style."""
        panel = self._message_box(n, page_url, last=last)
        panel.tag, panel[0].tag = "div", "p"  # opened by the message's button, not by a summary
        panel.set("class", "msg-cite-panel")
        panel[0].set("class", "msg-cite-panel__title")
        # The tag that cites the message in an essay of this tool (copy.js copies it).
        tag = etree.Element("p", {"class": "msg-cite-panel__tag"})
        written = f"[msg {n}]" if last is None else f"[msg {n}-{last}]"
        copied = {"type": "button", "class": "msg-tag", **({} if last is None else {"data-tag": written})}
        etree.SubElement(tag, "button", copied).text = f"Copy {written}"
        panel.insert(1, tag)
        return panel

    def with_appendix(self, html: str, citations: CitationRegistry, renderer: MessageRenderer) -> str:
        """The converted one-page essay with its appendix: every message its sections cite,
        with its address."""

        def address(n: int) -> str:
            return self.meta.url_for(self._url(self._layout.src_of(n) or ""), f"msg-{n}")

        numbers = citations.cited_on(self.sections)
        return html.replace(APPENDIX_SLOT, to_html(cited_messages(self._layout, numbers, address, renderer)), 1)

    def fill_slots(self, src: str, html: str) -> str:
        """A page with the citations its slots ask for (the "How to cite" page's)."""
        if "citation-slot" not in html:
            return html
        return _SLOT_RE.sub(lambda match: self._slot(match.group(1), src), html)

    def downloads(self) -> list[GeneratedFile]:
        """The citation files of the essay and each of its sections, titled as the converted
        sections are: made once every page is converted."""
        return [GeneratedFile(f"{DOWNLOADS_FOLDER}/{download.filename}", download.text)
                for download in downloads(self.meta, self.parts())]

    def head(self, src: str) -> PageHead:
        """The metadata of a page's head, true to what the page is: the essay (its home
        page), one of its sections, or another page of the site."""
        if src == self.sections[0]:
            kind, page = head_data.ESSAY, None
        elif src in self.sections:
            kind, page = head_data.SECTION, self.section_part(src)
        else:
            kind, page = head_data.PAGE, Part(self._records.title_of(src), self.meta.url_for(self._url(src)))
        found = head_data.page_head(self.meta, kind, page, self.parts(), pdf_url=self.pdf,
                                    fulltext_url=self._pages.url(PRINT_PAGE))
        if src == PRINT_PAGE:
            found.links.extend(head_data.cite_as_links(self.meta))  # the whole essay, as its PDF
        result = PageHead(meta=found.meta, link=found.links, json_ld=head_data.json_ld_script_text(found.json_ld))
        if src == PRINT_PAGE:
            # Printed, every page of the whole essay is headed by its short title.
            name = _css_string(self.meta.site_name)
            result["style"] = f"@page {{ @top-center {{ content: {name}; font: 9pt system-ui, sans-serif; }} }}"
        return result

    def _url(self, src: str) -> str:
        return self._pages.url(src) or ""

    def _message_box(self, n: int, page_url: str, searched: bool = False, last: int | None = None) -> etree.Element:
        """How to cite message n (or the messages n to `last`), shown on the transcript page
        at `page_url`: its permanent address and its citation in each style; the site's
        search finds it only if `searched` (as an example on "How to cite")."""
        anchor, summary = (f"msg-{n}", "Cite this message") if last is None else (f"msg-{n}-{last}",
                                                                                  "Cite these messages")
        return cite_box(summary, message_references(self.meta, n, page_url, last), [],
                        address=self.meta.url_for(page_url, anchor), searched=searched)

    def _links(self, src: str) -> list[tuple[str, str]]:
        """Links from page `src` to the whole essay's downloads, its PDF and the "How to cite" page."""

        def href(path: str) -> str:
            # The PDF is printed after the build: no file of the site yet, but its URL is its path.
            return relative_url(self._pages.url(path) or path, self._url(src))

        found = [(f"{download.label} (whole essay)", href(f"{DOWNLOADS_FOLDER}/{download.filename}"))
                 for download in downloads(self.meta)]
        if self.pdf:
            found.append(("PDF", self.pdf if is_address(self.pdf) else href(self.pdf)))
        if src != HOW_TO_CITE_PAGE and self._pages.url(HOW_TO_CITE_PAGE) is not None:
            found.append(("How to cite", href(HOW_TO_CITE_PAGE)))
        return found

    def _slot(self, part_spec: str, src: str) -> str:
        """The citations a "How to cite" slot asks for: the essay, a section, a paragraph or a message."""
        box = etree.Element("div", {"class": "citations-shown"})
        if part_spec == "essay":
            box.append(citation_list(references(self.meta)))
            box.append(link_line(self._links(src)))
            return to_html(box)
        if part_spec == FIRST_PARAGRAPH:
            part_spec = self._first_paragraph(src)
        if part_spec == FIRST_MESSAGE:
            part_spec = f"message {self._first_message(src)}"
        if part_spec.startswith("message "):
            n = int(part_spec.removeprefix("message "))
            shown_on = self._layout.src_of(n)
            if shown_on is None:
                raise PageError(f"{src}: citation slot names message {n}, which the transcript pages do not show")
            box.append(self._message_box(n, self._url(shown_on), searched=True))
            return to_html(box)
        path, _, anchor = part_spec.partition("#")
        if path not in self._records.outlines or self._pages.url(path) is None:
            raise PageError(f"{src}: citation slot names {path!r}, which is not a page of the site")
        part = self.section_part(path)
        if anchor:
            number = self._records.paragraph_number(path, anchor)
            if number is None:
                raise PageError(f"{src}: citation slot names #{anchor}, no paragraph of {path}")
            etree.SubElement(box, "p").text = f"Paragraph {number} of “{part.title}”, cited by its own address:"
            part = self.meta.part(part.title, self._url(path), anchor)
        box.append(citation_list(references(self.meta, part)))
        return to_html(box)

    def _first_paragraph(self, src: str) -> str:
        """The first paragraph of the essay, as a slot names it: `page.md#anchor`."""
        for section in self.sections:
            if ids := self._records.paragraphs.get(section):
                return f"{section}#{ids[0]}"
        raise PageError(f"{src}: citation slot names the essay's first paragraph, and the essay has none")

    def _first_message(self, src: str) -> int:
        for section in self.sections:
            if numbers := self._records.citations.linked_from(section):
                return numbers[0]
        raise PageError(f"{src}: citation slot names the first message the essay cites, and it cites none")


def _css_string(text: str) -> str:
    """Text as a CSS string, safe inside a <style> element."""
    escaped = "".join(f"\\{ord(char):x} " if char in '"\\<>&' or not char.isprintable() else char for char in text)
    return f'"{escaped}"'
