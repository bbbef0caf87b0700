"""`[msg A-B]`: consecutive messages cited as one, through Python-Markdown alone (no MkDocs)."""


import pytest

from conftest import attribute, selected
from essaycite.formats import message_references
from markdown_converter import Converter
from msgref.tags import CANDIDATE_RE, MARK_OPEN, MAX_RANGE, TAG_RE, near_miss_problem, tagged
from paragraph_ids import TAG_ALONE_RE, slug
from sitebuild.page_list import page_title
from transcriptsite.layout import MessageAnchors, cited_numbers

SPEAKERS = ["user", "assistant", "tool", "assistant", "user", "assistant"]
# Messages 1 to 6, and 8 to 40: 7 is not in the transcript.
MESSAGES = [{"n": n, "speaker": SPEAKERS[(n - 1) % len(SPEAKERS)], "provenance": "verbatim",
             "text": f"text of {n} " * 60} for n in [*range(1, 7), *range(8, 41)]]


@pytest.fixture
def convert():
    return Converter(MESSAGES)


# --- One tag pattern ---


@pytest.mark.parametrize("written, cited", [
    ("[msg 12]", [(12, 12)]), ("[msg 49-51]", [(49, 51)]), ("[msg 49\u201351]", [(49, 51)]),
    ("[msg 1] and [msg 2-3]", [(1, 1), (2, 3)]), ("[msg 5-3]", [(5, 3)]),
    ("[msg 3 - 5]", []), ("[msg 3\u20145]", []), ("[msg 3..5]", []), ("[msg 03-5]", []),
])
def test_one_pattern_reads_a_message_and_a_range(written, cited):
    assert tagged(written) == cited


def test_every_reader_of_tags_reads_ranges():
    assert cited_numbers(["[msg 2-4] and [msg 9]"]) == {2, 3, 4, 9}
    assert cited_numbers(["[msg 1-1000000]"]) == {1, 1000000}  # refused by the build: its ends alone
    assert TAG_ALONE_RE.match("[msg 49\u201351]") and TAG_ALONE_RE.match("  [msg 4] ")
    assert slug("As [msg 49-51] shows", set()) == "p-as-shows"
    assert page_title("# Seen in [msg 49-51]\n", "x.md") == "Seen in msg 49–51"
    assert TAG_RE.fullmatch("[msg 49-51]") and not TAG_RE.fullmatch("[msg 49--51]")


@pytest.mark.parametrize("written, problem", [
    ("[msg 3 - 5]", "'[msg 3 - 5]' looks like a message tag, but its dash has spaces around it; write [msg 3-5]"),
    ("[msg 3\u20145]", "'[msg 3\u20145]' looks like a message tag, but U+2014 EM DASH is not a hyphen or an en dash; "
                       "write [msg 3-5]"),
    ("[msg 3..5]", "'[msg 3..5]' looks like a message tag, but '..' is not a hyphen or an en dash; write [msg 3-5]"),
    ("[msg 5 - 3]", "'[msg 5 - 3]' looks like a message tag, but its dash has spaces around it; write [msg 3-5]"),
    ("[msg3-5]", "'[msg3-5]' looks like a message tag; write [msg 3-5]"),
    ("[msg 03-5]", "'[msg 03-5]' looks like a message tag, but '03' is not a message number"),
])
def test_a_near_miss_of_a_range_says_how_to_write_it(written, problem):
    found = CANDIDATE_RE.fullmatch(written)
    assert found is not None and not TAG_RE.fullmatch(written)
    assert near_miss_problem(written) == problem


def test_a_transcript_page_holds_the_anchors_of_the_ranges_that_begin_on_it():
    anchors = MessageAnchors([4, 5, 6], {(5, 6)})
    assert "msg-5-6" in anchors and "msg-5" in anchors
    assert "msg-4-6" not in anchors and "msg-05-6" not in anchors and "msg-5-" not in anchors


# --- The link, the snippet, the quote ---


def test_a_range_is_one_link_to_its_anchor_with_one_snippet_of_its_messages(convert):
    page = convert("The exchange [msg 2-4] went well.\n\nNext.")
    assert convert.warnings == []
    (link,) = page.select("a.msg-ref")
    assert link.get_text() == "msg 2\u20134" and attribute(link, "href") == "transcript.md#msg-2-4"
    assert attribute(link, "id") == "cite-2-4"
    figure = selected(page, ".msg-snippets > figure.msg-range")
    shown = figure.select(":scope > figure.msg-snippet")
    assert [selected(s, "figcaption a").get_text() for s in shown] == ["Message 2", "Message 3", "Message 4"]
    assert all(selected(s, ".msg-cut").get_text().startswith("Shortened here") for s in shown)  # each shortened
    caption = selected(figure, ":scope > figcaption")
    assert caption.get_text() == "Messages 2\u20134 · assistant and tool"
    assert attribute(selected(caption, "a"), "href") == "transcript.md#msg-2-4"


