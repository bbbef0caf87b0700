"""A whole session on the site (`context: all`): its pages are made in a child process,
and are the pages made without one."""

import json
from pathlib import Path

import pytest
import yaml
from bs4 import BeautifulSoup
from conftest import mkdocs
from sitebuild.rendering import IN_CHILD_MIN_MESSAGES

HOOK = Path(__file__).resolve().parent.parent / "hooks" / "mkdocs_hook.py"
MESSAGES = IN_CHILD_MIN_MESSAGES + 200
SECRET = "sk-ant-" + "a1B2" * 10


def record(n: int) -> dict:
    if n % 300 == 0:  # long enough to be cut, and to get a file of its whole text
        return {"n": n, "speaker": "tool", "provenance": "verbatim", "text": f"line {n} of a long output\n" * 400}
    if n == 7:
        return {"n": n, "speaker": "user", "provenance": "verbatim", "text": f"my key is {SECRET}, keep it"}
    if n % 3 == 0:
        return {"n": n, "speaker": "assistant", "provenance": "verbatim", "text": "", "tool_name": "Read",
                "tool_input": {"path": f"src/file_{n}.py"}}
    return {"n": n, "speaker": "user" if n % 2 else "assistant", "provenance": "verbatim", "text": f"message <{n}> & more"}


def whole_session(project: Path, in_child: bool) -> Path:
    project.mkdir()
    (project / "transcript.jsonl").write_text("".join(json.dumps(record(n)) + "\n" for n in range(1, MESSAGES + 1)))
    (project / "docs").mkdir()
    (project / "docs" / "index.md").write_text(f"# Essay\n\nFirst [msg 5], then [msg {MESSAGES - 1}].\n")
    (project / "docs" / "note-on-the-text.md").write_text("# Note on the text\n")
    config = {
        "site_name": "Whole", "site_url": "http://127.0.0.1:8000/", "theme": {"name": "material"},
        "nav": ["index.md", "note-on-the-text.md", "transcript/index.md"], "hooks": [str(HOOK)],
        "plugins": ["search"], "markdown_extensions": ["attr_list", {"toc": {"permalink": True}}],
        "validation": {"omitted_files": "warn", "unrecognized_links": "warn", "anchors": "warn"},
        "extra": {"transcript": {"source": "transcript.jsonl", "context": "all", "parse_in_child": in_child}},
    }
    (project / "mkdocs.yml").write_text(yaml.safe_dump(config))
    result = mkdocs(["build", "--strict", "--verbose", "-d", str(project / "site")], cwd=project, timeout=300)
    assert result.returncode == 0, result.stderr
    assert "WARNING" not in result.stderr, result.stderr
    made_in = "a child process" if in_child else "this process"
    assert f"Transcript pages: {MESSAGES} messages, made in {made_in}" in result.stderr
    return project / "site"


@pytest.fixture(scope="module")
def sites(tmp_path_factory) -> dict[bool, Path]:
    folder = tmp_path_factory.mktemp("whole")
    return {in_child: whole_session(folder / f"child-{in_child}", in_child) for in_child in (True, False)}


def transcript_files(site: Path) -> dict[str, bytes]:
    return {str(path.relative_to(site)): path.read_bytes() for path in sorted((site / "transcript").rglob("*")) if path.is_file()}


def test_the_pages_made_in_a_child_are_the_pages_made_without_one(sites):
    made = transcript_files(sites[True])
    assert made == transcript_files(sites[False])
    assert {"transcript/index.html", "transcript/page-2/index.html", "transcript/page-3/index.html"} <= set(made)
    texts = [name for name in made if name.startswith("transcript/messages/")]
    assert texts == [f"transcript/messages/msg-{n}.txt" for n in sorted(range(300, MESSAGES + 1, 300), key=str)]
    search = [json.loads((sites[k] / "search/search_index.json").read_text())["docs"] for k in (True, False)]
    assert search[0] == search[1]
    assert sum(1 for doc in search[0] if doc["location"].startswith("transcript/")) == MESSAGES


def test_every_message_has_its_entry_its_permanent_link_and_its_text_escaped(sites):
    pages = [BeautifulSoup((sites[True] / path).read_text(encoding="utf-8"), "html.parser")
             for path in ("transcript/index.html", "transcript/page-2/index.html", "transcript/page-3/index.html")]
    headings = [h for page in pages for h in page.select("h2[id^=msg-]")]
    assert [h["id"] for h in headings] == [f"msg-{n}" for n in range(1, MESSAGES + 1)]
    assert all(h.select_one("a.headerlink")["href"] == f"#{h['id']}" for h in headings)
    first = pages[0]
    assert first.find(id="msg-1").find_next(class_="msg-body__text").text == "message <1> & more"
    assert SECRET not in str(first) and "[REDACTED: anthropic-key]" in first.find(id="msg-7").find_next("blockquote").text
    assert first.find(id="msg-5").find_parent(class_="msg-item--cited") is not None
    # A page of 500 messages lists only its title in its table of contents.
    assert [a.text.strip() for a in first.select("nav.md-nav--secondary a")] == []


def test_the_essay_links_to_messages_on_any_page(sites):
    essay = BeautifulSoup((sites[True] / "index.html").read_text(encoding="utf-8"), "html.parser")
    assert [a["href"] for a in essay.select("a.msg-ref")] == ["transcript/#msg-5", f"transcript/page-3/#msg-{MESSAGES - 1}"]
