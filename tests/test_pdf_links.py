"""A link to the essay's PDF is shown only where it leads to the PDF: a plain build (as
`scripts/serve.sh` makes) links to none and says how to make it; a build as the Pages
workflow runs it, the PDF printed after it, links every page of the site to it."""

from __future__ import annotations

import posixpath
from pathlib import Path
from urllib.parse import unquote, urlsplit

import yaml

from author_project import author_project
from conftest import PUBLISHING, ROOT, attribute, build, published, soup


def pdf_links(site: Path) -> dict[str, list[str]]:
    """The links to a PDF on each page of the site (by its path in the site)."""
    return {page.relative_to(site).as_posix(): [attribute(a, "href") for a in soup(page).select('a[href$=".pdf"]')]
            for page in sorted(site.rglob("*.html"))}


def target(site: Path, page: str, href: str) -> Path:
    """The file of the site a link of `page` leads to: a path from the host's root is one
    from the site's (served at http://127.0.0.1:8000/, a build's site_url without SITE_URL)."""
    assert not urlsplit(href).scheme and not urlsplit(href).netloc, f"{page}: {href} leads out of the site"
    path = href.lstrip("/") if href.startswith("/") else posixpath.join(posixpath.dirname(page), href)
    return site / posixpath.normpath(unquote(path))


def decorators(tmp_path: Path) -> Path:
    """The fixture essay, with a note on the text."""
    project = author_project("decorators", tmp_path / "project")
    (project / "docs" / "note-on-the-text.md").write_text("# Note on the text\n\nNo change was made.\n")
    return project


def test_a_plain_build_links_to_no_missing_pdf_and_says_how_to_make_it(tmp_path: Path) -> None:
    site = tmp_path / "site"
    result = build(decorators(tmp_path), site)
    assert result.returncode == 0 and "WARNING" not in result.stderr, result.stderr
    assert not (site / "essay.pdf").exists()
    for page, hrefs in pdf_links(site).items():
        for href in hrefs:
            assert target(site, page, href).is_file(), f"{page}: {href} leads to no file"
    assert not any(pdf_links(site).values())
    assert not soup(site / "index.html").select('meta[name="citation_pdf_url"]')
    assert "No page links to essay.pdf, which this build does not make" in result.stderr
    assert "scripts/essay_pdf.py SITE -o SITE/essay.pdf" in result.stderr


def test_a_build_as_published_links_every_page_to_the_pdf(tmp_path: Path) -> None:
    site = published(tmp_path / "site", decorators(tmp_path))
    links = pdf_links(site)
    assert {"404.html", "index.html", "transcript/index.html", "note-on-the-text/index.html",
            "how-to-cite/index.html", "print/index.html"} <= set(links)
    for page, hrefs in links.items():
        footer = [attribute(a, "href") for a in soup(site / page).select('.md-copyright a[type="application/pdf"]')]
        assert len(footer) == 1, f"{page}: {footer}"
        for href in hrefs:
            assert target(site, page, href) == site / "essay.pdf", f"{page}: {href}"
    assert (site / "essay.pdf").read_bytes().startswith(b"%PDF-")


def test_a_pdf_in_the_docs_folder_is_linked_by_a_plain_build(tmp_path: Path) -> None:
    project = decorators(tmp_path)
    (project / "docs" / "essay.pdf").write_bytes(b"%PDF-1.4\n")
    site = tmp_path / "site"
    result = build(project, site)
    assert result.returncode == 0 and "WARNING" not in result.stderr, result.stderr
    links = pdf_links(site)
    assert all(links.values()), links
    assert all(target(site, page, href).is_file() for page, hrefs in links.items() for href in hrefs)


def test_the_pages_workflow_builds_as_the_tests_publish() -> None:
    workflow = yaml.safe_load((ROOT / ".github" / "workflows" / "pages.yml").read_text(encoding="utf-8"))
    step = next(step for step in workflow["jobs"]["build"]["steps"] if step.get("name") == "Build")
    assert PUBLISHING.items() <= step["env"].items()
    assert "scripts/essay_pdf.py site -o site/essay.pdf" in step["run"]

