"""`mkdocs serve` rebuilds when the transcript changes, and only then parses it again."""

import json
import os
import urllib.request

import pytest

from perf.dev_server import ENV, Server


@pytest.fixture
def server(project):
    running = Server(project)
    yield running
    running.stop()


def served(server: Server, path: str) -> str:
    """The page at `path` (such as "transcript/"), as the server sends it."""
    with urllib.request.urlopen(f"http://127.0.0.1:{server.port}/{path}", timeout=10) as response:
        return response.read().decode()


def test_serve_rebuilds_when_the_transcript_changes(project, server):
    server.wait_for("Serving on")
    assert "sm120 instructions." in served(server, "transcript/")

    page = project / "docs" / "conclusion.md"
    page.write_text(page.read_text() + "\n")
    log = server.wait_for("unchanged since the last build; not parsed again")
    assert not any("Parsed transcript" in line for line in log)

    transcript = project / "docs" / "transcript.jsonl"
    records = [json.loads(line) for line in transcript.read_text().splitlines()]
    records[2]["text"] = "an edited gist link"
    transcript.write_text("".join(json.dumps(r) + "\n" for r in records))
    server.wait_for("Parsed transcript docs/transcript.jsonl: 7 messages")
    server.wait_for("Reloading browsers")
    assert "an edited gist link" in served(server, "transcript/")


def test_a_stopped_server_leaves_no_temporary_site(project, tmp_path):
    temporary = tmp_path / "temporary"
    temporary.mkdir()
    server = Server(project, env={**ENV, "TMPDIR": str(temporary)})
    try:
        server.wait_for("Serving on")
        assert len(list(temporary.glob("mkdocs_*"))) == 1  # the site it serves
    finally:
        server.stop()
    assert server.process.returncode == 0
    assert list(temporary.glob("mkdocs_*")) == []


def test_serve_watches_a_transcript_outside_the_docs_folder(project):
    (project / "data").mkdir()
    transcript = project / "data" / "transcript.jsonl"
    (project / "docs" / "transcript.jsonl").rename(transcript)
    config = project / "mkdocs.yml"
    config.write_text(config.read_text().replace("source: docs/transcript.jsonl", "source: data/transcript.jsonl"))
    server = Server(project)
    try:
        server.wait_for("Serving on")
        records = [json.loads(line) for line in transcript.read_text().splitlines()]
        records[2]["text"] = "an edited gist link"
        transcript.write_text("".join(json.dumps(r) + "\n" for r in records))
        server.wait_for("Parsed transcript data/transcript.jsonl: 7 messages")
        server.wait_for("Reloading browsers")
        assert "an edited gist link" in served(server, "transcript/")
        # Replaced as the importer writes it: a new file renamed over the old one.
        records[2]["text"] = "a replaced gist link"
        replacement = project / "data" / ".transcript.jsonl.part"
        replacement.write_text("".join(json.dumps(r) + "\n" for r in records))
        os.replace(replacement, transcript)
        server.wait_for("Parsed transcript data/transcript.jsonl: 7 messages")
        server.wait_for("Reloading browsers")
        assert "a replaced gist link" in served(server, "transcript/")
    finally:
        server.stop()


def test_serve_works_with_a_file_where_the_template_cache_goes(project, tmp_path):
    temporary = tmp_path / "temporary"
    temporary.mkdir()
    (temporary / f"_jinja2-cache-{os.getuid()}").write_text("another user's file")
    server = Server(project, env={**ENV, "TMPDIR": str(temporary)})
    try:
        log = server.wait_for("Serving on")
        assert "sm120 instructions." in served(server, "transcript/")
    finally:
        server.stop()
    assert not any("Traceback" in line or "ERROR" in line for line in log), log
