"""Citing the built site: "Cite this" blocks, downloads, head metadata, "How to cite"."""

import json
import re

import pytest

from conftest import soup
from essay_source import SECTIONS

SITE_URL = "http://127.0.0.1:8000/"
TITLE = "The Silence That Speaks: An Empty Message in an AI-Assisted Coding Session"


def page_path(page: str) -> str:
    return "index.html" if page == "index.md" else page.removesuffix(".md") + "/index.html"


def section_url(heading: str, page: str) -> str:
    return SITE_URL + ("#introduction" if page == "index.md" else page.removesuffix(".md") + "/")


@pytest.mark.parametrize("heading, page", SECTIONS.items())
def test_each_section_has_its_citation_in_every_style(built_site, heading, page):
    box = soup(built_site / page_path(page)).select_one("article details.cite-this")
    assert box.summary.get_text() == "Cite this section"
    citations = {dt.get_text(): dt.find_next_sibling("dd") for dt in box.select("dl.citations dt")}
    assert list(citations) == ["APA", "MLA", "Chicago", "BibTeX"]
    url = section_url(heading, page)
    for style, entry in citations.items():
        text = entry.find(["p", "pre"]).get_text()
        assert url in text, style
        assert "1st ed." in text or "edition = {1}" in text, style
        assert "2026" in text, style
        copied = entry.select_one("button.cite-copy")["data-copy"]
        assert copied == text.rstrip()
    assert heading.lower().split(":")[0] in citations["APA"].get_text().lower()
    assert heading in citations["MLA"].get_text() and heading in citations["Chicago"].get_text()
    assert TITLE in citations["MLA"].get_text()
    bibtex = citations["BibTeX"].get_text()
    fields = dict(re.findall(r"^\s+(\w+) = (.+?),?$", bibtex, re.MULTILINE))
    assert fields["url"] == "{" + url + "}" and fields["edition"] == "{1}" and fields["year"] == "{2026}"


def test_downloads_for_the_whole_essay_parse(built_site):
    bib = (built_site / "cite/essay.bib").read_text()
    assert bib.startswith("@") and "url = {http://127.0.0.1:8000/}" in bib
    ris = dict(line.split("  - ", 1) for line in (built_site / "cite/essay.ris").read_text().splitlines() if "  - " in line)
    assert ris["TY"] and ris["UR"] == SITE_URL and ris["ET"].startswith("1")
    (item,) = json.loads((built_site / "cite/essay.json").read_text())
    assert item["title"] == TITLE and item["URL"] == SITE_URL and item["issued"]["date-parts"] == [[2026, 12, 2]]


def test_the_downloads_and_pdf_are_linked_from_every_section(built_site):
    for page in SECTIONS.values():
        links = {a.get_text(): a["href"] for a in soup(built_site / page_path(page)).select(".cite-this .cite-links a")}
        assert {"BibTeX (whole essay)", "RIS (whole essay)", "CSL-JSON (whole essay)", "PDF", "How to cite"} <= set(links)


def test_every_page_head_carries_the_scholarly_metadata(built_site):
    for path in ["index.html", "context/index.html", "transcript/index.html", "how-to-cite/index.html"]:
        document = soup(built_site / path)
        meta = {}
        for tag in document.head.find_all("meta", attrs={"name": True}):
            meta.setdefault(tag["name"], tag["content"])
        for name in ("citation_title", "citation_author", "citation_publication_date", "citation_online_date",
                     "citation_fulltext_html_url", "citation_language", "citation_pdf_url"):
            assert meta.get(name), f"{path}: {name}"
        assert meta["citation_title"] == TITLE and meta["citation_publication_date"] == "2026/12/02"
        assert meta["citation_pdf_url"] == SITE_URL + "essay.pdf"
        assert meta["DC.title"] == TITLE and meta["DC.date"] == "2026-12-02"
        (script,) = document.head.find_all("script", type="application/ld+json")
        data = json.loads(script.string)
        assert data["@type"] == "ScholarlyArticle" and data["version"] == "1"
        parts = [(part["name"], part["url"]) for part in data["hasPart"]]
        assert parts == [(heading, section_url(heading, page)) for heading, page in SECTIONS.items()]


def test_how_to_cite_shows_the_essay_a_section_and_a_paragraph(built_site):
    document = soup(built_site / "how-to-cite/index.html")
    shown = document.select("article .citations-shown")
    assert len(shown) == 3 and document.select(".citation-slot") == []
    assert "http://127.0.0.1:8000/empty-message/" in shown[1].get_text()
    assert "Paragraph 2 of “The Context: A Model That Produces Garbage”" in shown[2].get_text()
    assert "http://127.0.0.1:8000/context/#p-the-initial-deployment-attempt" in shown[2].get_text()


def test_the_whole_essay_opens_with_its_citation(built_site):
    article = soup(built_site / "print/index.html").select_one("article")
    first = article.find("h1").find_next_sibling()
    assert "essay-citation" in first["class"] and SITE_URL in first.get_text()


def test_the_pdf_of_the_site_holds_the_citation_and_the_opening(built_site):
    import subprocess

    text = subprocess.run(["pdftotext", str(built_site / "essay.pdf"), "-"], capture_output=True, text=True).stdout
    flat = " ".join(text.split())
    assert "Cite as:" in flat and "(1st ed.)" in flat and SITE_URL in flat
    assert "In the middle of a complex, multi-hour coding session" in flat
