"""Paragraph anchors: ¶ links in the pages, and ids fixed in the source by a script."""

import markdown
import pytest
from bs4 import BeautifulSoup, Tag

from conftest import ESSAY, attribute, build, found, selected, soup
from essaycite.paragraphs import ParagraphLinks
from paragraph_ids import essay_pages
from paragraph_ids import main as paragraph_ids

ESSAY_PAGES = ["index.html", "context/index.html", "response/index.html", "empty-message/index.html",
               "interpretation/index.html", "significance/index.html", "conclusion/index.html"]


def anchor_of(block: Tag) -> str | None:
    """The id of a block, or else of the element that holds it."""
    for element in (block, block.parent):
        if element is not None and element.get("id"):
            return attribute(element, "id")
    return None


def test_paragraphs_with_ids_get_numbered_self_links():
    source = "First.\n{ #p-one }\n\nNo id.\n\n1. Item\n    { #item-1 }\n\n    nested para\n"
    page = BeautifulSoup(markdown.markdown(source, extensions=["attr_list", ParagraphLinks()]), "html.parser")
    links = page.select("a.paragraph-link")
    assert [(a["href"], a.text) for a in links] == [("#p-one", "¶\u00a01"), ("#item-1", "¶\u00a02")]
    assert found(links[0].parent, "the paragraph of the first link")["id"] == "p-one"


def test_every_essay_paragraph_has_a_unique_anchor_and_a_self_link(built_site):
    for page in ESSAY_PAGES:
        article = selected(soup(built_site / page), "article")
        blocks = [p for p in article.find_all(["p", "li"])
                  if not p.find_parent(class_=["msg-snippets", "msg-previews", "cite-this"])
                  and not p.find_parent(["nav", "template"])
                  and not {"editorial-gap", "essay-byline"} & set(p.get_attribute_list("class"))
                  and not (p.name == "li" and p.find("p"))]
        ids = [anchor_of(b) for b in blocks]
        assert all(ids) and len(set(ids)) == len(ids), page
        for number, block in enumerate(blocks, start=1):
            link = selected(block, "a.paragraph-link")
            assert link["href"] == f"#{anchor_of(block)}" and link.text == f"¶\u00a0{number}"


def test_anchors_stay_when_a_paragraph_is_inserted_above(project, tmp_path, built_site):
    page = project / "docs" / "context.md"
    heading, rest = page.read_text().split("\n", 1)
    page.write_text(f"{heading}\n\nA new opening paragraph.\n{rest}")
    assert paragraph_ids([str(page)]) == 0
    assert "{ #p-a-new-opening-paragraph }" in page.read_text()
    assert build(project, tmp_path / "site").returncode == 0

    def anchored(site):
        article = selected(soup(site / "context/index.html"), "article")
        return {p["id"]: p.get_text() for p in article.find_all("p", id=True)}

    before, after = anchored(built_site), anchored(tmp_path / "site")
    assert set(after) - set(before) == {"p-a-new-opening-paragraph"}
    for anchor, text in before.items():
        assert after[anchor].split("¶")[0] == text.split("¶")[0]


def test_the_essay_of_the_tests_has_every_paragraph_id(capsys):
    assert paragraph_ids(["--check", *map(str, essay_pages(ESSAY / "mkdocs.yml"))]) == 0


def test_a_tag_alone_on_its_line_gets_no_id(tmp_path):
    page = tmp_path / "page.md"
    page.write_text("# Title\n\nSaid so:\n\n[msg 12]\n\nThen [msg 13] again.\n")
    assert paragraph_ids([str(page)]) == 0
    assert page.read_text() == ("# Title\n\nSaid so:\n{ #p-said-so }\n\n[msg 12]\n\n"
                                "Then [msg 13] again.\n{ #p-then-again }\n")


def test_the_check_names_file_and_line_of_a_paragraph_without_id(tmp_path, capsys):
    page = tmp_path / "page.md"
    page.write_text("# Title\n\nHas one.\n{ #p-has-one }\n\nHas none.\n\n<nav markdown>\n\nSkipped.\n\n</nav>\n")
    assert paragraph_ids(["--check", str(page)]) == 1
    assert capsys.readouterr().err == f"{page}:6: paragraph has no id\n"


def test_the_whole_essay_is_one_page_in_order(built_site):
    document = soup(built_site / "print/index.html")
    article = selected(document, "article")
    headings = [h.get_text().rstrip("¶") for h in article.find_all(["h1", "h2"])]
    assert headings[0].startswith("The Silence That Speaks") and headings[1] == "Introduction"
    assert headings[-2:] == ["Conclusion", "Appendix: the messages the essay cites"] and len(headings) == 9
    ids = [e["id"] for e in article.find_all(id=True)]
    assert len(ids) == len(set(ids))
    assert article.select("nav") == []
    assert len(article.select("a.msg-ref")) == 8
    # Each section numbers its paragraphs as its own page does, so that "para. 2" can be checked in print.
    for section in article.select("section.essay-section"):
        marks = [a.get_text() for a in section.select("a.paragraph-link")]
        assert marks == [f"¶\xa0{n}" for n in range(1, len(marks) + 1)] and marks
    context = article.select("section.essay-section")[1]
    own = soup(built_site / "context/index.html").select("article a.paragraph-link")
    assert [a.get_text() for a in context.select("a.paragraph-link")] == [a.get_text() for a in own]


