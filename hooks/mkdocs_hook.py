"""MkDocs hook: runs the site's build (`sitebuild.SiteBuild`) at MkDocs' events. The build
is made from the configuration and handed to the Markdown parser with its extensions,
where every later event finds it; this file only translates MkDocs' objects."""

from __future__ import annotations

import functools
import logging
import os
from types import SimpleNamespace

from jinja2 import Environment
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority
from mkdocs.structure.files import File, Files, InclusionLevel
from mkdocs.structure.pages import Page

from sitebuild.build import PROBLEMS, SiteBuild, body_line

log = logging.getLogger("mkdocs.hooks.site")


def _reported(event):
    """The event, with the build's problems reported as MkDocs reports its own: one line, no traceback."""

    @functools.wraps(event)
    def run(*args, **kwargs):
        try:
            return event(*args, **kwargs)
        except PROBLEMS as error:
            raise PluginError(str(error)) from None

    return run


@event_priority(100)  # first: the longer a large transcript has to load meanwhile, the better
@_reported
def on_config(config: MkDocsConfig) -> MkDocsConfig:
    build = SiteBuild(config, _project(config), log, fatal=PluginError)
    config.markdown_extensions.extend(build.markdown_extensions(config.markdown_extensions))
    config.copyright = config.copyright or build.meta_line()
    return config


@_reported
def on_files(files: Files, config: MkDocsConfig) -> Files:
    build = SiteBuild.of(config.markdown_extensions)
    for raw in [f for f in files if f.abs_src_path and os.path.abspath(f.abs_src_path) == build.source_path]:
        files.remove(raw)  # the raw transcript is an input, not a page or asset
    _add(files, config, build.generated_files({file.src_uri: file.content_string for file in files.documentation_pages()}))
    return files


def on_page_markdown(markdown: str, page: Page, config: MkDocsConfig, files: Files) -> str:
    # Problems name the page as the transcript is named: relative to the folder of mkdocs.yml.
    shown_as = os.path.relpath(os.path.join(config.docs_dir, page.file.src_path), _project(config))
    source = None if page.file.generated_by or not page.file.abs_src_path else page.file.content_string
    SiteBuild.of(config.markdown_extensions).begin_page(page.file.src_uri, shown_as, body_line(source, markdown))
    return markdown


@_reported
def on_page_content(html: str, page: Page, config: MkDocsConfig, files: Files) -> str:
    return SiteBuild.of(config.markdown_extensions).page_converted(page.file.src_uri, html, _site_pages(files))


@event_priority(-50)  # once every page is converted, and after other plugins' work on them
@_reported
def on_env(env: Environment, config: MkDocsConfig, files: Files) -> Environment:
    build, pages = SiteBuild.of(config.markdown_extensions), _site_pages(files)
    for file in files.documentation_pages():
        if file.page is not None and file.page.content is not None:
            file.page.content = build.finish_page(file.src_uri, file.page.content, pages)
            file.page.meta["head"] = build.head(file.src_uri, pages)  # written by the theme's extrahead block
    _add(files, config, build.finished_files(pages))  # MkDocs writes the files after this event
    if (search := config.plugins.get("material/search")) and search.config.enabled:  # it indexes pages next
        search.search_index.entries.extend(build.search_entries(pages))
    return env


def on_serve(server, config: MkDocsConfig, builder):
    for path in SiteBuild.of(config.markdown_extensions).watched_files(config.docs_dir):
        server.watch(path)  # a transcript outside docs/: editing it rebuilds the site too
    return server


def _add(files: Files, config: MkDocsConfig, made) -> None:
    for file in made:
        inclusion = InclusionLevel.UNDEFINED if file.in_nav else InclusionLevel.NOT_IN_NAV
        files.append(File.generated(config, file.src, content=file.content, inclusion=inclusion))


def _site_pages(files: Files) -> SimpleNamespace:  # a page's URL by its source path; None if not in the site
    return SimpleNamespace(url=lambda src: getattr(files.get_file_from_path(src), "url", None))


def _project(config: MkDocsConfig) -> str:
    return os.path.dirname(os.path.abspath(config.config_file_path or "mkdocs.yml"))
