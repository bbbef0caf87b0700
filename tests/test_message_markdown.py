"""A message's text as Markdown (msgview.message_markdown): what people write renders as
they meant it, and what the log may hold that is not theirs to put on the page (raw HTML,
scripts in links, images from other hosts) stays text."""

import html
import random

import pytest
from bs4 import BeautifulSoup

from conftest import selected
from msgview.highlight import as_sample
from msgview.message_markdown import MessageMarkdown, plain_paragraphs

MARKDOWN = MessageMarkdown()


def html_of(text: str) -> BeautifulSoup:
    return BeautifulSoup(MARKDOWN.html(text), "html.parser")


def test_markdown_is_rendered():
    page = html_of("Some **bold** and `code`.\n\n- one\n- two\n\n```python\nx = 1\n```\n\n"
                   "| a | b |\n|---|---|\n| 1 | 2 |")
    assert selected(page, "strong").text == "bold" and selected(page, "p code").text == "code"
    assert [li.text for li in page.select("ul li")] == ["one", "two"]
    assert selected(page, "div.highlight samp").text == "x = 1\n"
    assert page.select("div.highlight span.n, div.highlight span.mi")  # highlighted by Pygments
    assert [td.text for td in page.select("td")] == ["1", "2"]


def test_a_list_right_under_a_line_of_text_is_a_list():
    page = html_of("Focus on:\n1. Dependencies\n2. Scripts\n\nThen:\n- a\n- b")
    assert [p.text for p in page.find_all("p")] == ["Focus on:", "Then:"]
    assert [li.text for li in page.select("ol li")] == ["Dependencies", "Scripts"]
    assert [li.text for li in page.select("ul li")] == ["a", "b"]
    # Not inside code.
    code = html_of("```\nnot:\n- a list\n```")
    assert code.find("li") is None and selected(code, "samp").text == "not:\n- a list\n"


@pytest.mark.parametrize("text", [
    "<script>alert(1)</script>",
    "<div onclick=alert(1)>a block</div>",
    "inline <img src=x onerror=alert(1)> html",
    "<a href=\"javascript:alert(1)\">a link</a>",
    "&lt;script&gt; as entities",
    "<!-- a comment --> <style>body{}</style>",
])
def test_raw_html_stays_text(text):
    page = html_of(text)
    assert not page.find_all(["script", "div", "img", "a", "style"]), page
    assert page.get_text() == html.unescape(text)  # as typed, or as its entities read


@pytest.mark.parametrize("address", [
    "javascript:alert(1)", "JaVaScRiPt:alert(1)", "java\tscript:alert(1)", "vbscript:msgbox(1)",
    "data:text/html,<script>alert(1)</script>", "file:///etc/passwd", "/etc/passwd", "../../secret",
    "#top", "ftp://example.org/", "http://[::1", "",
])
def test_links_go_nowhere_but_to_http_https_and_mailto(address):
    page = html_of(f"see [the words]({address}) here")
    assert page.find("a") is None and "the words" in page.get_text()


@pytest.mark.parametrize("address", ["https://example.org/a?b=c", "http://example.org", "mailto:a@example.org",
                                     "HTTPS://EXAMPLE.ORG/"])
def test_links_to_http_https_and_mailto_are_kept_without_endorsement(address):
    link = selected(html_of(f"see [the words]({address})"), "a")
    assert link["href"] == address and link["rel"] == ["nofollow", "noopener", "ugc"] and link.text == "the words"


def test_an_image_is_a_link_to_it_and_nothing_is_loaded():
    page = html_of("![a chart](https://example.org/c.png) ![x](javascript:alert(1)) ![](/local.png)")
    assert page.find("img") is None
    assert [(a.text, a["href"]) for a in page.find_all("a")] == [("Image: a chart", "https://example.org/c.png")]
    assert "Image: x" in page.get_text() and page.get_text().count("Image") == 3


def heading_levels(text: str) -> list[str]:
    return [h.name for h in html_of(text).find_all(["h1", "h2", "h3", "h4", "h5", "h6"])]


def test_a_messages_headings_sit_under_its_own():
    assert heading_levels("# One\n## Two\n### Three\n#### Four\n##### Five") == ["h3", "h4", "h5", "h6", "h6"]


def test_a_messages_highest_heading_is_one_under_its_own_whatever_its_level():
    """The message's heading is an <h2>: its own highest heading is an <h3>, the others
    as far below that as the author put them."""
    assert heading_levels("## Plan\n\ntext\n\n#### Detail\n\n## Result") == ["h3", "h5", "h3"]
    assert heading_levels("#### Only one") == ["h3"]
    assert heading_levels("### Late\n\n# Top\n\n## Under") == ["h5", "h3", "h4"]
    # In a quote or a list too; and no heading goes past <h6>.
    assert heading_levels("> ### Quoted\n\n- ##### In a list\n\n###### Deepest") == ["h3", "h5", "h6"]


def test_each_level_of_heading_moves_down_to_h6_at_most():
    text = "\n\n".join(f"{'#' * level} Level {level}" for level in range(1, 7))
    assert heading_levels(text) == ["h3", "h4", "h5", "h6", "h6", "h6"]


def test_a_heading_in_code_is_no_heading():
    assert heading_levels("```\n## not a heading\n```\n\n`## nor this`") == []


def test_text_without_markdown_is_made_as_the_parser_makes_it():
    """The shortcut for plain text gives the parser's HTML, on texts drawn at random from
    the characters that matter: spaces, tabs, line breaks, digits and punctuation, and the
    other characters that split lines or are whitespace to Python (carriage return, form
    feed, NEL, line and paragraph separators, no-break and ideographic spaces)."""
    alphabet = [*"ab é\n\n  \t.,:;'\"()?-+=*_#1234567890", "\r", "\x0c", "\x85", "\u2028", "\u2029", "\xa0",
                "\u3000", "\x0b", "\x1c"]
    rng = random.Random(20261204)
    compared = 0
    for _ in range(20_000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 30)))
        made = MARKDOWN.html(text)
        converter = MARKDOWN._converter
        converter.reset()
        assert made == as_sample(converter.convert(text)), repr(text)  # code blocks in <samp>
        compared += made == plain_paragraphs(text)
    assert compared > 2_000  # the shortcut was taken often enough to be tested


@pytest.mark.parametrize("text", ["✅ one\n✅ two\n✅ three", "✅ **one**\n✅ two\n✅ three"])
def test_a_single_line_break_is_a_line_break_on_both_paths(text):
    paragraph = selected(html_of(text), "p")
    assert len(paragraph.find_all("br")) == 2
    assert [line.strip() for line in paragraph.get_text().split("\n")] == ["✅ one", "✅ two", "✅ three"]


def test_a_line_break_in_code_stays_one_and_adds_no_break():
    soup = html_of("Run:\n\n```\nls\npwd\n```\n\nthen `a\nb`\nc")
    assert soup.select("pre br") == [] and "ls\npwd" in selected(soup, "pre").get_text()
    assert soup.select("code br") == [] and len(soup.select("p br")) == 1  # after the code span, not in it
