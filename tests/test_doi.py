"""The essay's DOI (`extra.essay.doi`): checked, and given wherever the essay is cited,
described or archived; for the whole essay only, never for a section or a message."""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path

import pytest
import yaml
from cffconvert import Citation  # type: ignore[import-untyped]  # cffconvert ships no type hints
from mkdocs.utils.yaml import yaml_load
from pypdf import PdfReader, PdfWriter

from author_project import author_project
from conftest import PUBLIC_URL, ROOT, build, selected, soup
from essay_pdf import PrintedPage, finish_pdf
from essaycite.cff import citation_cff_text
from essaycite.doi import bare_doi
from essaycite.exchange import csl_item, ris
from essaycite.formats import apa, chicago, mla
from essaycite.zenodo import zenodo_json_text, zenodo_metadata
from sitebuild.settings import essay_metadata
from test_citation_formats import META, NAMED

DOI = "10.5281/zenodo.1234567"
DOI_URL = f"https://doi.org/{DOI}"


def with_doi(project: Path, doi: str) -> Path:
    """The project's mkdocs.yml with `doi` set under extra.essay, as an author writes it."""
    config = project / "mkdocs.yml"
    text, count = re.subn(r"^    edition: .*\n", lambda m: f"{m.group()}    doi: {doi}\n",
                          config.read_text(encoding="utf-8"), flags=re.MULTILINE)
    assert count == 1
    config.write_text(text, encoding="utf-8")
    return project


@pytest.fixture(scope="module")
def project(tmp_path_factory) -> Path:
    """A signed essay (a person and an organisation), its DOI given as its address."""
    project = with_doi(author_project("rollout", tmp_path_factory.mktemp("doi") / "project"), DOI_URL)
    result = build(project, project / "site", SITE_URL=PUBLIC_URL)
    assert result.returncode == 0 and "WARNING" not in result.stderr, result.stderr
    return project


@pytest.fixture(scope="module")
def site(project) -> Path:
    return project / "site"


# --- the setting -------------------------------------------------------------------------

@pytest.mark.parametrize("given", [DOI, DOI_URL, f"doi:{DOI}", f"DOI:{DOI}", f"http://dx.doi.org/{DOI}",
                                   "10.1000.10/ABC-(1)_x;y<z>#%"])
def test_a_doi_is_read_in_each_form_and_kept_bare(given):
    assert bare_doi(given) == given.split("doi.org/")[-1].removeprefix("doi:").removeprefix("DOI:")


@pytest.mark.parametrize("given", ["zenodo.1234567", "10.abc/x", "10.5281/", "10.5281/a b", "11.5281/x",
                                   "10.5281/a{b}", "https://example.org/10.5281/x", "10.5281/é"])
def test_what_is_no_doi_is_refused(given):
    assert bare_doi(given) is None


@pytest.mark.parametrize("given", ["'zenodo.1234567'", "'10.5281/a b'", "12345"])
def test_a_bad_doi_stops_the_build_with_one_line_naming_the_setting(tmp_path, given):
    project = with_doi(author_project("rollout", tmp_path / "project"), given)
    result = build(project, tmp_path / "site")
    assert result.returncode != 0 and "Traceback" not in result.stderr, result.stderr
    problems = [line for line in result.stderr.splitlines() if "extra.essay.doi" in line]
    assert len(problems) == 1, result.stderr
    shown = repr(yaml.safe_load(given))
    assert problems[0].endswith(f"mkdocs.yml: extra.essay.doi: expected a DOI such as 10.5281/zenodo.1234567, "
                                f"found {shown}"), problems[0]


# --- the citations -----------------------------------------------------------------------

