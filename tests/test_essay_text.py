"""The site in this repository holds the shipped essay's text word for word, paragraph by
paragraph, where docs/ holds that essay (its source text beside it says so)."""

import json

import pytest

from conftest import ROOT, attribute, found, selected, soup
from essay_source import SECTIONS, as_rendered, cited_numbers, holds_the_shipped_essay, normalize, read_source

pytestmark = holds_the_shipped_essay
TRANSCRIPT = ROOT / "docs" / "transcript.jsonl"

# Site furniture and editorial marks: not the author's words.
# A template's content is inert, as browsers and screen readers take it.
NOT_THE_ESSAY = (".headerlink, .paragraph-link, .cite-this, .msg-snippets, .msg-previews, .editorial-mark, "
                 ".editorial-gap, nav.essay-contents, .md-content__button, .essay-byline, template")


def page_html(site, page):
    return site / ("index.html" if page == "index.md" else page.removesuffix(".md") + "/index.html")


def essay_blocks(site, page) -> list[str]:
    article = selected(soup(page_html(site, page)), "article.md-content__inner")
    for furniture in article.select(NOT_THE_ESSAY):
        furniture.decompose()
    blocks = []
    for element in article.find_all(["h1", "h2", "h3", "p", "li"]):
        if element.name == "li" and element.find("p"):
            continue  # a loose list item: its paragraph is the block
        blocks.append(normalize(element.get_text()))
    return blocks


def test_every_section_is_on_its_page_word_for_word(this_site):
    title, sections = read_source()
    assert list(sections) == list(SECTIONS)
    for heading, page in SECTIONS.items():
        expected = [heading] + [as_rendered(p) for p in sections[heading]]
        if page == "index.md":
            expected.insert(0, title)
        assert essay_blocks(this_site, page) == expected, page


def test_numbered_points_are_numbered_lists_with_their_own_anchors(this_site):
    for page, prefix in (("empty-message.md", "interpretation"), ("significance.md", "point")):
        document = soup(page_html(this_site, page))
        items = document.select("article ol > li")
        assert len(items) == 4
        for number, item in enumerate(items, start=1):
            assert item.get("id") == f"{prefix}-{number}" or item.find(id=f"{prefix}-{number}")


def test_editorial_changes_are_marked_where_they_happen(this_site):
    context = soup(page_html(this_site, "context.md"))
    mark = selected(context, "a.editorial-mark")
    assert mark["href"] == "../note-on-the-text/#ed-1"
    citation = found(mark.find_previous("a", class_="msg-ref"), "a citation before the mark")
    assert attribute(citation, "href").endswith("#msg-5852")

    gap = selected(soup(page_html(this_site, "interpretation.md")), ".editorial-gap")
    assert "The source text breaks off here" in gap.text
    assert selected(gap, "a")["href"] == "../note-on-the-text/#ed-2"
    paragraph = found(gap.find_previous_sibling("p"), "the paragraph before the gap")
    before = paragraph.contents[-2]  # the last is its ¶ link
    assert isinstance(before, str) and before.endswith("that:")

    note = soup(page_html(this_site, "note-on-the-text.md"))
    assert note.find(id="ed-1") and note.find(id="ed-2")


def test_the_quoted_message_is_a_block_quote_of_its_two_paragraphs(this_site):
    article = selected(soup(page_html(this_site, "response.md")), "article")
    quotes = [q for q in article.find_all("blockquote") if not q.find_parent(class_=["msg-snippets", "msg-previews"])
              and not q.find_parent("template")]
    assert len(quotes) == 1
    first, second = quotes[0].find_all("p")
    assert first.get_text().startswith("The key fix from the gist")
    assert second.get_text().startswith("Also notes we need to build")


@pytest.mark.parametrize(
    "page, code",
    [
        ("context.md", "nvidia/Qwen3.5-397B-A17B-NVFP4"),
        ("response.md", "--moe-runner-backend flashinfer_cutlass"),
        ("response.md", "--fp4-gemm-runner-backend flashinfer_cudnn"),
        ("response.md", "fuser -k /dev/nvidia*"),
        ("response.md", "sgl-kernel"),
        ("interpretation.md", "conversation_data"),
    ],
)
def test_flags_commands_and_model_names_are_inline_code(this_site, page, code):
    article = selected(soup(page_html(this_site, page)), "article")
    assert code in [c.get_text() for c in article.find_all("code")]


def test_the_transcript_holds_what_the_essay_shows_and_nothing_more():
    _, sections = read_source()
    source = normalize(" ".join(p for paragraphs in sections.values() for p in paragraphs))
    messages = {m["n"]: m for m in map(json.loads, TRANSCRIPT.read_text(encoding="utf-8").splitlines())}
    cited = {n for paragraphs in sections.values() for n in cited_numbers(paragraphs)}
    assert set(messages) == cited == {5843, 5844, 5852, 5853, 5854, 5855, 5856}
    assert {n for n, m in messages.items() if m["provenance"] == "verbatim"} == {5852, 5854, 5855}
    assert messages[5855]["text"] == "" and messages[5855]["speaker"] == "user"
    for message in messages.values():
        # Every stored word is the essay's: a quotation or a description taken from it.
        for paragraph in message["text"].split("\n\n"):
            assert normalize(paragraph) in source, message["n"]
    assert messages[5843]["described_with"] == [5844] and messages[5844]["described_with"] == [5843]
