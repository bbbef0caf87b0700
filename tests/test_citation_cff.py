"""CITATION.cff: valid against the CFF 1.2.0 schema, and in step with mkdocs.yml."""

from __future__ import annotations

import pytest
import yaml
from cffconvert import Citation  # type: ignore[import-untyped]  # cffconvert ships no type hints
from jsonschema.exceptions import ValidationError  # type: ignore[import-untyped]  # its hints ship apart, as types-jsonschema
from mkdocs.utils.yaml import yaml_load

from conftest import ESSAY, ROOT, build
from essaycite.cff import citation_cff_text, what_differs
from essaycite.metadata import EssayMetadata, Person
from sitebuild.settings import essay_metadata

CFF = ROOT / "CITATION.cff"


@pytest.fixture(scope="module")
def cff_text() -> str:
    return CFF.read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def cff(cff_text) -> dict:
    return yaml.safe_load(cff_text)


@pytest.fixture(scope="module")
def essay() -> EssayMetadata:
    return essay_metadata(yaml_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8")))


def test_valid_against_the_cff_1_2_0_schema(cff_text):
    citation = Citation(cff_text)
    assert citation.cffversion == "1.2.0"
    citation.validate()  # raises ValidationError on any fault


def test_the_validator_rejects_a_broken_file(cff):
    # The check above would pass on anything if the schema were not applied.
    broken = {key: value for key, value in cff.items() if key != "authors"}
    with pytest.raises(ValidationError, match="authors"):
        Citation(yaml.safe_dump(broken)).validate()


def cff_authors(essay: EssayMetadata) -> list[dict]:
    """The authors CITATION.cff must list for the settings: each person by family and
    given names, each organisation by its name, or, for an unsigned essay, one person
    whose name is not given."""
    if not essay.authors:
        return [{}]
    listed: list[dict] = []
    for author in essay.authors:
        if isinstance(author, Person):
            listed.append({"family-names": author.family, **({"given-names": author.given} if author.given else {})})
        else:
            listed.append({"name": author.name})
    return listed


def test_agrees_with_mkdocs_yml(cff, essay):
    assert cff["title"] == essay.title
    assert cff["version"] == str(essay.edition)
    assert cff["date-released"] == essay.published
    assert cff["authors"] == cff_authors(essay)


def test_an_unsigned_essay_gets_no_invented_name():
    # What GitHub and reference managers make of the file: cffconvert's exports name no one.
    unsigned = essay_metadata(yaml_load((ESSAY / "mkdocs.yml").read_text(encoding="utf-8")))
    assert unsigned.authors == ()
    citation = Citation(citation_cff_text(unsigned))
    for export in (citation.as_bibtex(), citation.as_apalike(), citation.as_ris(), citation.as_endnote()):
        assert "anonymous" not in export.lower()
    assert "AU  -" not in citation.as_ris() and "%A" not in citation.as_endnote()


def test_preferred_citation_is_the_essay(cff, essay):
    work = cff["preferred-citation"]
    assert work["type"] == "generic"
    assert work["title"] == essay.title
    assert work["edition"] == str(essay.edition)
    assert work["date-published"] == essay.published
    assert work["authors"] == cff_authors(essay)
    assert work["languages"] == [essay.language]


def test_names_no_local_address(cff_text):
    # A local build's address would send readers nowhere; the public one is added on publishing.
    assert "127.0.0.1" not in cff_text and "localhost" not in cff_text


def test_is_what_mkdocs_yml_gives(cff_text, essay):
    # Written by the build; committed after a change to mkdocs.yml.
    assert cff_text == citation_cff_text(essay)


def test_the_build_writes_the_file_when_it_no_longer_says_what_mkdocs_yml_does(project):
    config = project / "mkdocs.yml"
    cff = project / "CITATION.cff"
    first = build(project, project / "site")
    assert first.returncode == 0, first.stderr
    assert "CITATION.cff written from mkdocs.yml: there was none" in first.stderr
    written = cff.read_text(encoding="utf-8")
    assert written == citation_cff_text(essay_metadata(yaml_load(config.read_text(encoding="utf-8"))))

    again = build(project, project / "site")
    assert "CITATION.cff" not in again.stderr and cff.read_text(encoding="utf-8") == written

    config.write_text(config.read_text(encoding="utf-8").replace("edition: 1", "edition: 2"), encoding="utf-8")
    edited = build(project, project / "site")
    assert "CITATION.cff written from mkdocs.yml: its version differed" in edited.stderr
    assert yaml.safe_load(cff.read_text(encoding="utf-8"))["preferred-citation"]["edition"] == "2"

    cff.write_text("# a comment of one's own\n" + cff.read_text(encoding="utf-8"), encoding="utf-8")
    assert "its comments or layout differed" in build(project, project / "site").stderr


def test_what_differs_is_named_in_a_few_words():
    assert what_differs(None, "a: 1\n") == "there was none"
    assert what_differs("a: 1\n", "a: 1\n") is None
    assert what_differs("a: 1\nb: {c: 2}\n", "a: 1\nb: {c: 3}\n") == "its b.c differed"
    assert what_differs("a: [1\n", "a: 1\n") == "it was not valid YAML"
