"""The repository as a template: an essay of an author's own, made as the README tells
(their pages, their settings in mkdocs.yml, a transcript imported from their log), built
with the real `mkdocs build --strict`, holds their essay and nothing of the one shipped."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from author_project import SHIPPED_CONFIG, author_project, fixture_settings
from conftest import ESSAY, ROOT, attribute, build, built_cleanly, selected, soup
from essay_source import holds_the_shipped_essay
from sitebuild.config_file import read_config
from sitebuild.page_list import page_title

SETTINGS = fixture_settings("orchestrator")
FIRST_CITED = 1  # the first message the essay of tests/projects/orchestrator cites


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return built_cleanly(author_project("orchestrator", tmp_path_factory.mktemp("own") / "project"))


def text_files(site: Path) -> list[Path]:
    """What the site says, the theme's own scripts and styles left aside."""
    return [path for path in site.rglob("*") if path.is_file() and "assets" not in path.relative_to(site).parts
            and path.suffix in (".html", ".json", ".bib", ".ris", ".txt", ".xml")]


def shipped_essay_phrases() -> list[str]:
    """What names the essay this repository shipped: its title, description and section titles."""
    config = read_config(ESSAY / "mkdocs.yml")
    essay = config["extra"]["essay"]
    docs = ESSAY / "docs"
    titles = [page_title((docs / src).read_text(encoding="utf-8"), src) for src in essay["sections"]]
    phrases = [config["site_name"], essay["title"], " ".join(str(config.get("site_description", "")).split()),
               *titles]
    return [phrase for phrase in phrases if len(phrase.split()) > 1]  # a single word may be anyone's


