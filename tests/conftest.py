"""Shared helpers: the repository's paths, real site builds, and look-ups in pages and
transcripts that fail the test clearly when nothing is found.

The tool is tested on essays of its own under tests/projects/ (see author_project.py):
`ESSAY` is the essay this repository first shipped, kept there with its settings, so
that what the tests expect of it holds whatever essay docs/ holds."""

from __future__ import annotations

import difflib
import os
import subprocess
import sys
from pathlib import Path
from typing import TypeVar

import pytest
from bs4 import BeautifulSoup, Tag

from author_project import PROJECTS, ROOT, author_project, this_project
from transcript.schema import Message, MessageSource

ESSAY = PROJECTS / "silence"
SOURCE_TEXT = ESSAY / "docs" / "source-text.txt"
TRANSCRIPT = ESSAY / "docs" / "transcript.jsonl"


# A worker process beside the build is forked on Linux only.
forking = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="a worker is forked on Linux only")

def mkdocs(args: list[str], cwd: Path, timeout: int = 120, **env_extra: str) -> subprocess.CompletedProcess:
    """Run the real `mkdocs` command line of this environment."""
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", **env_extra}
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", *args],
        cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout,
    )


def build(
    project: Path, site: Path, strict: bool = True, timeout: int = 120, **env: str
) -> subprocess.CompletedProcess:
    return mkdocs(["build", "--strict" if strict else "--clean", "-d", str(site)], cwd=project, timeout=timeout, **env)


def built_cleanly(project: Path, timeout: int = 120) -> Path:
    """`project` built with `mkdocs build --strict` into its folder `site`, with no warning."""
    result = build(project, project / "site", timeout=timeout)
    assert result.returncode == 0, result.stderr
    assert "WARNING" not in result.stderr, result.stderr
    return project / "site"


def copy_project(destination: Path) -> Path:
    """A project of `ESSAY` that a test may break."""
    return author_project(ESSAY.name, destination)


def soup(path: Path) -> BeautifulSoup:
    return BeautifulSoup(path.read_text(encoding="utf-8"), "html.parser")


Found = TypeVar("Found")


def found(result: Found | None, what: str) -> Found:
    """`result` of a search (`find`, `find_next`, `re.search`, ...); the test fails, naming `what`, when it is None."""
    assert result is not None, f"not found: {what}"
    return result


def selected(scope: Tag, selector: str) -> Tag:
    """The first element in `scope` that the CSS `selector` matches; the test fails when none does."""
    return found(scope.select_one(selector), f"an element matching {selector!r}")


def attribute(element: Tag, name: str) -> str:
    """The value of `element`'s attribute `name`; the test fails when it is missing or a list (as `class` is)."""
    value = element.get(name)
    assert isinstance(value, str), f"<{element.name}> has no single-valued attribute {name!r}: {value!r}"
    return value


def entry_of(page: Tag, n: int) -> Tag:
    """What a transcript page shows of message `n` under its heading: its words, its tool
    call or its output; the test fails when the page does not show it."""
    return selected(page, f'.msg-item[data-msg="{n}"] > .msg-entry')


def message_in(transcript: MessageSource, n: int) -> Message:
    """Message `n` of `transcript`; the test fails when the transcript does not hold it."""
    return found(transcript.get(n), f"message {n}")


PUBLIC_URL = "https://example.org/silence/"  # a public address below a path, as on GitHub Pages
PUBLISHING = {"PRINT_PDF": "true"}  # what the Pages workflow sets for its build: the PDF is printed after it


def published(site: Path, project: Path | None = None, **env: str) -> Path:
    """The site of `project` (by default one of `ESSAY`) built into `site` with `mkdocs
    build --strict`, and its PDF printed, as publishing does (.github/workflows/pages.yml)."""
    project = project or copy_project(site.with_name(f"{site.name}-project"))
    result = build(project, site, strict=True, timeout=300, **{**PUBLISHING, **env})
    assert result.returncode == 0, result.stderr
    assert "WARNING" not in result.stderr, result.stderr
    pdf = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "essay_pdf.py"), str(site), "-o", str(site / "essay.pdf")],
        capture_output=True, text=True, timeout=180,
    )
    assert pdf.returncode == 0, pdf.stderr
    return site


@pytest.fixture(scope="session")
def built_site(tmp_path_factory) -> Path:
    """The site of `ESSAY` as built locally, with its PDF."""
    return published(tmp_path_factory.mktemp("site"))


@pytest.fixture(scope="session")
def public_site(tmp_path_factory) -> Path:
    """The site of `ESSAY` as published at a public address, with its PDF."""
    return published(tmp_path_factory.mktemp("public-site"), SITE_URL=PUBLIC_URL)


@pytest.fixture(scope="session")
def this_site(tmp_path_factory) -> Path:
    """The site in this repository, whatever essay it holds, as published."""
    folder = tmp_path_factory.mktemp("this-site")
    return published(folder / "site", this_project(folder / "project"))


@pytest.fixture
def project(tmp_path) -> Path:
    return copy_project(tmp_path / "project")


@pytest.fixture
def diffed(monkeypatch) -> list[int]:
    """The lines of each pair of texts given to difflib, as a tool's view diffs them."""
    compared: list[int] = []
    original = difflib.unified_diff

    def unified_diff(a, b, **options):
        compared.append(len(a) + len(b))
        return original(a, b, **options)

    monkeypatch.setattr(difflib, "unified_diff", unified_diff)
    return compared