def test_the_whole_essay_moves_headings_down_but_not_code():
    from essaycite.whole_essay import whole_essay_markdown

    joined = whole_essay_markdown([("index", "# Title\n\nText.\n{ #p-text }"),
                                   ("part", "# Part\n\n```sh\n# a comment\n{ #p-in-code }\n```\n\n## Sub")])
    assert joined == (
        '<section class="essay-section" markdown>\n\n# Title\n\nText.\n{ #index-p-text }\n\n</section>\n\n'
        '<section class="essay-section" markdown>\n\n## Part\n\n```sh\n# a comment\n{ #p-in-code }\n```\n\n'
        "### Sub\n\n</section>\n"
    )


def test_the_whole_essay_leaves_each_sections_front_matter_out():
    from essaycite.whole_essay import whole_essay_markdown

    front = "---\ntitle: Part [msg 3]\nprivate_note: not for readers\n---\n"
    joined = whole_essay_markdown([("index", "# Title\n\nText."), ("part", front + "# Part\n\n---\n\nA rule above.")])
    assert "private_note" not in joined and "[msg 3]" not in joined
    assert "## Part\n\n---\n\nA rule above." in joined  # a rule later in the text stays


def test_the_essay_pages_are_read_from_the_site_settings(tmp_path):
    (tmp_path / "mkdocs.yml").write_text(
        "site_name: S\nsite_url: https://example.org/\ndocs_dir: text\n"
        "extra:\n  essay:\n    title: T\n    published: 2026-01-02\n    edition: 1\n    sections: [one.md, two.md]\n",
        encoding="utf-8",
    )
    assert essay_pages(tmp_path / "mkdocs.yml") == [tmp_path / "text" / "one.md", tmp_path / "text" / "two.md"]


def test_a_site_without_an_essay_is_named_as_having_no_pages(tmp_path):
    (tmp_path / "mkdocs.yml").write_text("site_name: S\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"extra\.essay: not set"):
        essay_pages(tmp_path / "mkdocs.yml")


NOT_PARAGRAPHS = """---
title: A page
---

# Title

A paragraph.

| a | b |
|---|---|
| 1 | 2 |

Code follows:

    indented code

    after a blank

Heading underlined
------------------

***

<!-- a comment -->

[ref]: https://example.org/

- An item

    Its own paragraph.

Last words.
"""


def test_ids_are_written_only_after_paragraphs_keeping_the_pages_bom_and_line_endings(tmp_path):
    page = tmp_path / "page.md"
    source = "\ufeff" + NOT_PARAGRAPHS.replace("\n", "\r\n")
    page.write_bytes(source.encode())
    assert paragraph_ids([str(page)]) == 0
    written = page.read_bytes().decode()
    assert written.startswith("\ufeff---\r\ntitle: A page\r\n---\r\n")
    assert written.count("\n") == written.count("\r\n")  # no line left with a bare line feed
    text = written.removeprefix("\ufeff").replace("\r\n", "\n")
    assert text.split("\n---\n", 1)[0] == "---\ntitle: A page"
    body = text.split("\n---\n", 1)[1]
    html = BeautifulSoup(markdown.markdown(body, extensions=["attr_list", "tables"]), "html.parser")
    assert "{" not in html.get_text(), html
    assert [(e.name, e["id"]) for e in html.find_all(id=True)] == [
        ("p", "p-a-paragraph"), ("p", "p-code-follows"), ("p", "p-an-item"), ("p", "p-its-own-paragraph"),
        ("p", "p-last-words")]
    assert selected(html, "pre code").get_text() == "indented code\n\nafter a blank\n"
    assert paragraph_ids([str(page)]) == 0
    assert page.read_bytes().decode() == written  # a second run finds every paragraph with its id


def test_each_paragraph_is_recorded_with_its_words_as_a_reader_sees_them():
    recorded: list[list[tuple[str, str]]] = []
    source = ("Some *emphasis*  and\n`code`.\n{ #p-one }\n\n- An item\n    { #item-1 }\n\n    - nested words\n"
              "      { #item-2 }\n")
    markdown.markdown(source, extensions=["attr_list", ParagraphLinks(recorded.append)])
    assert recorded == [[("p-one", "Some emphasis and code."), ("item-1", "An item"), ("item-2", "nested words")]]