def test_an_authors_settings_in_the_repository_reach_no_essay_of_the_tests(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # A copy made theirs: a navigation of their own pages, and every message shown.
    copy = tmp_path / "their-copy"
    for part in ("hooks", "docs/assets", "scripts"):
        shutil.copytree(ROOT / part, copy / part, ignore=shutil.ignore_patterns("__pycache__"))
    config = SHIPPED_CONFIG.read_text(encoding="utf-8").replace("    context: 0 ", "    context: all ")
    assert "context: all" in config
    (copy / "mkdocs.yml").write_text("nav: [index.md, about.md]\n" + config, encoding="utf-8")
    monkeypatch.setattr("author_project.ROOT", copy)
    site = built_cleanly(author_project("orchestrator", tmp_path / "project"))
    links = [attribute(a, "href") for a in soup(site / "index.html").select("nav.md-nav--primary > ul > li > a")]
    assert links == [".", "subagents/", "ending/", "how-to-cite/", "transcript/"], links
    intro = selected(soup(site / "transcript" / "index.html"), "article > p").get_text(" ", strip=True)
    assert intro.startswith("The messages of the session that the essay cites."), intro


@holds_the_shipped_essay
def test_the_essays_of_the_tests_are_made_from_the_mkdocs_yml_shipped() -> None:
    # Kept beside the shipped essay, so that an author's settings reach no essay of the
    # tests; where docs/ holds the shipped essay, the two are the same, comments aside.
    assert read_config(SHIPPED_CONFIG) == read_config(ROOT / "mkdocs.yml")


def test_the_site_holds_nothing_of_the_shipped_essay(site: Path) -> None:
    phrases = shipped_essay_phrases()
    assert phrases
    for path in text_files(site):
        text = path.read_text(encoding="utf-8")
        for phrase in phrases:
            assert phrase not in text, f"{path.relative_to(site)} holds {phrase!r}"
    assert not (site / "source-text.txt").exists()
    assert not (site / "note-on-the-text").exists()


def test_the_navigation_is_the_sections_then_the_sites_pages(site: Path) -> None:
    page = soup(site / "index.html")
    links = [attribute(a, "href") for a in page.select("nav.md-nav--primary > ul > li > a.md-nav__link")]
    assert links == [".", "subagents/", "ending/", "how-to-cite/", "transcript/"], links


def test_the_home_page_lists_the_other_sections(site: Path) -> None:
    contents = selected(soup(site / "index.html"), "nav.essay-contents")
    assert [a.get_text() for a in contents.select("ol a")] == ["Subagents at Work", "Ending"]
    also = [attribute(a, "href") for a in contents.select("p a")]
    assert also == ["print/", "how-to-cite/", "transcript/"]
    assert "of the messages of the session that the essay cites" in contents.get_text(" ", strip=True)


def test_every_citation_names_the_essay_and_its_author(site: Path) -> None:
    title, (given, family) = SETTINGS["title"], SETTINGS["site_author"].split()
    bib = (site / "cite" / "essay.bib").read_text(encoding="utf-8")
    assert f"author = {{{family}, {given}}}" in bib and "Orchestrating a {README}: Subagents at Work" in bib
    ris = (site / "cite" / "essay.ris").read_text(encoding="utf-8").splitlines()
    assert f"TI  - {title}" in ris and f"AU  - {family}, {given}" in ris
    csl = json.loads((site / "cite" / "essay.json").read_text(encoding="utf-8"))[0]
    assert csl["title"] == title and csl["author"] == [{"family": family, "given": given}]
    head = soup(site / "index.html")
    assert attribute(selected(head, 'meta[name="citation_title"]'), "content") == title
    assert attribute(selected(head, 'meta[name="citation_author"]'), "content") == f"{given} {family}"
    shown = selected(soup(site / "how-to-cite" / "index.html"), "div.citations-shown p.citation").get_text()
    assert shown.startswith(f"{family}, {given[0]}. (2027, January 15). Orchestrating a README"), shown


def test_how_to_cite_is_made_from_the_essay(site: Path) -> None:
    page = soup(site / "how-to-cite" / "index.html")
    headings = [h2.get_text(strip=True).rstrip("¶") for h2 in page.select("article h2")]
    # Its pages have no paragraph anchors: no paragraph is offered as an example.
    assert headings == ["The whole essay", "A section", "A message of the session", "The edition"]
    addresses = [box.get_text() for box in page.select(".citations-shown .cite-address a, .citations-shown a")]
    assert any(address.endswith(f"/transcript/#msg-{FIRST_CITED}") for address in addresses), addresses
    assert "subagents/" in selected(page, "div.citations-shown:nth-of-type(2)").get_text() or any(
        "/subagents/" in text for text in addresses)
    assert "names no author" not in page.get_text()


def test_how_to_cite_shows_the_first_paragraph_once_paragraphs_have_anchors(tmp_path: Path) -> None:
    project = author_project("orchestrator", tmp_path / "project")
    pages = [str(project / "docs" / src) for src in SETTINGS["sections"]]
    anchored = subprocess.run([sys.executable, str(ROOT / "scripts" / "paragraph_ids.py"), *pages],
                              capture_output=True, text=True, timeout=60)
    assert anchored.returncode == 0, anchored.stderr
    page = soup(built_cleanly(project) / "how-to-cite" / "index.html")
    headings = [h2.get_text(strip=True).rstrip("¶") for h2 in page.select("article h2")]
    assert "A paragraph" in headings
    first = (project / "docs" / "index.md").read_text(encoding="utf-8")
    anchor = first.split("{ #", 1)[1].split(" }", 1)[0]
    assert any(attribute(a, "href").endswith(f"/#{anchor}") for a in page.select(".citations-shown a[href]"))


def test_the_transcript_says_what_it_shows(site: Path) -> None:
    intro = selected(soup(site / "transcript" / "index.html"), "article > p").get_text(" ", strip=True)
    assert intro.startswith("The messages of the session that the essay cites. Each is shown word for word. ")


def test_a_note_on_the_text_is_listed_and_linked_when_there_is_one(tmp_path: Path) -> None:
    project = author_project("orchestrator", tmp_path / "project")
    (project / "docs" / "note-on-the-text.md").write_text("# Note on the text\n\nNo change was made.\n")
    site = built_cleanly(project)
    links = [attribute(a, "href") for a in soup(site / "index.html").select("nav.md-nav--primary > ul > li > a")]
    assert links[-2:] == ["note-on-the-text/", "transcript/"], links
    intro = selected(soup(site / "transcript" / "index.html"), "article > p")
    assert attribute(selected(intro, "a"), "href") == "../note-on-the-text/"


def test_a_page_that_is_no_section_is_named_by_the_strict_build(tmp_path: Path) -> None:
    project = author_project("orchestrator", tmp_path / "project")
    (project / "docs" / "about.md").write_text("# About\n\nThe author.\n", encoding="utf-8")
    result = build(project, tmp_path / "site")
    assert result.returncode == 1
    assert "are not included in the \"nav\" configuration:\n  - about.md" in result.stderr


def test_a_written_navigation_is_kept(tmp_path: Path) -> None:
    project = author_project("orchestrator", tmp_path / "project")
    config = project / "mkdocs.yml"
    nav = yaml.safe_dump({"nav": ["index.md", "ending.md", "subagents.md", "how-to-cite.md", "transcript/index.md"]})
    config.write_text(nav + config.read_text(encoding="utf-8"), encoding="utf-8")
    links = [attribute(a, "href") for a in soup(built_cleanly(project) / "index.html")
             .select("nav.md-nav--primary > ul > li > a")]
    assert links == [".", "ending/", "subagents/", "how-to-cite/", "transcript/"], links


# --- An essay of two authors, one an organisation, with the whole session shown ---------

@pytest.fixture(scope="module")
def rollout(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return author_project("rollout", tmp_path_factory.mktemp("rollout") / "project")


@pytest.fixture(scope="module")
def rollout_site(rollout: Path) -> Path:
    return built_cleanly(rollout)


def test_every_format_names_each_author_person_or_organisation(rollout: Path, rollout_site: Path) -> None:
    bib = (rollout_site / "cite" / "essay.bib").read_text(encoding="utf-8")
    assert "author = {{Ñúñez-Ødegaard}, José and {Acme Research, Inc.}}" in bib
    csl = json.loads((rollout_site / "cite" / "essay.json").read_text(encoding="utf-8"))[0]
    assert csl["author"] == [{"family": "Ñúñez-Ødegaard", "given": "José"}, {"literal": "Acme Research, Inc."}]
    ris = (rollout_site / "cite" / "essay.ris").read_text(encoding="utf-8").split("ER  -")[0].splitlines()
    assert [line for line in ris if line.startswith("AU  - ")] == ["AU  - Ñúñez-Ødegaard, José",
                                                                   "AU  - Acme Research, Inc."]
    head = soup(rollout_site / "index.html")
    assert [attribute(meta, "content") for meta in head.select('meta[name="citation_author"]')] == [
        "José Ñúñez-Ødegaard", "Acme Research, Inc."]
    assert attribute(selected(head, 'meta[name="author"]'), "content") == "José Ñúñez-Ødegaard; Acme Research, Inc."
    cff = yaml.safe_load((rollout / "CITATION.cff").read_text(encoding="utf-8"))
    assert cff["title"] == fixture_settings("rollout")["title"]
    assert cff["authors"] == [{"family-names": "Ñúñez-Ødegaard", "given-names": "José"},
                              {"name": "Acme Research, Inc."}]


def test_a_whole_session_is_said_to_be_whole(rollout_site: Path) -> None:
    intro = selected(soup(rollout_site / "transcript" / "index.html"), "article > p").get_text(" ", strip=True)
    assert intro.startswith("Every message of the session. Each is shown word for word. A message's text is set")
    contents = selected(soup(rollout_site / "index.html"), "nav.essay-contents")
    assert "the transcript of every message of the session" in contents.get_text(" ", strip=True)
    page = soup(rollout_site / "transcript" / "index.html")
    assert len(page.select("[id^=msg-]:not([id*=preview])")) >= 31  # uncited messages too
