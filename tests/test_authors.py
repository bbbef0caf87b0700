"""The essay's authors as the settings give them: site_author's one person, or the list
extra.essay.authors of people and organisations; and what is refused, with the setting named."""

from __future__ import annotations

import re

import pytest

from essaycite.authors import Organisation, Person, parse_person
from essaycite.metadata import EssayMetadata
from sitebuild.settings import SettingsError, essay_metadata
from test_citation_formats import config


def authors(**changes: object) -> tuple:
    return essay_metadata(config(**changes)).authors


@pytest.mark.parametrize("site_author, expected", [
    ("Ann Smith", Person("Smith", "Ann")),
    ("Smith, Ann", Person("Smith", "Ann")),
    ("José Ñúñez-Ødegaard", Person("Ñúñez-Ødegaard", "José")),
    ("Ñúñez-Ødegaard, José", Person("Ñúñez-Ødegaard", "José")),
    ("  Jane  Q.   Doe ", Person("Doe", "Jane Q.")),
    ("Plato", Person("Plato")),
    ("Anders Andersen", Person("Andersen", "Anders")),  # "and" inside a word is no separator
])
def test_site_author_is_one_person(site_author, expected):
    assert authors(site_author=site_author) == (expected,)


@pytest.mark.parametrize("site_author, message", [
    ("Ann Smith and Bob Jones", "'Ann Smith and Bob Jones' reads as more than one author: list each on its own "
                                "line under extra.essay.authors"),
    ("Ann Smith & Bob Jones", "reads as more than one author"),
    ("Smith, Ann; Jones, Bob", "reads as more than one author"),
    ("Acme Research, Inc.", "'Acme Research, Inc.' reads as an organisation: list it under extra.essay.authors as "
                            "`- name: Acme Research, Inc.`"),
    ("Institute for Advanced Study", "reads as an organisation"),
    ("King, Jr.", "cannot tell the family name in 'King, Jr.'"),
    ("Smith, Ann, Jones", "cannot tell the family name"),
])
def test_a_site_author_that_is_not_one_person_is_refused_in_one_line(site_author, message):
    with pytest.raises(SettingsError) as raised:
        authors(site_author=site_author)
    text = str(raised.value)
    assert text.startswith("mkdocs.yml: site_author: ") and message in text and "\n" not in text


def test_the_list_form():
    listed = authors(essay={"authors": [
        "Ann Smith",
        "Jones, Bob",
        {"family": "Ñúñez-Ødegaard", "given": "José"},
        {"family": "Plato"},
        {"name": "Acme Research, Inc."},
    ]})
    assert listed == (Person("Smith", "Ann"), Person("Jones", "Bob"), Person("Ñúñez-Ødegaard", "José"),
                      Person("Plato"), Organisation("Acme Research, Inc."))


@pytest.mark.parametrize("value, message", [
    ([], "expected a list of one or more authors"),
    ("Ann Smith", "expected a list of one or more authors"),
    (["Ann Smith", "Bob Jones and Carol White"], "author 2: 'Bob Jones and Carol White' reads as more than one"),
    ([{"name": ""}], "author 1: name: expected text"),
    ([{"family": "Smith", "name": "Acme"}], "author 1: expected `family` (and `given`) for a person, or `name`"),
    ([{"given": "Ann"}], "author 1: expected `family`"),
    ([{"family": "Smith", "given": "Ann, Jr."}], "author 1: a person's names cannot contain a comma"),
    ([42], "author 1: expected a person's name, or a mapping"),
])
def test_a_bad_list_is_refused_in_one_line_naming_the_setting(value, message):
    with pytest.raises(SettingsError) as raised:
        authors(essay={"authors": value})
    text = str(raised.value)
    assert text.startswith("mkdocs.yml: extra.essay.authors: ") and message in text and "\n" not in text


def test_the_authors_are_named_in_one_place():
    with pytest.raises(SettingsError, match=re.escape("mkdocs.yml: site_author, extra.essay.authors: name the")):
        authors(site_author="Ann Smith", essay={"authors": ["Bob Jones"]})


def test_the_byline_names_every_author():
    meta: EssayMetadata = essay_metadata(config(essay={"authors": ["Ann Smith", "Bob Jones", {"name": "Acme"}]}))
    assert meta.byline == "Ann Smith, Bob Jones and Acme"
    assert meta.imprint.startswith("Ann Smith, Bob Jones and Acme · published 2026-12-02")
    assert essay_metadata(config()).byline == ""


def test_parsing_keeps_hyphens_and_diacritics():
    person = parse_person("Ñúñez-Ødegaard, Jean-Élie")
    assert (person.family, person.given, person.display) == ("Ñúñez-Ødegaard", "Jean-Élie", "Jean-Élie Ñúñez-Ødegaard")
