"""Several authors, organisations and names beyond ASCII in every format, each read back
by the real consumer: citeproc-js, classic BibTeX, biber, LaTeX and cffconvert."""

from __future__ import annotations

import dataclasses
import json
import re
import unicodedata
from pathlib import Path

import pytest
import yaml
from bs4 import BeautifulSoup
from cffconvert import Citation  # type: ignore[import-untyped]  # cffconvert ships no type hints

from essaycite.authors import Author, Organisation, Person
from essaycite.casing import sentence_case, sentence_case_hints
from essaycite.cff import citation_cff_text
from essaycite.exchange import biblatex, bibtex, csl_item, ris
from essaycite.formats import apa, chicago, mla
from essaycite.head import dublin_core_tags, highwire_tags, json_ld
from essaycite.metadata import EssayMetadata
from test_citation_formats import NAMED, TITLE, parse_bibtex, parse_ris
from test_citation_processors import (
    STYLE_FUNCTIONS,
    bibtex_run,
    citeproc_entries,
    run,
    segments_of_html,
    segments_of_reference,
)

ANN, BOB, CAROL = Person("Smith", "Ann"), Person("Jones", "Bob"), Person("White", "Carol")
ACME = Organisation("Acme Research, Inc.")
JOSE = Person("Ñúñez-Ødegaard", "José")
OYVIND = Person("Åsheim", "Øyvind Jean-Élie")


def signed(*authors: Author) -> EssayMetadata:
    return dataclasses.replace(NAMED, authors=authors)


def many(count: int) -> EssayMetadata:
    return signed(*(Person(f"Family{n}", f"Given{n}") for n in range(1, count + 1)))


TWO, THREE, ORGANISATION, DIACRITICS = signed(ANN, BOB), signed(ANN, BOB, CAROL), signed(ACME), signed(JOSE, OYVIND)


# --- the styles ---------------------------------------------------------------------------------

@pytest.mark.parametrize("meta, expected", [
    (TWO, {"APA": "Smith, A., & Jones, B. (2026", "MLA": "Smith, Ann, and Bob Jones. \u201c",
           "Chicago": "Smith, Ann, and Bob Jones. \u201c"}),
    (THREE, {"APA": "Smith, A., Jones, B., & White, C. (2026", "MLA": "Smith, Ann, et al. \u201c",
             "Chicago": "Smith, Ann, Bob Jones, and Carol White. \u201c"}),
    (ORGANISATION, {"APA": "Acme Research, Inc. (2026", "MLA": "Acme Research, Inc. \u201c",
                    "Chicago": "Acme Research, Inc. \u201c"}),
    (DIACRITICS, {"APA": "Ñúñez-Ødegaard, J., & Åsheim, Ø. J.-É. (2026",
                  "MLA": "Ñúñez-Ødegaard, José, and Øyvind Jean-Élie Åsheim. \u201c",
                  "Chicago": "Ñúñez-Ødegaard, José, and Øyvind Jean-Élie Åsheim. \u201c"}),
    # An organisation after a person: the same commas as between people.
    (signed(ANN, ACME), {"APA": "Smith, A., & Acme Research, Inc. (2026",
                         "MLA": "Smith, Ann, and Acme Research, Inc. \u201c",
                         "Chicago": "Smith, Ann, and Acme Research, Inc. \u201c"}),
])
def test_each_style_names_the_authors_by_its_rules(meta, expected):
    for style, start in expected.items():
        assert STYLE_FUNCTIONS[style](meta).text.startswith(start), style


def test_apa_lists_twenty_authors_and_shortens_more():
    assert apa(many(20)).text.startswith("Family1, G., " + "".join(f"Family{n}, G., " for n in range(2, 20)) +
                                         "& Family20, G. (2026")
    assert apa(many(21)).text.startswith(", ".join(f"Family{n}, G." for n in range(1, 20)) + ", \u2026 Family21, G. (")


