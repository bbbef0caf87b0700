"""What a section is cited by: the name its author gave it, never a word the build makes.

The essay of tests/projects/decorators is written as the README's steps show: its home
page a title, paragraphs and the contents line, with no heading of its own before its
first paragraph; the contents bring a heading, "Contents", that is the build's word."""

from __future__ import annotations

import json
from pathlib import Path

import markdown
import pytest
import yaml

from author_project import author_project, fixture_settings
from conftest import build, built_cleanly, selected, soup
from sitebuild.records import PageOutline

SETTINGS = fixture_settings("decorators")
HOME_TITLE = "Learning Decorators"  # the home page's level-one heading
SECTION_TITLES = [HOME_TITLE, "A Timing Decorator"]


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return built_cleanly(author_project("decorators", tmp_path_factory.mktemp("names") / "project"))


def section_titles(site: Path) -> dict[str, list[str]]:
    """The titles of the sections, after the essay's, in each download of cite/."""
    csl = json.loads((site / "cite" / "essay.json").read_text(encoding="utf-8"))
    ris = (site / "cite" / "essay.ris").read_text(encoding="utf-8").splitlines()
    bib = (site / "cite" / "essay.bib").read_text(encoding="utf-8").splitlines()
    return {"CSL-JSON": [item["title"] for item in csl[1:]],
            "RIS": [line.removeprefix("TI  - ") for line in ris if line.startswith("TI  - ")][1:],
            "BibTeX": [line.split("{", 1)[1].rsplit("}", 1)[0] for line in bib if line.startswith("  title = ")][1:]}


def test_the_home_page_holds_the_contents_heading_and_no_heading_of_its_own(site: Path) -> None:
    home = soup(site / "index.html")
    assert selected(home, "nav.essay-contents h2").get_text(strip=True).rstrip("¶") == "Contents"
    assert [h.get_text(strip=True).rstrip("¶") for h in home.select("article h2")] == ["Contents"]


def test_the_home_pages_section_is_cited_by_its_title(site: Path) -> None:
    box = selected(soup(site / "index.html"), "#cite-this-section")
    mla = selected(box, 'dd[data-style="MLA"] p.citation').get_text()
    assert f"“{HOME_TITLE}.”" in mla, mla
    assert "Contents" not in box.get_text()
    assert [a.get_text() for a in box.select("p.citation a")] == ["http://127.0.0.1:8000/"] * 3


def test_the_downloads_name_each_section_by_its_title(site: Path) -> None:
    assert section_titles(site) == dict.fromkeys(("CSL-JSON", "RIS", "BibTeX"), SECTION_TITLES)
    for download in (site / "cite").iterdir():
        assert "Contents" not in download.read_text(encoding="utf-8"), download.name
        assert "#contents" not in download.read_text(encoding="utf-8"), download.name


def test_how_to_cite_names_the_home_pages_title_in_its_example(site: Path) -> None:
    page = soup(site / "how-to-cite" / "index.html")
    examples = [p.get_text() for p in page.select(".citations-shown > p")]
    assert f"Paragraph 1 of “{HOME_TITLE}”, cited by its own address:" in examples, examples
    assert not [box for box in page.select(".citations-shown") if "Contents" in box.get_text()]


def test_cite_as_names_a_section(tmp_path: Path) -> None:
    project = author_project("decorators", tmp_path / "project")
    for src, name in (("index.md", "Three Requests"), ("timing.md", "Timing It")):
        page = project / "docs" / src
        page.write_text(f"---\ncite_as: {name}\n---\n\n" + page.read_text(encoding="utf-8"), encoding="utf-8")
    site = built_cleanly(project)
    assert section_titles(site)["CSL-JSON"] == ["Three Requests", "Timing It"]
    mla = selected(soup(site / "timing" / "index.html"), '#cite-this-section dd[data-style="MLA"]').get_text()
    assert "“Timing It.”" in mla


def test_a_bad_cite_as_stops_the_build_naming_the_page(tmp_path: Path) -> None:
    project = author_project("decorators", tmp_path / "project")
    page = project / "docs" / "timing.md"
    page.write_text("---\ncite_as: [one, two]\n---\n\n" + page.read_text(encoding="utf-8"), encoding="utf-8")
    result = build(project, tmp_path / "site")
    assert result.returncode == 1
    assert "docs/timing.md: front matter: cite_as: expected the name to cite the section by" in result.stderr
    assert "Traceback" not in result.stderr


def untitled(project: Path) -> Path:
    """The project with its second section's title taken away."""
    page = project / "docs" / "timing.md"
    page.write_text(page.read_text(encoding="utf-8").replace("# A Timing Decorator\n\n", ""), encoding="utf-8")
    return project


def test_a_section_with_no_name_is_warned_of_naming_the_page(tmp_path: Path) -> None:
    result = build(untitled(author_project("decorators", tmp_path / "project")), tmp_path / "site")
    assert result.returncode == 1
    warnings = [line for line in result.stderr.splitlines() if line.startswith("WARNING")]
    assert len(warnings) == 1 and "docs/timing.md: the section has no title" in warnings[0], result.stderr
    assert "'Timing', after its file" in warnings[0]


@pytest.mark.parametrize("named", ["front matter", "navigation"])
def test_a_title_outside_the_text_names_a_section(tmp_path: Path, named: str) -> None:
    project = untitled(author_project("decorators", tmp_path / "project"))
    if named == "front matter":
        page = project / "docs" / "timing.md"
        page.write_text("---\ntitle: Timed\n---\n\n" + page.read_text(encoding="utf-8"), encoding="utf-8")
    else:
        config = project / "mkdocs.yml"
        nav = {"nav": ["index.md", {"Timed": "timing.md"}, "how-to-cite.md", "transcript/index.md"]}
        config.write_text(yaml.safe_dump(nav) + config.read_text(encoding="utf-8"), encoding="utf-8")
    assert section_titles(built_cleanly(project))["RIS"] == [HOME_TITLE, "Timed"]


@pytest.mark.parametrize(("text", "opening"), [
    ("# Title\n\nA paragraph.\n\n## Later\n", None),
    ("# Title\n\n## Introduction\n\nA paragraph.\n", "introduction"),
    ("## Introduction\n\nA paragraph.\n", "introduction"),
    ('# Title\n\n<nav markdown>\n\n## Contents\n\n</nav>\n\n## Later\n', None),
])
def test_the_heading_a_page_opens_with_is_the_authors_alone(text: str, opening: str | None) -> None:
    recorded: list[str | None] = []
    markdown.Markdown(extensions=["toc", "md_in_html", PageOutline(lambda _, found: recorded.append(found))]
                      ).convert(text)
    assert recorded[-1] == opening  # the page's own run, after those over its headings' names
