"""Files of the site's folder that are symbolic links: one leading out of the project
would publish what it leads to, and one leading nowhere or round in a loop, like a named
pipe, would end in a traceback. Each stops the build with one line naming it; a link
within the project is published. The transcript, by any name, is never published (a copy
of it stops the build: see test_hostile_files)."""

from __future__ import annotations

import os
import re

import pytest

from conftest import build

SECRET = "not for the site: 7f3a9c"
OUTSIDE = "outside the project folder: copy the file in instead"


def assert_stops(result, expected: str) -> None:
    assert result.returncode == 1, result.stderr
    assert re.search(rf"ERROR\s+-\s+{re.escape(expected)}$", result.stderr, re.MULTILINE), result.stderr
    assert "Traceback" not in result.stderr


@pytest.fixture
def outside(tmp_path):
    folder = tmp_path / "outside"
    folder.mkdir()
    (folder / "secret.txt").write_text(SECRET)
    return folder


def test_a_link_to_a_file_outside_the_project_stops_the_build(project, tmp_path, outside):
    (project / "docs" / "leak.txt").symlink_to(outside / "secret.txt")
    site = tmp_path / "site"
    assert_stops(build(project, site), f"docs/leak.txt: a symbolic link to {outside / 'secret.txt'}, {OUTSIDE}")
    assert not (site / "leak.txt").exists()


def test_a_link_to_a_system_file_stops_the_build(project, tmp_path):
    (project / "docs" / "passwd.txt").symlink_to("/etc/passwd")
    result = build(project, tmp_path / "site", strict=False)
    assert_stops(result, f"docs/passwd.txt: a symbolic link to /etc/passwd, {OUTSIDE}")


def test_a_file_in_a_linked_folder_outside_the_project_stops_the_build(project, tmp_path, outside):
    (project / "docs" / "extra").symlink_to(outside, target_is_directory=True)
    expected = f"docs/extra/secret.txt: a symbolic link to {outside / 'secret.txt'}, {OUTSIDE}"
    assert_stops(build(project, tmp_path / "site"), expected)


def test_a_link_to_nothing_is_named_in_one_line(project, tmp_path):
    (project / "docs" / "gone.md").symlink_to(project / "docs" / "missing.md")
    assert_stops(build(project, tmp_path / "site"),
                 f"docs/gone.md: a symbolic link to {project / 'docs' / 'missing.md'}, which does not exist")


def test_a_link_within_the_project_is_published(project, tmp_path):
    (project / "notes.txt").write_text("kept")
    (project / "docs" / "notes.txt").symlink_to("../notes.txt")
    site = tmp_path / "site"
    result = build(project, site)
    assert result.returncode == 0, result.stderr
    assert (site / "notes.txt").read_text() == "kept"


@pytest.mark.parametrize("make_loop", [
    lambda docs: (docs / "self").symlink_to(".", target_is_directory=True),
    lambda docs: (docs / "up").symlink_to("..", target_is_directory=True),
    lambda docs: ((docs / "d").mkdir(), (docs / "d" / "back").symlink_to("../d", target_is_directory=True)),
], ids=["itself", "the-project", "its-parent"])
def test_a_link_to_a_folder_that_holds_it_is_named_as_a_loop(project, tmp_path, make_loop):
    docs = project / "docs"
    make_loop(docs)
    link = next(path for path in docs.rglob("*") if path.is_symlink())
    result = build(project, tmp_path / "site")
    assert_stops(result, f"{link.relative_to(project)}: a symbolic link to a folder that holds it, a loop: remove it")


@pytest.mark.parametrize("make_loop", [
    lambda docs: (docs / "self.md").symlink_to("self.md"),
    lambda docs: ((docs / "a.md").symlink_to("b.md"), (docs / "b.md").symlink_to("a.md")),
], ids=["itself", "two-links"])
def test_a_loop_of_links_to_files_is_named(project, tmp_path, make_loop):
    make_loop(project / "docs")
    result = build(project, tmp_path / "site")
    assert result.returncode == 1 and "Traceback" not in result.stderr, result.stderr
    assert re.search(r"ERROR\s+-\s+docs/(self|a|b)\.md: a loop of symbolic links: remove it$", result.stderr, re.M)


def test_a_named_pipe_is_named_not_read(project, tmp_path):
    os.mkfifo(project / "docs" / "pipe.txt")
    assert_stops(build(project, tmp_path / "site", timeout=60), "docs/pipe.txt: is a named pipe, not a file to publish")


@pytest.mark.parametrize("name", ["transcript-link.jsonl", "notes/hard.jsonl"])
def test_the_transcript_by_another_name_is_never_published(project, tmp_path, name):
    transcript = project / "docs" / "transcript.jsonl"
    other = project / "docs" / name
    other.parent.mkdir(exist_ok=True)
    if "hard" in name:
        os.link(transcript, other)
    else:
        other.symlink_to("transcript.jsonl")
    site = tmp_path / "site"
    result = build(project, site)
    assert result.returncode == 0, result.stderr
    assert not (site / name).exists() and not (site / "transcript.jsonl").exists()


def test_a_page_that_is_not_utf8_is_named_by_its_line(project, tmp_path):
    page = project / "docs" / "context.md"
    page.write_bytes(b"# Context\n\nPlain.\nCaf\xe9 in Latin-1.\n")
    assert_stops(build(project, tmp_path / "site"),
                 "docs/context.md:4: not valid UTF-8 (byte 4 of the line): save the page as UTF-8")


def test_a_file_name_that_is_not_utf8_is_named(project, tmp_path):
    os.close(os.open(bytes(project / "docs") + b"/caf\xe9.txt", os.O_CREAT | os.O_WRONLY))
    result = build(project, tmp_path / "site")
    assert result.returncode == 1 and "Traceback" not in result.stderr, result.stderr
    assert "a file name that is not UTF-8: rename the file" in result.stderr


def test_a_control_character_in_a_page_is_named_by_its_line(project, tmp_path):
    page = project / "docs" / "context.md"
    page.write_text("# Context\n\nA NUL\x00 here.\n", encoding="utf-8")
    assert_stops(build(project, tmp_path / "site"), "docs/context.md:3: a control character (U+0000): remove it")
