"""Each page's <head> metadata, written into HTML and read back as indexers read it:
extruct for JSON-LD, Open Graph and Dublin Core, an HTML parser for the rest."""

from __future__ import annotations

import html

import extruct  # type: ignore[import-untyped]  # extruct ships no type hints
import pytest
from bs4 import BeautifulSoup

from conftest import attribute, selected
from essaycite.head import ESSAY, PAGE, SECTION, Head, json_ld_script_text, page_head
from test_citation_formats import META, NAMED, SITE, TITLE
from test_citation_formats import SECTION as CONTEXT

PARTS = [META.part("Introduction", "", "introduction"), CONTEXT, META.part("Conclusion", "conclusion/")]
TRANSCRIPT = META.part("Transcript", "transcript/")


def page_html(head: Head) -> str:
    """A page whose <head> carries `head`, written as a site would write it."""
    def element(name: str, attrs: dict) -> str:
        return f"<{name} " + " ".join(f'{key}="{html.escape(value)}"' for key, value in attrs.items()) + ">"

    lines = ["<!doctype html>", "<html lang=\"en\"><head><meta charset=\"utf-8\"><title>Page</title>"]
    lines += [element("link", attrs) for attrs in head.links]
    lines += [element("meta", attrs) for attrs in head.meta]
    lines.append(f'<script type="application/ld+json">{json_ld_script_text(head.json_ld)}</script>')
    lines.append("</head><body><p>Text.</p></body></html>")
    return "\n".join(lines)


def read(head: Head, url: str) -> dict:
    """What extruct finds, plus the <meta name> tags it has no syntax for."""
    document = page_html(head)
    data = extruct.extract(document, base_url=url, syntaxes=["json-ld", "opengraph", "dublincore"])
    names: dict[str, list[str]] = {}
    for tag in selected(BeautifulSoup(document, "html.parser"), "head").find_all("meta", attrs={"name": True}):
        names.setdefault(attribute(tag, "name"), []).append(attribute(tag, "content"))
    (og,) = data["opengraph"]
    data["og"] = dict(og["properties"])
    data["names"] = names
    return data


def dublin_core(data: dict) -> dict:
    """Dublin Core elements by their term, as the declared DC namespace resolves them."""
    (dc,) = data["dublincore"]
    prefix = "http://purl.org/dc/elements/1.1/"
    assert all(element["URI"].startswith(prefix) for element in dc["elements"])
    return {element["URI"].removeprefix(prefix): element["content"] for element in dc["elements"]}


def test_the_home_page_describes_the_essay():
    data = read(page_head(META, ESSAY, parts=PARTS, pdf_url="essay.pdf", fulltext_url="print/"), SITE)
    (article,) = data["json-ld"]
    assert article["@type"] == "ScholarlyArticle" and article["@id"] == SITE and article["name"] == TITLE
    assert [(p["position"], p["@id"]) for p in article["hasPart"]] == [
        (1, SITE + "#introduction"), (2, SITE + "context/"), (3, SITE + "conclusion/")]
    assert article["version"] == "1" and article["datePublished"] == "2026-12-02"
    names = data["names"]
    assert names["citation_title"] == [TITLE] and names["citation_publication_date"] == ["2026/12/02"]
    assert names["citation_pdf_url"] == [SITE + "essay.pdf"]
    assert names["citation_fulltext_html_url"] == [SITE + "print/"]
    assert dublin_core(data)["title"] == TITLE and dublin_core(data)["identifier"] == SITE
    assert data["og"]["og:type"] == "article" and data["og"]["og:url"] == SITE


def test_a_section_page_describes_itself_as_part_of_the_essay():
    data = read(page_head(META, SECTION, CONTEXT, PARTS), CONTEXT.url)
    (section,) = data["json-ld"]
    assert section["@id"] == CONTEXT.url and section["name"] == CONTEXT.title and section["position"] == 2
    assert section["isPartOf"] == {"@type": "ScholarlyArticle", "@id": SITE, "url": SITE, "name": TITLE}
    assert "hasPart" not in section and section["@type"] != "ScholarlyArticle"
    # One article per address for Google Scholar: the essay's tags are on its home page only.
    assert not [name for name in data["names"] if name.startswith("citation_")]
    dc = dublin_core(data)
    assert dc["title"] == CONTEXT.title and dc["identifier"] == CONTEXT.url and dc["relation"] == SITE
    assert data["og"]["og:title"] == CONTEXT.title and data["og"]["og:type"] == "article"


def test_other_pages_do_not_claim_to_be_the_article():
    data = read(page_head(META, PAGE, TRANSCRIPT, PARTS, pdf_url="essay.pdf"), TRANSCRIPT.url)
    (page,) = data["json-ld"]
    assert page["@type"] == "WebPage" and page["@id"] == TRANSCRIPT.url
    assert page["isPartOf"]["@type"] == "WebSite" and page["isPartOf"]["url"] == SITE
    assert not [name for name in data["names"] if name.startswith(("citation_", "DC."))]
    assert data["dublincore"] == [] or not dublin_core(data)
    assert data["og"]["og:type"] == "website" and data["og"]["og:url"] == TRANSCRIPT.url


@pytest.mark.parametrize("kind, page", [(ESSAY, None), (SECTION, CONTEXT), (PAGE, TRANSCRIPT)])
def test_every_page_has_a_link_preview(kind, page):
    data = read(page_head(META, kind, page, PARTS), (page or CONTEXT).url)
    title = page.title if page else TITLE
    assert {key: data["og"][key] for key in ("og:title", "og:site_name", "og:description")} == {
        "og:title": title, "og:site_name": "The Silence That Speaks", "og:description": META.description}
    assert data["og"]["og:url"] == (page.url if page else SITE)
    names = data["names"]
    assert names["twitter:card"] == ["summary"] and names["twitter:title"] == [title]
    assert names["twitter:description"] == [META.description]
    assert "og:image" not in data["og"]


@pytest.mark.parametrize("kind, page", [(ESSAY, None), (SECTION, CONTEXT), (PAGE, TRANSCRIPT)])
def test_an_unsigned_essay_names_no_author_and_a_signed_one_names_it_once(kind, page):
    unsigned = read(page_head(META, kind, page, PARTS), SITE)
    assert "author" not in unsigned["json-ld"][0]
    assert not {"citation_author", "DC.creator", "author"} & set(unsigned["names"])
    signed = read(page_head(NAMED, kind, page, PARTS), SITE)
    if kind == PAGE:
        assert "author" not in signed["json-ld"][0]
        return
    assert signed["json-ld"][0]["author"] == {"@type": "Person", "name": "Jane Q. Doe"}
    assert dublin_core(signed)["creator"] == "Jane Q. Doe"
    assert signed["names"].get("citation_author") == (["Jane Q. Doe"] if kind == ESSAY else None)


def test_a_page_description_is_used_when_given():
    data = read(page_head(META, PAGE, TRANSCRIPT, description="The session's messages."), TRANSCRIPT.url)
    assert data["og"]["og:description"] == "The session's messages."


@pytest.mark.parametrize("kind, page, message", [
    ("chapter", CONTEXT, "page kind: expected 'essay', 'section' or 'page', got 'chapter'"),
    (SECTION, None, "a section page needs its title and URL"),
])
def test_a_wrong_page_kind_is_one_line(kind, page, message):
    with pytest.raises(ValueError) as error:
        page_head(META, kind, page)
    assert str(error.value) == message