def test_chicago_lists_six_authors_and_shortens_more():
    # Chicago 18 (13.76), the edition the site's entries follow: up to six, else three and "et al.".
    assert chicago(many(6)).text.startswith("Family1, Given1, Given2 Family2, Given3 Family3, Given4 Family4, "
                                            "Given5 Family5, and Given6 Family6. \u201c")
    assert chicago(many(7)).text.startswith("Family1, Given1, Given2 Family2, Given3 Family3, et al. \u201c")
    assert mla(many(7)).text.startswith("Family1, Given1, et al. \u201c")


def test_a_message_names_none_of_the_authors():
    for style in STYLE_FUNCTIONS.values():
        text = style(THREE, THREE.message(7)).text
        assert "Smith" not in text and "Jones" not in text


# --- citeproc-js -----------------------------------------------------------------------------

CASES = [TWO, THREE, ORGANISATION, DIACRITICS, signed(ACME, ANN), many(6), many(7), many(20), many(21)]


@pytest.mark.parametrize("style", sorted(STYLE_FUNCTIONS))
def test_citeproc_js_renders_the_same_names_from_the_csl_json(style):
    items = []
    for index, meta in enumerate(CASES):
        item = dict(csl_item(meta), id=str(index))
        if style == "APA":
            item["title"] = sentence_case(item["title"], meta.proper_nouns)
        items.append(item)
    entries = citeproc_entries(style, items)
    for index, meta in enumerate(CASES):
        assert segments_of_reference(STYLE_FUNCTIONS[style](meta)) == segments_of_html(entries[str(index)]), index


@pytest.mark.parametrize("style", sorted(STYLE_FUNCTIONS))
def test_an_organisation_last_gets_the_comma_citeproc_js_leaves_out(style):
    # citeproc-js drops the serial comma before a `literal` name ("Smith, A. & Acme"); the
    # styles' rules put it there as between people, and so do the site's entries.
    meta = signed(ANN, ACME)
    item = dict(csl_item(meta), id="a")
    if style == "APA":
        item["title"] = sentence_case(item["title"])
    theirs = BeautifulSoup(citeproc_entries(style, [item])["a"], "html.parser").get_text()
    ours = STYLE_FUNCTIONS[style](meta).text
    assert ours != theirs and re.sub(r",( &| and) Acme", r"\1 Acme", ours) == theirs.replace("\u00a0", " ")


# --- BibTeX, biblatex, RIS, CSL-JSON ------------------------------------------------------------

def test_the_author_fields():
    assert parse_bibtex(bibtex(TWO))[2]["author"] == "Smith, Ann and Jones, Bob"
    assert "  author = {{Acme Research, Inc.}},\n" in bibtex(ORGANISATION)
    assert "  author = {{Acme Research, Inc.}},\n" in biblatex(ORGANISATION)
    assert "  author = {{Ñúñez-Ødegaard}, José and {Åsheim}, {\\O}yvind Jean-{\\'E}lie},\n" in bibtex(DIACRITICS)
    assert "  author = {{Ñúñez-Ødegaard}, José and {Åsheim}, Øyvind Jean-Élie},\n" in biblatex(DIACRITICS)
    assert "  author = {Smith, Ann and {Acme Research, Inc.}},\n" in bibtex(signed(ANN, ACME))


def test_ris_has_one_au_per_author_in_order():
    assert [value for tag, value in parse_ris(ris(signed(JOSE, ACME, ANN))) if tag == "AU"] == [
        "Ñúñez-Ødegaard, José", "Acme Research, Inc.", "Smith, Ann"]


def test_csl_json_names_people_and_organisations():
    assert csl_item(signed(JOSE, ACME, Person("Plato")))["author"] == [
        {"family": "Ñúñez-Ødegaard", "given": "José"}, {"literal": "Acme Research, Inc."}, {"family": "Plato"}]


