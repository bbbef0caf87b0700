"""The site's folder: one build at a time writes it, and one that cannot be written, being
read-only or full, stops the build with one line."""

from __future__ import annotations

import re
import subprocess
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from conftest import build
from sitebuild.site_folder import SiteFolder
from sitebuild.site_pages import PageError
from test_whole_session_build import IN_WORKER_MIN_MESSAGES, session_project, start_build, worker_of


def test_a_second_build_waits_for_the_folder_until_the_first_lets_go(tmp_path):
    first, second = SiteFolder(), SiteFolder()
    first.take(str(tmp_path / "site"), on_wait=lambda: pytest.fail("the folder was free"))
    waiting = threading.Event()
    taken = threading.Thread(target=second.take, args=(str(tmp_path / "site"), waiting.set))
    taken.start()
    assert waiting.wait(10)
    taken.join(0.2)
    assert taken.is_alive()  # it waits while the first holds the folder
    first.release()
    taken.join(10)
    assert not taken.is_alive()
    second.release()


def test_two_builds_into_one_folder_both_end_with_the_whole_site(tmp_path):
    # Enough messages that the first build is still writing when the second starts.
    project = session_project(tmp_path / "project", 40 * IN_WORKER_MIN_MESSAGES)
    first = start_build(project, tmp_path / "tmp-1")
    worker_of(first)  # it is making the transcript's pages
    second = start_build(project, tmp_path / "tmp-2")
    results = [(build.communicate(timeout=300)[1], build.returncode) for build in (first, second)]
    for stderr, returncode in results:
        assert returncode == 0 and "Traceback" not in stderr and "ERROR" not in stderr, stderr
    assert f"Another build is writing to {project / 'site'}: waiting for it" in results[1][0]
    pages = 40 * IN_WORKER_MIN_MESSAGES // 500
    made = sorted((project / "site" / "transcript").glob("**/index.html"))
    assert len(made) == pages, [path.parent.name for path in made]


@pytest.fixture
def mounted(tmp_path) -> Iterator[Callable[[str], Path]]:
    """Mounts a tmpfs with the options given, unmounted at the end; the test is skipped
    where this process may not mount one."""
    points: list[Path] = []

    def mount(options: str) -> Path:
        point = tmp_path / f"mount-{len(points)}"
        point.mkdir()
        result = subprocess.run(["mount", "-t", "tmpfs", "-o", options, "tmpfs", str(point)],
                                capture_output=True, text=True)
        if result.returncode != 0:
            pytest.skip(f"cannot mount a tmpfs here: {result.stderr.strip()}")
        points.append(point)
        return point

    yield mount
    for point in points:
        subprocess.run(["umount", str(point)], check=False)


def one_error(stderr: str) -> str:
    assert "Traceback" not in stderr, stderr
    errors = re.findall(r"^ERROR\s+-\s+(.*)$", stderr, re.MULTILINE)
    assert len(errors) == 1, stderr
    return errors[0]


def test_a_read_only_site_folder_is_one_line(tmp_path, mounted):
    project = session_project(tmp_path / "project", 50)
    read_only = mounted("ro,size=1m")
    result = build(project, read_only, strict=False)
    assert result.returncode == 1
    assert one_error(result.stderr) == f"{read_only}: the site's folder cannot be written: Read-only file system"
    result = build(project, read_only / "site", strict=False)
    assert one_error(result.stderr) == f"{read_only / 'site'}: the site's folder cannot be made: Read-only file system"


def test_a_site_folder_that_fills_up_is_one_line(tmp_path, mounted):
    project = session_project(tmp_path / "project", 50)
    small = mounted("size=300k")  # room to begin, not for the theme's files
    result = build(project, small / "site", strict=False)
    assert result.returncode == 1
    assert re.fullmatch(rf"{re.escape(str(small / 'site'))}/\S+: cannot be written: No space left on device",
                        one_error(result.stderr))


def test_a_folder_that_cannot_be_made_is_refused_by_name(tmp_path):
    (tmp_path / "file").write_text("not a folder")
    with pytest.raises(PageError, match=r"/file/site: the site's folder cannot be made: Not a directory$"):
        SiteFolder().take(str(tmp_path / "file" / "site"), on_wait=lambda: None)


@pytest.mark.parametrize("folder", ["hooks", "hooks/msgref", "."])
def test_a_site_folder_holding_the_projects_sources_is_refused(project, folder):
    hook = project / "hooks" / "mkdocs_hook.py"
    before = hook.read_bytes()
    result = build(project, project / folder)
    assert result.returncode == 1 and "Traceback" not in result.stderr
    refused = r"(ERROR\s+-\s+|Error: ).*(the site.s folder (holds|is in)|should not be within)"
    assert re.search(refused, result.stderr), result.stderr
    assert hook.read_bytes() == before and (project / "mkdocs.yml").is_file()


def test_a_link_in_the_site_folder_is_removed_not_written_through(project, tmp_path):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "kept.txt").write_text("not the site's")
    site = tmp_path / "site"
    site.mkdir()
    (site / "assets").symlink_to(elsewhere)  # a folder of the site, as a link
    (site / "index.html").symlink_to(elsewhere / "kept.txt")
    result = build(project, site)
    assert result.returncode == 0, result.stderr
    assert sorted(path.name for path in elsewhere.iterdir()) == ["kept.txt"]
    assert (elsewhere / "kept.txt").read_text() == "not the site's"
    assert not (site / "assets").is_symlink() and (site / "assets" / "essay.css").is_file()
    assert not (site / "index.html").is_symlink()
