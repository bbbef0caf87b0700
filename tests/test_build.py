"""The real `mkdocs build --strict`, its HTML read back with an HTML parser."""

import json
import re
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

from conftest import ESSAY, TRANSCRIPT, attribute, build, found, selected, soup
from essay_source import SECTIONS, SHIPPED_SOURCE_TEXT, cited_numbers, read_source

PAGES = ["index.html", *(f"{p.removesuffix('.md')}/index.html" for p in list(SECTIONS.values())[1:]),
         "note-on-the-text/index.html", "transcript/index.html"]
MESSAGE_NUMBERS = [json.loads(line)["n"] for line in TRANSCRIPT.read_text().splitlines()]


def html_pages(site: Path) -> list[Path]:
    return sorted(site.rglob("*.html"))


def resolve(site: Path, page: Path, href: str) -> tuple[Path, str] | None:
    """The file and fragment an internal link points at, or None for an external link."""
    parts = urlsplit(href)
    if parts.scheme or parts.netloc:
        return None
    # An absolute path (the 404 page's, which holds at any depth) starts at the site's
    # root: the path of the local build's site_url is "/".
    base = site if parts.path.startswith("/") else page.parent
    target = page if not parts.path else (base / unquote(parts.path).lstrip("/")).resolve()
    if target.is_dir():
        target = target / "index.html"
    return target, parts.fragment


def ids_of(path: Path) -> list[str]:
    return [attribute(element, "id") for element in soup(path).find_all(id=True)]


def test_every_page_is_built_and_the_raw_transcript_is_not_published(built_site):
    for page in PAGES:
        assert (built_site / page).is_file(), page
    assert (built_site / "source-text.txt").read_bytes() == (ESSAY / "docs" / "source-text.txt").read_bytes()
    assert not (built_site / "transcript.jsonl").exists()


def test_every_tag_of_the_essay_became_a_link(built_site):
    _, sections = read_source(SHIPPED_SOURCE_TEXT)
    for heading, page in SECTIONS.items():
        links = soup(built_site / section_html(page)).select("article a.msg-ref")
        assert [int(a.text.removeprefix("msg ")) for a in links] == cited_numbers(sections[heading]), page
        for link in links:
            assert link["href"] == f"../transcript/#msg-{link.text.split()[1]}"
            assert not link.has_attr("title")  # the page's preview shows the message instead


def test_a_snippet_follows_each_citation_unless_the_page_shows_the_message_beside_it(built_site):
    texts = {json.loads(line)["n"]: words(json.loads(line)["text"]) for line in TRANSCRIPT.read_text().splitlines()}
    snippets = set()
    for page in SECTIONS.values():
        article = selected(soup(built_site / section_html(page)), "article")
        for mark in article.select(".paragraph-link"):
            mark.decompose()  # a paragraph's number, not its words
        for link in article.select("a.msg-ref"):
            n = int(link.text.split()[1])
            block = found(link.find_parent(["p", "li"]), f"the paragraph citing message {n}")
            quotation = block.find_next_sibling()
            quoted = quotation.get_text(" ") if quotation is not None and quotation.name == "blockquote" else ""
            beside = words(block.get_text(" ")) + " " + words(quoted)
            box = block.find_next_sibling(class_="msg-snippets") or block.find(class_="msg-snippets")
            shown = box is not None and link["href"] in [a["href"] for a in box.select("figcaption a")]
            assert shown == (not texts[n] or texts[n] not in beside), (page, n)
            snippets.update([(page, n)] if shown else [])
    # The empty message's marker and the description the citing sentence does not repeat.
    assert snippets == {("empty-message.md", 5855), ("interpretation.md", 5856)}


@pytest.mark.parametrize("page", ["context.md", "response.md", "empty-message.md", "print.md"])
def test_each_cited_message_text_appears_once_in_what_a_page_shows(built_site, page):
    article = selected(soup(built_site / section_html(page)), "article")
    # Previews open on demand; the print page's appendix repeats each cited message on purpose.
    for left_out in article.select(".msg-previews, .cited-messages, .paragraph-link"):
        left_out.decompose()
    visible = words(article.get_text(" "))
    for line in TRANSCRIPT.read_text().splitlines():
        message = json.loads(line)
        text = words(message["text"])
        if text and (message["provenance"] == "described" or message["n"] == 5854) and text in visible:
            expected = 2 if page == "print.md" and message["n"] == 5856 else 1  # cited in two sections
            assert visible.count(text) == expected, (page, message["n"])


def section_html(page: str) -> str:
    return "index.html" if page == "index.md" else page.removesuffix(".md") + "/index.html"


def words(text: str) -> str:
    return " ".join(text.split()).casefold()


def test_each_message_anchor_exists_exactly_once_on_the_site(built_site):
    all_ids = [i for page in html_pages(built_site) for i in ids_of(page)]
    for n in MESSAGE_NUMBERS:
        assert all_ids.count(f"msg-{n}") == 1
    assert f"msg-{MESSAGE_NUMBERS[0]}" in ids_of(built_site / "transcript/index.html")


