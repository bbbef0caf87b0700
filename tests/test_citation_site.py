"""Citing the published site: "Cite this" blocks, downloads, head metadata, "How to cite",
read back with an HTML parser, extruct and citeproc-js, on a build at a public address."""

import json
import re
import subprocess

import extruct  # type: ignore[import-untyped]  # extruct ships no type hints
import pytest
from bs4 import BeautifulSoup, Tag

from conftest import PUBLIC_URL, TRANSCRIPT, attribute, found, selected, soup
from essay_source import SECTIONS
from test_citation_processors import citeproc_entries, segments_of_html

TITLE = "The Silence That Speaks: An Empty Message in an AI-Assisted Coding Session"
STYLES = ["APA", "MLA", "Chicago", "BibTeX", "biblatex"]
MESSAGES = [json.loads(line)["n"] for line in TRANSCRIPT.read_text().splitlines()]


def page_path(page: str) -> str:
    return "index.html" if page == "index.md" else page.removesuffix(".md") + "/index.html"


def section_url(page: str) -> str:
    return PUBLIC_URL + ("#introduction" if page == "index.md" else page.removesuffix(".md") + "/")


def shown_citations(box: Tag) -> dict[str, Tag]:
    return {dt.get_text(): found(dt.find_next_sibling("dd"), f"the citation in {dt.get_text()}")
            for dt in box.select("dl.citations dt")}


def runs_of(entry: Tag) -> list[tuple[str, str]]:
    """A shown citation as runs of text and italics (its link is text, as citeproc-js writes it)."""
    runs: list[tuple[str, str]] = []
    for node in selected(entry, "p.citation").children:
        kind = "italic" if getattr(node, "name", None) == "i" else "text"
        text = node.get_text() if hasattr(node, "get_text") else str(node)
        if runs and runs[-1][0] == kind:
            runs[-1] = (kind, runs[-1][1] + text)
        else:
            runs.append((kind, text))
    return runs


@pytest.mark.parametrize("heading, page", SECTIONS.items())
def test_each_section_has_its_citation_in_every_style(public_site, heading, page):
    box = selected(soup(public_site / page_path(page)), "article details.cite-this")
    assert selected(box, "summary").get_text() == "Cite this section"
    citations = shown_citations(box)
    assert list(citations) == STYLES
    url = section_url(page)
    for style, entry in citations.items():
        text = found(entry.find(["p", "pre"]), f"the {style} citation").get_text()
        assert url in text and "2026" in text, style
        assert selected(entry, "button.cite-copy")["data-copy"] == text.rstrip()
    assert "1st ed." in citations["MLA"].get_text() and "1st ed." in citations["Chicago"].get_text()
    assert "1st edition" in citations["BibTeX"].get_text() and "version = {1}" in citations["biblatex"].get_text()
    heading = heading.replace("'", "\u2019")  # typographic, as citeproc-js prints it
    assert heading.lower().split(":")[0] in citations["APA"].get_text().lower()
    assert heading in citations["MLA"].get_text() and TITLE in citations["MLA"].get_text()


def test_the_shown_citations_are_what_citeproc_js_makes_of_the_download(public_site):
    items = json.loads((public_site / "cite/essay.json").read_text())
    by_url = {item["URL"]: item["id"] for item in items}
    for style in ("MLA", "Chicago"):  # APA differs only in sentence case: see test_citation_processors
        entries = citeproc_entries(style, items)
        for page in SECTIONS.values():
            shown = shown_citations(selected(soup(public_site / page_path(page)), "article details.cite-this"))
            assert runs_of(shown[style]) == segments_of_html(entries[by_url[section_url(page)]]), (style, page)


def test_the_downloads_hold_the_essay_and_every_section(public_site):
    items = json.loads((public_site / "cite/essay.json").read_text())
    assert [item["URL"] for item in items] == [PUBLIC_URL] + [section_url(page) for page in SECTIONS.values()]
    assert items[0]["title"] == TITLE and items[0]["issued"]["date-parts"] == [[2026, 12, 2]]
    assert all(item["container-title"] == TITLE for item in items[1:]) and "author" not in items[0]
    ris = (public_site / "cite/essay.ris").read_text()
    assert ris.count("TY  - ELEC") == len(items) and f"UR  - {PUBLIC_URL}context/" in ris
    for name in ("essay.bib", "essay-biblatex.bib"):
        bib = (public_site / "cite" / name).read_text()
        assert len(re.findall(r"^@\w+\{", bib, re.MULTILINE)) == len(items) and "author" not in bib, name


def test_the_downloads_and_pdf_are_linked_from_every_section(public_site):
    for page in SECTIONS.values():
        links = {a.get_text(): a["href"]
                 for a in soup(public_site / page_path(page)).select(".cite-this .cite-links a")}
        assert {"BibTeX (whole essay)", "biblatex (whole essay)", "RIS (whole essay)", "CSL-JSON (whole essay)",
                "PDF", "How to cite"} <= set(links)


def metadata(public_site, path: str) -> dict:
    html = (public_site / path).read_text(encoding="utf-8")
    return extruct.extract(html, base_url=PUBLIC_URL, syntaxes=["json-ld", "opengraph"], uniform=True)


def names(public_site, path: str) -> dict[str, str]:
    by_name: dict[str, str] = {}
    for tag in selected(soup(public_site / path), "head").find_all("meta", attrs={"name": True}):
        by_name.setdefault(attribute(tag, "name"), attribute(tag, "content"))
    return by_name