def test_a_range_alone_on_its_line_quotes_the_exchange_in_order_with_its_speakers(convert):
    page = convert("Intro.\n\n[msg 4\u20136]\n")
    assert convert.warnings == []
    quote = selected(page, "figure.msg-range--full")
    assert attribute(quote, "id") == "cite-4-6" and page.select("a.msg-ref") == []
    shown = quote.select(":scope > figure.msg-snippet")
    assert [selected(s, "figcaption").get_text().split(" · ")[:2] for s in shown] == [
        ["Message 4", "assistant"], ["Message 5", "user"], ["Message 6", "assistant"]]
    whole = [str(MESSAGES[n - 1]["text"]).strip() for n in (4, 5, 6)]
    assert [selected(s, "blockquote").get_text().strip() for s in shown] == whole
    assert quote.select(".msg-cut") == []
    assert selected(quote, ":scope > figcaption").get_text() == "Messages 4\u20136 · assistant and user"


def test_each_message_of_a_range_is_cited_and_linked(convert):
    convert("See [msg 2-4] and [msg 2-4].")
    for n in (2, 3, 4):
        assert [(c.anchor, c.cites_range) for c in convert.citations.of_message(n)] == [
            ("cite-2-4", (2, 4)), ("cite-2-4-2", (2, 4))]
    assert convert.citations.linked_from("essay.md") == [2, 3, 4]
    assert convert.citations.ranges_from("essay.md") == [(2, 4)]


def test_a_single_tag_is_as_it_was(convert):
    page = convert("See [msg 5] here.")
    link = selected(page, "a.msg-ref")
    assert (link.get_text(), attribute(link, "href"), attribute(link, "id")) == (
        "msg 5", "transcript.md#msg-5", "cite-5")
    assert page.select(".msg-range") == [] and convert.citations.ranges_from("essay.md") == []
    assert [c.cites_range for c in convert.citations.of_message(5)] == [None]


@pytest.mark.parametrize("source", ["Code `[msg 2-4]` here.", "```\n[msg 2-4] [msg 3 - 4]\n```"])
def test_a_range_in_code_stays_as_written(convert, source):
    page = convert(source)
    assert page.select("a.msg-ref, .msg-snippets, .msg-range") == [] and convert.warnings == []
    assert "[msg 2-4]" in page.find("code").get_text() and MARK_OPEN not in convert.html


# --- Problems, with file and line ---


@pytest.mark.parametrize("written, problem", [
    ("[msg 4-2]", "[msg 4-2] runs backwards: write [msg 2-4]"),
    ("[msg 3-3]", "[msg 3-3] is one message: write [msg 3]"),
    (f"[msg 1-{MAX_RANGE + 1}]", f"[msg 1-{MAX_RANGE + 1}] spans {MAX_RANGE + 1} messages, and a range cites "
                                 f"at most {MAX_RANGE}: cite fewer, or cite its parts"),
    ("[msg 5-9]", "[msg 5-9]: message 7 is not in the transcript, and a range cites consecutive messages that "
                  "it holds"),
    ("[msg 40-41]", "[msg 40-41]: message 41 is not in the transcript, and a range cites consecutive messages that "
                    "it holds"),
    ("[msg 3 - 4]", "'[msg 3 - 4]' looks like a message tag, but its dash has spaces around it; write [msg 3-4]"),
])
def test_a_range_refused_is_reported_with_file_and_line(convert, written, problem):
    page = convert(f"First.\n\nSecond cites {written} here.")
    assert convert.warnings == [f"docs/essay.md:3: {problem}"]
    assert page.select("a.msg-ref") == [] and page.select(".msg-range") == []
    assert convert.citations.numbers() == []


def test_the_longest_range_is_cited(convert):
    convert(f"All of [msg 8-{7 + MAX_RANGE}].")
    assert convert.warnings == [] and convert.citations.numbers() == list(range(8, 8 + MAX_RANGE))


# --- Citing a range ---


def test_a_range_is_cited_as_messages_by_its_own_address():
    from test_citation_formats import META

    cited = message_references(META, 49, "transcript/2/", 51)
    url = META.url_for("transcript/2/", "msg-49-51")
    assert url.endswith("transcript/2/#msg-49-51")
    assert cited["APA"].text.startswith("Messages 49\u201351 of the session transcript. (")
    assert cited["MLA"].text.startswith("\u201cMessages 49\u201351 of the Session Transcript.\u201d")
    assert "\u201cMessages 49\u201351 of the Session Transcript.\u201d" in cited["Chicago"].text
    assert "title = {Messages 49\u201351 of the Session Transcript}" in cited["BibTeX"].text
    assert "shorttitle = {Messages 49\u201351}" in cited["biblatex"].text
    assert all(url in reference.text for reference in cited.values())
    assert message_references(META, 49)["APA"].text.startswith("Message 49 of the session transcript.")


def test_a_range_where_no_link_can_stand_is_left_as_written_and_named(convert):
    page = convert("An image ![msg 2-3](i.png) and a [link to [msg 4-5]](https://example.org).")
    assert page.select("a.msg-ref, .msg-range") == []
    left = "where no citation can stand; it is left as written"
    assert convert.warnings == [f"docs/essay.md:1: '[msg 2-3]' is inside an image's alt text, {left}",
                                f"docs/essay.md:1: '[msg 4-5]' is inside a link's text, {left}"]