def test_no_literal_tag_is_left_outside_code(built_site):
    for page in html_pages(built_site):
        document = soup(page)
        for node in selected(document, "body").find_all(string=True):
            # A transcript message's button copies its tag, and says so.
            shown_as_code = node.find_parent(["code", "pre", "script", "style"]) is not None
            if not shown_as_code and node.find_parent(class_="msg-tag") is None:
                assert "[msg " not in node, f"{page}: {node!r}"


def test_tags_inside_code_on_a_page_stay_as_written(built_site):
    codes = [c.get_text() for c in soup(built_site / "note-on-the-text/index.html").find_all("code")]
    assert "(<msg id=5852]" in codes and "[msg 5852]" in codes and "[msg N]" in codes


def test_every_internal_link_and_anchor_resolves(built_site):
    checked = 0
    for page in html_pages(built_site):
        for link in soup(page).select("article a[href]"):
            target = resolve(built_site, page, attribute(link, "href"))
            if target is None:
                continue
            path, fragment = target
            assert path.exists(), f"{page}: {link['href']}"
            if fragment and path.suffix == ".html":
                assert fragment in ids_of(path), f"{page}: {link['href']}"
            checked += 1
    assert checked > 50


def test_the_transcript_page_shows_each_message_and_where_it_is_cited(built_site):
    page = built_site / "transcript/index.html"
    document = soup(page)
    for n in MESSAGE_NUMBERS:
        heading = selected(document, f"#msg-{n}")
        assert heading.name == "h2" and heading.get_text().startswith(f"Message {n} — ")
        cited_in = found(heading.find_next(class_="msg-cited-in"), f"where message {n} is cited")
        links = cited_in.select("a")
        assert links, n
        for link in links:
            path, fragment = found(resolve(page.parent.parent, page, attribute(link, "href")), "an internal link")
            target = soup(path).find(id=fragment)
            assert target is not None and attribute(target, "href").endswith(f"#msg-{n}")
    empty = found(selected(document, "#msg-5855").find_next(class_="msg-body"), "the body of message 5855")
    assert empty.get_text() == "Empty message: no content" and empty.name == "p"
    described = found(selected(document, "#msg-5853").find_next(class_="msg-body"), "the body of message 5853")
    assert "msg-body--described" in described["class"] and described.find("blockquote") is None
    # The message's number is its permanent link; the page has no other way from one to the next.
    assert attribute(selected(selected(document, "#msg-5853"), "a.msg-number"), "href") == "#msg-5853"
    assert document.select(".msg-neighbours") == []


# --- Bad input: a clear message naming file and line, and no traceback ---


def line_of(path: Path, text: str) -> int:
    return path.read_text().splitlines().index(text) + 1


def test_an_unknown_message_fails_the_strict_build_naming_file_and_line(project, tmp_path):
    page = project / "docs" / "conclusion.md"
    page.write_text("---\ntitle: Conclusion\n---\n" + page.read_text() + "\nSee [msg 9999].\n")
    result = build(project, tmp_path / "site")
    assert result.returncode == 1
    line = line_of(page, "See [msg 9999].")
    assert f"WARNING -  docs/conclusion.md:{line}: [msg 9999] is not in the transcript" in result.stderr
    assert "Aborted with 1 warnings in strict mode!" in result.stdout
    assert "Traceback" not in result.stderr


def test_an_unknown_message_shows_unresolved_in_a_lenient_build(project, tmp_path):
    page = project / "docs" / "conclusion.md"
    page.write_text(page.read_text() + "\nSee [msg 9999].\n")
    result = build(project, tmp_path / "site", strict=False)
    assert result.returncode == 0
    mark = selected(soup(tmp_path / "site/conclusion/index.html"), "mark.msg-ref--unresolved")
    assert mark.get_text() == "msg 9999 (not in the transcript)"


def test_a_near_miss_fails_the_strict_build_naming_file_and_line(project, tmp_path):
    page = project / "docs" / "conclusion.md"
    page.write_text(page.read_text() + "\nA gist (<msg id=5852]: here.\n")
    result = build(project, tmp_path / "site")
    assert result.returncode == 1
    line = line_of(page, "A gist (<msg id=5852]: here.")
    assert f"docs/conclusion.md:{line}: '<msg id=5852]' looks like a message tag; write [msg 5852]" in result.stderr


def break_transcript(path: Path, how: str) -> str:
    lines = path.read_text().splitlines()
    if how == "missing":
        path.unlink()
        return "docs/transcript.jsonl: transcript file not found"
    if how == "not json":
        lines[2] = lines[2][:-1]
        expected = "docs/transcript.jsonl:3: not valid JSON"
    elif how == "field missing":
        record = json.loads(lines[3])
        del record["speaker"]
        lines[3] = json.dumps(record)
        expected = "docs/transcript.jsonl:4: missing required field 'speaker'"
    else:
        lines.append(lines[0])
        expected = f"docs/transcript.jsonl:{len(lines)}: message 5843 is already defined on line 1"
    path.write_text("\n".join(lines) + "\n")
    return expected


