"""MkDocs hook: wires the `msgref` package into a build.

It loads the transcript, registers the Markdown extension, adds the generated
transcript pages, tells the extension which page it is converting, and fills in the
"Cited in" lists once every page has been converted. The logic lives in `msgref`.
"""

from __future__ import annotations

import logging
import os
import re

from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority
from mkdocs.structure.files import File, InclusionLevel

from msgref.citations import CitationRegistry
from msgref.extension import MessageCitations
from msgref.redact import RedactedTranscript, Redactor
from msgref.transcript import TranscriptError, start_loading
from msgref.transcript_pages import (TranscriptEntries, TranscriptLayout, cited_numbers, fill_cited_in,
                                     layout_options, page_markdown)

log = logging.getLogger("mkdocs.hooks.msgref")

TRANSCRIPT_INTRO = (
    "The messages of the session that the essay cites, as far as the essay shows them. "
    "A message the essay quotes is shown word for word; a message it only describes is shown "
    "as the essay's description, marked as such. See the [note on the text](../note-on-the-text.md)."
)

_build = {}  # what the events of one build share: the loading transcript, the layout, the extension


@event_priority(100)  # first: the longer a large transcript has to load meanwhile, the better
def on_config(config):
    settings = config.extra.get("transcript") or {}
    if not isinstance(settings, dict):
        raise PluginError("mkdocs.yml: extra.transcript: expected the transcript's settings")
    project = os.path.dirname(os.path.abspath(config.config_file_path or "mkdocs.yml"))
    source = _setting(settings, "source", str, "docs/transcript.jsonl")
    in_child = _setting(settings, "parse_in_child", bool, True)
    try:
        # A large transcript is parsed meanwhile, on another core; on_files takes it.
        _build["loading"] = start_loading(os.path.join(project, source), source, in_child)
    except TranscriptError as error:
        raise PluginError(str(error)) from None
    redaction = _redaction(settings) if _setting(settings, "redact", bool, True) else None
    try:
        options = layout_options(settings)
    except ValueError as error:
        raise PluginError(f"mkdocs.yml: extra.transcript: {error}") from None
    registry = CitationRegistry()
    # The transcript and the layout (which depends on which messages the pages cite)
    # are given to the extension in on_files.
    extension = MessageCitations(None, lambda n, page: _build["layout"].href(n, page), registry, warn=log.warning)
    config.markdown_extensions.append(extension)
    config.markdown_extensions.append(TranscriptEntries(lambda: _build["layout"]))
    if "attr_list" not in config.markdown_extensions:
        config.markdown_extensions.append("attr_list")  # the transcript headings carry ids
    _build.update(redaction=redaction, options=options, registry=registry, extension=extension,
                  project=project, source_name=source, source=os.path.abspath(os.path.join(project, source)))
    return config


def on_files(files, config):
    transcript = _loaded_transcript()
    source = files.get_file_from_path(os.path.relpath(_build["source"], config.docs_dir))
    if source is not None and _build["source"] == os.path.abspath(source.abs_src_path):
        files.remove(source)  # the raw transcript is an input, not a page or asset
    cited = cited_numbers(file.content_string for file in files.documentation_pages())
    layout = _build["layout"] = TranscriptLayout(transcript, cited=cited, **_build["options"])
    for index in range(len(layout.pages)):
        content = page_markdown(layout, index, TRANSCRIPT_INTRO)
        inclusion = InclusionLevel.UNDEFINED if index == 0 else InclusionLevel.NOT_IN_NAV  # the pager links them
        files.append(File.generated(config, layout.page_src(index), content=content, inclusion=inclusion))
    for src, text in layout.whole_texts():  # messages too long to show whole on their page
        files.append(File.generated(config, src, content=text))
    return files


