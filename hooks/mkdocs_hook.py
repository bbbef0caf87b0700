"""MkDocs hook: runs the site's build (`sitebuild.build.SiteBuild`) at MkDocs' events.

The build is made once MkDocs has listed the site's files, and every later event finds
it among the Markdown extensions it handed to MkDocs then. This file only translates
between MkDocs' objects and the build's.
"""

from __future__ import annotations

import contextlib
import functools
import html
import logging
import os
from collections.abc import Callable, Container, Sequence
from typing import TYPE_CHECKING, Any, ParamSpec, TypeVar

from jinja2 import BytecodeCache, Environment, FileSystemBytecodeCache
from jinja2.bccache import Bucket
from mkdocs.exceptions import Abort, PluginError
from mkdocs.plugins import CombinedEvent, event_priority
from mkdocs.structure.files import File, Files, InclusionLevel
from mkdocs.structure.toc import AnchorLink

from sitebuild.author_images import is_image, write_images
from sitebuild.between_builds import KEPT_PAGES
from sitebuild.build import PROBLEMS, SiteBuild
from sitebuild.citing import PDF_SLOT
from sitebuild.config_file import check_aliases
from sitebuild.editions import EDITIONS_FOLDER
from sitebuild.files import (
    ITS_COPY,
    check_links,
    check_page_texts,
    check_session_files,
    copy_problem,
    folder_clash,
    generated_clash,
    transcript_copy,
)
from sitebuild.generated import GeneratedFile, WrittenFile
from sitebuild.page_list import show_transcript_page
from sitebuild.records import FrontMatter
from sitebuild.settings import check_site_text, cite_as_problem, problem_line, shown, title_problem
from sitebuild.site_config import nav_problems, read_site_config, title_setting_problems
from sitebuild.site_folder import SITE_FOLDER, holds_a_source, output_problem, remove_links
from sitebuild.site_pages import NOTE_ON_THE_TEXT, PageError

if TYPE_CHECKING:  # for the events' signatures alone: a build does not load the development server
    from mkdocs.config.defaults import MkDocsConfig
    from mkdocs.livereload import LiveReloadServer
    from mkdocs.structure.nav import Navigation
    from mkdocs.structure.pages import Page
    from mkdocs.utils.templates import TemplateContext

log = logging.getLogger("mkdocs.hooks.site")

Params = ParamSpec("Params")
Result = TypeVar("Result")


def _reported(event: Callable[Params, Result]) -> Callable[Params, Result]:
    """The event, its problems reported as MkDocs reports its own: one line, no traceback."""

    @functools.wraps(event)
    def run(*args: Params.args, **kwargs: Params.kwargs) -> Result:
        try:
            return event(*args, **kwargs)
        except PROBLEMS as error:
            raise PluginError(problem_line(str(error))) from None
        except OSError as error:
            if problem := output_problem(error):  # a file of the site that cannot be written: a full disk
                raise PluginError(problem) from None
            raise

    return run


def on_startup(command: str, dirty: bool) -> None:
    # What a build made is kept for the next only where there will be one: under `serve`.
    KEPT_PAGES.wanted = command == "serve"


@_reported
def on_config(config: MkDocsConfig) -> MkDocsConfig:
    if config.config_file_path:
        with open(config.config_file_path, encoding="utf-8") as file:
            check_aliases(file.read(), os.path.basename(config.config_file_path))
    check_site_text(config)  # a site that is no essay writes them too, and reads no essay's metadata
    site = read_site_config(config, _project_dir(config))  # a bad setting stops the build here, before any page
    for problem in [*nav_problems(config.nav), *title_setting_problems(config)]:
        log.warning(problem)
    if site.essay and not config.copyright:
        # The theme writes copyright as HTML: the imprint is text, an author's name included;
        # each page puts its own link to the PDF in the slot after it.
        config.copyright = html.escape(site.essay.meta.imprint) + (PDF_SLOT if site.essay.pdf else "")
    pages = site.page_list(has_note=os.path.isfile(os.path.join(site.project_dir, site.docs_dir, NOTE_ON_THE_TEXT)))
    if pages and config.nav is None:
        config.nav = pages.nav()  # the essay's sections, then the site's other pages
    return config


@event_priority(100)  # before anything is written
@_reported
def on_pre_build(config: MkDocsConfig) -> None:
    site = read_site_config(config, _project_dir(config))
    sources, code = [config.config_file_path or "mkdocs.yml", site.source_path], set()
    for hook in config.get("hooks") or []:
        path = os.path.join(site.project_dir, hook)
        if os.path.dirname(os.path.abspath(path)) == os.path.abspath(site.project_dir):
            sources.append(path)  # a hook beside mkdocs.yml: the project's folder is no hooks' folder
        else:
            code.add(os.path.dirname(path))
    if problem := holds_a_source(site.site_dir, sources, sorted(code)):
        raise PageError(problem)
    SITE_FOLDER.take(site.site_dir, lambda: log.info(f"Another build is writing to {site.site_dir}: waiting for it"))
    remove_links(site.site_dir)
    SiteBuild.before_cleaning(site)  # MkDocs empties the site next