# A style that prints each name's parts as classic BibTeX reads them: first|von|last|jr, and
# the given names abbreviated as apalike and abbrv abbreviate them.
NAME_PARTS_BST = """\
ENTRY { author } { } { }
INTEGERS { index count }
FUNCTION {names}
{ author num.names$ 'count :=
  #1 'index :=
  { index count > #0 = }
  { author index "{ff}|{vv}|{ll}|{jj}|{f.}" format.name$ write$ newline$
    index #1 + 'index := }
  while$
}
FUNCTION {misc} { names }
FUNCTION {online} { names }
READ
ITERATE {call.type$}
"""


def bibtex_name_parts(directory: Path, entry: str) -> list[str]:
    """Each name of each entry's author field, as NAME_PARTS_BST prints it."""
    directory.mkdir()
    (directory / "parts.bst").write_text(NAME_PARTS_BST, encoding="utf-8")
    (directory / "refs.bib").write_text(entry, encoding="utf-8")
    (directory / "doc.aux").write_text("\\relax\n\\citation{*}\n\\bibstyle{parts}\n\\bibdata{refs}\n")
    result = run(["bibtex", "doc"], directory)
    assert result.returncode == 0 and "Warning" not in result.stdout, result.stdout
    return (directory / "doc.bbl").read_text(encoding="utf-8").splitlines()


def test_classic_bibtex_reads_each_name_whole(tmp_path):
    meta = signed(JOSE, OYVIND, ACME, ANN)
    assert bibtex_name_parts(tmp_path / "parts", bibtex(meta)) == [
        "José||{Ñúñez-Ødegaard}||J.",  # the hyphen kept; no "von" part
        "{\\O}yvind Jean-{\\'E}lie||{Åsheim}||{\\O}.~J.-{\\'E}.",  # initials whole, not half a character
        "||{Acme Research, Inc.}||",
        "Ann||Smith||A.",
    ]


def test_the_bibtex_check_sees_a_broken_name(tmp_path):
    # Unbraced, classic BibTeX takes "Ñúñez" for a lower-case "von" part and drops the hyphen.
    entry = bibtex(signed(JOSE)).replace("{Ñúñez-Ødegaard}", "Ñúñez-Ødegaard")
    assert bibtex_name_parts(tmp_path / "parts", entry) == ["José|Ñúñez|Ødegaard||J."]


@pytest.mark.parametrize("style", ["plain", "apalike", "plainnat"])
def test_latex_prints_the_names_from_bibtex(tmp_path, style):
    meta = signed(JOSE, OYVIND, ACME, ANN)
    directory = tmp_path / style
    blg, _ = bibtex_run(directory, style, bibtex(meta))
    assert "Warning--" not in blg
    (directory / "doc.tex").write_text("\\documentclass{article}\n\\usepackage{url}\n\\usepackage{natbib}\n"
                                       "\\begin{document}\n\\input{doc.bbl}\n\\end{document}\n", encoding="utf-8")
    result = run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "doc.tex"], directory)
    assert result.returncode == 0, result.stdout[-2000:]
    # pdftotext may give an accented letter as letter and accent: compare composed forms.
    text = unicodedata.normalize("NFC", " ".join(run(["pdftotext", "doc.pdf", "-"], directory).stdout.split()))
    expected = ["Ñúñez-Ødegaard", "Acme Research, Inc.", "Smith", "Åsheim"]
    expected += ["Ø. J.-É."] if style == "apalike" else ["Øyvind Jean-Élie"]
    for name in expected:
        assert name in text, (name, text)


def biber_names(tmp_path: Path, entry: str) -> list[tuple[str, str]]:
    """(family, given) of each author, as biber parses the entry's author field."""
    (tmp_path / "refs.bib").write_text(entry, encoding="utf-8")
    result = run(["biber", "--tool", "--output-xname", "--output-file=out.bib", "refs.bib"], tmp_path)
    assert result.returncode == 0, result.stdout
    field = re.search(r"AUTHOR = \{(.*)\},\n", (tmp_path / "out.bib").read_text(encoding="utf-8"))
    assert field, result.stdout
    names = []
    for name in field.group(1).split(" and "):
        parts = re.fullmatch(r"family=(.*?)(?:, given=(.*))?", name)
        assert parts, name
        names.append((parts.group(1), parts.group(2) or ""))
    return names


