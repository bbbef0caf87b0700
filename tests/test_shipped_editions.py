"""The shipped essay's kept editions are as they were when kept: every file of each copy
holds the hash its record gave it then."""

from __future__ import annotations

import pytest

from author_project import ROOT
from sitebuild.editions import changed_since_kept, kept_editions

DOCS = str(ROOT / "docs")
CURRENT = 10**6  # any edition kept is earlier than this one


@pytest.mark.parametrize("edition", kept_editions(DOCS, CURRENT), ids=lambda edition: f"edition-{edition.number}")
def test_a_kept_edition_is_as_it_was_kept(edition) -> None:
    assert changed_since_kept(DOCS, edition) is None