@_reported
def on_files(files: Files, config: MkDocsConfig) -> Files:
    site = read_site_config(config, _project_dir(config))
    docs = os.path.join(site.project_dir, site.docs_dir, "")
    docs_name = os.path.relpath(docs, site.project_dir)  # as a problem names it
    for file in list(files):
        if file.src_uri.startswith(f"{EDITIONS_FOLDER}/") and not file.generated_by:
            files.remove(file)  # a kept edition: checked against its record and published by the build
            continue
        # The raw transcript is an input, not a page or asset: unredacted, by whatever name.
        copy = transcript_copy(file.abs_src_path, site.source_path) if file.abs_src_path else None
        if copy == ITS_COPY and file.inclusion is not InclusionLevel.EXCLUDED:  # not `.transcript.jsonl.swp`
            raise PageError(copy_problem(os.path.relpath(file.abs_src_path or "", site.project_dir), docs_name))
        if copy is not None:
            files.remove(file)
    sources = [file.abs_src_path for file in files if file.abs_src_path and not file.generated_by]
    check_links(sources, site.project_dir)
    check_page_texts(sources, site.project_dir)
    # The author's files that a build publishes: not the theme's, nor hidden ones and drafts.
    published = [file for file in files if file.abs_src_path and file.abs_src_path.startswith(docs)
                 and not file.generated_by and file.inclusion not in (InclusionLevel.EXCLUDED, InclusionLevel.DRAFT)]
    check_session_files([file.abs_src_path for file in published if file.abs_src_path], site.project_dir, docs_name)
    if clash := folder_clash(site.transcript.folder, [file.dest_uri for file in files if not file.generated_by]):
        raise PageError(clash)
    # The author's images: checked, and written by the build without their text and location.
    images = [file for file in published if file.abs_src_path and is_image(file.abs_src_path)]
    for image in images:
        files.remove(image)
    _add(files, config, write_images([(image.src_uri, image.abs_src_path or "") for image in images],
                                     config.site_dir, site.project_dir))

    def add(made: Sequence[GeneratedFile | WrittenFile]) -> _Addresses:
        _add(files, config, made)
        return _Addresses(files)

    pages = {file.src_uri: file.content_string for file in files.documentation_pages()}
    build = SiteBuild(site, pages, add, log, fatal=PluginError)
    config.markdown_extensions.extend(build.markdown_extensions(config.markdown_extensions))
    return files


@_reported
def on_page_markdown(markdown: str, page: Page, config: MkDocsConfig, files: Files) -> str:
    source = None if page.file.generated_by or not page.file.abs_src_path else page.file.content_string
    build = SiteBuild.of(config.markdown_extensions)
    build.begin_page(page.file.src_uri, source, markdown)
    title, cite_as = page.meta.get("title"), page.meta.get("cite_as")
    for key, problem in (("title", title_problem(title)), ("cite_as", cite_as_problem(cite_as))):
        if problem:
            raise PageError(f"{build.page.display_path}: front matter: {key}: {problem}, found {shown(page.meta[key])}")
    build.named(FrontMatter(title if isinstance(title, str) else None, cite_as))
    return markdown


@event_priority(-50)  # once every page is converted
@_reported
def on_env(env: Environment, config: MkDocsConfig, files: Files) -> Environment:
    env.bytecode_cache = _template_cache()  # the theme's templates, compiled once, not at every build
    _add(files, config, SiteBuild.of(config.markdown_extensions).finished_files())  # MkDocs writes them after this
    return env


class _TemplateCache(FileSystemBytecodeCache):
    """Jinja's cache of compiled templates, which a template it cannot write to leaves
    uncached rather than failing the build."""

    def dump_bytecode(self, bucket: Bucket) -> None:
        with contextlib.suppress(OSError):  # the folder gone or full: the template is compiled again next time
            super().dump_bytecode(bucket)


def _template_cache() -> BytecodeCache | None:
    """The cache in Jinja's folder of the system's temporary folder, or none: another
    user can put a file, or a folder of theirs, where that folder goes, and Jinja then
    refuses it, rightly; the build is only slower."""
    try:
        return _TemplateCache()
    except (RuntimeError, OSError) as problem:
        log.debug(f"Templates compiled at every build, without a cache: {problem}")
        return None


