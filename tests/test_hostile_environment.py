"""The machine a build runs on made odd, in real builds: a file where Jinja's cache of
compiled templates goes, names longer than the system allows. Each build works, or ends
in one line naming what is wrong, never in a traceback."""

from __future__ import annotations

import json
import os
import re

from conftest import build, selected, soup
from sitebuild.settings import shown


def test_a_file_where_the_template_cache_goes_leaves_the_build_working(project, tmp_path):
    # Any user of a shared /tmp can put one there, by the name Jinja's cache takes.
    temporary = tmp_path / "tmp"
    temporary.mkdir()
    (temporary / f"_jinja2-cache-{os.getuid()}").write_text("not a folder")
    result = build(project, tmp_path / "site", TMPDIR=str(temporary))
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr and "WARNING" not in result.stderr, result.stderr
    assert selected(soup(tmp_path / "site" / "index.html"), "article h1").get_text()



def assert_stops(result, expected: str) -> None:
    """The build ended in one line, `expected`, and no traceback."""
    assert result.returncode == 1, result.stderr
    assert re.search(rf"^ERROR\s+-\s+{re.escape(expected)}$", result.stderr, re.MULTILINE), result.stderr
    assert "Traceback" not in result.stderr, result.stderr


def test_a_transcript_folder_with_a_name_too_long_for_a_file_system_is_refused(project, tmp_path):
    name = "a" * 256
    config = project / "mkdocs.yml"
    config.write_text(config.read_text().replace("    folder: transcript\n", f"    folder: pages/{name}\n"))
    assert_stops(build(project, tmp_path / "site"), "mkdocs.yml: extra.transcript.folder: expected folder names "
                 f"of at most 255 bytes, the most a file system holds, found {shown('pages/' + name)}")


def test_a_transcript_whose_images_folder_name_is_too_long_names_the_message_line(project, tmp_path):
    stem = "t" * 249  # the file's name is 255 characters long; its images folder's would be 256
    transcript = project / "docs" / f"{stem}.jsonl"
    (project / "docs" / "transcript.jsonl").rename(transcript)
    config = project / "mkdocs.yml"
    config.write_text(config.read_text().replace("source: docs/transcript.jsonl", f"source: docs/{stem}.jsonl"))
    image = "0123456789abcdef0123456789abcdef.png"
    record = {"n": 9001, "speaker": "user", "provenance": "verbatim", "text": "A picture.", "images": [image]}
    with transcript.open("a") as file:
        file.write(json.dumps(record) + "\n")
    line = transcript.read_text().count("\n")
    with (project / "docs" / "conclusion.md").open("a") as file:
        file.write("\nA picture [msg 9001].\n")
    assert_stops(build(project, tmp_path / "site"), f"docs/{stem}.jsonl:{line}: message 9001's image "
                 f"docs/{stem}-images/{image} cannot be read: File name too long")


def test_a_transcript_named_longer_than_a_file_system_holds_is_named_in_one_line(project, tmp_path):
    name = "t" * 300 + ".jsonl"
    config = project / "mkdocs.yml"
    config.write_text(config.read_text().replace("source: docs/transcript.jsonl", f"source: docs/{name}"))
    (project / "docs" / "transcript.jsonl").unlink()  # else published: another transcript, which stops the build
    assert_stops(build(project, tmp_path / "site"), f"docs/{name}: cannot read the transcript file: File name too long")