@pytest.mark.parametrize("style", [apa, mla, chicago])
@pytest.mark.parametrize("meta", [META, NAMED], ids=["unsigned", "signed"])
def test_the_styles_end_the_essays_citation_with_its_doi_and_a_parts_with_its_url(style, meta):
    meta = dataclasses.replace(meta, doi=DOI)
    essay = style(meta)
    assert [text for kind, text in essay.runs if kind == "url"] == [DOI_URL]
    assert meta.url not in essay.text
    section = meta.part("The Context", "context/")
    for part in (section, meta.message(5855)):
        cited = style(meta, part)
        assert [text for kind, text in cited.runs if kind == "url"] == [part.url]
        assert DOI not in cited.text


def test_without_a_doi_the_citations_end_with_the_url():
    assert [text for kind, text in apa(NAMED).runs if kind == "url"] == [NAMED.url]
    assert "DOI" not in csl_item(NAMED) and "DO  -" not in ris(NAMED)


def test_the_downloads_give_the_doi_of_the_essay_alone(site):
    items = json.loads((site / "cite" / "essay.json").read_text(encoding="utf-8"))
    assert items[0]["DOI"] == DOI and items[0]["URL"] == PUBLIC_URL
    assert len(items) > 1 and all("DOI" not in item for item in items[1:])
    records = (site / "cite" / "essay.ris").read_bytes().decode("utf-8").split("ER  - \r\n")
    assert f"DO  - {DOI}\r\n" in records[0]
    assert not any("DO  -" in record for record in records[1:])
    for name in ("essay.bib", "essay-biblatex.bib"):
        entries = (site / "cite" / name).read_text(encoding="utf-8").split("\n@")
        assert f"  doi = {{{DOI}}}" in entries[0].splitlines(), name
        assert not any("doi =" in entry for entry in entries[1:]), name


def test_the_cite_boxes_show_the_essays_doi_and_a_sections_url(site):
    home, section = soup(site / "index.html"), soup(site / "search" / "index.html")
    # The home page's section box cites its section; the essay's citations are on the how-to-cite page.
    essay_apa = selected(soup(site / "how-to-cite" / "index.html"), 'dd[data-style="APA"] p.citation')
    assert DOI_URL in [a["href"] for a in essay_apa.find_all("a")]
    for page in (home, section):
        section_apa = selected(page, '#cite-this-section dd[data-style="APA"] p.citation')
        assert [a["href"] for a in section_apa.find_all("a")] != [DOI_URL]
        assert DOI not in section_apa.get_text()


# --- the pages ---------------------------------------------------------------------------

def meta_contents(page, name: str) -> list[str]:
    return [tag["content"] for tag in page.find_all("meta", attrs={"name": name})]


def test_the_home_page_head_gives_the_doi_to_scholar_and_dublin_core(site):
    home = soup(site / "index.html")
    assert meta_contents(home, "citation_doi") == [DOI]
    assert meta_contents(home, "DC.identifier") == [PUBLIC_URL, f"doi:{DOI}"]
    assert [link["href"] for link in home.find_all("link", rel="cite-as")] == [DOI_URL]


def test_a_section_head_gives_no_doi(site):
    section = soup(site / "search" / "index.html")
    assert meta_contents(section, "citation_doi") == []
    assert meta_contents(section, "DC.identifier") == [PUBLIC_URL + "search/"]
    assert section.find("link", rel="cite-as") is None


def test_the_one_page_essay_is_cited_by_its_doi(site):
    assert [link["href"] for link in soup(site / "print" / "index.html").find_all("link", rel="cite-as")] == [DOI_URL]


@pytest.mark.parametrize("page", ["index.html", "search/index.html"])
def test_the_byline_links_to_the_doi(site, page):
    byline = selected(soup(site / page), "p.essay-byline")
    links = {a.get_text(): a["href"] for a in byline.find_all("a")}
    assert links["DOI"] == DOI_URL


def test_without_a_doi_the_byline_has_no_doi_link(tmp_path):
    project = author_project("rollout", tmp_path / "project")
    result = build(project, tmp_path / "site")
    assert result.returncode == 0, result.stderr
    home = soup(tmp_path / "site" / "index.html")
    assert "DOI" not in selected(home, "p.essay-byline").get_text()
    assert meta_contents(home, "citation_doi") == [] and home.find("link", rel="cite-as") is None
    assert "doi" not in yaml.safe_load((project / "CITATION.cff").read_text(encoding="utf-8"))