@event_priority(50)  # before other plugins read the page: the theme's search indexes it
@_reported
def on_page_context(context: TemplateContext, page: Page, config: MkDocsConfig, nav: Navigation) -> TemplateContext:
    build, src = SiteBuild.of(config.markdown_extensions), page.file.src_uri
    page.content = build.finish_page(src, page.content or "")
    page.meta["head"] = build.head(src)  # written by the theme's extrahead block
    if (authors := build.authors()) and "author" not in page.meta:
        page.meta["author"] = authors  # the theme's <meta name="author">, which names site_author alone
    if (added := build.added_headings(src)) and page.present_anchor_ids is not None:
        # The messages' headings: links to them are checked, and a few are listed.
        anchors, contents = added
        page.present_anchor_ids = _AnchorIds(page.present_anchor_ids, anchors)
        page.toc.items[0].children.extend(AnchorLink(title, anchor, 2) for anchor, title in contents)
    show_transcript_page(nav.items, nav.pages, page, build.layout.page_sources())
    return context


def on_template_context(context: TemplateContext, template_name: str, config: MkDocsConfig) -> TemplateContext:
    if template_name == "404.html":  # it links to the transcript's first page, saying what it holds
        build = SiteBuild.of(config.markdown_extensions)
        context["transcript_src"] = build.transcript_start()  # type: ignore[typeddict-unknown-key]  # the 404 page's own
        context["transcript_scope"] = build.transcript_scope()  # type: ignore[typeddict-unknown-key]  # the 404 page's own
    return context


@_reported
def on_post_page(output: str, page: Page, config: MkDocsConfig) -> str:
    return SiteBuild.of(config.markdown_extensions).page_written(page.file.src_uri, output)


def on_post_template(output_content: str, template_name: str, config: MkDocsConfig) -> str:
    if template_name == "404.html" and PDF_SLOT in output_content:  # served at any address: an absolute link
        essay = SiteBuild.of(config.markdown_extensions).essay
        return output_content.replace(PDF_SLOT, essay.pdf_link(None) if essay else "", 1)
    return output_content


@event_priority(50)  # the transcript's files complete before other plugins read the site
@_reported
def _finish(config: MkDocsConfig) -> None:
    SiteBuild.of(config.markdown_extensions).finished()


@event_priority(-100)  # once every plugin has written its files
def _let_go_of_the_folder(config: MkDocsConfig) -> None:
    SITE_FOLDER.release()


on_post_build = CombinedEvent(_finish, _let_go_of_the_folder)


def on_build_error(error: Exception) -> None:
    SITE_FOLDER.release()
    if problem := output_problem(error):  # MkDocs' own writing of a file failed: one line, not its traceback
        log.error(problem)
        raise Abort("Aborted: the site's folder could not be written") from None


def on_serve(server: LiveReloadServer, config: MkDocsConfig, builder: Callable[..., Any]) -> LiveReloadServer:
    for path in read_site_config(config, _project_dir(config)).watched_files():
        server.watch(path)  # a transcript outside docs/: editing it rebuilds the site too
    return server


def _project_dir(config: MkDocsConfig) -> str:
    return os.path.dirname(os.path.abspath(config.config_file_path or "mkdocs.yml"))


class _AnchorIds(set[str]):
    """A page's anchor ids as MkDocs checks links against them (`in`): its own, and those
    of `more`, which need not hold a string for each."""

    def __init__(self, ids: set[str], more: Container[str]):
        super().__init__(ids)
        self._more = more

    def __contains__(self, anchor: object) -> bool:
        return super().__contains__(anchor) or anchor in self._more


class _Addresses:
    """The addresses MkDocs serves the site's files at, each looked up once: a lookup
    takes longer than the rest of a link, and the pages of a whole session make
    thousands of links."""

    def __init__(self, files: Files):
        self._files = files
        self._urls: dict[str, str | None] = {}

    def url(self, src: str) -> str | None:
        if src not in self._urls:
            file = self._files.get_file_from_path(src)
            self._urls[src] = None if file is None else file.url
        return self._urls[src]


def _add(files: Files, config: MkDocsConfig, made: Sequence[GeneratedFile | WrittenFile]) -> None:
    """Add the files the build made; PageError if one would replace a file of the author's."""
    theirs = {key: file for file in files if not file.generated_by for key in (file.src_uri, file.dest_uri)}
    for made_file in made:
        if isinstance(made_file, WrittenFile):
            file = File.generated(config, made_file.src, abs_src_path=made_file.path,
                                  inclusion=InclusionLevel.NOT_IN_NAV)
        else:
            inclusion = InclusionLevel.UNDEFINED if made_file.in_nav else InclusionLevel.NOT_IN_NAV
            file = File.generated(config, made_file.src, content=made_file.content, inclusion=inclusion)
        if (their := theirs.get(file.src_uri) or theirs.get(file.dest_uri)) is not None:
            project = _project_dir(config)
            raise PageError(generated_clash(os.path.relpath(their.abs_src_path or their.src_uri, project),
                                            file.src_uri, file.dest_uri))
        files.append(file)
