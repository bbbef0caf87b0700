"""A whole session's page costs the browser little: its preformatted blocks are out of
Material's script (msgview.highlight.as_sample), and its entries are laid out only near
the screen, except when printed."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from session_pages import imported, layout_of, page

CSS = (Path(__file__).resolve().parents[1] / "docs" / "assets" / "essay.css").read_text(encoding="utf-8")


@pytest.mark.parametrize("log", ["claude-code-log_ide_wrappers_errors.jsonl", "claude-code-log_image_edit_bash.jsonl",
                                 "claude-code-transcripts_sample_session.jsonl",
                                 "claude-code-viewer_sidechain_todowrite_multiedit.jsonl"])
def test_every_block_of_a_whole_session_sets_its_text_in_samp(tmp_path, log):
    entries = page(layout_of(imported(tmp_path, log)))
    blocks = entries.select("pre")
    assert blocks and not entries.select("pre > code")
    assert all(block.find("samp", recursive=False) is not None for block in blocks)
    # Highlighted blocks keep their colours, and a file read its line numbers.
    assert entries.select("div.highlight > pre > samp span[class]")
    if log == "claude-code-log_ide_wrappers_errors.jsonl":
        assert entries.select("div.highlight > pre > samp span.linenos[data-linenos]")


def test_entries_are_laid_out_near_the_screen_only_and_all_when_printed():
    rules = re.findall(r"([^{}]+)\{([^{}]*)\}", re.sub(r"/\*.*?\*/", "", CSS, flags=re.DOTALL))
    skipped = [selector.strip() for selector, body in rules if "content-visibility: auto" in body]
    assert skipped == [".md-typeset .msg-item"] and "contain-intrinsic-size: auto" in CSS
    printed = CSS[CSS.index("content-visibility: auto"):]
    assert re.search(r"@media print \{\s*\.md-typeset \.msg-item \{ content-visibility: visible; \}", printed)
