"""Markdown pasted from anywhere, and transcript text no one checked, through one real
`mkdocs build --strict`: each case ends in correct output, or in a one-line warning that
names its file and line (so that the strict build fails), and never in a traceback.

Every case is a page of its own, `docs/cases/<name>.md`, in a copy of the site.
"""

from __future__ import annotations

import json
import re

import pytest
from bs4 import Tag

from conftest import build, copy_project, entry_of, found, selected, soup

SECRET_KEY = "sk-ant-" + "api03-" + "k" * 40  # fake, built at run time
LONG_TEXT = "".join(f"line {i}: " + "word " * 20 + "\n" for i in range(400))  # about 46,000 characters
CONTROL_TEXT = "bell\x07 nul\x00 esc\x1b[31mred\x1b[0m del\x7f c1\x85 non\ufffe\uffff end"
BIDI_TEXT = ("Raw \u202egpj.exe, \u2067isolated\u2069, marked\u200e\u200f\u061c; as references &#x202e;txt.exe, "
             "&#8238;, &rlm;, &#x1B;, **bold** and `&#x202e;` in code.")
ADDED_MESSAGES = [
    {"n": 9001, "speaker": "tool", "provenance": "verbatim", "text": CONTROL_TEXT, "tool_name": "Bash",
     "tool_input": {SECRET_KEY: "a secret as a key", "command": "printf '\x1b[1m'",
                    "description": "nul\x00 esc\x1b[2J \u202egpj.exe", "deep": [{"k\u2066": ["\x07\u200f"]}]},
     "thinking": "why\x00not"},
    {"n": 9002, "speaker": "tool", "provenance": "verbatim", "text": LONG_TEXT},
    {"n": 9003, "speaker": "assistant", "provenance": "verbatim", "text": BIDI_TEXT},
]
STRANDED = "where no citation can stand; it is left as written"

