"""The `[msg N]` expansion, run through Python-Markdown alone (no MkDocs)."""


import markdown
import pytest

from conftest import selected
from markdown_converter import Converter
from msgref.tags import MARK_OPEN, strip_markers
from transcripts import MemoryTranscript

MESSAGES = [
    {"n": 1, "speaker": "user", "provenance": "verbatim", "text": "Use <b>bold</b> & <script>alert(1)</script>"},
    {"n": 2, "speaker": "assistant", "provenance": "described", "text": "fetched and analyzed the gist"},
    {"n": 3, "speaker": "user", "provenance": "verbatim", "text": ""},
    {"n": 4, "speaker": "assistant", "provenance": "verbatim", "text": "word " * 200},
]


@pytest.fixture
def convert():
    return Converter(MESSAGES)


def test_a_tag_becomes_a_link_with_its_snippet_beside_the_paragraph(convert):
    page = convert("Before ([msg 1]) after.\n\nNext paragraph.")
    link = page.select_one("p a.msg-ref")
    assert link["href"] == "transcript.md#msg-1" and link.text == "msg 1" and link["id"] == "cite-1"
    assert not link.has_attr("title")  # the page's preview shows the message instead
    _paragraph, shown, following = page.find_all(recursive=False)
    assert "msg-snippets" in shown["class"] and following.text == "Next paragraph."
    assert shown.select_one("blockquote.msg-body--verbatim").text == MESSAGES[0]["text"]
    assert shown.select_one("figcaption a")["href"] == "transcript.md#msg-1"
    assert "quoted verbatim" in shown.figcaption.text


def test_message_text_is_escaped_never_html(convert):
    page = convert("See [msg 1].")
    assert page.find("script") is None and page.find("b") is None
    assert "&lt;script&gt;" in convert.html


def test_a_run_of_tags_links_each_and_shows_each_once(convert):
    page = convert("Cited ([msg 1], [msg 2]) and again [msg 1].")
    assert [a["id"] for a in page.select("a.msg-ref")] == ["cite-1", "cite-2", "cite-1-2"]
    captions = [c.a.text for c in page.select(".msg-snippets figcaption")]
    assert captions == ["Message 1", "Message 2"]


def test_a_described_message_is_labelled_and_not_quoted(convert):
    page = convert("It did so [msg 2].")
    shown = page.select_one(".msg-snippet")
    assert shown.find("blockquote") is None
    assert shown.select_one(".msg-body__label").text.startswith("Described, not quoted")
    assert "described by the essay, not quoted" in shown.figcaption.text


def test_the_empty_message_is_marked_as_empty(convert):
    page = convert("Nothing: [msg 3].")
    assert page.select_one(".msg-snippet .msg-body--empty").text == "Empty message: no content"
    assert page.select_one(".msg-snippet blockquote") is None


def test_a_long_message_is_shortened_in_the_snippet(convert):
    figure = convert("Long [msg 4].").select_one(".msg-snippet")
    body = figure.select_one(".msg-body")
    text = body.p.text
    assert text.endswith("…") and len(text) < 300
    left_out = len(str(MESSAGES[3]["text"])) - len(text) + 2  # the cut's " …" is not the message's
    assert body.select_one(".msg-cut").text == f"Shortened here: {left_out:,} more characters."
    # The link is the page's own element, which the generator gives the page's address.
    more = figure.select_one(".msg-cut--link a")
    assert more.text == "Read the whole message" and more["href"] == "transcript.md#msg-4"
    assert figure.select(".msg-body a") == []


def test_a_tag_alone_on_its_line_is_a_full_block_quote(convert):
    page = convert("Intro.\n\n[msg 4]\n\n[msg 2]\n")
    quotes = page.select("figure.msg-snippet--full")
    assert [q["id"] for q in quotes] == ["cite-4", "cite-2"]
    assert quotes[0].blockquote.text == MESSAGES[3]["text"]
    assert quotes[1].find("blockquote") is None
    assert page.select("a.msg-ref") == [] and len(page.find_all("p", recursive=False)) == 1


@pytest.mark.parametrize(
    "source, literal",
    [
        ("Code `[msg 1]` here.", "[msg 1]"),
        ("```python\nx = '[msg 1]'  # [msg 99]\n```", "x = '[msg 1]'  # [msg 99]"),
        ("Para.\n\n    [msg 1] indented code\n", "[msg 1] indented code"),
        ("~~~\n<msg id=5] and [message 5]\n~~~", "<msg id=5] and [message 5]"),
    ],
)
def test_tags_in_code_stay_as_written(convert, source, literal):
    page = convert(source)
    assert page.select("a.msg-ref, .msg-snippets") == []
    assert page.find("code").get_text().strip() == literal
    assert MARK_OPEN not in convert.html and strip_markers(convert.html) == convert.html
    assert convert.warnings == []


