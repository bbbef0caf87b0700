"""MkDocs hook: the essay as a citable work.

It gives paragraphs their ¶ links, adds the whole essay as one page (for reading in one
piece, printing and the PDF), the citation downloads, a "Cite this" block under each
section, the citations shown on the "How to cite" page, and the scholarly metadata in
each page's head. The logic lives in the `essaycite` package; this file wires it in.
"""

from __future__ import annotations

import html
import os
import re
import xml.etree.ElementTree as etree

from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority
from mkdocs.structure.files import File, InclusionLevel

from essaycite import head
from essaycite.cite_box import cite_box, citation_list, link_line, to_html
from essaycite.formats import downloads, references
from essaycite.metadata import EssayMetadata, MetadataError
from essaycite.paragraphs import ParagraphLinks
from essaycite.whole_essay import whole_essay_markdown

WHOLE_ESSAY_PAGE = "print.md"
DOWNLOADS_FOLDER = "cite"
HOW_TO_CITE_PAGE = "how-to-cite.md"
DOWNLOAD_LABELS = {"bib": "BibTeX", "ris": "RIS", "json": "CSL-JSON"}
# <div class="citation-slot" data-part="essay | page.md | page.md#anchor"></div>
_SLOT_RE = re.compile(r'<div class="citation-slot" data-part="([^"]*)"></div>')

_build = {}


def on_config(config):
    try:
        _build["meta"] = EssayMetadata.from_config(config)
    except MetadataError as error:
        raise PluginError(f"mkdocs.yml: {error}") from None
    essay = config.extra["essay"]
    sections = essay.get("sections")
    if not isinstance(sections, list) or not sections or not all(isinstance(s, str) for s in sections):
        raise PluginError("mkdocs.yml: extra.essay.sections: list the essay's pages in reading order")
    _build["sections"] = sections
    _build["pdf"] = essay.get("pdf")
    config.markdown_extensions.append(ParagraphLinks())
    if not config.copyright:
        meta = _build["meta"]
        config.copyright = f"{meta.author_label} · published {meta.published.isoformat()} · edition {meta.edition}"
    return config


def on_files(files, config):
    sources = []
    for section in _build["sections"]:
        page = files.get_file_from_path(section)
        if page is None or not page.is_documentation_page():
            raise PluginError(f"mkdocs.yml: extra.essay.sections: {section} is not a page in {config.docs_dir}")
        sources.append(page.content_string)
    content = "---\nderived: true\n---\n\n" + whole_essay_markdown(sources)
    files.append(File.generated(config, WHOLE_ESSAY_PAGE, content=content, inclusion=InclusionLevel.NOT_IN_NAV))
    for download in downloads(_build["meta"]):
        files.append(File.generated(config, f"{DOWNLOADS_FOLDER}/{download.filename}", content=download.text))
    return files


def on_page_content(html_content, page, config, files):
    if page.file.src_uri in _build["sections"]:
        title, anchor = _section_heading(page)
        part = _build["meta"].part(title, page.url, anchor)
        box = cite_box("Cite this section", references(_build["meta"], part), _links(page, files))
        return html_content + to_html(box)
    if page.file.src_uri == WHOLE_ESSAY_PAGE:
        return _citation_first(html_content, page, files)
    return html_content


@event_priority(-60)  # once every page has been converted, and after the transcript's lists
def on_env(env, config, files):
    meta = _build["meta"]
    parts = []
    for section in _build["sections"]:
        page = files.get_file_from_path(section).page
        title, anchor = _section_heading(page)
        parts.append(meta.part(title, page.url, anchor))
    _build["parts"] = parts
    for file in files.documentation_pages():
        if file.page and file.page.content and "citation-slot" in file.page.content:
            file.page.content = _SLOT_RE.sub(lambda m, page=file.page: _slot(m.group(1), page, files),
                                             file.page.content)
    return env


def on_post_page(output, page, config):
    """Write the essay's Highwire, Dublin Core and schema.org metadata into the head."""
    meta, pdf = _build["meta"], _build["pdf"]
    tags = [f'<link rel="{head.DUBLIN_CORE_SCHEMA[0]}" href="{head.DUBLIN_CORE_SCHEMA[1]}">']
    pairs = head.highwire_tags(meta, pdf_url=pdf, fulltext_url="print/") + head.dublin_core_tags(meta)
    tags += [f'<meta name="{html.escape(name)}" content="{html.escape(value)}">' for name, value in pairs]
    data = head.json_ld(meta, _build["parts"], pdf_url=pdf)
    tags.append(f'<script type="application/ld+json">{head.json_ld_script_text(data)}</script>')
    return output.replace("</head>", "\n".join(tags) + "\n</head>", 1)


def _section_heading(page):
    """The section's title and anchor: the page's title, or on the home page, whose title is
    the essay's, its first heading below the title."""
    if page.is_homepage and page.toc.items and page.toc.items[0].children:
        first = page.toc.items[0].children[0]
        return first.title, first.id
    return page.title, None


def _links(page, files):
    """Links from a page to the whole essay's downloads, PDF and the "How to cite" page."""
    here = page.file

    def href(path):
        target = files.get_file_from_path(path)
        return target.url_relative_to(here) if target else os.path.relpath(path, os.path.dirname(here.url) or ".")

    links = [(f"{DOWNLOAD_LABELS[download.filename.rsplit('.', 1)[-1]]} (whole essay)",
              href(f"{DOWNLOADS_FOLDER}/{download.filename}"))
             for download in downloads(_build["meta"])]
    if _build["pdf"]:
        links.append(("PDF", href(_build["pdf"])))
    if page.file.src_uri != HOW_TO_CITE_PAGE:
        links.append(("How to cite", href(HOW_TO_CITE_PAGE)))
    return links


def _citation_first(html_content, page, files):
    """The whole essay opens with its citation, so that a printout or PDF carries it."""
    block = etree.Element("div", {"class": "essay-citation"})
    etree.SubElement(block, "p").text = "Cite as:"
    block.append(citation_list({"APA": references(_build["meta"])["APA"]}))
    heading_end = html_content.find("</h1>")
    at = heading_end + len("</h1>") if heading_end >= 0 else 0
    return html_content[:at] + to_html(block) + html_content[at:]


def _slot(part_spec: str, page, files) -> str:
    """The citations a "How to cite" slot asks for: the essay, a section, or a paragraph."""
    meta = _build["meta"]
    if part_spec == "essay":
        shown = citation_list(references(meta))
        box = etree.Element("div", {"class": "citations-shown"})
        box.append(shown)
        box.append(link_line(_links(page, files)))
        return to_html(box)
    path, _, anchor = part_spec.partition("#")
    target = files.get_file_from_path(path)
    if target is None or target.page is None:
        raise PluginError(f"{page.file.src_uri}: citation slot names {path!r}, which is not a page of the site")
    title, section_anchor = _section_heading(target.page)
    shown = citation_list(references(meta, meta.part(title, target.page.url, anchor or section_anchor)))
    box = etree.Element("div", {"class": "citations-shown"})
    if anchor:
        number = re.search(rf'href="#{re.escape(anchor)}"[^>]*>¶\xa0(\d+)<', target.page.content or "")
        if number is None:
            raise PluginError(f"{page.file.src_uri}: citation slot names #{anchor}, no paragraph of {path}")
        etree.SubElement(box, "p").text = f"Paragraph {number.group(1)} of “{title}”, cited by its own address:"
    box.append(shown)
    return to_html(box)
