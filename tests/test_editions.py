"""Kept editions: scripts/new_edition.py keeps the essay as it stands, the next build
publishes that copy at editions/N/ beside the current edition, with its own words,
citations and address, and a page of what changed since it."""

from __future__ import annotations

import functools
import json
import os
import posixpath
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from bs4 import Tag
from pypdf import PdfReader

from author_project import ROOT, author_project
from conftest import attribute, build, built_cleanly, found, selected, soup
from sitebuild.config_file import read_config
from sitebuild.editions import changed_since_kept, kept_editions, kept_files, publish, relative_href

PUBLIC_URL = "https://example.org/decorators/"  # where the fixture essay is published
KEPT_DATE, NEXT_DATE = "2027-03-10", "2027-04-01"  # the fixture essay's date, and the next edition's
REWORDED = "p-the-assistant-answered-with"  # a paragraph of tests/projects/decorators/docs/index.md
OLD_WORDS = "The assistant answered with an example"
NEW_WORDS = "The assistant replied with a short example"


def new_edition(project: Path, *args: str, site_url: str = PUBLIC_URL) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(ROOT / "scripts" / "new_edition.py"), *args], cwd=project,
                          capture_output=True, text=True, timeout=180,
                          env={**os.environ, "SITE_URL": site_url, "NO_MKDOCS_2_WARNING": "1"})


