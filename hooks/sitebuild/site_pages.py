"""The pages the build makes or reads by name, what it asks of the generator about the
site's files, and the error of a page that asks for what the site lacks."""

from __future__ import annotations

from typing import Protocol

PRINT_PAGE = "print.md"  # the whole essay on one page, which repeats the sections
HOW_TO_CITE_PAGE = "how-to-cite.md"  # made by the build when the author writes none
WHAT_CHANGED_PAGE = "what-changed.md"  # made by the build once an earlier edition is kept
NOTE_ON_THE_TEXT = "note-on-the-text.md"  # optional: the editorial changes, when there are any
DOWNLOADS_FOLDER = "cite"


class PageError(ValueError):
    """A page that asks for what the site does not have; the message names the page."""


class SitePages(Protocol):
    """What the generator tells of the files of the site it builds."""

    def url(self, src: str) -> str | None:
        """The URL of a file of the site relative to the site's root ("context/",
        "cite/essay.bib"), or None if the site has no such file."""