def test_the_home_page_describes_the_essay(public_site):
    data = metadata(public_site, "index.html")
    (article,) = data["json-ld"]
    assert article["@type"] == "ScholarlyArticle" and article["@id"] == PUBLIC_URL and article["version"] == "1"
    assert [part["url"] for part in article["hasPart"]] == [section_url(page) for page in SECTIONS.values()]
    assert "author" not in article  # the essay is unsigned
    tags = names(public_site, "index.html")
    assert tags["citation_title"] == TITLE and tags["citation_publication_date"] == "2026/12/02"
    assert tags["citation_pdf_url"] == PUBLIC_URL + "essay.pdf"
    assert tags["citation_fulltext_html_url"] == PUBLIC_URL + "print/"
    assert not {"citation_author", "DC.creator", "author"} & set(tags)


@pytest.mark.parametrize("page", [page for page in SECTIONS.values() if page != "index.md"])
def test_a_section_page_describes_itself_as_part_of_the_essay(public_site, page):
    (node,) = metadata(public_site, page_path(page))["json-ld"]
    assert node["@id"] == section_url(page) and node["isPartOf"]["@id"] == PUBLIC_URL
    tags = names(public_site, page_path(page))
    assert not any(name.startswith("citation_") for name in tags)  # Google Scholar: one article, one page
    assert tags["DC.identifier"] == section_url(page)


@pytest.mark.parametrize("path", ["transcript/index.html", "how-to-cite/index.html", "note-on-the-text/index.html",
                                  "print/index.html"])
def test_other_pages_do_not_claim_to_be_the_article(public_site, path):
    (node,) = metadata(public_site, path)["json-ld"]
    assert node["@type"] == "WebPage" and node["isPartOf"]["@type"] == "WebSite"
    assert not any(name.startswith(("citation_", "DC.")) for name in names(public_site, path))


@pytest.mark.parametrize("path", ["index.html", "context/index.html", "transcript/index.html", "print/index.html"])
def test_every_page_has_a_link_preview(public_site, path):
    tags = selected(soup(public_site / path), "head")
    (graph,) = metadata(public_site, path)["opengraph"]
    assert graph["og:site_name"] == "The Silence That Speaks" and graph["og:url"].startswith(PUBLIC_URL)
    assert graph["og:title"] and graph["og:description"] and graph["@type"] in ("article", "website")
    assert found(tags.find("meta", attrs={"name": "twitter:card"}), "the twitter:card tag")["content"] == "summary"


def test_each_message_offers_its_citation_and_address(public_site):
    document = soup(public_site / "transcript/index.html")
    # One panel a page, which each message's "Cite" makes out for its number (message-cite.js).
    template = selected(document, "template#msg-cite-template")
    hole = attribute(template, "data-number")
    for n in MESSAGES:
        assert selected(document, f'.msg-item[data-msg="{n}"] .msg-cite-button').get_text() == "Cite"
        box = BeautifulSoup(template.decode_contents().replace(hole, str(n)), "html.parser")
        assert selected(box, ".msg-cite-panel__title").get_text() == "Cite this message"
        address = f"{PUBLIC_URL}transcript/#msg-{n}"
        assert selected(box, ".cite-address a")["href"] == address
        assert selected(box, ".cite-address button.cite-copy")["data-copy"] == address
        citations = shown_citations(box)
        assert list(citations) == STYLES
        assert all(address in entry.get_text() for entry in citations.values())
        assert f"Message {n}" in citations["MLA"].get_text()


def test_how_to_cite_shows_the_essay_a_section_a_paragraph_and_a_message(public_site):
    document = soup(public_site / "how-to-cite/index.html")
    shown = document.select("article .citations-shown")
    assert len(shown) == 4 and document.select(".citation-slot") == []
    assert f"{PUBLIC_URL}empty-message/" in shown[1].get_text()
    assert "Paragraph 2 of “The Context: A Model That Produces Garbage”" in shown[2].get_text()
    assert f"{PUBLIC_URL}context/#p-the-initial-deployment-attempt" in shown[2].get_text()
    assert selected(shown[3], ".cite-address a")["href"] == f"{PUBLIC_URL}transcript/#msg-5855"


def test_the_whole_essay_opens_with_its_citation(public_site):
    article = selected(soup(public_site / "print/index.html"), "article")
    first = found(selected(article, "h1").find_next_sibling(), "what follows the essay's title")
    assert "essay-citation" in first["class"] and PUBLIC_URL in first.get_text()


def test_the_pdf_of_the_site_holds_the_citation_and_the_opening(public_site):
    text = subprocess.run(["pdftotext", str(public_site / "essay.pdf"), "-"], capture_output=True, text=True).stdout
    flat = " ".join(text.split())
    assert "Cite as:" in flat and "(2026, December 2)" in flat and PUBLIC_URL in flat
    assert "In the middle of a complex, multi-hour coding session" in flat


def test_each_section_has_a_byline_with_its_date_edition_citations_and_the_pdf(public_site):
    for src in SECTIONS.values():
        page = soup(public_site / ("index.html" if src == "index.md" else src.replace(".md", "/index.html")))
        byline = selected(page, "article p.essay-byline")
        heading = byline.find_previous_sibling()
        assert heading is not None and heading.name == "h1", src  # right under the title
        assert byline.get_text().startswith("Published 2 December 2026 · Edition 1 · Cite · PDF"), src
        assert byline.find_parent("details") is None and byline.has_attr("data-search-exclude")
        cite, pdf = byline.find_all("a")
        assert selected(page, attribute(cite, "href")).name == "details"  # the section's citations
        box_pdf = next(a for a in selected(page, "details.cite-this").select(".cite-links a") if a.get_text() == "PDF")
        assert attribute(pdf, "href") == attribute(box_pdf, "href") and (public_site / "essay.pdf").is_file()
    assert soup(public_site / "print/index.html").select("p.essay-byline") == []
