"""The site built by ProperDocs, the maintained fork of MkDocs 1.6, is the site MkDocs builds."""

import os
import subprocess
import sys
from pathlib import Path

from conftest import PUBLISHING, attribute, copy_project, selected, soup


def properdocs_build(project: Path, site: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", **PUBLISHING}  # as the site it is compared with
    command = [sys.executable, "-m", "properdocs", "build", "--strict", "-f", "mkdocs.yml", "-d", str(site)]
    return subprocess.run(command, cwd=project, env=env, capture_output=True, text=True, timeout=300)


def without_generator(path: Path) -> str:
    """The page as parsed, without the <meta name="generator"> that names the generator."""
    document = soup(path)
    for tag in document.select('meta[name="generator"]'):
        tag.decompose()
    return str(document)


def test_properdocs_builds_the_same_pages(built_site, tmp_path):
    site = tmp_path / "site"
    result = properdocs_build(copy_project(tmp_path / "project"), site)
    assert result.returncode == 0, result.stderr
    assert "WARNING" not in result.stderr, result.stderr
    made = {path.relative_to(site) for path in site.rglob("*") if path.is_file()}
    expected = {path.relative_to(built_site) for path in built_site.rglob("*") if path.is_file()}
    assert made == expected - {Path("essay.pdf")}  # the PDF is printed after the build
    generators = attribute(selected(soup(site / "index.html"), 'meta[name="generator"]'), "content")
    assert generators.startswith("mkdocs-ProperDocs 1.6.7")
    for path in sorted(made):
        if path.suffix == ".html":
            assert without_generator(site / path) == without_generator(built_site / path), path
        else:
            assert (site / path).read_bytes() == (built_site / path).read_bytes(), path
