"""What the build derives from the essay's one list of sections: the navigation, the home
page's contents, the generated "How to cite" page, and the transcript's introduction."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import markdown
import pytest
import yaml
from bs4 import BeautifulSoup, Tag

from conftest import attribute, built_cleanly, found, selected, soup
from session_pages import layout_of
from sitebuild.generated import transcript_intro
from sitebuild.how_to_cite import FIRST_MESSAGE, FIRST_PARAGRAPH, how_to_cite_markdown
from sitebuild.page_list import CONTENTS_SLOT, ContentsSlot, PageList, page_title
from transcripts import MemoryTranscript

SECTIONS = ("index.md", "part-one.md", "more/part-two.md")


def page_list(has_note: bool = False, shows_all: bool = False) -> PageList:
    return PageList(SECTIONS, "transcript/index.md", has_note, shows_all)


def test_the_navigation_is_the_sections_then_how_to_cite_the_note_and_the_transcript() -> None:
    assert page_list().nav() == [*SECTIONS, "how-to-cite.md", "transcript/index.md"]
    assert page_list(has_note=True).nav() == [*SECTIONS, "how-to-cite.md", "note-on-the-text.md",
                                              "transcript/index.md"]


@pytest.mark.parametrize(("markdown_text", "title"), [
    ("# The Title\n\nText.", "The Title"),
    ("Intro.\n\n# Later { #later }\n", "Later"),
    ("## Only a subheading\n", "Part two"),
    # Not in front matter or code; a tag read as the reader sees it; brackets kept as text.
    ("---\ntitle: T\n# a comment\n---\n```\n# code\n```\n# On [msg 12] [sic]\n", "On msg 12 \\[sic\\]"),
])
def test_a_pages_title_is_its_first_level_one_heading_or_its_name(markdown_text: str, title: str) -> None:
    assert page_title(markdown_text, "more/part_two.md") == title


def converted_contents(src: str, pages: PageList) -> BeautifulSoup:
    titles = {"index.md": "Home", "part-one.md": "Part One", "more/part-two.md": "Part Two"}
    extension = ContentsSlot(lambda: pages.contents(src, titles))
    html = markdown.markdown(f"# Page\n\nBefore.\n\n{CONTENTS_SLOT}\n\nAfter.\n",
                             extensions=[extension, "md_in_html"])
    return BeautifulSoup(html, "html.parser")


def test_the_contents_replace_the_slot_and_link_from_the_page_that_holds_them() -> None:
    page = converted_contents("more/part-two.md", page_list(has_note=True))
    nav = page.select_one("nav.essay-contents")
    assert nav is not None and nav.get("aria-label") == "Contents"
    assert [(a.get_text(), a.get("href")) for a in nav.select("ol a")] == [
        ("Home", "../index.md"), ("Part One", "../part-one.md")]
    assert [a.get("href") for a in nav.select("p a")] == [
        "../print.md", "../how-to-cite.md", "../note-on-the-text.md", "../transcript/index.md"]
    assert [p.get_text() for p in page.find_all("p", recursive=False)] == ["Before.", "After."]
    assert "essay-contents-slot" not in str(page)


def test_the_contents_say_what_the_transcript_holds() -> None:
    assert "of every message of the session" in converted_contents("index.md", page_list(shows_all=True)).get_text()
    cited = converted_contents("index.md", page_list()).get_text()
    assert "of the messages of the session that the essay cites" in cited
    assert "note on the text" not in cited


def test_a_slot_shown_as_code_stays_code() -> None:
    extension = ContentsSlot(lambda: pytest.fail("no contents are asked for"))
    html = markdown.markdown(f"```\n{CONTENTS_SLOT}\n```\n", extensions=[extension, "fenced_code"])
    assert "essay-contents-slot" in BeautifulSoup(html, "html.parser").get_text()


def test_a_page_without_the_slot_is_left_as_it_is() -> None:
    extension = ContentsSlot(lambda: pytest.fail("no contents are asked for"))
    assert markdown.markdown("Text.", extensions=[extension]) == "<p>Text.</p>"


def how_to_cite(**changed: bool) -> str:
    options = {"signed": True, "anchors_paragraphs": True, "cites_messages": True, "has_note": False, "pdf": False,
               **changed}
    return how_to_cite_markdown("part-one.md", transcript_start="transcript/index.md", **options)


def test_how_to_cite_offers_only_what_the_essay_has() -> None:
    whole = how_to_cite()
    for heading, slot in [("## A section", "part-one.md"), ("## A paragraph", FIRST_PARAGRAPH),
                          ("## A message of the session", FIRST_MESSAGE)]:
        assert heading in whole and f'data-part="{slot}"' in whole
    assert "## A paragraph" not in how_to_cite(anchors_paragraphs=False)
    assert "## A message" not in how_to_cite(cites_messages=False)
    assert "names no author" in how_to_cite(signed=False) and "names no author" not in whole
    assert "[note on the text](note-on-the-text.md)" in how_to_cite(has_note=True)
    assert "note on the text" not in whole
    assert "a PDF of the whole essay" in how_to_cite(pdf=True) and "PDF" not in whole


def records(*described: int) -> MemoryTranscript:
    return MemoryTranscript([{"n": n, "speaker": "user", "provenance": "described" if n in described else "verbatim",
                              "text": f"text {n}"} for n in range(1, 11)])


FORM = ("A message's text is set as the Markdown it was written in (any HTML in it shown as text); a tool call "
        "is shown by what it did, its output after it; thinking and long outputs are folded.")


@pytest.mark.parametrize(("transcript", "context", "cited", "intro"), [
    (records(), None, (), f"Every message of the session. Each is shown word for word. {FORM}"),
    (records(), 0, (3,), f"The messages of the session that the essay cites. Each is shown word for word. {FORM}"),
    (records(3), 0, (3,), "The messages of the session that the essay cites, as far as the essay shows them. "
                          "A message the essay quotes is shown word for word; a message it only describes is "
                          f"shown as the essay's description, marked as such. {FORM}"),
    # A described message the pages do not show is not spoken of.
    (records(9), 1, (3,), f"The messages of the session that the essay cites. Each is shown word for word. {FORM}"),
])
def test_the_transcripts_introduction_is_true_to_what_its_pages_show(
        transcript: MemoryTranscript, context: int | None, cited: tuple[int, ...], intro: str) -> None:
    assert transcript_intro(layout_of(transcript, cited=cited, context=context), None) == intro


def test_the_introduction_links_the_note_on_the_text_when_there_is_one() -> None:
    intro = transcript_intro(layout_of(records(), context=None), "../note-on-the-text.md")
    assert intro.endswith(" See the [note on the text](../note-on-the-text.md).")


# --- the transcript's entry in the navigation, on a built site -----------------------------

HOOK = Path(__file__).resolve().parent.parent / "hooks" / "mkdocs_hook.py"
# Ten messages, three a page: pages of messages 1–3, 4–6, 7–9 and 10.
TRANSCRIPT_PAGES = {"transcript/": "1–3", "transcript/page-2/": "4–6", "transcript/page-3/": "7–9",
                    "transcript/page-4/": "10–10"}


@pytest.fixture(scope="module", params=["at the top", "in a section"])
def paged_site(request, tmp_path_factory) -> Path:
    project = tmp_path_factory.mktemp("nav")
    records = [{"n": n, "speaker": "user", "provenance": "verbatim", "text": f"text {n}"} for n in range(1, 11)]
    (project / "transcript.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    (project / "docs").mkdir()
    (project / "docs" / "index.md").write_text("# Essay\n\nIt cites [msg 2] and [msg 8].\n")
    (project / "docs" / "note-on-the-text.md").write_text("# Note on the text\n")
    transcript: Any = "transcript/index.md"
    if request.param == "in a section":
        transcript = {"The session": [transcript]}
    config = {
        "site_name": "Paged", "site_url": "http://127.0.0.1:8000/", "theme": {"name": "material"},
        "nav": ["index.md", "note-on-the-text.md", transcript], "hooks": [str(HOOK)],
        "markdown_extensions": ["attr_list", {"toc": {"permalink": True}}],
        "validation": {"omitted_files": "warn", "unrecognized_links": "warn", "anchors": "warn"},
        "extra": {"transcript": {"source": "transcript.jsonl", "messages_per_page": 3, "context": "all",
                                 "search": False, "redact": False}},
    }
    (project / "mkdocs.yml").write_text(yaml.safe_dump(config))
    return built_cleanly(project)


def primary_nav(page: BeautifulSoup) -> Tag:
    return selected(page, "nav.md-nav--primary")


def transcript_entries(page: BeautifulSoup) -> list[Tag]:
    """The links of the site's navigation to a page of the transcript."""
    return [a for a in primary_nav(page).select("a.md-nav__link") if a.get_text(strip=True).startswith("Transcript")]


