"""`[msg A-B]` in the real `mkdocs build --strict` of a fixture essay, its HTML read back
with an HTML parser. The essay's transcript holds 5843, 5844 and 5852 to 5856."""

import re
from pathlib import Path

import pytest
from bs4 import BeautifulSoup

from author_project import author_project
from conftest import attribute, build, built_cleanly, copy_project, found, selected, soup

CITING = "The exchange [msg 5852-5854] in brief.\n\n[msg 5853\u20135855]\n\nLeft alone: `[msg 5852-5853]`.\n"


def cite(project: Path, text: str) -> Path:
    page = project / "docs" / "conclusion.md"
    page.write_text(page.read_text() + "\n" + text)
    return page


def per_page(project: Path, count: int) -> None:
    config = project / "mkdocs.yml"
    config.write_text(re.sub(r"messages_per_page: \d+", f"messages_per_page: {count}", config.read_text()))


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    project = copy_project(tmp_path_factory.mktemp("ranges") / "project")
    cite(project, CITING)
    return built_cleanly(project)


def test_a_range_is_one_link_to_the_anchor_in_its_first_message(site):
    page = soup(site / "conclusion/index.html")
    link = selected(page, "a.msg-ref--range")
    assert link.get_text() == "msg 5852\u20135854" and attribute(link, "href") == "../transcript/#msg-5852-5854"
    anchor = selected(soup(site / "transcript/index.html"), "#msg-5852-5854")
    assert attribute(found(anchor.find_parent("h2"), "the anchor's heading"), "id") == "msg-5852"
    assert [code.get_text() for code in page.select("p code")] == ["[msg 5852-5853]"]  # left as written


def test_a_range_alone_is_quoted_with_its_speakers_and_one_caption(site):
    quote = selected(soup(site / "conclusion/index.html"), "figure.msg-range--full")
    shown = quote.select(":scope > figure.msg-snippet")
    assert [selected(s, "figcaption").get_text().split(" · ")[:2] for s in shown] == [
        ["Message 5853", "assistant"], ["Message 5854", "assistant"], ["Message 5855", "user"]]
    assert selected(quote, ":scope > figcaption").get_text() == "Messages 5853\u20135855 · assistant and user"
    assert attribute(selected(quote, ":scope > figcaption a"), "href") == "../transcript/#msg-5853-5855"


def test_a_range_beside_its_paragraph_has_one_snippet_figure(site):
    page = soup(site / "conclusion/index.html")
    paragraph = found(selected(page, "a.msg-ref--range").find_parent("p"), "the citing paragraph")
    figure = selected(found(paragraph.find_next_sibling(), "the snippets"), ":scope > figure.msg-range")
    assert [selected(s, "figcaption a").get_text() for s in figure.select(":scope > figure.msg-snippet")] == [
        "Message 5852", "Message 5853", "Message 5854"]


def test_each_message_of_a_range_lists_where_it_is_cited(site):
    transcript = soup(site / "transcript/index.html")
    for n, ranges in [(5852, ["5852–5854"]), (5853, ["5852–5854", "5853–5855"]), (5855, ["5853–5855"])]:
        items = transcript.select(f'.msg-item[data-msg="{n}"] .msg-cited-in li')
        cited = [m.group(1) for item in items if (m := re.search(r"\(messages (\S+)\)", item.get_text()))]
        assert cited == ranges, n
        assert "msg-item--cited" in selected(transcript, f'.msg-item[data-msg="{n}"]')["class"]
    hrefs = [attribute(a, "href") for a in transcript.select('.msg-item[data-msg="5854"] .msg-cited-in li a')]
    assert "../conclusion/#cite-5852-5854" in hrefs


def test_the_preview_of_a_range_is_its_first_message_and_names_the_others(site):
    preview = selected(soup(site / "conclusion/index.html"), "#msg-preview-5852-5854")
    assert selected(preview, ".msg-preview__head").get_text().startswith("Message 5852")
    assert selected(preview, ".msg-preview__range").get_text() == (
        "and 2 more: message 5853 (assistant), message 5854 (assistant)")
    assert attribute(selected(preview, ".msg-preview__more a"), "href") == "../transcript/#msg-5852-5854"


