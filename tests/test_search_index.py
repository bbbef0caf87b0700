"""The site's search index: each passage of the essay in one entry, on its section's page;
no ¶ marks, editorial marks, captions, button labels or citation boxes in what a search shows."""

import json
import re

import pytest
from bs4 import BeautifulSoup

from conftest import found, selected, soup
from message_index_reader import BuiltIndex

ESSAY_PAGES = {"": "index.html", "context/": "context/index.html", "response/": "response/index.html",
               "empty-message/": "empty-message/index.html", "interpretation/": "interpretation/index.html",
               "significance/": "significance/index.html", "conclusion/": "conclusion/index.html"}
FURNITURE = ".paragraph-link, .msg-snippets, .cite-this, .editorial-mark"


def flat(text: str) -> str:
    return " ".join(text.split())


@pytest.fixture(scope="module")
def entries(built_site) -> list[dict]:
    """Each entry of the index, with `plain`: its text as a search shows it, without markup."""
    docs = json.loads((built_site / "search/search_index.json").read_text(encoding="utf-8"))["docs"]
    for entry in docs:
        entry["plain"] = flat(BeautifulSoup(entry["text"], "html.parser").get_text())
    return docs


def essay_paragraphs(site) -> list[tuple[str, str, bool]]:
    """(page URL, text, whether it quotes a message in a block quote) of every numbered paragraph."""
    paragraphs = []
    for url, path in ESSAY_PAGES.items():
        article = selected(soup(site / path), "article")
        numbered = [found(link.parent, "the paragraph of a ¶ link") for link in article.select("a.paragraph-link")]
        for furniture in article.select(FURNITURE):
            furniture.decompose()
        paragraphs += [(url, flat(block.get_text()), block.find_parent("blockquote") is not None) for block in numbered]
    return paragraphs


def test_the_one_page_essay_is_left_out(entries, built_site):
    assert (built_site / "print/index.html").is_file()
    assert [e["location"] for e in entries if e["location"].split("#")[0] == "print/"] == []


def test_each_paragraph_is_found_once_on_its_own_page(entries, built_site):
    paragraphs = essay_paragraphs(built_site)
    assert len(paragraphs) > 20
    for url, text, quotes_a_message in paragraphs:
        holding = [e["location"] for e in entries if text in e["plain"]]
        outside_transcript = [where for where in holding if not where.startswith("transcript/")]
        assert len(outside_transcript) == 1 and outside_transcript[0].split("#")[0] == url, (text, holding)
        # The transcript holds a paragraph only where the essay quotes the message word for word.
        assert quotes_a_message or holding == outside_transcript, (text, holding)


def test_search_shows_no_marks_captions_or_labels(entries, built_site):
    pages = [soup(path) for path in built_site.rglob("*.html")]
    captions = {flat(c.get_text()) for page in pages for c in page.select("figcaption.msg-snippet__caption")}
    buttons = {flat(b.get_text()) for page in pages for b in page.select("button.cite-copy")}
    assert "Message 5855 · user · quoted verbatim" in captions and "Copy APA" in buttons
    for entry in entries:
        # "How to cite" names the mark in its own words, once.
        allowed = 1 if entry["location"] == "how-to-cite/#a-paragraph" else 0
        assert entry["text"].count("¶") == allowed and "¶" not in entry["title"], entry["location"]
        shown = entry["plain"]
        assert not [c for c in captions if c in shown], entry["location"]
        assert not [b for b in buttons if b in shown], entry["location"]
        assert "Cite this section" not in shown or entry["location"].startswith("how-to-cite/"), entry["location"]
        assert "Cited in:" not in shown and "Not cited in the essay." not in shown, entry["location"]


def test_citations_stay_searchable_where_they_are_the_subject(entries):
    how_to_cite = " ".join(e["plain"] for e in entries if e["location"].startswith("how-to-cite/"))
    assert "Message 5855 of the session transcript. (2026, December 2)." in how_to_cite
    assert "@misc{the-silence-that-speaks-2026," in how_to_cite


def test_each_message_is_found_in_the_transcript_search_not_the_site_search(entries, built_site):
    gist = "https://gist.github.com/catid/87cca824963f17fe7479a0ed26221397 - sm120"
    # In the site's search, once: where the essay's own sentence quotes it.
    assert [e["location"] for e in entries if gist in e["plain"]] == ["context/"]
    assert not [e for e in entries if e["location"].startswith("transcript/")]
    transcript = BuiltIndex(built_site)
    assert transcript.search("gist catid 87cca824963f17fe7479a0ed26221397 sm120") == [5852]
    address, title, text = transcript.messages()[5852]
    assert (address, title) == ("transcript/#msg-5852", "Message 5852 — user") and text.startswith(gist)
    page = soup(built_site / "transcript/index.html")
    assert selected(page, "#msg-5852").name == "h2"


def test_a_result_reads_a_citation_without_its_editorial_mark(entries):
    shown = " ".join(entry["plain"] for entry in entries)
    assert "(msg 5852):" in shown and not re.search(r"msg \d+\s*ed\.", shown)
