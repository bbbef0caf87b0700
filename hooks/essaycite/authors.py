"""The essay's authors: people (family and given names) and organisations (one name).

Read from mkdocs.yml in two forms. `site_author` is MkDocs' own setting, a string: one
person, "Given Family" or "Family, Given". `extra.essay.authors` is a list, for several
authors or an organisation; each item is a person as such a string or as a mapping
(`family`, `given`), or an organisation as a mapping with its `name`.

A string that reads as something else, several people ("Ann Smith and Bob Jones") or an
organisation ("Acme Research, Inc."), is refused rather than guessed into wrong people:
the list form says what is meant.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass


class AuthorError(ValueError):
    """An author that cannot be read; the caller adds where it was set."""


LIST_FORM = "extra.essay.authors"

# Words that make a name an organisation's, after a comma ("Acme, Inc.") or anywhere.
_ORGANISATION_SUFFIXES = {"inc", "ltd", "llc", "llp", "plc", "gmbh", "corp", "co", "ag", "sa", "bv"}
_ORGANISATION_WORDS = {"university", "institute", "foundation", "association", "society", "company",
                       "corporation", "laboratory", "laboratories", "committee", "council"}
# Name suffixes the "Family, Given" form would take for given names ("King, Jr.").
_GENERATIONAL = {"jr", "sr", "ii", "iii", "iv"}
_SEVERAL = re.compile(r"\s(?:and|&)\s|;", re.IGNORECASE)


@dataclass(frozen=True)
class Person:
    family: str
    given: str = ""

    def __post_init__(self) -> None:
        if not self.family.strip():
            raise AuthorError("a person needs a family name")
        if "," in self.family + self.given:
            raise AuthorError(f"a person's names cannot contain a comma: {self.display!r}; "
                              "for an organisation write `name:`")

    @property
    def display(self) -> str:
        return f"{self.given} {self.family}".strip()

    @property
    def inverted(self) -> str:
        return f"{self.family}, {self.given}" if self.given else self.family


@dataclass(frozen=True)
class Organisation:
    name: str

    def __post_init__(self) -> None:
        if not self.name.strip():
            raise AuthorError("an organisation needs a name")

    @property
    def display(self) -> str:
        return self.name

    @property
    def inverted(self) -> str:
        return self.name  # an organisation's name is never turned round


Author = Person | Organisation


def _words(text: str) -> set[str]:
    return {word.strip(".").casefold() for word in re.split(r"[\s,]+", text) if word}


def parse_person(text: str) -> Person:
    """One person from "Given Family" or "Family, Given"; without a comma the last word
    is the family name. Refuses what reads as several people or an organisation."""
    name = " ".join(text.split())
    if _SEVERAL.search(name):
        raise AuthorError(f"{name!r} reads as more than one author: list each on its own line under {LIST_FORM}")
    words = _words(name)
    after_comma = _words(name.split(",", 1)[1]) if "," in name else set()
    if after_comma & _ORGANISATION_SUFFIXES or words & _ORGANISATION_WORDS:
        raise AuthorError(f"{name!r} reads as an organisation: list it under {LIST_FORM} as `- name: {name}`")
    if after_comma & _GENERATIONAL or name.count(",") > 1:
        raise AuthorError(f"cannot tell the family name in {name!r}: list the author under {LIST_FORM} "
                          "with `family:` and `given:`")
    if "," in name:
        family, given = (part.strip() for part in name.split(",", 1))
    else:
        given, _, family = name.rpartition(" ")
    if not family:
        raise AuthorError(f"cannot read a family name from {name!r}")
    return Person(family, given)


def _text(value: object, key: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise AuthorError(f"{key}: expected text")
    return " ".join(value.split())


def parse_author(value: object) -> Author:
    """One item of the list form: a string (a person), or a mapping with `family` and
    optionally `given` (a person) or with `name` (an organisation)."""
    if isinstance(value, str):
        return parse_person(value)
    if not isinstance(value, Mapping):
        raise AuthorError("expected a person's name, or a mapping with family and given, or with name")
    keys = set(value)
    if keys == {"name"}:
        return Organisation(_text(value["name"], "name"))
    if "family" in keys and keys <= {"family", "given"}:
        given = _text(value["given"], "given") if "given" in value else ""
        return Person(_text(value["family"], "family"), given)
    raise AuthorError(f"expected `family` (and `given`) for a person, or `name` for an organisation, "
                      f"found {', '.join(map(str, value)) or 'nothing'}")


def parse_authors(value: object) -> tuple[Author, ...]:
    """The list form: one or more authors, in the order the work names them."""
    if not isinstance(value, list) or not value:
        raise AuthorError("expected a list of one or more authors (leave the setting out for an unsigned essay)")
    authors = []
    for number, item in enumerate(value, start=1):
        try:
            authors.append(parse_author(item))
        except AuthorError as problem:
            raise AuthorError(f"author {number}: {problem}") from None
    return tuple(authors)


def in_prose(names: list[str]) -> str:
    """"A", "A and B", "A, B and C": names as a sentence lists them."""
    return names[0] if len(names) < 2 else f"{', '.join(names[:-1])} and {names[-1]}"
