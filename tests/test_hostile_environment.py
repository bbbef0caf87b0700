"""The machine a build runs on made odd, in real builds: a file where Jinja's cache of
compiled templates goes, names longer than the system allows. Each build works, or ends
in one line naming what is wrong, never in a traceback."""

from __future__ import annotations

import os
from pathlib import Path

from conftest import build, selected, soup


def test_a_file_where_the_template_cache_goes_leaves_the_build_working(project, tmp_path):
    # Any user of a shared /tmp can put one there, by the name Jinja's cache takes.
    temporary = tmp_path / "tmp"
    temporary.mkdir()
    (temporary / f"_jinja2-cache-{os.getuid()}").write_text("not a folder")
    result = build(project, tmp_path / "site", TMPDIR=str(temporary))
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr and "WARNING" not in result.stderr, result.stderr
    assert selected(soup(tmp_path / "site" / "index.html"), "article h1").get_text()