def test_an_escaped_tag_renders_literally(convert):
    page = convert(r"Write \[msg 1] to cite.")
    assert page.p.text == "Write [msg 1] to cite." and page.find("a") is None


def test_an_unknown_message_is_warned_with_file_and_line_and_shown_unresolved(convert):
    page = convert("First.\n\nSecond cites [msg 99] here.", first_line=4)
    assert convert.warnings == ["docs/essay.md:6: [msg 99] is not in the transcript"]
    mark = page.select_one("mark.msg-ref--unresolved")
    assert mark.text == "msg 99 (not in the transcript)"


@pytest.mark.parametrize("near_miss", ["(<msg id=5852]", "[msg 5852 ", "[msg5852]", "[message 5852]", "[MSG 5852]"])
def test_near_misses_are_warned_with_file_and_line(convert, near_miss):
    page = convert(f"Line one.\nLine two {near_miss} end.")
    assert len(convert.warnings) == 1
    assert convert.warnings[0].startswith("docs/essay.md:2: '")
    assert convert.warnings[0].endswith("looks like a message tag; write [msg 5852]")
    assert near_miss.strip() in page.p.text


@pytest.mark.parametrize(("look_alike", "problem"), [
    ("[msg ⁵⁸⁵²]", "its digits are not ASCII digits (U+2075 SUPERSCRIPT FIVE)"),
    ("［msg 5852］",
     "U+FF3B FULLWIDTH LEFT SQUARE BRACKET is not '[' and U+FF3D FULLWIDTH RIGHT SQUARE BRACKET is not ']'"),
    ("[мsg 5852]", "U+043C CYRILLIC SMALL LETTER EM is not the letter m"),
    ("[msɡ 5852]", "U+0261 LATIN SMALL LETTER SCRIPT G is not the letter g"),
    ("[msg #5852]", "'#' stands before its number"),
    ("[msg:5852]", "':' stands before its number"),
    ("[msg\u202f5852]", "U+202F NARROW NO-BREAK SPACE is not a plain space"),
    ("[msg 5,852]", "its number has a thousands separator (',')"),
    ("[msg 5\u2009852]",
     "its number has a thousands separator ('<U+2009>') and U+2009 THIN SPACE is not a plain space"),
    ("[msg ５８５２]", "its digits are not ASCII digits (U+FF15 FULLWIDTH DIGIT FIVE)"),
])
def test_look_alike_tags_are_warned_with_what_differs_and_the_tag_to_write(convert, look_alike, problem):
    page = convert(f"Line one.\nLine two {look_alike} end.")
    shown = look_alike.replace("\u202f", "<U+202F>").replace("\u2009", "<U+2009>")
    assert convert.warnings == [f"docs/essay.md:2: '{shown}' looks like a message tag, but {problem}; write [msg 5852]"]
    assert page.p.get_text() == f"Line one.\nLine two {look_alike} end." and page.find("a") is None


@pytest.mark.parametrize("look_alike", ["[Msg 5852]", "[msg ⁵⁸⁵²]", "［msg 5852］", "[мsg 5852]", "[msg #5852]",
                                        "[msg:5852]", "[msg\u00a05852]", "[msg 5,852]", "[msg ５８５２]"])
def test_look_alike_tags_in_code_stay_as_written_and_unwarned(convert, look_alike):
    page = convert(f"Code `{look_alike}` here.\n\n```text\n{look_alike}\n```")
    assert [code.get_text().strip() for code in page.find_all("code")] == [look_alike, look_alike]
    assert convert.warnings == []


def test_a_reference_writing_a_hidden_character_is_warned_and_shown_by_its_code_point(convert):
    page = convert("First.\n\nThe file txt&#x202E;exe and &rlm;, &#27;[31m, &amp; &#x41;.\n\nCode `&#x202e;` stays.",
                   first_line=3)
    hidden = "a control character or a bidirectional control, which no page shows: remove it, or write it as code"
    assert convert.warnings == [f"docs/essay.md:5: &#x202E; writes U+202E, {hidden}",
                                f"docs/essay.md:5: &rlm; writes U+200F, {hidden}",
                                f"docs/essay.md:5: &#27; writes U+001B, {hidden}"]
    paragraphs = page.find_all("p")
    assert paragraphs[1].get_text() == "The file txt\u27e8U+202E\u27e9exe and \u27e8U+200F\u27e9, \u241b[31m, & A."
    assert paragraphs[2].get_text() == "Code &#x202e; stays."


