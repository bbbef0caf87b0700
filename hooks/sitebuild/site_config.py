"""The site's configuration as a build reads it: its own settings checked, and what it
takes from the generator's configuration (folders, the navigation's order, the headings'
permanent links), read once and never changed."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from essaycite.metadata import EssayMetadata
from msgref import stranded
from transcriptsite.layout import page_src

from .editions import KeptEdition, kept_editions
from .page_list import PageList
from .settings import EssaySettings, SettingsError, TranscriptSettings, essay_metadata, is_address, read_settings


@dataclass(frozen=True)
class Essay:
    """The essay as a citable work: its settings, and its bibliographic details."""

    settings: EssaySettings
    meta: EssayMetadata
    # The PDF the pages link to: the `pdf` setting where it leads to the PDF (see linked_pdf).
    pdf: str | None = None
    earlier: tuple[KeptEdition, ...] = ()  # the editions kept before this one, oldest first

    @property
    def sections(self) -> tuple[str, ...]:
        return self.settings.sections


@dataclass(frozen=True)
class SiteConfig:
    transcript: TranscriptSettings
    # A site that cites messages need not be a citable essay: without `extra.essay` it
    # has no citations of its own, no one-page essay and no scholarly metadata.
    essay: Essay | None
    project_dir: str  # the folder of the configuration file
    docs_dir: str  # relative to `project_dir`, or absolute
    site_dir: str  # where the site is built, absolute
    source_path: str  # the transcript file, absolute
    reading_order: Mapping[str, int]  # the pages of the navigation, by their place in it
    nav_titles: Mapping[str, str]  # the pages the navigation gives a title, by their source

    @property
    def docs_path(self) -> str:
        """The docs folder, absolute."""
        return os.path.join(self.project_dir, self.docs_dir)

    def display_path(self, src: str) -> str:
        """How problems name a page's file: by its path from the project's folder, as the
        transcript is named."""
        return os.path.relpath(os.path.join(self.project_dir, self.docs_dir, src), self.project_dir)

    def page_list(self, has_note: bool) -> PageList | None:
        """The essay's pages and the site's others, in order; None for a site that is no essay."""
        if self.essay is None:
            return None
        earlier = self.essay.earlier
        return PageList(self.essay.sections, page_src(self.transcript.folder, 0), has_note,
                        shows_all=self.transcript.context is None,
                        changed_since=earlier[-1].number if earlier else None)

    def watched_files(self) -> list[str]:
        """The inputs of the build outside the docs folder, which a development server must watch."""
        docs = os.path.abspath(os.path.join(self.project_dir, self.docs_dir))
        inside = os.path.commonpath([self.source_path, docs]) == docs
        return [] if inside else [self.source_path]


def read_site_config(config: Mapping[str, Any], project_dir: str) -> SiteConfig:
    """The configuration of a site, from the generator's configuration as a mapping
    (site_name, site_url, nav, extra, ...); `project_dir` is the folder of its file.
    A bad setting is a SettingsError that names it."""
    extra = config.get("extra") or {}
    reading_order, nav_titles = _nav_sources(config.get("nav"))
    transcript = read_settings(TranscriptSettings, extra.get("transcript"), "extra.transcript")
    essay = None
    if "essay" in extra:
        settings = read_settings(EssaySettings, extra["essay"], "extra.essay")
        if not settings.sections:
            raise SettingsError("mkdocs.yml: extra.essay.sections: required: the essay's pages, in reading order")
        docs = os.path.join(project_dir, config.get("docs_dir") or "docs")
        earlier = kept_editions(docs, settings.edition)
        essay = Essay(settings, essay_metadata(config, settings), linked_pdf(settings, docs), earlier)
    return SiteConfig(
        transcript=transcript,
        essay=essay,
        project_dir=project_dir,
        docs_dir=config.get("docs_dir") or "docs",
        site_dir=os.path.join(project_dir, config.get("site_dir") or "site"),
        source_path=os.path.abspath(os.path.join(project_dir, transcript.source)),
        reading_order=reading_order,
        nav_titles=nav_titles,
    )


def linked_pdf(settings: EssaySettings, docs_dir: str) -> str | None:
    """The `pdf` setting if the site will have the PDF it names, so that no page links to
    nothing: an http(s) address, a file of the docs folder, or a file printed into the site
    after this build (`pdf_printed`); else None."""
    pdf = settings.pdf
    if pdf is None or is_address(pdf) or settings.pdf_printed or os.path.isfile(os.path.join(docs_dir, pdf)):
        return pdf
    return None


def nav_problems(nav: object) -> list[str]:
    """A problem for each title of the navigation in mkdocs.yml that holds a tag: the
    theme writes titles as text, where no citation can stand."""
    problems: list[str] = []

    def walk(item: object) -> None:
        if isinstance(item, Mapping):
            for title, value in item.items():
                if isinstance(title, str) and (problem := stranded.tag_in_nav_title(title)):
                    problems.append(f"mkdocs.yml: nav: {problem}")
                walk(value)
        elif isinstance(item, list):
            for value in item:
                walk(value)

    walk(nav)
    return problems


def title_setting_problems(config: Mapping[str, Any]) -> list[str]:
    """A problem for each title among the settings (the site's name, the essay's title)
    that holds a tag: written as text everywhere, where no citation can stand."""
    essay = (config.get("extra") or {}).get("essay")
    titles = {"site_name": config.get("site_name"),
              "extra.essay.title": essay.get("title") if isinstance(essay, Mapping) else None}
    return [f"mkdocs.yml: {name}: {problem}" for name, title in titles.items()
            if isinstance(title, str) and (problem := stranded.tag_in_nav_title(title))]


def _nav_sources(nav: object) -> tuple[dict[str, int], dict[str, str]]:
    """The page sources in a navigation as mkdocs.yml writes it (paths, `{title: path}`,
    `{title: [...]}`), by their order, and the titles it gives them."""
    found: dict[str, int] = {}
    titles: dict[str, str] = {}

    def walk(item: object) -> None:
        if isinstance(item, str):
            found.setdefault(item, len(found))
        elif isinstance(item, Mapping):
            for title, value in item.items():
                if isinstance(title, str) and isinstance(value, str):
                    titles.setdefault(value, title)
                walk(value)
        elif isinstance(item, list):
            for value in item:
                walk(value)

    walk(nav or [])
    return found, titles
