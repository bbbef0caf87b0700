"""What changed between two editions: paragraphs matched by their ids, and the page that
lists the changes, read back with an HTML parser."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from bs4 import BeautifulSoup

from conftest import ROOT, attribute, selected
from essaycite.changes import Change, Paragraph, changes_html, compare
from essaycite.source import ID_LINE_RE, lines_outside_code
from test_speaker_colours import contrast, rgb


def home(anchor: str, text: str) -> Paragraph:
    return Paragraph(anchor, "", "The Silence That Speaks", text)


def context(anchor: str, text: str) -> Paragraph:
    return Paragraph(anchor, "context/", "The Context: A Model That Produces Garbage", text)


def kinds(changes: list[Change]) -> list[tuple[str, str]]:
    return [(change.kind, (change.new or change.old or home("?", "")).anchor) for change in changes]


OLD = [home("p-a", "The first words."), context("p-b", "The model   sat\nstill."), context("p-c", "The end.")]


def test_unchanged_paragraphs_are_not_listed_and_a_change_of_spacing_is_no_change():
    respaced = [home("p-a", " The first\twords. "), context("p-b", "The model sat still."), context("p-c", "The end.")]
    assert compare(OLD, respaced) == []


def test_a_paragraph_whose_words_changed_is_reworded():
    new = [OLD[0], context("p-b", "The model sat silent."), OLD[2]]
    assert compare(OLD, new) == [Change("reworded", OLD[1], new[1])]


def test_a_paragraph_only_in_the_new_edition_is_added_in_its_place():
    new = [OLD[0], context("p-new", "Something new."), *OLD[1:]]
    assert compare(OLD, new) == [Change("added", None, new[1])]


def test_a_removed_paragraph_stands_after_the_one_it_followed():
    new = [context("p-d", "Before."), OLD[0], context("p-e", "After.")]
    # p-b followed p-a; p-c followed p-b, gone too, so it stands after p-a as well.
    assert kinds(compare(OLD, new)) == [("added", "p-d"), ("removed", "p-b"), ("removed", "p-c"), ("added", "p-e")]


def test_removed_paragraphs_in_a_row_keep_their_order_after_the_last_one_kept():
    assert kinds(compare(OLD, [OLD[0]])) == [("removed", "p-b"), ("removed", "p-c")]
    assert kinds(compare(OLD, [OLD[2]])) == [("removed", "p-a"), ("removed", "p-b")]  # before the first kept


def test_a_paragraph_on_another_page_with_the_same_words_is_moved():
    moved = home("p-c", "The end.")
    assert compare(OLD, [OLD[0], moved, OLD[1]]) == [Change("moved", OLD[2], moved)]


@pytest.mark.parametrize("edition", ["old", "new"])
def test_an_id_twice_on_one_page_is_an_error_naming_it(edition):
    twice = [*OLD, context("p-b", "Again.")]
    with pytest.raises(ValueError, match=f"the {edition} edition .*'p-b' on the page 'context/'"):
        compare(twice, OLD) if edition == "old" else compare(OLD, twice)


def test_an_id_on_two_pages_is_two_paragraphs_each_matched_on_its_page():
    old = [home("p-same", "Home words."), context("p-same", "Context words.")]
    new = [home("p-same", "Home words."), context("p-same", "Context words, revised.")]
    assert compare(old, new) == [Change("reworded", old[1], new[1])]


def test_an_id_that_leaves_for_one_of_two_pages_is_not_guessed_moved():
    elsewhere = Paragraph("p-b", "significance/", "Significance", "The model sat still.")
    new = [OLD[0], home("p-b", "The model sat still."), elsewhere, OLD[2]]
    # Two pages now have p-b: neither is taken for the old one, which stood after p-a.
    assert kinds(compare(OLD, new)) == [("removed", "p-b"), ("added", "p-b"), ("added", "p-b")]


def essay_paragraphs(folder: Path) -> list[Paragraph]:
    """The paragraphs with ids of an essay's pages, each its source lines above its id line."""
    paragraphs = []
    for path in sorted(folder.glob("*.md")):
        page = "" if path.stem == "index" else f"{path.stem}/"
        block: list[str] = []
        for line in lines_outside_code(path.read_text(encoding="utf-8")):
            id_line = ID_LINE_RE.match(line)
            if id_line:
                paragraphs.append(Paragraph(id_line.group(1), page, path.stem, " ".join(block)))
            block = [] if id_line or not line.strip() else [*block, line]
    return paragraphs


def test_the_shipped_essay_whose_pages_share_an_id_compares_page_by_page():
    essay = essay_paragraphs(ROOT / "tests" / "projects" / "silence" / "docs")
    pages_of = {anchor: [p.page for p in essay if p.anchor == anchor] for anchor in {p.anchor for p in essay}}
    shared = sorted(anchor for anchor, pages in pages_of.items() if len(pages) > 1)
    assert shared == ["p-the-empty-message-at"]  # the opening of "Significance" and of "Conclusion"
    assert compare(essay, essay) == []
    revised = [Paragraph(p.anchor, p.page, p.page_title, p.text.replace("empty", "blank", 1))
               if p.page == "conclusion/" and p.anchor in shared else p for p in essay]
    changes = compare(essay, revised)
    assert [(change.kind, change.new and change.new.page) for change in changes] == [("reworded", "conclusion/")]
    page = page_of(changes)
    assert [(d.get_text(), i.get_text()) for d, i in zip(page.select("del"), page.select("ins"), strict=True)] == \
        [("[deleted: empty]", "[inserted: blank]")]