@pytest.fixture(scope="module")
def kept(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The fixture essay with edition 1 kept, one paragraph then reworded."""
    project = author_project("decorators", tmp_path_factory.mktemp("editions") / "project")
    result = new_edition(project, "--date", NEXT_DATE)
    assert result.returncode == 0, result.stderr
    page = project / "docs" / "index.md"
    page.write_text(page.read_text(encoding="utf-8").replace(OLD_WORDS, NEW_WORDS), encoding="utf-8")
    return project


@pytest.fixture(scope="module")
def site(kept: Path) -> Path:
    return built_cleanly(kept)


def target_of(site: Path, page: str, href: str) -> tuple[Path, str]:
    """The file a relative link of the page at `page` (its path in the site) leads to, and its anchor."""
    path, _, anchor = href.partition("#")
    resolved = posixpath.normpath(posixpath.join(posixpath.dirname(page), path)) if path else page
    file = site / resolved
    return (file / "index.html" if file.is_dir() else file), anchor


def lands(site: Path, page: str, href: str) -> Path:
    file, anchor = target_of(site, page, href)
    assert file.is_file(), f"{href} from {page} leads to no file"
    if anchor:
        found(soup(file).find(id=anchor), f"#{anchor} in {file}")
    return file


def citations(page: Tag) -> dict[str, str]:
    box = selected(page, "#cite-this-section")
    return {attribute(term, "data-style"): found(term.find_next_sibling("dd"), "a citation").get_text()
            for term in box.select("dt")}


def test_keeping_writes_the_copy_its_record_and_the_next_edition(kept: Path) -> None:
    settings = read_config(kept / "mkdocs.yml")["extra"]["essay"]
    assert (settings["edition"], str(settings["published"])) == (2, NEXT_DATE)
    record = json.loads((kept / "docs" / "editions" / "1.json").read_text(encoding="utf-8"))
    assert (record["edition"], record["published"]) == (1, KEPT_DATE)
    copy = kept / "docs" / "editions" / "1"
    assert record["files"] == {path: {"sha256": file.sha256, "bytes": file.size}
                               for path, file in kept_files(str(copy)).items()}
    assert "index.html" in record["files"] and "paragraphs.json" in record["files"]
    assert not [path for path in record["files"] if path.endswith(".map")]


def test_the_kept_edition_keeps_its_words_at_the_same_anchor(site: Path) -> None:
    old = selected(soup(site / "editions" / "1" / "index.html"), f"#{REWORDED}").get_text()
    new = selected(soup(site / "index.html"), f"#{REWORDED}").get_text()
    assert OLD_WORDS in old and NEW_WORDS not in old
    assert NEW_WORDS in new and OLD_WORDS not in new


def test_each_editions_citations_name_it_and_its_own_address(site: Path) -> None:
    old, new = (citations(soup(path / "timing" / "index.html")) for path in (site / "editions" / "1", site))
    assert "1st ed." in old["MLA"] and f"{PUBLIC_URL}editions/1/timing/" in old["MLA"]
    assert "2nd ed." in new["MLA"] and "/editions/" not in new["MLA"]
    assert "(2027, March 10)" in old["APA"] and "(2027, April 1)" in new["APA"]
    bibtex = (site / "editions" / "1" / "cite" / "essay.bib").read_text(encoding="utf-8")
    assert "1st edition}" in bibtex and f"{PUBLIC_URL}editions/1/}}" in bibtex
    current = (site / "cite" / "essay.bib").read_text(encoding="utf-8")
    assert "2nd edition}" in current and "/editions/" not in current
    # Each edition is a work of its own to a reference manager, which merges entries by key.
    assert "@misc{learning-decorators-2027," in bibtex and "@misc{learning-decorators-2027-ed2," in current


def test_a_copy_is_kept_only_at_the_public_address(tmp_path: Path) -> None:
    project = author_project("decorators", tmp_path / "project")
    result = new_edition(project, site_url="http://127.0.0.1:8000/")
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert "give the address the site is published at, as SITE_URL=" in result.stderr
    assert not (project / "docs" / "editions").exists()


def test_a_kept_page_names_the_current_edition_and_links_to_its_page(site: Path) -> None:
    line = selected(soup(site / "editions" / "1" / "timing" / "index.html"), ".later-edition")
    assert "This is edition 1" in line.get_text() and "edition 2" in line.get_text()
    assert lands(site, "editions/1/timing/index.html", attribute(selected(line, "a"), "href")) \
        == site / "timing" / "index.html"


def test_a_current_section_links_to_what_changed_and_to_itself_in_the_kept_edition(site: Path) -> None:
    links = {a.get_text(): attribute(a, "href") for a in selected(soup(site / "timing" / "index.html"),
                                                                   ".essay-byline").select("a")}
    assert lands(site, "timing/index.html", links["Edition 1"]) == site / "editions" / "1" / "timing" / "index.html"
    assert lands(site, "timing/index.html", links["What changed"]) == site / "what-changed" / "index.html"


def test_the_page_of_what_changed_lists_the_reworded_paragraph_alone(site: Path) -> None:
    page = soup(site / "what-changed" / "index.html")
    article = selected(page, "article")
    anchors = {attribute(a, "href").partition("#")[2] for a in article.select("a[href*='#p-']")}
    assert anchors == {REWORDED}
    for a in article.select("a[href*='#p-']"):
        lands(site, "what-changed/index.html", attribute(a, "href"))
    assert any("answered" in element.get_text() for element in article.select("del"))
    assert any("replied" in element.get_text() for element in article.select("ins"))


@pytest.mark.parametrize(("changed", "old", "new"), [
    ("timing/index.html", "A Timing Decorator", "A Better Decorator"),  # the same size: a page is hashed
    ("assets/essay.css", "}", "} "),  # another file is held to its size; the tests hold it to its hash
])
def test_a_kept_edition_changed_afterwards_stops_the_build(kept: Path, tmp_path: Path, changed: str, old: str,
                                                             new: str) -> None:
    project = tmp_path / "project"
    shutil.copytree(kept, project, ignore=shutil.ignore_patterns("site"))
    file = project / "docs" / "editions" / "1" / changed
    file.write_text(file.read_text(encoding="utf-8").replace(old, new, 1), encoding="utf-8")
    result = build(project, tmp_path / "site")
    assert result.returncode != 0
    assert f"docs/editions/1/{changed}: changed since edition 1 was kept" in result.stderr
    assert "Traceback" not in result.stderr
    assert not (tmp_path / "site" / "editions" / "1").exists()
    assert f"{changed}: changed since edition 1 was kept" in (
        changed_since_kept(str(project / "docs"), kept_editions(str(project / "docs"), 2)[0]) or "")


def test_an_edition_is_kept_once(kept: Path, tmp_path: Path) -> None:
    project = tmp_path / "project"
    shutil.copytree(kept, project, ignore=shutil.ignore_patterns("site"))
    config = project / "mkdocs.yml"
    config.write_text(config.read_text(encoding="utf-8").replace("edition: 2", "edition: 1"), encoding="utf-8")
    before = config.read_text(encoding="utf-8")
    result = new_edition(project)
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert "edition 1 is kept, so the current one is a later one" in result.stderr
    assert config.read_text(encoding="utf-8") == before


def test_a_date_before_the_edition_kept_is_refused(tmp_path: Path) -> None:
    project = author_project("decorators", tmp_path / "project")
    result = new_edition(project, "--date", "2027-03-09")
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert "the next edition's date, --date 2027-03-09, is earlier than edition 1's, 2027-03-10" in result.stderr
    assert not (project / "docs" / "editions").exists()


def test_a_copy_differing_from_its_record_is_named(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    (docs / "editions" / "1" / "a").mkdir(parents=True)
    (docs / "editions" / "1" / "a" / "page.html").write_text("kept", encoding="utf-8")
    files = kept_files(str(docs / "editions" / "1"))
    record = {"edition": 1, "published": KEPT_DATE,
              "files": {path: {"sha256": file.sha256, "bytes": file.size} for path, file in files.items()}}
    (docs / "editions" / "1.json").write_text(json.dumps(record), encoding="utf-8")
    [edition] = kept_editions(str(docs), current=2)
    assert changed_since_kept(str(docs), edition) is None
    (docs / "editions" / "1" / "extra.html").write_text("", encoding="utf-8")
    assert "extra.html: added to kept edition 1" in (changed_since_kept(str(docs), edition) or "")
    (docs / "editions" / "1" / "extra.html").unlink()
    (docs / "editions" / "1" / "a" / "page.html").unlink()
    assert "page.html: missing from kept edition 1" in (changed_since_kept(str(docs), edition) or "")


@pytest.mark.parametrize(("from_path", "to_path", "href"), [
    ("editions/1/timing/index.html", "timing/index.html", "../../../timing/"),
    ("editions/1/index.html", "index.html", "../../"),
    ("editions/1/cite.html", "cite.html", "../../cite.html"),
    ("index.html", "index.html", "./"),
])
def test_links_between_pages_of_the_site(from_path: str, to_path: str, href: str) -> None:
    assert relative_href(from_path, to_path) == href


def test_editions_kept_one_after_another_link_to_each_other(tmp_path: Path) -> None:
    project = author_project("decorators", tmp_path / "project")
    for date in ("2027-04-01", "2027-05-01"):
        result = new_edition(project, "--date", date)
        assert result.returncode == 0, result.stderr
    site = built_cleanly(project)
    second = "editions/2/timing/index.html"
    links = {a.get_text(): attribute(a, "href") for a in selected(soup(site / second), ".essay-byline").select("a")}
    assert lands(site, second, links["Edition 1"]) == site / "editions" / "1" / "timing" / "index.html"
    assert lands(site, second, links["What changed"]) == site / "editions" / "2" / "what-changed" / "index.html"
    for kept in ("editions/1/timing/index.html", second):
        line = selected(soup(site / kept), ".later-edition")
        assert "edition 3" in line.get_text()
        assert lands(site, kept, attribute(selected(line, "a"), "href")) == site / "timing" / "index.html"
    changes = soup(site / "what-changed" / "index.html").get_text()
    assert "No paragraph changed from edition 2 to edition 3." in changes


def test_a_kept_edition_gets_its_pdf_when_asked(tmp_path: Path) -> None:
    project = author_project("decorators", tmp_path / "project")
    result = new_edition(project, "--pdf", "--date", NEXT_DATE)
    assert result.returncode == 0, result.stderr
    pdf = PdfReader(project / "docs" / "editions" / "1" / "essay.pdf")
    links = [str(action["/URI"]) for page in pdf.pages for note in page.get("/Annots") or []
             if (action := note.get_object().get("/A")) and "/URI" in action]
    assert links and all(link.startswith(f"{PUBLIC_URL}editions/1/") for link in links)
    site = built_cleanly(project)
    kept = soup(site / "editions" / "1" / "timing" / "index.html")
    assert lands(site, "editions/1/timing/index.html", attribute(selected(kept, ".essay-byline a[href$='.pdf']"),
                                                                 "href")) == site / "editions" / "1" / "essay.pdf"


def test_the_kept_editions_are_listed_where_readers_look_for_them(site: Path) -> None:
    for page in ("how-to-cite/index.html", "what-changed/index.html"):
        article = selected(soup(site / page), "article")
        links = {a.get_text(): attribute(a, "href") for a in article.select("a") if a.get_text() == "edition 1"}
        assert lands(site, page, links["edition 1"]) == site / "editions" / "1" / "index.html"


def test_a_kept_file_is_published_under_a_second_name_and_never_written_through(kept: Path, tmp_path: Path) -> None:
    docs = str(kept / "docs")
    [edition] = kept_editions(docs, current=2)
    for line in ("<p>first</p>", "<p>second</p>"):  # a second build into the same folder
        publish(docs, str(tmp_path), edition, functools.partial(lambda shown, path: shown, line))
    copy, published = kept / "docs" / "editions" / "1", tmp_path / "editions" / "1"
    assert (published / "assets" / "essay.css").samefile(copy / "assets" / "essay.css")
    assert not (published / "index.html").samefile(copy / "index.html")
    assert "<p>second</p>" in (published / "index.html").read_text(encoding="utf-8")
    assert changed_since_kept(docs, edition) is None
