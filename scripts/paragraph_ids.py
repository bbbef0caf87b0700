#!/usr/bin/env python3
"""Give every paragraph of the essay a fixed anchor, written into its Markdown source.

Each paragraph, list item and quoted paragraph without an id gets an attribute list
such as `{ #p-the-initial-deployment-attempt }` on the line after it, made from its first
words. Ids already in the source are never changed, so links to a paragraph keep working
when paragraphs are added, moved or edited around it.

    python scripts/paragraph_ids.py            # add missing ids to the essay's pages
    python scripts/paragraph_ids.py --check    # list paragraphs without an id; exit 1 if any

With no files named, the pages are those listed under extra.essay.sections in mkdocs.yml.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

import yaml

from essaycite.source import ID_LINE_RE, in_fenced_code
from sitebuild.config_file import read_config
from sitebuild.site_config import read_site_config

ROOT = Path(__file__).resolve().parent.parent
LIST_ITEM_RE = re.compile(r"^(\s*)(?:\d+\.|[-*+])\s+")
TAG_ALONE_RE = re.compile(r"^\s*\[msg \d+\]\s*$")
SLUG_WORDS = 4


def essay_pages(config_path: Path) -> list[Path]:
    site = read_site_config(read_config(config_path), str(config_path.parent))
    if site.essay is None:
        raise ValueError(f"{config_path}: extra.essay: not set, so there are no essay pages to name")
    docs = Path(site.project_dir, site.docs_dir)
    return [docs / name for name in site.essay.sections]


def slug(text: str, taken: set[str]) -> str:
    text = re.sub(r"\[msg \d+\]|\]\([^)]*\)|[*`>\[\]]", " ", text)
    words = re.findall(r"[a-z0-9]+", text.lower())[:SLUG_WORDS] or ["paragraph"]
    candidate, n = "p-" + "-".join(words), 1
    while candidate in taken:
        n += 1
        candidate = f"p-{'-'.join(words)}-{n}"
    taken.add(candidate)
    return candidate


def paragraphs(lines: list[str]):
    """Yield (first, last, indent, prefix) line spans of paragraphs outside code and HTML."""
    i, in_html, in_code = 0, False, in_fenced_code(lines)
    if lines and lines[0].strip() == "---":  # front matter
        i = lines.index("---", 1) + 1 if "---" in lines[1:] else 0
    while i < len(lines):
        line = lines[i]
        if in_code[i]:
            pass  # fenced code holds no paragraphs
        elif line.lstrip().startswith("</"):
            in_html = False
        elif line.lstrip().startswith("<") and not in_html:
            in_html = not re.search(r"</\w+>\s*$", line)
        elif not in_html and line.strip() and not line.lstrip().startswith("#") and not ID_LINE_RE.match(line):
            start = i
            if line.lstrip().startswith(">"):
                while i + 1 < len(lines) and lines[i + 1].lstrip().startswith(">") and lines[i + 1].strip() != ">":
                    i += 1
                yield start, i, "", "> "
            elif list_item := LIST_ITEM_RE.match(line):
                indent = list_item.group(1) + "    "
                while i + 1 < len(lines) and lines[i + 1].strip() and not LIST_ITEM_RE.match(lines[i + 1]):
                    i += 1
                yield start, i, indent, ""
            else:
                while i + 1 < len(lines) and lines[i + 1].strip() and not LIST_ITEM_RE.match(lines[i + 1]):
                    i += 1
                if not (start == i and TAG_ALONE_RE.match(line)):  # a message quoted whole: not the essay's words
                    yield start, i, "", ""
        i += 1


def missing_ids(lines: list[str]):
    """Paragraph spans whose last line is not an id, with the ids already taken."""
    taken = {m.group(1) for line in lines if (m := ID_LINE_RE.match(line))}
    spans = [span for span in paragraphs(lines) if not ID_LINE_RE.match(lines[span[1]])]
    return spans, taken


def add_ids(path: Path) -> int:
    lines = path.read_text(encoding="utf-8").split("\n")
    spans, taken = missing_ids(lines)
    for first, last, indent, prefix in reversed(spans):
        text = " ".join(lines[first : last + 1])
        lines.insert(last + 1, f"{indent}{prefix}{{ #{slug(text, taken)} }}")
    path.write_text("\n".join(lines), encoding="utf-8")
    return len(spans)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="*", type=Path, help="Markdown pages (default: the essay's sections)")
    parser.add_argument("--check", action="store_true", help="only list paragraphs without an id")
    args = parser.parse_args(argv)
    try:
        files = args.files or essay_pages(ROOT / "mkdocs.yml")
        missing = 0
        for path in files:
            if args.check:
                lines = path.read_text(encoding="utf-8").split("\n")
                for first, *_ in missing_ids(lines)[0]:
                    print(f"{path}:{first + 1}: paragraph has no id", file=sys.stderr)
                    missing += 1
            elif added := add_ids(path):
                print(f"{path}: added {added} paragraph ids")
    except (OSError, ValueError, yaml.YAMLError) as error:  # ValueError: not UTF-8, or a bad setting
        print(f"paragraph_ids: {error}", file=sys.stderr)
        return 2
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
