"""A real `mkdocs build --strict` of a site whose transcript is much longer than what it cites."""

import json
import subprocess
from pathlib import Path

import pytest
import yaml
from bs4 import BeautifulSoup

from conftest import build, built_cleanly, entry_of, found, selected

HOOK = Path(__file__).resolve().parent.parent / "hooks" / "mkdocs_hook.py"
LONG_TEXT = "\n".join(f"output line {i}" for i in range(30))


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    project = tmp_path_factory.mktemp("scale")
    records = [{"n": n, "speaker": "tool", "provenance": "verbatim", "text": LONG_TEXT if n == 20 else f"text {n}"}
               for n in range(1, 26)]
    (project / "transcript.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    (project / "docs").mkdir()
    (project / "docs" / "index.md").write_text("# Essay\n\nFirst [msg 5], then [msg 20].\n")
    (project / "docs" / "note-on-the-text.md").write_text("# Note on the text\n")  # the transcript intro links here
    config = {
        "site_name": "Scale", "site_url": "http://127.0.0.1:8000/",
        "nav": ["index.md", "note-on-the-text.md", "transcript/index.md"],
        "hooks": [str(HOOK)], "markdown_extensions": ["attr_list", {"toc": {"permalink": True}}],
        "validation": {"omitted_files": "warn", "unrecognized_links": "warn", "anchors": "warn"},
        "extra": {"transcript": {"source": "transcript.jsonl", "messages_per_page": 3, "context": 1,
                                 "message_chars": 100, "search": False, "redact": False}},
    }
    (project / "mkdocs.yml").write_text(yaml.safe_dump(config))
    return built_cleanly(project, timeout=120)


def soup(path: Path) -> BeautifulSoup:
    return BeautifulSoup(path.read_text(encoding="utf-8"), "html.parser")


def test_only_cited_messages_and_their_neighbours_get_pages(site):
    first, second = soup(site / "transcript/index.html"), soup(site / "transcript/page-2/index.html")
    assert [h["id"] for h in first.select("h2[id^=msg-]")] == ["msg-4", "msg-5", "msg-6"]
    assert [h["id"] for h in second.select("h2[id^=msg-]")] == ["msg-19", "msg-20", "msg-21"]
    assert not (site / "transcript/page-3").exists()
    assert "Not shown: messages 7–18 (12 messages)" in selected(second, ".msg-gap").text


def test_links_between_pages_and_from_the_essay_resolve(site):
    essay = soup(site / "index.html")
    assert [a["href"] for a in essay.select("a.msg-ref")] == ["transcript/#msg-5", "transcript/page-2/#msg-20"]
    first = soup(site / "transcript/index.html")
    pager = selected(first, ".msg-pager--top")
    assert [a["href"] for a in pager.select("a[rel=next]")] == ["page-2/"]
    cited_in = found(selected(first, "#msg-5").find_next(class_="msg-cited-in"), "where message 5 is cited")
    assert selected(cited_in, "a")["href"] == "../#cite-5"


def test_a_long_message_links_to_its_whole_text(site):
    page = soup(site / "transcript/page-2/index.html")
    note = selected(page, ".msg-cut")
    assert selected(note, "a")["href"] == "../messages/msg-20.txt"
    assert (site / "transcript/messages/msg-20.txt").read_text(encoding="utf-8") == LONG_TEXT


def large_project(project: Path, last_line: str) -> Path:
    """A site whose transcript is large: about 5 MB."""
    big = "tool output line\n" * 6_000  # about 100 KB
    records = [{"n": n, "speaker": "tool", "provenance": "verbatim", "text": big if n % 2 else f"text {n}"}
               for n in range(1, 100)]
    (project / "transcript.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records) + last_line)
    (project / "docs").mkdir()
    (project / "docs" / "index.md").write_text("# Essay\n\nFirst [msg 2], then [msg 100].\n")
    (project / "docs" / "note-on-the-text.md").write_text("# Note on the text\n")
    config = {"site_name": "Large", "nav": ["index.md", "note-on-the-text.md", "transcript/index.md"],
              "hooks": [str(HOOK)], "extra": {"transcript": {"source": "transcript.jsonl"}}}
    (project / "mkdocs.yml").write_text(yaml.safe_dump(config))
    return project


def build_large(project: Path) -> subprocess.CompletedProcess:
    return build(project, project / "site")


def test_a_large_transcript_builds(tmp_path):
    last = json.dumps({"n": 100, "speaker": "user", "provenance": "verbatim", "text": "the last message"}) + "\n"
    result = build_large(large_project(tmp_path, last))
    assert result.returncode == 0, result.stderr
    assert "WARNING" not in result.stderr, result.stderr
    page = soup(tmp_path / "site/transcript/index.html")
    assert [h["id"] for h in page.select("h2[id^=msg-]")] == ["msg-2", "msg-100"]
    assert entry_of(page, 100).get_text() == "the last message"


def test_a_broken_line_of_a_large_transcript_is_named(tmp_path):
    result = build_large(large_project(tmp_path, '{"n": 100, "speaker": "user"\n'))
    assert result.returncode == 1
    assert "ERROR   -  transcript.jsonl:100: not valid JSON" in result.stderr, result.stderr
    assert "Traceback" not in result.stderr