# name -> (Markdown of the page, warnings it must give: (line, text))
CASES = {
    "attribute": ('A span <span title="[msg 5852]">here</span>.',
                  [(1, f"'[msg 5852]' is inside the HTML attribute title, {STRANDED}")]),
    "image-alt": ("An image ![a [msg 5852] b](https://example.com/a.png) here.",
                  [(1, f"'[msg 5852]' is inside an image's alt text, {STRANDED}")]),
    "link-address": ("A link [x](https://example.com/[msg 5852]) here.",
                     [(1, f"'[msg 5852]' is inside a link's address, {STRANDED}")]),
    "link-title": ('A link [x](https://example.com/ "see [msg 5852]") here.',
                   [(1, f"'[msg 5852]' is inside a link's title, {STRANDED}")]),
    "link-text": ("A link [see [msg 5852] now](https://example.com/) here.",
                  [(1, f"'[msg 5852]' is inside a link's text, {STRANDED}")]),
    "tag-as-link": ("First.\n\nBare [msg 5852](https://example.com/) here.",
                    [(3, f"'[msg 5852]' is inside a link's text, {STRANDED}")]),
    "tag-as-image": ("Bare ![msg 5852](https://example.com/b.png) here.",
                     [(1, f"'[msg 5852]' is inside an image's alt text, {STRANDED}")]),
    "raw-html": ('<div class="raw">\nRaw [msg 5852] here.\n</div>',
                 [(2, f"'[msg 5852]' is inside raw HTML, {STRANDED}")]),
    "raw-link": ('Inline <a href="https://example.com/">raw [msg 5852] link</a> here.',
                 [(1, f"'[msg 5852]' is inside a link's text, {STRANDED}")]),
    "attribute-list": ('A paragraph with attributes.\n{ title="[msg 5852]" }',
                       [(2, f"'[msg 5852]' is inside the HTML attribute title, {STRANDED}")]),
    "autolink": ("An address <https://example.com/[msg 5852]> here.",
                 [(1, f"'[msg 5852]' is inside a link's address, {STRANDED}")]),
    "tab-label": ('=== "Tab [msg 5852]"\n\n    The tab\'s body.',
                  [(1, f"'[msg 5852]' is inside a tab label, {STRANDED}")]),
    "details-summary": ('??? note "Summary [msg 5852]"\n\n    The details.',
                        [(1, f"'[msg 5852]' is inside a details summary, {STRANDED}")]),
    "admonition-title": ('!!! note "A note on [msg 5853]"\n\n    The note\'s body.', []),
    "near-misses": (
        "Full-width [msg ５８５２] here.\n\nZero [msg 05852] here.\n\nMinus [msg -1] here.\n\n"
        "Plus [msg +5852] here.\n\nHex [msg 0x16DC] here.\n\nSpace [msg\u00a05852] here.\n\n"
        "Zero width [msg\u200b 5852] here.\n\nBroken [msg\n5852] over two lines.\n\nCyrillic [мsg 5852] here.\n\n"
        "Sign [msg #5852] here.\n\nGrouped [msg 5,852] here.\n\nSuperscript [msg ⁵⁸⁵²] and `[msg ⁵⁸⁵²]` here.",
        [(1, "'[msg ５８５２]' looks like a message tag, but its digits are not ASCII digits "
             "(U+FF15 FULLWIDTH DIGIT FIVE); write [msg 5852]"),
         (3, "'[msg 05852]' looks like a message tag, but its number has a leading zero; write [msg 5852]"),
         (5, "'[msg -1]' looks like a message tag, but message numbers are 1 or more"),
         (7, "'[msg +5852]' looks like a message tag, but its number has a sign; write [msg 5852]"),
         (9, "'[msg 0x16DC]' looks like a message tag, but 0x16DC is hexadecimal; write [msg 5852]"),
         (11, "'[msg<U+00A0>5852]' looks like a message tag, but U+00A0 NO-BREAK SPACE is not a plain space; "
              "write [msg 5852]"),
         (13, "'[msg<U+200B> 5852]' looks like a message tag, but U+200B ZERO WIDTH SPACE is not a plain space; "
              "write [msg 5852]"),
         (15, "'[msg<line break>5852]' looks like a message tag, but it is broken across two lines; "
              "write [msg 5852]"),
         (18, "'[мsg 5852]' looks like a message tag, but U+043C CYRILLIC SMALL LETTER EM is not the letter m; "
              "write [msg 5852]"),
         (20, "'[msg #5852]' looks like a message tag, but '#' stands before its number; write [msg 5852]"),
         (22, "'[msg 5,852]' looks like a message tag, but its number has a thousands separator (','); "
              "write [msg 5852]"),
         (24, "'[msg ⁵⁸⁵²]' looks like a message tag, but its digits are not ASCII digits (U+2075 SUPERSCRIPT FIVE); "
              "write [msg 5852]")]),
    "written-as-code": ("Escaped \\[msg 5852], as code `[msg 5852]`, and\n\n```text\n[msg 5852] <msg id=5]\n```\n\n"
                        "<!-- a comment [msg 5852] -->", []),
    "page-order": ("First [msg 5856].\n\n> Quoted [msg 5856].\n>\n> - listed [msg 5856]\n\nLast [msg 5856].", []),
    "entities": ("Smith &amp; Jones wrote \\*this\\* [msg 5854].", []),
    "hidden-references": ("Plain words.\n\nA reversed &#x202e;name, &#8207; here.\n\nAs code `&#x202e;`.",
                          [(3, "&#x202e; writes U+202E, a control character or a bidirectional control, which no "
                               "page shows: remove it, or write it as code"),
                           (3, "&#8207; writes U+200F, a control character or a bidirectional control, which no "
                               "page shows: remove it, or write it as code")]),
    "transcript-text": ("The output [msg 9001].\n\n[msg 9002]\n\nReversed [msg 9003].", []),
    "front-matter": ("---\ntitle: On [msg 5852]\ndescription: See [msg 99999].\n---\n\nThe body [msg 5852].",
                     [(2, f"'[msg 5852]' is in the page's front matter, {STRANDED}"),
                      (3, f"'[msg 99999]' is in the page's front matter, {STRANDED}")]),
}
# A navigation written in mkdocs.yml, its titles as the theme shows them: as text.
NAV = '\nnav:\n  - index.md\n  - "Cases of [msg 5852]":\n    - "Near [msg 5852]": cases/near-misses.md\n'
NAV_WARNINGS = [f"mkdocs.yml: nav: '[msg 5852]' is in the title {title!r}, {STRANDED}"
                for title in ("Cases of [msg 5852]", "Near [msg 5852]")]


