#!/usr/bin/env python3
"""Give every paragraph of the essay a fixed anchor, written into its Markdown source.

Each paragraph, list item and quoted paragraph without an id gets an attribute list
such as `{ #p-the-initial-deployment-attempt }` on the line after it, made from its first
words. Ids already in the source are never changed, so links to a paragraph keep working
when paragraphs are added, moved or edited around it. None is written after a table, indented
code, a heading, a rule or a link's reference, where it would show as text; a page keeps
its byte order mark and its line endings (CRLF or LF).

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
from msgref.tags import TAG_RE
from sitebuild.config_file import read_config
from sitebuild.site_config import read_site_config

ROOT = Path(__file__).resolve().parent.parent
LIST_ITEM_RE = re.compile(r"^(\s*)(?:\d+\.|[-*+])\s+")
TAG_ALONE_RE = re.compile(rf"^\s*{TAG_RE.pattern}\s*$")
SLUG_WORDS = 4


def essay_pages(config_path: Path) -> list[Path]:
    site = read_site_config(read_config(config_path), str(config_path.parent))
    if site.essay is None:
        raise ValueError(f"{config_path}: extra.essay: not set, so there are no essay pages to name")
    docs = Path(site.project_dir, site.docs_dir)
    return [docs / name for name in site.essay.sections]


def slug(text: str, taken: set[str]) -> str:
    text = re.sub(rf"{TAG_RE.pattern}|\]\([^)]*\)|[*`>\[\]]", " ", text)
    words = re.findall(r"[a-z0-9]+", text.lower())[:SLUG_WORDS] or ["paragraph"]
    candidate, n = "p-" + "-".join(words), 1
    while candidate in taken:
        n += 1
        candidate = f"p-{'-'.join(words)}-{n}"
    taken.add(candidate)
    return candidate


# Blocks after which an attribute list would be no id but text: a table (its second line
# is the row of dashes under its head), a horizontal rule, a heading underlined, a link's
# reference, an admonition's or a tab's first line.
TABLE_RULE_RE = re.compile(r"^\s*\|?\s*:?-+:?\s*(?:\|\s*:?-+:?\s*)*\|?\s*$")
RULE_RE = re.compile(r"^ {0,3}([-*_])(?:\s*\1){2,}\s*$")
UNDERLINE_RE = re.compile(r"^ {0,3}(?:=+|-+)\s*$")
NOT_A_PARAGRAPH_RE = re.compile(r"^ {0,3}(?:\[[^\]]+\]:|!!!|\?\?\?|===|\*\[)")


def _indented(line: str) -> bool:
    return line.startswith(("    ", "\t"))


def paragraphs(lines: list[str]):
    """Yield (first, last, indent, prefix) line spans of paragraphs outside code and HTML,
    where an id can stand after them."""
    i, in_html, in_code, in_list = 0, False, in_fenced_code(lines), False
    if lines and lines[0].strip() == "---":  # front matter
        i = lines.index("---", 1) + 1 if "---" in lines[1:] else 0
    while i < len(lines):
        line = lines[i]
        if in_code[i]:
            pass  # fenced code holds no paragraphs
        elif line.lstrip().startswith("<!--"):
            while "-->" not in lines[i] and i + 1 < len(lines):
                i += 1
        elif line.lstrip().startswith("</"):
            in_html = False
        elif line.lstrip().startswith("<") and not in_html:
            in_html = not re.search(r"</\w+>\s*$", line)
        elif in_html or not line.strip():
            pass
        elif _indented(line) and not in_list and (i == 0 or not lines[i - 1].strip()):
            while i + 1 < len(lines) and (_indented(lines[i + 1]) or not lines[i + 1].strip()):
                i += 1  # indented code: its lines, and the blank lines between them
        elif line.lstrip().startswith("#") or ID_LINE_RE.match(line) or RULE_RE.match(line) \
                or NOT_A_PARAGRAPH_RE.match(line):
            in_list = in_list and _indented(line)
        else:
            start = i
            if line.lstrip().startswith(">"):
                while i + 1 < len(lines) and lines[i + 1].lstrip().startswith(">") and lines[i + 1].strip() != ">":
                    i += 1
                in_list = False
                yield start, i, "", "> "
                i += 1
                continue
            list_item = LIST_ITEM_RE.match(line)
            while i + 1 < len(lines) and lines[i + 1].strip() and not LIST_ITEM_RE.match(lines[i + 1]):
                i += 1
            block = lines[start : i + 1]
            table = len(block) > 1 and TABLE_RULE_RE.match(block[1]) and "|" in block[0] + block[1]
            if table or (len(block) > 1 and UNDERLINE_RE.match(block[-1])):
                in_list = False  # a table, or a heading underlined
            elif list_item:
                in_list = True
                yield start, i, list_item.group(1) + "    ", ""
            else:
                in_list = in_list and _indented(line)
                if not (start == i and TAG_ALONE_RE.match(line)):  # a message quoted whole: not the essay's words
                    yield start, i, line[: len(line) - len(line.lstrip())] if in_list else "", ""
        i += 1


def read_page(path: Path) -> tuple[list[str], str, str]:
    """The page's lines, its line ending (a CRLF page is written back as it was), and its
    byte order mark, if it has one, which the generator reads past."""
    text = path.read_bytes().decode("utf-8")
    bom = "\ufeff" if text.startswith("\ufeff") else ""
    ending = "\r\n" if "\r\n" in text else "\n"
    return text[len(bom) :].replace("\r\n", "\n").split("\n"), ending, bom


def missing_ids(lines: list[str]):
    """Paragraph spans whose last line is not an id, with the ids already taken."""
    taken = {m.group(1) for line in lines if (m := ID_LINE_RE.match(line))}
    spans = [span for span in paragraphs(lines) if not ID_LINE_RE.match(lines[span[1]])]
    return spans, taken


def add_ids(path: Path) -> int:
    lines, ending, bom = read_page(path)
    spans, taken = missing_ids(lines)
    if not spans:
        return 0
    for first, last, indent, prefix in reversed(spans):
        text = " ".join(lines[first : last + 1])
        lines.insert(last + 1, f"{indent}{prefix}{{ #{slug(text, taken)} }}")
    path.write_bytes((bom + ending.join(lines)).encode("utf-8"))
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
                for first, *_ in missing_ids(read_page(path)[0])[0]:
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