def test_a_range_over_two_pages_links_to_the_page_of_its_first_message(project):
    per_page(project, 2)
    cite(project, "Across pages: [msg 5853-5855].\n")
    site = built_cleanly(project)
    link = selected(soup(site / "conclusion/index.html"), "a.msg-ref--range")
    href = attribute(link, "href")
    first_page = href.split("#")[0]
    assert href.endswith("#msg-5853-5855")
    page = soup((site / "conclusion" / first_page / "index.html").resolve())
    assert attribute(found(selected(page, "#msg-5853-5855").find_parent("h2"), "its heading"), "id") == "msg-5853"
    assert page.select_one('.msg-item[data-msg="5855"]') is None  # on the next page


@pytest.mark.parametrize("written, problem", [
    ("[msg 5854-5852]", "[msg 5854-5852] runs backwards: write [msg 5852-5854]"),
    ("[msg 5844-5852]", "[msg 5844-5852]: message 5845 is not in the transcript, and a range cites consecutive "
                        "messages that it holds"),
    ("[msg 5852-5900]", "[msg 5852-5900] spans 49 messages, and a range cites at most 20: cite fewer, "
                        "or cite its parts"),
    ("[msg 5852 - 5853]", "'[msg 5852 - 5853]' looks like a message tag, but its dash has spaces around it; "
                          "write [msg 5852-5853]"),
    ("[msg 5852\u20145853]", "'[msg 5852\u20145853]' looks like a message tag, but U+2014 EM DASH is not a hyphen "
                             "or an en dash; write [msg 5852-5853]"),
])
def test_a_range_refused_fails_the_strict_build_naming_file_and_line(project, tmp_path, written, problem):
    page = cite(project, f"Cited: {written}.\n")
    result = build(project, tmp_path / "site")
    assert result.returncode == 1
    line = page.read_text().splitlines().index(f"Cited: {written}.") + 1
    assert f"WARNING -  docs/conclusion.md:{line}: {problem}" in result.stderr
    assert "Traceback" not in result.stderr


def test_the_transcript_page_holds_the_citation_of_each_range_that_begins_on_it(site):
    transcript = soup(site / "transcript/index.html")
    assert [attribute(t, "id") for t in transcript.select("template[id^='msg-cite-range-']")] == [
        "msg-cite-range-5852-5854", "msg-cite-range-5853-5855"]
    # A template's text is no text of the page's to BeautifulSoup: read on its own.
    panel = BeautifulSoup(selected(transcript, "#msg-cite-range-5852-5854").decode_contents(), "html.parser")
    assert attribute(selected(panel, "button.msg-tag"), "data-tag") == "[msg 5852-5854]"
    assert selected(panel, ".msg-cite-panel__title").get_text() == "Cite these messages"
    texts = [item.get_text(" ", strip=True) for item in panel.select("dd .citation")]
    assert any(text.startswith("Messages 5852\u20135854 of the session transcript") for text in texts), texts
    assert all("transcript/#msg-5852-5854" in text for text in texts), texts


def test_a_range_of_a_real_sessions_tool_calls_is_quoted_and_cited(tmp_path):
    """The orchestrator essay's transcript, imported from a real Claude Code log: a
    subagent's exchange (its task, a tool call and its output) quoted as one range, and a
    range beside a paragraph, with only the cited messages on the transcript pages."""
    project = author_project("orchestrator", tmp_path / "project")
    page = project / "docs" / "ending.md"
    page.write_text(page.read_text() + "\nThe subagent's first steps: [msg 20-22].\n\n[msg 16\u201319]\n")
    site = built_cleanly(project)
    ending = soup(site / "ending/index.html")
    quote = selected(ending, "figure.msg-range--full")
    speakers = [selected(s, "figcaption").get_text().split(" · ")[:2] for s in quote.select(":scope > figure")]
    assert speakers == [["Message 16", "user"], ["Message 17", "assistant"], ["Message 18", "assistant"],
                        ["Message 19", "tool"]]
    assert "/path/to/Demo/todo-app/package.json" in selected(quote, ":scope > figure:nth-of-type(4)").get_text()
    beside = selected(ending, ".msg-snippets > figure.msg-range")
    assert [selected(s, "figcaption a").get_text() for s in beside.select(":scope > figure")] == [
        "Message 20", "Message 21", "Message 22"]
    transcript = soup(site / "transcript/index.html")
    anchors = [attribute(span, "id") for span in transcript.select("h2 .msg-range-start")]
    assert sorted(anchors) == ["msg-16-19", "msg-20-22"]
    for n in range(16, 23):
        cited = selected(transcript, f'.msg-item[data-msg="{n}"] .msg-cited-in').get_text()
        assert "(messages 16–19)" in cited or "(messages 20–22)" in cited, n
