"""MkDocs hook: the essay as a citable work.

It gives paragraphs their ¶ links and adds the whole essay as one page for reading in
one piece, printing and PDF. The logic lives in the `essaycite` package.
"""

from __future__ import annotations

import os

from mkdocs.structure.files import File, InclusionLevel

from essaycite.paragraphs import ParagraphLinks
from essaycite.whole_essay import whole_essay_markdown

WHOLE_ESSAY_PAGE = "print.md"

_build = {}


def on_config(config):
    config.markdown_extensions.append(ParagraphLinks())
    _build["sections"] = list(config.extra["essay"]["sections"])
    return config


def on_files(files, config):
    sources = []
    for section in _build["sections"]:
        with open(os.path.join(config.docs_dir, section), encoding="utf-8-sig") as source:
            sources.append(source.read())
    content = "---\nderived: true\n---\n\n" + whole_essay_markdown(sources)
    page = File.generated(config, WHOLE_ESSAY_PAGE, content=content, inclusion=InclusionLevel.NOT_IN_NAV)
    files.append(page)
    return files
