"""No broken internal link or anchor in the built site, checked by LinkChecker over HTTP.

MkDocs validates links between Markdown pages at build time (`validation.anchors: warn`
and `--strict`); this checks the HTML as served, generated pages and theme included.
"""

from __future__ import annotations

import csv
import io
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from browser.site_browser import site_paths
from static_host import StaticHost

# External links are listed, not fetched: this machine reaches no other host. The CSV
# output is its rows alone, without the comments before and after them: a row starts with
# "#" when its link is an anchor on the same page, so no line can be taken for a comment.
LINKCHECKER_CONFIG = """\
[checking]
threads=4
timeout=30
maxrequestspersecond=1000
[filtering]
checkextern=0
[output]
status=0
[csv]
parts=urlname,parentname,result,warningstring,valid
[AnchorCheck]
"""
# LinkChecker writes its warnings in the language of the locale (in Dutch a missing anchor
# is an "Anker"); the problems are told apart by its English words, whatever the reader's.
ENGLISH = {"LANGUAGE": "C"}


def check_links(site: Path, config_dir: Path) -> tuple[list[dict], list[str]]:
    """Every link LinkChecker followed from every page, and the problems among them."""
    config = config_dir / "linkcheckerrc"
    config.write_text(LINKCHECKER_CONFIG, encoding="utf-8")
    linkchecker = Path(sys.executable).with_name("linkchecker")
    # LinkChecker paces its requests to a host unless the host answers with this header.
    with StaticHost(site, extra_headers={"LinkChecker": "unthrottled"}) as host:
        start_urls = [host.url + path for path in site_paths(site)]
        result = subprocess.run(
            [str(linkchecker), "--config", str(config), "--verbose", "--output", "csv", *start_urls],
            capture_output=True, text=True, timeout=300, env={**os.environ, **ENGLISH},
        )
    # Exit 1 means broken links or warnings; anything else above 1 is LinkChecker failing.
    assert result.returncode in (0, 1), result.stderr
    rows = list(csv.DictReader(io.StringIO(result.stdout), delimiter=";"))
    problems = []
    for row in rows:
        internal = row["urlname"].startswith(host.url) or not row["urlname"].startswith(("http:", "https:", "mailto:"))
        broken = row["valid"] != "True"
        bad_anchor = "Anchor" in (row.get("warningstring") or "")
        if internal and (broken or bad_anchor):
            problems.append(f"{row['parentname']} -> {row['urlname']}: {row['result']} {row['warningstring']}")
    return rows, problems


@pytest.fixture(scope="module")
def linkchecker_available():
    if not Path(sys.executable).with_name("linkchecker").exists():
        pytest.fail("linkchecker is not installed: pip install -r requirements-browser.txt")


def test_no_broken_internal_link_or_anchor(site_dir, tmp_path, linkchecker_available):
    rows, problems = check_links(site_dir, tmp_path)
    anchored = [row for row in rows if "#" in row["urlname"]]
    print(f"LinkChecker: {len(rows)} links checked, {len(anchored)} with an anchor, {len(problems)} broken")
    assert len(rows) > 50 and len(anchored) > 10, "LinkChecker found too few links: did it crawl the site?"
    assert not problems, "\n".join(problems)


def test_a_broken_anchor_and_a_missing_page_are_reported(site_dir, tmp_path, linkchecker_available, monkeypatch):
    # Run from a shell in a locale LinkChecker has words of its own for.
    monkeypatch.setenv("LANG", "nl_NL.UTF-8")
    monkeypatch.setenv("LANGUAGE", "nl_NL")
    site = tmp_path / "site"
    shutil.copytree(site_dir, site)
    page = site / "context" / "index.html"
    html = page.read_text(encoding="utf-8")
    planted = ('<p><a href="../transcript/#msg-0">gone</a> <a href="../no-such-page/">missing</a>'
               ' <a href="#no-such-paragraph">here</a></p>')
    page.write_text(html.replace("</article>", planted + "</article>", 1), encoding="utf-8")
    _, problems = check_links(site, tmp_path)
    assert any("#msg-0" in p for p in problems), problems
    assert any("no-such-page" in p for p in problems), problems
    assert any("#no-such-paragraph" in p for p in problems), problems