def page_of(changes: list[Change]) -> BeautifulSoup:
    return BeautifulSoup(changes_html(changes, old_edition=1, new_edition=2, old_root="/1/", new_root="/"),
                         "html.parser")


def test_the_page_says_what_it_compares_and_counts_each_kind():
    new = [context("p-b", "The model sat silent."), context("p-c", "Elsewhere, the end moved."),
           context("p-d", "Added.")]
    page = page_of(compare(OLD, new))
    assert selected(page, ".changes-summary").get_text() == \
        "From edition 1 to edition 2: 1 paragraph added, 1 removed and 2 reworded."
    # The removed p-a stood first, under the home page's title.
    assert [h2.get_text() for h2 in page.find_all("h2")] == ["The Silence That Speaks",
                                                             "The Context: A Model That Produces Garbage"]


def test_each_change_links_to_its_place_in_each_edition_that_has_it():
    moved = home("p-c", "The end.")
    new = [context("p-new", "New."), moved]
    page = page_of(compare(OLD, new))
    entries = page.select("li.changes-entry")
    links = [(selected(entry, "strong").get_text(), [attribute(a, "href") for a in entry.find_all("a")])
             for entry in entries]
    # In the new edition's order (the removed p-a and p-b first, as they stood before p-c),
    # grouped under the titles of their pages, each page once.
    assert links == [("Removed", ["/1/#p-a"]),
                     ("Moved from “The Context: A Model That Produces Garbage”", ["/#p-c", "/1/context/#p-c"]),
                     ("Removed", ["/1/context/#p-b"]),
                     ("Added", ["/context/#p-new"])]
    headings = [h2.get_text() for h2 in page.find_all("h2")]
    assert headings == ["The Silence That Speaks", "The Context: A Model That Produces Garbage"]
    assert [len(ul.find_all("li")) for ul in page.select("ul.changes-list")] == [2, 2]


def test_a_reworded_paragraph_on_another_page_says_so_and_links_to_each():
    new = [OLD[0], home("p-b", "The model sat silent."), OLD[2]]
    entry = selected(page_of(compare(OLD, new)), ".changes-entry--reworded")
    assert selected(entry, "strong").get_text() == "Reworded and moved"
    assert [attribute(a, "href") for a in entry.find_all("a")] == ["/#p-b", "/1/context/#p-b"]


def test_a_one_word_rewording_is_marked_deleted_and_inserted_for_eyes_and_ears():
    new = [OLD[0], context("p-b", "The model sat silent."), OLD[2]]
    quote = selected(page_of(compare(OLD, new)), ".changes-entry--reworded .changes-text p")
    deleted, inserted = selected(quote, "del"), selected(quote, "ins")
    assert [deleted.get_text(), inserted.get_text()] == ["[deleted: still]", "[inserted: silent]"]
    for mark in (deleted, inserted):
        hidden = mark.select(".visually-hidden")
        assert [span.get_text() for span in hidden][1:] == ["]"]
        for span in hidden:
            span.extract()
    assert quote.get_text() == "The model sat stillsilent."
    assert [mark.name for mark in quote.find_all(["del", "ins"])] == ["del", "ins"]


def test_the_words_of_the_essay_are_text_never_html():
    written = "A <script>alert(1)</script> & an <b>aside</b>."
    page = page_of([Change("added", None, context("p-x", written))])
    assert page.find("script") is None and page.find("b") is None
    assert selected(page, ".changes-text").get_text() == written


def test_without_changes_the_page_says_no_paragraph_changed():
    page = page_of([])
    assert [element.name for element in page.find_all(True)] == ["p"]
    assert page.get_text() == "No paragraph changed from edition 1 to edition 2."


def colour_rules(selector: str) -> dict[str, tuple[str, str]]:
    css = (ROOT / "docs" / "assets" / "essay.css").read_text(encoding="utf-8")
    found = re.findall(re.escape(selector) + r" \.changes-(del|ins) \{ background: (#\w{6}); color: (#\w{6});", css)
    return {mark: (background, colour) for mark, background, colour in found}


@pytest.mark.parametrize("selector", [".md-typeset", '[data-md-color-scheme="slate"] .md-typeset'])
def test_deleted_and_inserted_words_reach_aa_contrast_in_each_scheme(selector):
    rules = colour_rules(selector)
    assert sorted(rules) == ["del", "ins"]
    for background, colour in rules.values():
        assert contrast(rgb(colour), rgb(background)) >= 4.5, (selector, background, colour)


def test_deleted_and_inserted_words_are_told_apart_by_more_than_colour():
    css = (ROOT / "docs" / "assets" / "essay.css").read_text(encoding="utf-8")
    assert re.search(r"\.changes-del \{[^}]*text-decoration: line-through", css)
    assert re.search(r"\.changes-ins \{[^}]*text-decoration: underline", css)
