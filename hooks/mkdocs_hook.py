"""MkDocs hook: runs the site's build (`sitebuild.SiteBuild`) at MkDocs' events. Each event finds the build among
the Markdown extensions it was handed with; this file only translates MkDocs' objects."""

import functools
import logging
import os
from types import SimpleNamespace

from jinja2 import Environment, FileSystemBytecodeCache
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority
from mkdocs.structure.files import File, Files, InclusionLevel
from mkdocs.structure.pages import Page
from mkdocs.structure.toc import AnchorLink

from sitebuild.build import PROBLEMS, SiteBuild

log = logging.getLogger("mkdocs.hooks.site")


def _reported(event):  # the event, its problems reported as MkDocs reports its own: one line, no traceback
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
    project = os.path.dirname(os.path.abspath(config.config_file_path or "mkdocs.yml"))
    build = SiteBuild(config, project, log, fatal=PluginError)
    config.markdown_extensions.extend(build.markdown_extensions(config.markdown_extensions))
    config.copyright = config.copyright or build.meta_line()
    return config


@_reported
def on_files(files: Files, config: MkDocsConfig) -> Files:
    build = SiteBuild.of(config.markdown_extensions)
    for raw in [f for f in files if f.abs_src_path and os.path.abspath(f.abs_src_path) == build.source_path]:
        files.remove(raw)  # the raw transcript is an input, not a page or asset
    _add(files, config, build.generated_files({file.src_uri: file.content_string for file in files.documentation_pages()}))
    build.files_listed(SimpleNamespace(url=lambda src: getattr(files.get_file_from_path(src), "url", None)))  # or None
    return files


def on_page_markdown(markdown: str, page: Page, config: MkDocsConfig, files: Files) -> str:
    source = None if page.file.generated_by or not page.file.abs_src_path else page.file.content_string
    SiteBuild.of(config.markdown_extensions).begin_page(page.file.src_uri, source, markdown)
    return markdown


@event_priority(-50)  # once every page is converted
@_reported
def on_env(env: Environment, config: MkDocsConfig, files: Files) -> None:
    env.bytecode_cache = FileSystemBytecodeCache()  # the theme's templates, compiled once, not at every build
    _add(files, config, SiteBuild.of(config.markdown_extensions).finished_files())  # MkDocs writes them after this


@event_priority(50)  # before other plugins read the page: the theme's search indexes it
@_reported
def on_page_context(context, page: Page, config: MkDocsConfig, nav) -> None:
    build, src = SiteBuild.of(config.markdown_extensions), page.file.src_uri
    page.content = build.finish_page(src, page.content)
    page.meta["head"] = build.head(src)  # written by the theme's extrahead block
    if added := build.added_headings(src):  # the messages' headings: links to them are checked; few are listed
        page.present_anchor_ids.update(anchor for anchor, _ in added.headings)
        page.toc.items[0].children.extend(AnchorLink(title, anchor, 2) for anchor, title in added.contents)


@_reported
def on_post_page(output: str, page: Page, config: MkDocsConfig) -> str:
    return SiteBuild.of(config.markdown_extensions).page_written(page.file.src_uri, output)


@event_priority(50)  # before the theme's search writes its index
@_reported
def on_post_build(config: MkDocsConfig) -> None:
    build = SiteBuild.of(config.markdown_extensions)
    if (search := config.plugins.get("material/search")) and search.config.enabled:
        search.search_index.entries.extend(build.search_entries())
    build.finished()


def on_serve(server, config: MkDocsConfig, builder):
    for path in SiteBuild.of(config.markdown_extensions).watched_files(config.docs_dir):
        server.watch(path)  # a transcript outside docs/: editing it rebuilds the site too
    return server


def _add(files: Files, config: MkDocsConfig, made) -> None:
    for file in made:
        inclusion = InclusionLevel.UNDEFINED if file.in_nav else InclusionLevel.NOT_IN_NAV
        files.append(File.generated(config, file.src, content=file.content, abs_src_path=file.path, inclusion=inclusion))
