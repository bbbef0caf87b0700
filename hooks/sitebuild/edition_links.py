"""The editions of the essay on the pages of the one being built: a section's links to
itself in the kept editions, the page of what changed since the last of them, the words
of the paragraphs that a kept copy records, and the line that a kept edition's pages
get when it is published, saying which edition is current."""

from __future__ import annotations

import datetime
import html
import json
import os
from collections.abc import Callable

from essaycite.changes import Paragraph, changes_html, compare

from .editions import PARAGRAPHS_FILE, KeptEdition, relative_href
from .records import PageRecords
from .settings import SettingsError
from .site_config import Essay
from .site_pages import WHAT_CHANGED_PAGE, SitePages
from .urls import relative_url

WHAT_CHANGED_SLOT = '<div class="what-changed-slot"></div>'
# The line is put into pages styled by the kept copy's own stylesheet, written before it:
# it carries its style, in the theme's colours.
LATER_EDITION_STYLE = ("border-left: 0.2rem solid var(--md-accent-fg-color); "
                       "background: var(--md-accent-fg-color--transparent); padding: 0.6em 0.9em; margin-top: 0")


def what_changed_markdown(current: int) -> str:
    """The page of what changed: its title, and the slot of the changes, filled once every
    page is converted."""
    return f"# What changed in edition {current}\n\n{WHAT_CHANGED_SLOT}\n"


def dated(date: datetime.date) -> str:
    return f"{date.day} {date.strftime('%B')} {date.year}"


class EditionLinks:
    """The kept editions as the pages of this build link to them; `docs_dir` holds them."""

    def __init__(self, essay: Essay, pages: SitePages, docs_dir: str):
        self.current, self.published = essay.meta.edition, essay.meta.published
        self.earlier, self._kept_copy = essay.earlier, essay.settings.kept_copy
        self._sections, self._pages, self._docs_dir = essay.sections, pages, docs_dir

    def link(self, edition: KeptEdition, src: str, same_page: bool = True) -> str:
        """The link from page `src` to the same page in the kept `edition` (unless not
        `same_page`), or to its home page if it had no such page."""
        here = self._pages.url(src) or ""
        root = relative_url("", here)
        # A kept copy is built as a site of its own, at its folder: the others stand beside it.
        folder = f"../{edition.number}/" if self._kept_copy else f"{edition.folder}/"
        had_it = same_page and (here in edition.files or f"{here}index.html" in edition.files)
        return ("" if root == "." else root + "/") + folder + (here if had_it else "")

    def byline(self, src: str) -> list[tuple[str, str]]:
        """What a section's byline links to: the changes since the last kept edition, and
        the section in each kept one, newest first."""
        if not self.earlier:
            return []
        changes = relative_url(self._pages.url(WHAT_CHANGED_PAGE) or "", self._pages.url(src) or "")
        return [("What changed", changes),
                *((f"Edition {edition.number}", self.link(edition, src)) for edition in reversed(self.earlier))]

    def kept_list(self, src: str) -> str:
        """A paragraph of page `src` linking to each kept edition, and to what changed
        unless it is that page; "" if no edition is kept."""
        if not self.earlier:
            return ""
        named = [f'<a href="{html.escape(self.link(edition, src, same_page=False))}">edition {edition.number}</a> '
                 f"({dated(edition.published)})" for edition in self.earlier]
        line = (f"<p>This is edition {self.current}. Each earlier edition stays at its own address as it was "
                f"published, with its own citations: {', '.join(named)}.")
        if src != WHAT_CHANGED_PAGE:
            changes = relative_url(self._pages.url(WHAT_CHANGED_PAGE) or "", self._pages.url(src) or "")
            line += (f' <a href="{html.escape(changes)}">What changed</a> in edition {self.current}, '
                     "paragraph by paragraph.")
        return line + "</p>"

    def what_changed(self, records: PageRecords) -> str:
        """The changes since the last kept edition, as the page of what changed shows them."""
        since = self.earlier[-1]
        here = self._pages.url(WHAT_CHANGED_PAGE) or ""
        new_root = relative_url("", here)
        new_root = "" if new_root == "." else new_root + "/"
        old_root = self.link(since, WHAT_CHANGED_PAGE).removesuffix(here)
        changes = compare(self.kept_paragraphs(since), self.paragraphs(records))
        return self.kept_list(WHAT_CHANGED_PAGE) + changes_html(
            changes, old_edition=since.number, new_edition=self.current, old_root=old_root, new_root=new_root)

    def paragraphs(self, records: PageRecords) -> list[Paragraph]:
        """The paragraphs of the essay as this build converted them, in reading order."""
        return [Paragraph(anchor, self._pages.url(src) or "", records.title_of(src), words)
                for src in self._sections
                for anchor, words in zip(records.paragraphs.get(src, []), records.paragraph_words.get(src, []),
                                         strict=True)]

    def kept_paragraphs(self, edition: KeptEdition) -> list[Paragraph]:
        path = os.path.join(self._docs_dir, edition.folder, PARAGRAPHS_FILE)
        try:
            with open(path, encoding="utf-8") as file:
                return [Paragraph(**paragraph) for paragraph in json.load(file)["paragraphs"]]
        except (OSError, UnicodeDecodeError, ValueError, KeyError, TypeError) as problem:
            raise SettingsError(f"{path}: not the paragraphs of kept edition {edition.number} ({problem})") from None

    def paragraphs_json(self, records: PageRecords) -> str:
        """What a kept copy records of its paragraphs, for the page of what changed in the next."""
        paragraphs = [vars(paragraph) for paragraph in self.paragraphs(records)]
        return json.dumps({"edition": self.current, "paragraphs": paragraphs}, ensure_ascii=False, indent=1) + "\n"

    def later_line(self, edition: KeptEdition, site_dir: str) -> Callable[[str], str]:
        """The line at the top of each page of the kept `edition`, by its path in the copy:
        which edition it is, and a link to the same page in the current one."""
        def line(path: str) -> str:
            if path == "404.html":  # served at any address: no relative link holds
                return ""
            counterpart = path if os.path.isfile(os.path.join(site_dir, *path.split("/"))) else "index.html"
            href = relative_href(f"{edition.folder}/{path}", counterpart)
            return (f'<p class="later-edition" role="note" style="{LATER_EDITION_STYLE}">'
                    f"This is edition {edition.number} of the essay, published "
                    f"{dated(edition.published)} and kept as it was. The current edition is "
                    f'<a href="{html.escape(href)}">edition {self.current}</a>, published '
                    f"{dated(self.published)}.</p>")
        return line