def test_a_tag_in_a_list_item_gets_its_snippet_inside_the_item(convert):
    page = convert("1. First [msg 2].\n2. Second.")
    first = page.find("li")
    assert first.select_one(".msg-snippets .msg-snippet") is not None


def test_citations_are_recorded_for_the_transcript(convert):
    convert("The gist ([msg 2]) was read.\n\nAgain [msg 2].")
    citations = convert.citations.of_message(2)
    assert [(c.page, c.anchor) for c in citations] == [("essay.md", "cite-2"), ("essay.md", "cite-2-2")]
    assert citations[0].excerpt == "The gist (msg 2) was read."


def test_converting_a_page_again_replaces_its_citations(convert):
    convert("[msg 2] once.")
    convert("[msg 2] once more.")
    assert len(convert.citations.of_message(2)) == 1


def test_messages_described_in_one_breath_share_one_snippet():
    records = [
        {"n": 5, "speaker": "unknown", "provenance": "described", "text": "both", "described_with": [6]},
        {"n": 6, "speaker": "unknown", "provenance": "described", "text": "both", "described_with": [5]},
    ]
    converter = Converter(MESSAGES)
    converter.transcript = MemoryTranscript(records)
    page = converter("Failed ([msg 5], [msg 6]).\n\nAlone [msg 6].")
    together, alone = page.select(".msg-snippets")
    assert len(together.select("figure")) == 1
    assert [a.text for a in together.select("figcaption a")] == ["Message 5", "Message 6"]
    assert selected(together, ".msg-body__note").text.startswith(
        "The essay describes messages 5 and 6 in one sentence")
    assert selected(alone, ".msg-body__note").text.startswith(
        "The essay describes this message together with message 5")


def test_a_derived_page_is_neither_recorded_nor_warned_about(convert):
    convert.begin_page("print.md", "print.md", derived=True)
    md = markdown.Markdown(extensions=[convert.extension])
    html = md.convert("Again [msg 2] and [msg 99] and [msg5].")
    assert 'href="transcript.md#msg-2"' in html
    assert convert.warnings == [] and convert.citations.of_message(2) == []


def test_markdown_placeholders_and_marks_in_a_message_stay_inert(convert):
    placeholder = "x \x02wzxhzdk:0\x03 y \ue000\ue011\ue001 \ud83d"
    convert.transcript = MemoryTranscript([{"n": 1, "speaker": "user", "provenance": "verbatim", "text": placeholder}])
    page = convert('<b onclick="alert(1)">raw</b> cites [msg 1].')
    assert page.select("[onclick]") == [page.find("b")]  # only the page's own raw HTML
    shown = page.select_one(".msg-snippet .msg-body").text
    assert shown == "x \u2402wzxhzdk:0\u2403 y \ufffd\ufffd\ufffd \ufffd"
    assert [link.attrs for link in page.select("a.msg-ref")] == [
        {"class": ["msg-ref", "msg-ref--verbatim"], "href": "transcript.md#msg-1", "id": "cite-1"}]


def test_a_tag_alone_keeps_the_paragraph_anchor(convert):
    page = convert("[msg 4]\n{ #p-the-quote }\n", first_line=1)
    figure = page.select_one("figure.msg-snippet--full")
    assert figure["id"] == "p-the-quote" and figure.figcaption.a["id"] == "cite-4"
    assert convert.citations.of_message(4)[0].anchor == "cite-4"


@pytest.mark.parametrize("source, selector", [
    ('*Said*{ title="[msg 1]" } here.', "em[title]"),
    ('[A link](https://example.com/){ title="[msg 1]" } here.', "a[title]"),
    ('## A heading { title="[msg 1]" }', "h2[title]"),
])
def test_a_tag_in_an_attribute_list_stays_in_the_attribute(convert, source, selector):
    page = convert(source)
    assert page.select_one(selector)["title"] == "[msg 1]" and page.select("a.msg-ref") == []
    assert len(convert.warnings) == 1 and "where no citation can stand" in convert.warnings[0]