@pytest.mark.parametrize("how", ["missing", "not json", "field missing", "duplicate"])
def test_a_broken_transcript_stops_the_build_naming_file_and_line(project, tmp_path, how):
    expected = break_transcript(project / "docs" / "transcript.jsonl", how)
    result = build(project, tmp_path / "site", strict=False)
    assert result.returncode == 1
    assert re.search(rf"ERROR\s+-\s+{re.escape(expected)}", result.stderr), result.stderr
    assert "Traceback" not in result.stderr


def test_a_transcript_changed_during_the_build_stops_it_with_a_clear_message(project, tmp_path):
    transcript = project / "docs" / "transcript.jsonl"
    records = [json.loads(line) for line in transcript.read_text().splitlines()]
    for record in records:
        if record["n"] == 5852:  # long enough to be read from the file each time it is shown
            record["text"] += " and more" * 10_000
    transcript.write_text("".join(json.dumps(record) + "\n" for record in records))
    # A second hook moves every line of the transcript once the first has read it.
    (project / "hooks" / "move_lines.py").write_text(
        "from pathlib import Path\n\n\n"
        "def on_files(files, config):\n"
        "    path = Path(config.config_file_path).parent / 'docs' / 'transcript.jsonl'\n"
        "    path.write_text('\\n' * 100 + path.read_text())\n"
    )
    config = project / "mkdocs.yml"
    hooks = "  - hooks/mkdocs_hook.py\n"
    config.write_text(config.read_text().replace(hooks, hooks + "  - hooks/move_lines.py\n"))
    result = build(project, tmp_path / "site", strict=False)
    assert result.returncode == 1
    assert "docs/transcript.jsonl: the file changed while the site was being built; build again" in result.stderr
    assert "Traceback" not in result.stderr


def test_secrets_in_the_transcript_never_reach_the_site(project, tmp_path):
    from test_redact import more_planted_secrets, planted_secrets

    secrets = {**planted_secrets(), **more_planted_secrets()}
    transcript = project / "docs" / "transcript.jsonl"
    records = [
        {"n": 9000 + i, "speaker": "tool", "provenance": "verbatim", "text": line,
         "tool_name": "Bash", "tool_input": {"command": line}, "thinking": f"It printed: {line}"}
        for i, (line, _) in enumerate(secrets.values())
    ]
    transcript.write_text(transcript.read_text() + "".join(json.dumps(r) + "\n" for r in records))
    page = project / "docs" / "conclusion.md"
    page.write_text(page.read_text() + "\n\n" + " ".join(f"[msg {r['n']}]" for r in records) + "\n")

    result = build(project, tmp_path / "site")
    assert result.returncode == 0, result.stderr
    report = [line for line in result.stderr.splitlines() if "Redacted in docs/transcript.jsonl, message" in line]
    for kind in secrets:
        assert any(kind in line for line in report), kind  # the report names message and kind
    for path in (tmp_path / "site").rglob("*"):
        if path.is_file():
            content = path.read_bytes()
            for kind, (_, secret) in secrets.items():
                for piece in secret.strip().splitlines():
                    assert piece.encode() not in content or len(piece) < 16, f"{kind} in {path}"
    shown = soup(tmp_path / "site/transcript/index.html").get_text()
    assert "[REDACTED: anthropic-key]" in shown and "[REDACTED: private-key]" in shown


@pytest.mark.parametrize(
    "setting, expected",
    [
        ("  redact: 'no'\n", "mkdocs.yml: extra.transcript.redact: expected true or false, found 'no'"),
        ("  redact_allow: some-key\n", "extra.transcript.redact_allow: expected a list of strings, found 'some-key'"),
        ("  redact_patterns: [a, b]\n", "extra.transcript.redact_patterns: expected a mapping"),
        ("  redact_patterns: {api: '(unclosed'}\n", "redact_patterns: api: not a valid regular expression"),
        ("  message_chars: 0\n", "extra.transcript.message_chars: expected a whole number of 1 or more, found 0"),
        ("  mesages_per_page: 3\n",
         "extra.transcript: unknown setting 'mesages_per_page'; did you mean messages_per_page?"),
    ],
)
def test_a_bad_transcript_setting_stops_the_build_with_a_clear_message(project, tmp_path, setting, expected):
    config = project / "mkdocs.yml"
    name = setting.split(":")[0].strip()
    text = re.sub(rf"^    {name}: .*\n", "", config.read_text(), flags=re.MULTILINE)  # the setting once
    config.write_text(text.replace("  transcript:\n", "  transcript:\n  " + setting, 1))
    result = build(project, tmp_path / "site")
    assert result.returncode == 1 and expected in result.stderr, result.stderr
    assert "Traceback" not in result.stderr


def test_a_missing_essay_section_stops_the_build_with_a_clear_message(project, tmp_path):
    config = project / "mkdocs.yml"
    config.write_text(config.read_text().replace("      - conclusion.md\n", "      - afterword.md\n", 1))
    result = build(project, tmp_path / "site")
    assert result.returncode == 1
    assert "extra.essay.sections: afterword.md is not a page" in result.stderr and "Traceback" not in result.stderr
