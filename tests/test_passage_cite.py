"""How a passage is cited: each section page and each transcript page holds one panel, a
template with holes for the words quoted and their address, which assets/passage-cite.js
fills. Made out, its citations say what the section's or the message's do in the same
style, the quote before them and the passage's address in place of theirs."""

from __future__ import annotations

import datetime
from pathlib import Path

import pytest
from bs4 import BeautifulSoup, Tag

from author_project import author_project
from conftest import attribute, built_cleanly, selected, soup
from essaycite.formats import references
from essaycite.metadata import EssayMetadata, Person
from essaycite.passage import ADDRESS_HOLE, QUOTE_HOLE, passage_references

QUOTE = "a quiet pause before the answer"
LINK = "https://example.org/copy/repeats/#p-much-later-the-user:~:text=a%20quiet%20pause"


def meta() -> EssayMetadata:
    return EssayMetadata(title="Quoted Passages: Words Worth Citing", site_name="Quoted Passages",
                         url="https://example.org/passages/", published=datetime.date(2027, 4, 2), edition=3,
                         authors=(Person("Quill", "Ada"),))


def test_a_passage_is_its_sections_citation_with_the_quote_and_its_own_address():
    part = meta().part("Repeated Words", "repeats/")
    section = references(meta(), part)
    passage = passage_references(section, part.url)
    assert list(passage) == list(section)
    for style in ("APA", "MLA", "Chicago"):
        made = passage[style].text.replace(QUOTE_HOLE, QUOTE).replace(ADDRESS_HOLE, LINK)
        assert made == f"\u201c{QUOTE}\u201d " + section[style].text.replace(part.url, LINK), style
        assert ("url", ADDRESS_HOLE) in passage[style].runs, style  # the address is a link
        assert "3rd ed." in made or style == "APA", style
    for style in ("BibTeX", "biblatex"):
        assert passage[style].text == section[style].text.replace(part.url, ADDRESS_HOLE), style
        assert QUOTE_HOLE not in passage[style].text


def test_a_citation_that_does_not_end_with_the_address_is_refused():
    part = meta().part("Repeated Words", "repeats/")
    with pytest.raises(ValueError, match="APA"):
        passage_references(references(meta(), part), "https://example.org/elsewhere/")


# --- the built site ----------------------------------------------------------------


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    return built_cleanly(author_project("passages", tmp_path_factory.mktemp("passages") / "project"))


def template_of(page: BeautifulSoup) -> Tag:
    template = selected(page, "template#passage-cite-template")
    assert attribute(template, "data-quote") == QUOTE_HOLE
    assert attribute(template, "data-address") == ADDRESS_HOLE
    assert template.has_attr("data-search-exclude")
    return template


def text(element: Tag) -> str:
    """An element's text, inside a template too (which get_text leaves out)."""
    return "".join(element.find_all(string=True))


def citations(scope: Tag) -> dict[str, str]:
    """Each style's citation in a list of them, as its "Copy" button copies it."""
    return {attribute(dd, "data-style"): attribute(selected(dd, "button.cite-copy"), "data-copy")
            for dd in scope.select("dl.citations > dd")}


def made_out(template: Tag, number: str | None = None) -> dict[str, str]:
    made = {}
    for style, text in citations(template).items():
        text = text.replace(QUOTE_HOLE, QUOTE).replace(ADDRESS_HOLE, LINK)
        made[style] = text.replace(attribute(template, "data-number"), number) if number else text
    return made


def test_a_section_page_holds_the_panel_made_from_its_sections_citation(site):
    page = soup(site / "repeats" / "index.html")
    template = template_of(page)
    assert not template.has_attr("data-number")
    assert text(selected(template, ".passage-cite-panel__title")) == "Cite this passage"
    assert text(selected(template, ".passage-cite-panel__quote")) == QUOTE_HOLE
    # Until the script sets it, the link leads to the page, as a link checker reads it.
    link = selected(template, ".cite-address a")
    assert link.has_attr("data-passage-link") and attribute(link, "href") == "http://127.0.0.1:8000/repeats/"
    assert text(link) == ADDRESS_HOLE
    section = citations(selected(page, "details#cite-this-section"))
    url = attribute(selected(page, 'details#cite-this-section dd[data-style="APA"] a'), "href")
    made = made_out(template)
    assert list(made) == list(section) == ["APA", "MLA", "Chicago", "BibTeX", "biblatex"]
    for style in ("APA", "MLA", "Chicago"):
        assert made[style] == f"\u201c{QUOTE}\u201d " + section[style].replace(url, LINK), style
    assert made["BibTeX"] == section["BibTeX"].replace(url, LINK)
    # The home page too, whose citation names it by its heading.
    assert citations(template_of(soup(site / "index.html")))["MLA"].startswith(f"\u201c{QUOTE_HOLE}\u201d Quill, Ada.")


def test_a_transcript_page_holds_the_panel_made_from_a_messages_citation(site):
    page = soup(site / "transcript" / "index.html")
    template = template_of(page)
    # The number that stands for the message's is the one its own panel has.
    number = attribute(selected(page, "template#msg-cite-template"), "data-number")
    assert attribute(template, "data-number") == number
    made = made_out(template, "6")
    message_apa = citations(selected(page, "template#msg-cite-template"))["APA"].replace(number, "6")
    url = message_apa.rsplit(" ", 1)[1]
    assert url.endswith("/transcript/#msg-6")
    assert made["APA"] == f"\u201c{QUOTE}\u201d " + message_apa.replace(url, LINK)


def test_only_sections_and_transcript_pages_hold_it(site):
    for page in ("how-to-cite/index.html", "print/index.html", "404.html"):
        assert soup(site / page).select("template#passage-cite-template") == [], page
