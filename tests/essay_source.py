"""The shipped essay's source text, read into the sections and paragraphs its site must
show: the source in docs/, where it is the one this repository shipped."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SOURCE_TEXT = ROOT / "docs" / "source-text.txt"
SHIPPED_SOURCE_TEXT = ROOT / "tests" / "projects" / "silence" / "docs" / "source-text.txt"
# The tests that hold the site in this repository to the shipped essay's source text.
holds_the_shipped_essay = pytest.mark.skipif(
    not SOURCE_TEXT.is_file() or SOURCE_TEXT.read_bytes() != SHIPPED_SOURCE_TEXT.read_bytes(),
    reason="docs/ holds another essay than the one shipped (docs/source-text.txt is not its source text)",
)

# The source's section headings, and the page that carries each section.
SECTIONS = {
    "Introduction": "index.md",
    "The Context: A Model That Produces Garbage": "context.md",
    "The Assistant's Response: Action Without Acknowledgment": "response.md",
    "The Empty Message: What Did the User Mean?": "empty-message.md",
    "The Assistant's Interpretation: Documentation Mode": "interpretation.md",
    "The Deeper Significance": "significance.md",
    "Conclusion": "conclusion.md",
}

# The editorial changes listed on the "Note on the text" page.
CORRECTIONS = {"(<msg id=5852]": "([msg 5852]"}

TAG_RE = re.compile(r"\[msg (\d+)\]")
ITEM_RE = re.compile(r"^\s*\d+\.\s+")


def normalize(text: str) -> str:
    return " ".join(text.split())


def read_source(path: Path = SOURCE_TEXT) -> tuple[str, dict[str, list[str]]]:
    """The title, and each section's paragraphs (list items one each), corrections applied:
    of the source in docs/, or of the one at `path`."""
    text = path.read_text(encoding="utf-8")
    for wrong, right in CORRECTIONS.items():
        text = text.replace(wrong, right)
    blocks = [block for block in re.split(r"\n\s*\n", text.strip()) if block.strip()]
    title = blocks[0].strip()
    sections: dict[str, list[str]] = {}
    current: list[str] | None = None
    for block in blocks[1:]:
        if block.strip() in SECTIONS:
            current = sections.setdefault(block.strip(), [])
        elif block.strip() == ">":
            continue  # the source's quotation mark between the two quoted paragraphs
        elif current is None:
            raise ValueError(f"{path}: text before the first section: {block!r}")
        elif all(ITEM_RE.match(line) for line in block.splitlines()):
            current.extend(normalize(ITEM_RE.sub("", line)) for line in block.splitlines())
        else:
            current.append(normalize(block))
    return title, sections


def cited_numbers(paragraphs: list[str]) -> list[int]:
    return [int(n) for paragraph in paragraphs for n in TAG_RE.findall(paragraph)]


def as_rendered(paragraph: str) -> str:
    """A paragraph as the reader sees it: each `[msg N]` is a link reading "msg N"."""
    return TAG_RE.sub(r"msg \1", paragraph)