@pytest.mark.parametrize("flavour", [bibtex, biblatex])
def test_biber_reads_each_name_whole(tmp_path, flavour):
    names = biber_names(tmp_path, flavour(signed(JOSE, OYVIND, ACME, ANN)))
    given = "Øyvind Jean-Élie" if flavour is biblatex else "{Ø}yvind Jean-Élie"  # biber's decoding of {\O}, {\'E}
    assert names == [("Ñúñez-Ødegaard", "José"), ("Åsheim", given), ("Acme Research, Inc.", ""), ("Smith", "Ann")]


# --- the head, CITATION.cff -------------------------------------------------------------------

def test_the_head_names_each_author():
    meta, names = signed(JOSE, ACME), ["José Ñúñez-Ødegaard", "Acme Research, Inc."]
    assert [value for name, value in highwire_tags(meta) if name == "citation_author"] == names
    assert [value for name, value in dublin_core_tags(meta) if name == "DC.creator"] == names
    assert json_ld(meta)["author"] == [{"@type": "Person", "name": "José Ñúñez-Ødegaard"},
                                       {"@type": "Organization", "name": "Acme Research, Inc."}]
    assert json_ld(signed(ACME))["author"] == {"@type": "Organization", "name": "Acme Research, Inc."}


def test_citation_cff_of_a_signed_essay():
    text = citation_cff_text(signed(JOSE, ACME, Person("Plato")))
    authors = [{"family-names": "Ñúñez-Ødegaard", "given-names": "José"}, {"name": "Acme Research, Inc."},
               {"family-names": "Plato"}]
    cff = yaml.safe_load(text)
    assert cff["authors"] == cff["preferred-citation"]["authors"] == authors
    assert cff["title"] == TITLE and cff["version"] == "1" and "unsigned" not in text
    citation = Citation(text)
    citation.validate()
    ris_authors = [line for line in citation.as_ris().splitlines() if line.startswith("AU")]
    assert ris_authors == ["AU  - Ñúñez-Ødegaard, José", "AU  - Acme Research, Inc.", "AU  - Plato"]


def test_citation_cff_keeps_a_title_that_yaml_would_misread():
    meta = dataclasses.replace(NAMED, title='Yes: "No" # or #no', language="no", description="- a: b")
    cff = yaml.safe_load(citation_cff_text(meta))
    assert cff["title"] == meta.title and cff["abstract"] == "- a: b"
    assert cff["preferred-citation"]["languages"] == ["no"]  # a string, not YAML 1.1's false


# --- sentence case hints ----------------------------------------------------------------------

def test_hints_name_the_words_sentence_case_lowers():
    meta = dataclasses.replace(NAMED, title="Running Claude Code on Blackwell: What the GPU Did, and I",
                               proper_nouns=("Blackwell",))
    assert sentence_case_hints(meta) == [
        "mkdocs.yml: extra.essay.title: APA's sentence case writes 'Claude Code' as 'claude code'; "
        "if it is a proper noun, list Claude and Code under extra.essay.proper_nouns to keep its capitals",
        "mkdocs.yml: extra.essay.title: APA's sentence case writes 'Did' as 'did'; "
        "if it is a proper noun, list Did under extra.essay.proper_nouns to keep its capitals",
    ]
    listed = dataclasses.replace(meta, title="Running Claude Code", proper_nouns=("Claude", "Code"))
    assert sentence_case_hints(listed) == []


def test_hints_follow_hyphens_but_not_other_marks():
    meta = dataclasses.replace(NAMED, title="An AI-Assisted Coding Session, Then Silence")
    assert [hint.split(" as ")[0].split("writes ")[1] for hint in sentence_case_hints(meta)] == [
        "'Assisted Coding Session'", "'Then Silence'"]


def test_json_round_trip_keeps_literal_names():
    # What a reference manager imports from the CSL-JSON download.
    item = json.loads(json.dumps(csl_item(signed(ACME))))
    assert item["author"] == [{"literal": "Acme Research, Inc."}]