def test_braces_in_prose_are_no_attribute_list(convert):
    page = convert("The mapping {key=[msg 1]} in prose.")
    assert page.select_one("a.msg-ref")["id"] == "cite-1" and convert.warnings == []


def test_no_snippet_repeats_what_the_reader_has_just_read(convert):
    page = convert("""
        The assistant Fetched and  analyzed the gist ([msg 2]).

        It said so ([msg 4]):

        > {words}

        Not repeated here ([msg 2]); nor empty ([msg 3]).
    """.replace("{words}", "word " * 200))
    captions = [a.text for a in page.select(".msg-snippets figcaption a")]
    assert captions == ["Message 2", "Message 3"]  # the last paragraph's: its words are not the message's
    assert page.select(".msg-snippets")[0].find_previous_sibling("p").text.startswith("Not repeated")


def test_a_tag_alone_on_its_line_still_quotes_a_message_the_page_shows(convert):
    page = convert("fetched and analyzed the gist\n\n[msg 2]\n")
    assert page.select_one("figure.msg-snippet--full .msg-body__text").text == "fetched and analyzed the gist"


def test_a_page_records_the_messages_it_links_to_once_each_in_order(convert):
    convert("[msg 2] and [msg 1]; again [msg 2].")
    assert convert.citations.linked_from("essay.md") == [2, 1]
    convert.begin_page("print.md", "print.md", derived=True)  # repeats other pages: links, but cites nothing
    markdown.Markdown(extensions=[convert.extension]).convert("[msg 1]")
    assert convert.citations.linked_from("print.md") == [1]
    assert [c.page for c in convert.citations.of_message(1)] == ["essay.md"]


def test_many_tags_on_one_page_are_each_placed_beside_their_own_block(convert):
    count = 400
    groups = [f"Paragraph {i} ([msg 1]).\n\n[msg 4]\n\n- item {i} [msg 2]\n\nQuoted {i} ([msg 4]):\n\n> {'word ' * 200}"
              for i in range(count)]
    page = convert("\n\n".join(groups) + '\n\nAt the end <a href="x">[msg 1]</a> and [msg 2].')
    blocks = page.find_all(recursive=False)
    shape = ["p", "div", "figure", "ul", "p", "blockquote"]  # the quoted message gets no snippet
    assert [block.name for block in blocks] == shape * count + ["p", "div"]
    for i in range(count):
        paragraph, shown, quote, items, quoted, _ = blocks[i * 6 : i * 6 + 6]
        suffix = "" if i == 0 else f"-{i + 1}"
        assert paragraph.text == f"Paragraph {i} (msg 1)." and paragraph.a["id"] == f"cite-1{suffix}"
        assert [a.text for a in shown.select("figcaption a")] == ["Message 1"]
        assert quote["id"] == ("cite-4" if i == 0 else f"cite-4-{2 * i + 1}") and "msg-snippet--full" in quote["class"]
        assert items.li.a["id"] == f"cite-2{suffix}"
        assert items.li.select_one(".msg-snippets figcaption a").text == "Message 2"
        assert quoted.a["id"] == f"cite-4-{2 * i + 2}"
    last, shown = blocks[-2:]
    # The tag in a link of raw HTML stays as written.
    assert [a["id"] for a in last.select("a.msg-ref")] == [f"cite-2-{count + 1}"]
    assert "[msg 1]" in last.text and [a.text for a in shown.select("figcaption a")] == ["Message 2"]


def test_an_editorial_mark_is_left_out_of_the_search(convert):
    page = convert('A gist ([msg 1][ed.](note.md#ed-1){ .editorial-mark }): "text".\n\nPlain [ed.](n.md).')
    mark = selected(page, "a.editorial-mark")
    assert mark.text == "ed." and mark.has_attr("data-search-exclude")
    assert not [a for a in page.select("a[data-search-exclude]") if a is not mark]  # other links stay searched


def test_a_number_too_long_for_a_message_is_a_near_miss_named_briefly(convert):
    page = convert("Cited [msg " + "9" * 5000 + "] here, and [msg 0] too.")
    long_number, zero = convert.warnings
    assert "its number is longer than any message number" in long_number and len(long_number) < 300
    assert zero.endswith("[msg 0] is not in the transcript: message numbers are 1 or more")
    assert "[msg " + "9" * 5000 + "]" in page.get_text()  # left as written
    assert [mark.get_text() for mark in page.select("mark.msg-ref--unresolved")] == ["msg 0 (not in the transcript)"]
