"""A project made the way the README tells an author to make the site theirs: the
repository's tool (its mkdocs.yml, hooks and assets) without the essay in docs/, their
own pages, a transcript imported from their session's log, and their settings set in
mkdocs.yml.

A fixture essay is a folder under tests/projects/ holding `docs/` (its pages) and either
- `settings.yml`: the log its transcript is imported from (a file of tests/data/transcripts/)
  and the settings an author edits in the mkdocs.yml the repository ships (site_name,
  site_description, site_author or the essay's authors, the essay's title, published
  and sections, and any of the transcript's settings); or
- its own `mkdocs.yml`, and its transcript in `docs/`: an essay that keeps its settings
  whatever the repository's mkdocs.yml becomes.

The mkdocs.yml shipped is kept with the shipped essay, in tests/projects/silence: once an
author has made the repository theirs, its own mkdocs.yml holds their settings (a `nav`,
`context: all`), which no fixture essay is written for.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parent.parent
PROJECTS = ROOT / "tests" / "projects"
LOGS = ROOT / "tests" / "data" / "transcripts"
# What of the repository is the tool rather than the essay it ships.
TOOL = ("hooks", "docs/assets")
SHIPPED_CONFIG = PROJECTS / "silence" / "mkdocs.yml"


def fixture_settings(name: str) -> dict[str, Any]:
    settings = yaml.safe_load((PROJECTS / name / "settings.yml").read_text(encoding="utf-8"))
    assert isinstance(settings, dict)
    return settings


def this_project(destination: Path) -> Path:
    """A copy of the site in this repository, whatever essay it holds: built there, a test
    leaves the repository as it was (a build writes CITATION.cff beside mkdocs.yml)."""
    destination.mkdir(parents=True)
    for part in ("hooks", "docs"):
        shutil.copytree(ROOT / part, destination / part, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "mkdocs.yml", destination / "mkdocs.yml")
    return destination


def author_project(name: str, destination: Path) -> Path:
    """The fixture essay `name` made into a project at `destination`, as its author would."""
    fixture = PROJECTS / name
    destination.mkdir(parents=True)
    for part in TOOL:
        shutil.copytree(ROOT / part, destination / part, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(fixture / "docs", destination / "docs", dirs_exist_ok=True)
    if (fixture / "mkdocs.yml").exists():
        shutil.copy(fixture / "mkdocs.yml", destination / "mkdocs.yml")
        return destination
    settings = fixture_settings(name)
    template = SHIPPED_CONFIG.read_text(encoding="utf-8")
    (destination / "mkdocs.yml").write_text(their_settings(template, settings), encoding="utf-8")
    imported = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "import_transcript.py"), str(LOGS / settings["log"]),
         "-o", str(destination / "docs" / "transcript.jsonl")],
        capture_output=True, text=True, timeout=60,
    )
    assert imported.returncode == 0, imported.stderr
    return destination


def their_settings(config: str, settings: dict[str, Any]) -> str:
    """The text of a site's mkdocs.yml with an author's settings in place of its essay's.
    Edited as text, as an author edits it: its comments and tags (`!ENV`) stay."""
    continued = r"(?:[ ]+\S.*\n)*"  # the indented lines that carry on a top-level value
    for optional in ("site_author", "site_description"):
        config = re.sub(rf"^{optional}:.*\n{continued}", "", config, flags=re.MULTILINE)
    config = re.sub(r"^    authors:.*\n(?:      .*\n)*", "", config, flags=re.MULTILINE)
    head = [f"site_name: {_quoted(settings['site_name'])}",
            f"site_description: {_quoted(' '.join(settings['site_description'].split()))}"]
    if "site_author" in settings:
        head.append(f"site_author: {_quoted(settings['site_author'])}")
    sections = "".join(f"      - {src}\n" for src in settings["sections"])
    authors = "".join(f"      - {json.dumps(author, ensure_ascii=False)}\n" for author in settings.get("authors", []))
    title = f"    title: {_quoted(settings['title'])}\n" + (f"    authors:\n{authors}" if authors else "")
    edits = [
        (r"^site_name:.*\n", "\n".join(head) + "\n"),
        (r"^    title:.*\n(?:[ ]{5,}\S.*\n)*", title),
        (r"^    published:.*\n", f"    published: {settings['published']}\n"),
        (r"^    sections:.*\n(?:      .*\n)*", f"    sections:\n{sections}"),
        # Each of the transcript's settings in the line that sets it (no other line is so indented).
        *((rf"^    {name}:.*\n", f"    {name}: {json.dumps(value)}\n")
          for name, value in settings.get("transcript", {}).items()),
    ]
    for pattern, replacement in edits:
        config, count = re.subn(pattern, replacement.replace("\\", "\\\\"), config, flags=re.MULTILINE)
        assert count == 1, f"mkdocs.yml: not one line matching {pattern!r}"
    return config


def _quoted(value: object) -> str:
    return '"' + str(value).replace("\\", "\\\\").replace('"', '\\"') + '"'