def test_the_navigation_names_and_marks_the_transcript_page_shown(paged_site: Path) -> None:
    for url, messages in TRANSCRIPT_PAGES.items():
        page = soup(paged_site / url / "index.html")
        links = transcript_entries(page)
        assert [a.get_text(strip=True) for a in links] == [f"Transcript, messages {messages}"], url
        assert attribute(links[0], "href") == "./"
        assert primary_nav(page).select("a.md-nav__link--active") == links, url  # the one page marked as shown
        item = found(links[0].find_parent("li"), "the entry's item")
        assert "md-nav__item--active" in item["class"]
        section = item.find_parent("li", class_="md-nav__item--nested")
        if section is not None:  # the section that lists the transcript is open, as the page's own
            assert "md-nav__item--active" in section["class"]
            assert found(section.find("input"), "the section's toggle").has_attr("checked")


def test_elsewhere_the_navigation_names_the_transcript_by_its_first_page(paged_site: Path) -> None:
    for url, href, title in [("", "transcript/", "Essay"), ("note-on-the-text/", "../transcript/", "Note on the text")]:
        page = soup(paged_site / url / "index.html")
        assert [(a.get_text(strip=True), a["href"]) for a in transcript_entries(page)] == [
            ("Transcript, messages 1–3", href)], url
        assert [a.get_text(strip=True) for a in primary_nav(page).select("a.md-nav__link--active")] == [title]
    not_found = soup(paged_site / "404.html")  # made before any page
    assert [a.get_text(strip=True) for a in transcript_entries(not_found)] == ["Transcript, messages 1–3"]