def _loaded_transcript():
    """The transcript as the site shows it, once on_config's loading has finished."""
    source = _build["source_name"]
    try:
        transcript = _build.pop("loading")()
    except TranscriptError as error:
        raise PluginError(str(error)) from None
    if transcript is not _build.get("loaded"):
        log.debug("Parsed transcript %s: %d messages", source, len(transcript))
        _build.pop("redacted", None)
    else:
        log.debug("Transcript %s unchanged since the last build; not parsed again", source)
    _build["loaded"] = transcript
    if _build["redaction"] is not None:
        transcript = _redacted(transcript, *_build["redaction"], source)
    transcript = _BuildTranscript(transcript)
    _build["extension"].transcript = transcript
    return transcript


class _BuildTranscript:
    """The transcript during a build. A message that can no longer be read, because the
    file changed since it was parsed, stops the build with the file's name and no
    traceback: MkDocs prints a traceback for any error but its own."""

    def __init__(self, transcript):
        self._transcript = transcript
        self.path = transcript.path
        self.numbers = transcript.numbers

    def __len__(self) -> int:
        return len(self._transcript)

    def __contains__(self, n: int) -> bool:
        return n in self._transcript

    def get(self, n: int):
        try:
            return self._transcript.get(n)
        except TranscriptError as error:
            raise PluginError(str(error)) from None


def on_page_markdown(markdown, page, config, files):
    # Named as the transcript is: relative to the folder of mkdocs.yml.
    display_path = os.path.relpath(os.path.join(config.docs_dir, page.file.src_path), _build["project"])
    derived = page.meta.get("derived", False)  # a page that repeats others, such as the whole essay
    _build["extension"].begin_page(page.file.src_uri, display_path, _first_body_line(page, markdown), derived)
    return markdown


@event_priority(-50)  # after other plugins have finished with the rendered pages
def on_env(env, config, files):
    layout, registry = _build["layout"], _build["registry"]
    for index in range(len(layout.pages)):
        transcript_file = files.get_file_from_path(layout.page_src(index))
        page = transcript_file.page

        def link_for(citation, transcript_file=transcript_file):
            return files.get_file_from_path(citation.page).url_relative_to(transcript_file) + "#" + citation.anchor

        def title_of(src):
            return files.get_file_from_path(src).page.title

        page.content = fill_cited_in(page.content, registry.of_message, link_for, title_of)
    return env


def _redaction(settings):
    """The redaction's settings (extra patterns and allowed strings), checked, and its redactor."""
    patterns = _setting(settings, "redact_patterns", dict, {})
    allow = _setting(settings, "redact_allow", list, [])
    if not all(isinstance(v, str) for v in [*patterns, *patterns.values(), *allow]):
        raise PluginError("mkdocs.yml: extra.transcript: redact_patterns maps names to regular expressions, "
                          "and redact_allow lists strings")
    try:
        return (patterns, allow), Redactor(patterns, allow)
    except re.error as error:
        raise PluginError(f"mkdocs.yml: extra.transcript.redact_patterns: not a valid regular expression: {error}") from None


def _redacted(transcript, rules, redactor, source):
    """The transcript as the site shows it: each message redacted when first read. The
    redacted messages are kept until the file or the redaction settings change."""
    if _build.get("redacted", (None,))[0] != rules:

        def report(n, kinds):
            log.info("Redacted in %s, message %d: %s", source, n, ", ".join(kinds))

        _build["redacted"] = (rules, RedactedTranscript(transcript, redactor, report))
    return _build["redacted"][1]


def _setting(settings, name, kind, default):
    """A setting under extra.transcript, checked to be of the expected kind."""
    value = settings.get(name, default)
    if not isinstance(value, kind):
        raise PluginError(f"mkdocs.yml: extra.transcript.{name}: expected {kind.__name__}, found {value!r}")
    return value


def _first_body_line(page, markdown: str) -> int:
    """The line of the source file on which the Markdown body starts, after any front matter."""
    if page.file.generated_by or not page.file.abs_src_path:
        return 1
    source = page.file.content_string
    if not source.endswith(markdown):
        return 1
    return source[: len(source) - len(markdown)].count("\n") + 1