@pytest.fixture(scope="module")
def hostile_site(tmp_path_factory):
    """The site with every case added, built once with `mkdocs build --strict`."""
    project = copy_project(tmp_path_factory.mktemp("hostile") / "project")
    config = project / "mkdocs.yml"
    text = config.read_text()
    text = text.replace("  - pymdownx.superfences\n", "  - pymdownx.superfences\n  - admonition\n"
                        "  - pymdownx.details\n  - pymdownx.tabbed:\n      alternate_style: true\n")
    config.write_text(text + NAV)
    (project / "docs" / "cases").mkdir()
    for name, (markdown, _) in CASES.items():
        (project / "docs" / "cases" / f"{name}.md").write_text(markdown + "\n", encoding="utf-8")
    transcript = project / "docs" / "transcript.jsonl"
    transcript.write_text(transcript.read_text() + "".join(json.dumps(m) + "\n" for m in ADDED_MESSAGES))
    site = tmp_path_factory.mktemp("hostile-site")
    result = build(project, site)
    return site, result


def page(site, name):
    return soup(site / "cases" / name / "index.html").select_one("article")


def cited_in(site, n: int) -> Tag:
    """What the transcript page lists as the places that cite message `n`."""
    heading = selected(soup(site / "transcript/index.html"), f"#msg-{n}")
    return found(heading.find_next(class_="msg-cited-in"), f"where message {n} is cited")


def warnings_of(stderr: str, name: str) -> list[tuple[int, str]]:
    warnings = re.findall(rf"^WARNING\s+-\s+docs/cases/{re.escape(name)}\.md:(\d+): (.*)$", stderr, re.MULTILINE)
    return [(int(line), text) for line, text in warnings]


def test_the_strict_build_fails_on_the_warnings_and_never_with_a_traceback(hostile_site):
    _, result = hostile_site
    assert result.returncode == 1
    assert "Aborted with" in result.stdout and "warnings in strict mode!" in result.stdout
    assert "Traceback" not in result.stderr and "ERROR" not in result.stderr


def test_a_tag_in_a_nav_title_is_warned_with_the_setting(hostile_site):
    _, result = hostile_site
    assert re.findall(r"^WARNING\s+-\s+(mkdocs\.yml: nav: .*)$", result.stderr, re.MULTILINE) == NAV_WARNINGS


def test_a_tag_in_front_matter_stays_text_in_the_title(hostile_site):
    site, _ = hostile_site
    assert found(soup(site / "cases/front-matter/index.html").title, "the title").get_text().startswith(
        "On [msg 5852]")


@pytest.mark.parametrize("name", CASES)
def test_each_case_is_warned_with_its_file_and_line(hostile_site, name):
    _, result = hostile_site
    assert warnings_of(result.stderr, name) == CASES[name][1]


def citation_links(article):
    return article.select("a.msg-ref")


@pytest.mark.parametrize("name, element, attribute, value", [
    ("attribute", "span", "title", "[msg 5852]"),
    ("image-alt", "img", "alt", "a [msg 5852] b"),
    ("link-address", "a", "href", "https://example.com/[msg 5852]"),
    ("link-title", "a", "title", "see [msg 5852]"),
    ("tag-as-image", "img", "alt", "msg 5852"),
    ("attribute-list", "p", "title", "[msg 5852]"),
    ("autolink", "a", "href", "https://example.com/[msg 5852]"),
])
def test_a_tag_in_an_attribute_is_left_as_written(hostile_site, name, element, attribute, value):
    article = page(hostile_site[0], name)
    assert [tag[attribute] for tag in article.find_all(element, attrs={attribute: True})
            if "headerlink" not in tag.get("class", [])] == [value]
    assert citation_links(article) == [] and article.select(".msg-snippets") == []


