"""Python-Markdown with the citation extension, standing in for the build it serves: the
tests of the extension and of ranges convert an essay's Markdown against messages of
their own."""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from typing import Any

import markdown
from bs4 import BeautifulSoup

from msgref.citations import CitationRegistry
from msgref.extension import MessageCitations, PageInProgress
from msgview.render import MessageRenderer
from transcript.calls import CallsBefore
from transcripts import MemoryTranscript


class Converter:
    """Converts Markdown with the extension against the transcript of `messages`."""

    def __init__(self, messages: Sequence[dict[str, Any]]):
        self.transcript = MemoryTranscript(messages)
        self.warnings: list[str] = []
        self.citations = CitationRegistry()
        self.page = PageInProgress("page.md", "page.md")
        self.extension = MessageCitations(self)
        self.renderer = MessageRenderer(call_of=CallsBefore(self.transcript))
        self.html = ""

    def message(self, n):
        return self.transcript.get(n)

    def href(self, n, from_page):
        return f"transcript.md#msg-{n}"

    def shown_whole(self, message, from_page):
        return message, None  # no message of these tests is long enough to be cut

    def warn(self, text):
        self.warnings.append(text)

    def begin_page(self, src, display_path, first_line=1, derived=False):
        self.page = PageInProgress(src, display_path, first_line, derived)
        self.citations.forget_page(src)

    def __call__(self, text: str, first_line: int = 1) -> BeautifulSoup:
        self.begin_page("essay.md", "docs/essay.md", first_line)
        md = markdown.Markdown(extensions=[self.extension, "attr_list", "pymdownx.highlight", "pymdownx.superfences"])
        self.html = md.convert(textwrap.dedent(text))
        return BeautifulSoup(self.html, "html.parser")
