"""Settings that hold HTML, odd addresses or odd characters, in real builds: each is
written as text, used as it is, or refused in one line naming mkdocs.yml and the
setting, never with a traceback."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from conftest import attribute, build, selected, soup

SCRIPT = "<script>hostile()</script>"
AUTHOR = f'Ann "> {SCRIPT} Smith'  # a quote first, to end an attribute it is written in
TITLE = f"The {SCRIPT} Essay"
DESCRIPTION = f'An essay "> {SCRIPT} on silence.'
SITE_NAME = "site_name: The Silence That Speaks"  # the line of mkdocs.yml that settings are added after
BIDI = "expected text without bidirectional controls (such as U+202E), which reorder the words around them"


def edited(project: Path, *changes: tuple[str, str]) -> Path:
    """`project` with each (line, replacement) made in its mkdocs.yml."""
    config = project / "mkdocs.yml"
    text = config.read_text(encoding="utf-8")
    for line, replacement in changes:
        assert line in text, line
        text = text.replace(line, replacement, 1)
    config.write_text(text, encoding="utf-8")
    return project


def yaml_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def built(project: Path, site: Path) -> Path:
    result = build(project, site)
    assert result.returncode == 0, result.stderr
    return site


def test_settings_holding_html_are_written_as_text(project, tmp_path):
    site = built(edited(
        project,
        (SITE_NAME, f"{SITE_NAME}\nsite_author: {yaml_string(AUTHOR)}"),
        ('    title: "The Silence That Speaks: An Empty Message in an AI-Assisted Coding Session"',
         f"    title: {yaml_string(TITLE)}"),
        ("site_description: >-\n  An essay on one empty message sent in the middle of a long AI-assisted coding\n"
         "  session, with the session's messages it cites.", f"site_description: {yaml_string(DESCRIPTION)}"),
    ), tmp_path / "site")
    pages = sorted(site.rglob("*.html"))
    assert site / "404.html" in pages and site / "index.html" in pages
    for path in pages:
        page = soup(path)
        scripts = [script for script in page.find_all("script") if "hostile()" in script.get_text()]
        # The title's JSON-LD holds it, escaped; no other script does.
        assert all(attribute(script, "type") == "application/ld+json" for script in scripts), path
        assert selected(page, ".md-copyright__highlight").get_text().split(" · ")[0].strip() == AUTHOR, path
        assert attribute(selected(page, 'head meta[name="author"]'), "content") == AUTHOR, path
        assert attribute(selected(page, 'head meta[name="description"]'), "content") == DESCRIPTION, path
    not_found = selected(soup(site / "404.html"), "article ul.not-found a")
    assert not_found.get_text() == TITLE


def test_a_copyright_of_the_authors_own_is_left_as_written(project, tmp_path):
    notice = "copyright: 'Text © <a href=\"https://example.org/ann\">Ann Smith</a>'"
    site = built(edited(project, (SITE_NAME, f"{SITE_NAME}\n{notice}")), tmp_path / "site")
    footer = selected(soup(site / "index.html"), ".md-copyright__highlight")
    assert attribute(selected(footer, "a"), "href") == "https://example.org/ann"
    assert " ".join(footer.get_text().split()) == "Text © Ann Smith"


def test_a_pdf_at_an_http_address_is_linked_as_it_is(project, tmp_path):
    pdf = "https://cdn.example.org/essays/silence.pdf"
    site = built(edited(project, ("pdf: essay.pdf", f"pdf: {pdf}")), tmp_path / "site")
    for path in ["index.html", "context/index.html", "how-to-cite/index.html"]:
        links = {a.get_text(): attribute(a, "href") for a in soup(site / path).select(".cite-links a")}
        assert links["PDF"] == pdf, path
    head = selected(soup(site / "index.html"), "head")
    assert attribute(selected(head, 'meta[name="citation_pdf_url"]'), "content") == pdf
    assert f'"contentUrl": "{pdf}"' in selected(head, 'script[type="application/ld+json"]').get_text()


@pytest.mark.parametrize("line, replacement, problem", [
    ("pdf: essay.pdf", 'pdf: "javascript:alert(1)"',
     "extra.essay.pdf: expected a path inside the site, such as essay.pdf, or an http(s) address, "
     "found 'javascript:alert(1)'"),
    ("pdf: essay.pdf", "pdf: ../../../etc/passwd",
     "extra.essay.pdf: expected a path inside the site, such as essay.pdf, or an http(s) address, "
     "found '../../../etc/passwd'"),
    ("pdf: essay.pdf", "pdf: https:/essay.pdf",
     "extra.essay.pdf: expected a path inside the site, such as essay.pdf, or an http(s) address, "
     "found 'https:/essay.pdf'"),
    ("edition: 1", 'edition: "²"', "extra.essay.edition: expected a whole number of 1 or more, found '²'"),
    ("messages_per_page: 500", 'messages_per_page: "²"',
     "extra.transcript.messages_per_page: expected a whole number of 1 or more, found '²'"),
    ('title: "The Silence', 'title: "\\ud800 The Silence',
     "extra.essay.title: expected text that UTF-8 can encode, found '\\ud800 The Silence That Speaks: "
     "An Empty Message in an AI-Assisted Coding Session'"),
    ("edition: 1", 'edition: 1\n    proper_nouns: ["Silence", "\\udcff"]',
     "extra.essay.proper_nouns: expected text that UTF-8 can encode, found ['Silence', '\\udcff']"),
    (SITE_NAME, 'site_name: "The \\ud800 Silence"',
     "site_name: expected text that UTF-8 can encode, found 'The \\ud800 Silence'"),
    (SITE_NAME, f'{SITE_NAME}\nsite_author: "Ann \\ud800"',
     "site_author: expected text that UTF-8 can encode, found 'Ann \\ud800'"),
    (SITE_NAME, 'site_name: \'SN</title><script>alert(1)</script>" onfocus="alert(9)\'',
     'site_name: expected text without <, > or " (the theme writes it into the pages as HTML), '
     'found \'SN</title><script>alert(1)</script>" onfocus="alert(9)\''),
    ('site_url: !ENV [SITE_URL, "http://127.0.0.1:8000/"]', 'site_url: \'https://ex.com/"><script>x</script>/\'',
     'site_url: expected text without <, > or " (the theme writes it into the pages as HTML), '
     'found \'https://ex.com/"><script>x</script>/\''),
    (SITE_NAME, 'site_name: "A\\aB"', "site_name: expected text without control characters, found 'A\\x07B'"),
    ('title: "The Silence', 'title: "T\\x1b[31m The Silence',
     "extra.essay.title: expected text without control characters, found 'T\\x1b[31m The Silence That Speaks: "
     "An Empty Message in an AI-Assisted Coding Session'"),
    (SITE_NAME, 'site_name: "The \\u202eSilence"', f"site_name: {BIDI}, found 'The \\u202eSilence'"),
    ('title: "The Silence', 'title: "The \\u2066Silence',
     f"extra.essay.title: {BIDI}, found 'The \\u2066Silence That Speaks: An Empty Message in an AI-Assisted Coding "
     "Session'"),
    (SITE_NAME, f'{SITE_NAME}\nsite_author: "Ann \\u200fSmith"', f"site_author: {BIDI}, found 'Ann \\u200fSmith'"),
    ("edition: 1", 'edition: 1\n    authors: ["Ann Smith", "Bo \\u061cLee"]',
     f"extra.essay.authors: {BIDI}, found ['Ann Smith', 'Bo \\u061cLee']"),
    (SITE_NAME, "site_name: The &#x202e;Silence", "site_name: expected text without &#x202e;, which writes a "
     "control character or a bidirectional control, found 'The &#x202e;Silence'"),
    (SITE_NAME, "site_name: The &#x202E Silence", "site_name: expected text without &#x202E, which writes a "
     "control character or a bidirectional control, found 'The &#x202E Silence'"),
    (SITE_NAME, "site_name: The &rlm;Silence &amp; &#x41;", "site_name: expected text without &rlm;, which writes a "
     "control character or a bidirectional control, found 'The &rlm;Silence &amp; &#x41;'"),
    (SITE_NAME, f"{SITE_NAME}\ncopyright: 'Text &#8238; Ann'", "copyright: expected text without &#8238;, which "
     "writes a control character or a bidirectional control, found 'Text &#8238; Ann'"),
    (SITE_NAME, f"{SITE_NAME}\ncopyright: 'Text &#x1b; Ann'", "copyright: expected text without &#x1b;, which "
     "writes a control character or a bidirectional control, found 'Text &#x1b; Ann'"),
    ("pdf: essay.pdf", 'pdf: "x\\n.pdf"',
     "extra.essay.pdf: expected a path inside the site, such as essay.pdf, or an http(s) address, found 'x\\n.pdf'"),
    ("    folder: transcript", "    folder: context",
     "extra.transcript.folder: context holds context/index.html, a page or file of the site: choose another folder"),
    ("    folder: transcript", "    folder: 'con:text'",
     "extra.transcript.folder: expected a folder whose names hold letters, digits, '-', '_' and '.' only, such as "
     "transcript, found 'con:text'"),
    ("    folder: transcript", "    folder: '%2e%2e'",
     "extra.transcript.folder: expected a folder whose names hold letters, digits, '-', '_' and '.' only, such as "
     "transcript, found '%2e%2e'"),
    ("    folder: transcript", "    folder: print",
     "extra.transcript.folder: expected a folder of its own: print is the site's, or the theme's, found 'print'"),
    ("    folder: transcript", "    folder: sitemap.xml",
     "extra.transcript.folder: expected a folder of its own: sitemap.xml is the site's, or the theme's, "
     "found 'sitemap.xml'"),
    ("      - conclusion.md\n", "      - conclusion.md\n      - context.md\n",
     "extra.essay.sections: expected each page once, context.md is listed twice, found ['index.md', 'context.md', "
     "'response.md', 'empty-message.md', 'interpretation.md', 'significance.md', 'conclusion.md', 'context.md']"),
    ('site_url: !ENV [SITE_URL, "http://127.0.0.1:8000/"]', 'site_url: "https://ex.com/?q=1#frag"',
     "site_url: expected the site's address without a query or an anchor (? or #), which every page's would carry, "
     "found 'https://ex.com/?q=1#frag'"),
    ('site_url: !ENV [SITE_URL, "http://127.0.0.1:8000/"]', 'site_url: "https://ann:pw@ex.com/"',
     "site_url: expected the site's address without a user or password, which every page would publish, "
     "found 'https://ann:pw@ex.com/'"),
    ("pdf: essay.pdf", 'pdf: "https://[::1/x.pdf"',
     "extra.essay.pdf: expected a path inside the site, such as essay.pdf, or an http(s) address, "
     "found 'https://[::1/x.pdf'"),
])
def test_a_setting_that_cannot_be_used_is_named_in_one_line(project, tmp_path, line, replacement, problem):
    result = build(edited(project, (line, replacement)), tmp_path / "site")
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    errors = [text for text in result.stderr.splitlines() if "ERROR" in text or "Error" in text]
    assert errors == [f"ERROR   -  mkdocs.yml: {problem}"], result.stderr


def test_a_navigation_title_holding_markup_is_named_in_one_line(project, tmp_path):
    config = project / "mkdocs.yml"
    config.write_text(config.read_text(encoding="utf-8") + "nav:\n  - 'Intro <script>x</script>': index.md\n",
                      encoding="utf-8")
    result = build(project, tmp_path / "site")
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert "ERROR   -  mkdocs.yml: nav: expected text without <, > or \" (the theme writes it into the pages as " \
           "HTML), found 'Intro <script>x</script>'" in result.stderr


def test_a_front_matter_title_holding_markup_is_named_in_one_line(project, tmp_path):
    page = project / "docs" / "context.md"
    page.write_text("---\ntitle: Ctx <em>plain</em>\n---\n\n" + page.read_text(encoding="utf-8"), encoding="utf-8")
    result = build(project, tmp_path / "site")
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert "docs/context.md: front matter: title: expected text without <, > or \"" in result.stderr, result.stderr


def test_a_tag_in_the_sites_name_or_the_essays_title_is_warned_by_the_setting(project, tmp_path):
    edited(project, (SITE_NAME, "site_name: Silence [msg 5852]"),
           ('    title: "The Silence That Speaks', '    title: "The Silence [msg 5855] That Speaks'))
    result = build(project, tmp_path / "site", strict=False)
    assert result.returncode == 0, result.stderr
    warned = re.findall(r"^WARNING\s+-\s+(mkdocs\.yml: (?:site_name|extra\.essay\.title): .*)$", result.stderr, re.M)
    assert warned == [
        "mkdocs.yml: site_name: '[msg 5852]' is in the title 'Silence [msg 5852]', where no citation can stand; "
        "it is left as written",
        "mkdocs.yml: extra.essay.title: '[msg 5855]' is in the title 'The Silence [msg 5855] That Speaks: An Empty "
        "Message in an AI-Assisted Coding Session', where no citation can stand; it is left as written"]


def test_a_front_matter_title_writing_a_bidirectional_control_is_named_in_one_line(project, tmp_path):
    page = project / "docs" / "context.md"
    page.write_text("---\ntitle: Ctx &#x202E;txt.exe\n---\n\n" + page.read_text(encoding="utf-8"), encoding="utf-8")
    result = build(project, tmp_path / "site")
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert "ERROR   -  docs/context.md: front matter: title: expected text without &#x202E;, which writes a control " \
           "character or a bidirectional control, found 'Ctx &#x202E;txt.exe'" in result.stderr, result.stderr


@pytest.mark.parametrize("char", ["\u202e", "\u2067", "\u200e", "\u061c"])
def test_a_page_holding_a_bidirectional_control_is_named_by_its_line(project, tmp_path, char):
    page = project / "docs" / "context.md"
    page.write_text(page.read_text(encoding="utf-8") + f"\nThe file txt{char}.exe.\n", encoding="utf-8")
    line = page.read_text(encoding="utf-8").count("\n")
    result = build(project, tmp_path / "site")
    assert result.returncode == 1 and "Traceback" not in result.stderr
    errors = [text for text in result.stderr.splitlines() if "ERROR" in text]
    assert errors == [f"ERROR   -  docs/context.md:{line}: a bidirectional control (U+{ord(char):04X}), which "
                      "reorders the words around it: remove it"], result.stderr