@pytest.mark.parametrize("name, text", [
    ("link-text", "see [msg 5852] now"), ("tag-as-link", "msg 5852"), ("raw-link", "raw [msg 5852] link")])
def test_a_tag_in_a_links_text_makes_no_link_inside_the_link(hostile_site, name, text):
    article = page(hostile_site[0], name)
    (link,) = [a for a in article.find_all("a") if "headerlink" not in a.get("class", [])]
    assert link.get_text() == text and link["href"] == "https://example.com/" and link.find("a") is None


def test_a_tag_in_raw_html_is_left_as_written(hostile_site):
    raw = page(hostile_site[0], "raw-html").select_one("div.raw")
    assert raw.get_text().strip() == "Raw [msg 5852] here." and raw.find("a") is None


@pytest.mark.parametrize("name, selector", [("tab-label", ".tabbed-labels label"), ("details-summary", "summary")])
def test_a_tag_in_a_tab_label_or_a_summary_is_left_as_written(hostile_site, name, selector):
    article = page(hostile_site[0], name)
    assert article.select_one(selector).get_text().endswith("[msg 5852]")
    assert citation_links(article) == []


def test_a_tag_in_an_admonition_title_is_a_citation_like_any_other(hostile_site):
    site = hostile_site[0]
    note = page(site, "admonition-title").select_one(".admonition")
    link = note.select_one(".admonition-title a.msg-ref")
    assert link["id"] == "cite-5853" and link["href"] == "../../transcript/#msg-5853"
    assert note.select_one(".msg-snippets figcaption a")["href"] == link["href"]
    assert "../cases/admonition-title/#cite-5853" in [a["href"] for a in cited_in(site, 5853).select("a")]


def test_near_misses_stay_as_written(hostile_site):
    article = page(hostile_site[0], "near-misses")
    assert citation_links(article) == []
    assert "[msg ５８５２]" in article.get_text() and "[msg 0x16DC]" in article.get_text()


def test_tags_written_as_code_or_escaped_stay_silent(hostile_site):
    article = page(hostile_site[0], "written-as-code")
    assert citation_links(article) == []
    assert article.p.get_text() == "Escaped [msg 5852], as code [msg 5852], and"
    assert article.select_one("pre code").get_text().strip() == "[msg 5852] <msg id=5]"


def test_citations_are_numbered_and_listed_in_page_order(hostile_site):
    site = hostile_site[0]
    article = page(site, "page-order")
    assert [(a["id"], a.find_parent(["p", "li"]).get_text().split()[0]) for a in citation_links(article)] == [
        ("cite-5856", "First"), ("cite-5856-2", "Quoted"), ("cite-5856-3", "listed"), ("cite-5856-4", "Last")]
    hrefs = [a["href"] for a in cited_in(site, 5856).select("a")]
    # The essay's pages first, in the order of the navigation, then the cases' page, in its own order.
    assert hrefs == ["../empty-message/#cite-5856", "../interpretation/#cite-5856",
                     *(f"../cases/page-order/#cite-5856{suffix}" for suffix in ("", "-2", "-3", "-4"))]


def test_cited_in_excerpts_keep_entities_and_escaped_characters(hostile_site):
    excerpts = [item.get_text() for item in cited_in(hostile_site[0], 5854).select("li")]
    assert any(text.endswith(": “Smith & Jones wrote *this* msg 5854.”") for text in excerpts), excerpts