# --- the files beside mkdocs.yml -----------------------------------------------------------

def test_citation_cff_gives_the_doi(project):
    cff = yaml.safe_load((project / "CITATION.cff").read_text(encoding="utf-8"))
    assert cff["doi"] == DOI and cff["preferred-citation"]["doi"] == DOI


def test_citation_cff_with_a_doi_is_valid_against_the_cff_schema(project):
    Citation((project / "CITATION.cff").read_text(encoding="utf-8")).validate()  # raises on any fault


def test_the_zenodo_file_describes_the_essay(project):
    data = json.loads((project / ".zenodo.json").read_text(encoding="utf-8"))
    assert data == {
        "title": "A Setting Changed in Codex CLI: Looking Before Changing",
        "upload_type": "publication",
        "publication_type": "other",
        "creators": [{"name": "Ñúñez-Ødegaard, José"}, {"name": "Acme Research, Inc."}],
        "description": "An essay on a default changed in a Codex CLI session, with the whole session.",
        "publication_date": "2027-02-01",
        "version": "1",
        "related_identifiers": [{"identifier": PUBLIC_URL, "relation": "isSourceOf", "scheme": "url"}],
    }


def test_the_zenodo_file_leaves_out_an_unsigned_essays_creators_and_a_local_address():
    local = dataclasses.replace(META, url="http://127.0.0.1:8000/")
    data = zenodo_metadata(local)
    assert "creators" not in data and "related_identifiers" not in data
    assert zenodo_metadata(META)["related_identifiers"][0]["identifier"] == META.url


# --- the PDF -----------------------------------------------------------------------------

def test_the_pdf_carries_the_doi_of_the_page_it_was_printed_from(site, tmp_path):
    pdf = tmp_path / "essay.pdf"
    writer = PdfWriter()
    writer.add_blank_page(width=200, height=200)
    writer.write(pdf)
    finish_pdf(str(pdf), "http://127.0.0.1:1/", PrintedPage.read(site / "print" / "index.html", "print/index.html"))
    info = PdfReader(pdf).metadata
    assert info is not None
    assert (str(info["/DOI"]), str(info["/Keywords"])) == (DOI, f"doi:{DOI}")
    assert info["/Title"] and info["/Author"]


def test_the_repositorys_zenodo_file_is_what_mkdocs_yml_gives():
    essay = essay_metadata(yaml_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8")))
    assert (ROOT / ".zenodo.json").read_text(encoding="utf-8") == zenodo_json_text(essay)


def test_the_build_writes_the_zenodo_file_only_when_it_changes(project):
    zenodo = project / ".zenodo.json"
    written = zenodo.read_text(encoding="utf-8")
    again = build(project, project / "again", SITE_URL=PUBLIC_URL)
    assert again.returncode == 0 and ".zenodo.json" not in again.stderr, again.stderr
    assert zenodo.read_text(encoding="utf-8") == written
    elsewhere = build(project, project / "again", SITE_URL="https://example.net/essay/")
    assert ".zenodo.json written from mkdocs.yml: its related_identifiers differed" in elsewhere.stderr
    assert json.loads(zenodo.read_text(encoding="utf-8"))["related_identifiers"][0]["identifier"] == \
        "https://example.net/essay/"
    build(project, project / "again", SITE_URL=PUBLIC_URL)  # as the other tests of the module read it


@pytest.mark.parametrize("doi, kept", [("10.1000.10/ABC-(1)_x;y", True), ("10.1000/a<b>#c", False), ("10.12/x", False)])
def test_citation_cff_leaves_out_a_doi_its_schema_refuses(doi, kept):
    text = citation_cff_text(dataclasses.replace(NAMED, doi=doi))
    Citation(text).validate()
    assert yaml.safe_load(text).get("doi") == (doi if kept else None)
