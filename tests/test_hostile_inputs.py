"""Files of the site's folder that are symbolic links: one leading out of the project
would publish what it leads to, and one leading nowhere would end in a traceback. Each
stops the build with one line naming it; a link within the project is published."""

from __future__ import annotations

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