def test_a_whole_message_quote_is_cut_like_the_transcript_and_links_the_whole_text(hostile_site):
    site = hostile_site[0]
    quote = page(site, "transcript-text").select_one("figure.msg-snippet--full")
    shown = quote.select_one("blockquote.msg-body pre").get_text()
    assert 4_000 < len(shown) <= 5_000 and LONG_TEXT.startswith(shown)
    note = quote.select_one(".msg-cut")
    assert note.get_text().startswith(f"Shown: the first {len(shown):,} of {len(LONG_TEXT):,} characters.")
    whole = site / "cases" / "transcript-text" / note.a["href"]
    assert whole.resolve() == (site / "transcript/messages/msg-9002.txt").resolve()
    assert whole.read_text(encoding="utf-8") == LONG_TEXT
    index = json.loads((site / "search/search_index.json").read_text(encoding="utf-8"))
    case = [doc["text"] for doc in index["docs"] if doc["location"].startswith("cases/transcript-text/")]
    assert case and max(len(text) for text in case) < 10_000


def test_control_characters_never_reach_the_pages_the_index_or_the_text_files(hostile_site):
    site = hostile_site[0]
    # Control characters, noncharacters, bidirectional controls.
    forbidden = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ufffe\uffff"
                           "\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")
    for path in site.rglob("*"):
        if path.suffix in (".html", ".txt", ".json", ".xml"):
            assert not forbidden.search(path.read_text(encoding="utf-8")), path
        if path.suffix == ".html":  # its character references read, as a browser reads them
            assert not forbidden.search(str(soup(path))), path
    index = json.loads((site / "search/search_index.json").read_text(encoding="utf-8"))
    assert not any(forbidden.search(doc["text"] + doc["title"]) for doc in index["docs"])
    shown = page(site, "transcript-text").select_one(".msg-snippet blockquote.msg-body p").get_text()
    assert shown == "bell\u2407 nul\u2400 esc\u241b[31mred\u241b[0m del\u2421 c1\ufffd non\ufffd\ufffd end"


def test_a_secret_used_as_a_key_is_redacted_and_reported(hostile_site):
    site, result = hostile_site
    assert "Redacted in docs/transcript.jsonl, message 9001: anthropic-key" in result.stderr
    for path in site.rglob("*"):
        if path.is_file():
            assert SECRET_KEY.encode() not in path.read_bytes(), path
    entry = entry_of(soup(site / "transcript/index.html"), 9001)
    other_input = json.loads(selected(entry, ".msg-tool details.msg-fold pre").get_text())
    assert other_input["[REDACTED: anthropic-key]"] == "a secret as a key"


def test_bidirectional_controls_and_references_to_them_show_as_their_code_points(hostile_site):
    transcript = soup(hostile_site[0] / "transcript/index.html")
    text = selected(entry_of(transcript, 9003), "p")
    assert text.get_text() == (
        "Raw \u27e8U+202E\u27e9gpj.exe, \u27e8U+2067\u27e9isolated\u27e8U+2069\u27e9, "
        "marked\u27e8U+200E\u27e9\u27e8U+200F\u27e9\u27e8U+061C\u27e9; as references \u27e8U+202E\u27e9txt.exe, "
        "\u27e8U+202E\u27e9, \u27e8U+200F\u27e9, \u241b, bold and &#x202e; in code.")
    assert selected(text, "code").get_text() == "&#x202e;"  # code shows what was written
    article = page(hostile_site[0], "transcript-text")
    reversed_paragraph = found(next((p for p in article.find_all("p") if p.get_text().startswith("Reversed")), None),
                               "the paragraph citing message 9003")
    # Beside the essay's paragraph, a snippet shows the text as the transcript does.
    snippet = selected(found(reversed_paragraph.find_next("figure"), "a snippet"), "blockquote.msg-body p")
    assert snippet.get_text() == text.get_text()


def test_every_field_of_a_tool_input_passes_the_rule_at_any_depth(hostile_site):
    entry = entry_of(soup(hostile_site[0] / "transcript/index.html"), 9001)
    assert selected(entry, ".msg-tool__note").get_text() == "nul\u2400 esc\u241b[2J \u27e8U+202E\u27e9gpj.exe"
    other_input = json.loads(selected(entry, ".msg-tool details.msg-fold pre").get_text())
    assert other_input["deep"] == [{"k\u27e8U+2066\u27e9": ["\u2407\u27e8U+200F\u27e9"]}]
