"""The essay as a citable work on its pages: the "Cite this section" blocks, the
citations the "How to cite" page asks for, the "Cite as" block of the whole essay, and
the metadata of each page's head. The citations themselves come from `essaycite`."""

from __future__ import annotations

import re
import xml.etree.ElementTree as etree
from collections.abc import Callable
from typing import TYPE_CHECKING

from essaycite import head as head_data
from essaycite.cite_box import cite_box, citation_list, link_line
from essaycite.formats import downloads, message_references, references
from essaycite.metadata import Part
from msgref.snippets import to_html

from .site_pages import DOWNLOADS_FOLDER, HOW_TO_CITE_PAGE, PRINT_PAGE, PageError, SitePages
from .urls import relative_url

if TYPE_CHECKING:
    from .build import SiteBuild

# Written in a page as raw HTML:
# <div class="citation-slot" data-part="essay | page.md | page.md#anchor | message N"></div>
_SLOT_RE = re.compile(r'<div class="citation-slot" data-part="([^"]*)"></div>')


def section_box(build: SiteBuild, part: Part, src: str, pages: SitePages) -> str:
    return to_html(cite_box("Cite this section", references(build.meta, part), links(build, src, pages)))


def message_box(build: SiteBuild, n: int, pages: SitePages, src: str | None = None,
                searched: bool = False) -> etree.Element:
    """How to cite message n, shown on transcript page `src` (by default the page that
    shows it): its permanent address and its citation in each style; the site's search
    finds it only if `searched` (as an example on "How to cite")."""
    where = pages.url(src or build.layout.src_of(n)) or ""
    return cite_box("Cite this message", message_references(build.meta, n, where), [],
                    address=build.meta.url_for(where, f"msg-{n}"), searched=searched)


# A number no message has, rendered in a page's template of the box below.
_SENTINEL = 987654321987654321


def message_boxes(build: SiteBuild, src: str, pages: SitePages) -> Callable[[int], str]:
    """How to cite each message on transcript page `src`, as HTML: `message_box` rendered
    once for the page and given each message's number, since the boxes of a page differ
    in nothing else. Rendering thousands of boxes one by one took longer than the rest
    of a whole session's build."""
    template = to_html(message_box(build, _SENTINEL, pages, src))
    return lambda n: template.replace(str(_SENTINEL), str(n))


def cite_as_block(build: SiteBuild) -> str:
    """The whole essay's citation, which opens the one-page essay so that a printout carries it."""
    block = etree.Element("div", {"class": "essay-citation"})
    etree.SubElement(block, "p").text = "Cite as:"
    block.append(citation_list({"APA": references(build.meta)["APA"]}))
    return to_html(block)


def links(build: SiteBuild, src: str, pages: SitePages) -> list[tuple[str, str]]:
    """Links from page `src` to the whole essay's downloads, its PDF and the "How to cite" page."""
    def href(path: str) -> str:
        # The PDF is printed after the build: no file of the site yet, but its URL is its path.
        return relative_url(pages.url(path) or path, pages.url(src) or "")

    found = [(f"{download.label} (whole essay)", href(f"{DOWNLOADS_FOLDER}/{download.filename}"))
             for download in downloads(build.meta)]
    if build.essay.pdf:
        found.append(("PDF", href(build.essay.pdf)))
    if src != HOW_TO_CITE_PAGE and pages.url(HOW_TO_CITE_PAGE) is not None:
        found.append(("How to cite", href(HOW_TO_CITE_PAGE)))
    return found


def fill_slots(build: SiteBuild, src: str, html: str, pages: SitePages) -> str:
    if "citation-slot" not in html:
        return html
    return _SLOT_RE.sub(lambda match: _slot(build, match.group(1), src, pages), html)


def _slot(build: SiteBuild, part_spec: str, src: str, pages: SitePages) -> str:
    """The citations a "How to cite" slot asks for: the essay, a section, or a paragraph."""
    box = etree.Element("div", {"class": "citations-shown"})
    if part_spec == "essay":
        box.append(citation_list(references(build.meta)))
        box.append(link_line(links(build, src, pages)))
        return to_html(box)
    if part_spec.startswith("message "):
        n = int(part_spec.removeprefix("message "))
        if build.layout.src_of(n) is None:
            raise PageError(f"{src}: citation slot names message {n}, which the transcript pages do not show")
        box.append(message_box(build, n, pages, searched=True))
        return to_html(box)
    path, _, anchor = part_spec.partition("#")
    if path not in build.outlines or pages.url(path) is None:
        raise PageError(f"{src}: citation slot names {path!r}, which is not a page of the site")
    part = build.section_part(path, pages)
    if anchor:
        number = build.paragraph_number(path, anchor)
        if number is None:
            raise PageError(f"{src}: citation slot names #{anchor}, no paragraph of {path}")
        etree.SubElement(box, "p").text = f"Paragraph {number} of “{part.title}”, cited by its own address:"
        part = build.meta.part(part.title, pages.url(path) or "", anchor)
    box.append(citation_list(references(build.meta, part)))
    return to_html(box)


def head(build: SiteBuild, src: str, pages: SitePages) -> dict:
    """The metadata of a page's head, true to what the page is: the essay (its home page),
    one of its sections, or another page of the site."""
    meta, sections = build.meta, build.essay.sections
    if src == sections[0]:
        kind, page = head_data.ESSAY, None
    elif src in sections:
        kind, page = head_data.SECTION, build.section_part(src, pages)
    else:
        kind, page = head_data.PAGE, Part(build.title_of(src), meta.url_for(pages.url(src) or ""))
    found = head_data.page_head(meta, kind, page, build.parts(pages), pdf_url=build.essay.pdf,
                                fulltext_url=pages.url(PRINT_PAGE))
    result = {"meta": found.meta, "link": found.links, "json_ld": head_data.json_ld_script_text(found.json_ld)}
    if src == PRINT_PAGE:
        # Printed, every page of the whole essay is headed by its short title.
        result["style"] = f"@page {{ @top-center {{ content: {_css_string(meta.site_name)}; font: 9pt system-ui, sans-serif; }} }}"
    return result


def _css_string(text: str) -> str:
    """Text as a CSS string, safe inside a <style> element."""
    escaped = "".join(f"\\{ord(char):x} " if char in '"\\<>&' or not char.isprintable() else char for char in text)
    return f'"{escaped}"'
