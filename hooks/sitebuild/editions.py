"""The essay's kept editions: each a copy of the site as it was built when its author kept
it (scripts/new_edition.py), in the docs folder's `editions/N/`, and beside it a record,
`editions/N.json`, of its number, its date and the hash of each of its files.

A build publishes each copy at `editions/N/`, with a line on each page saying that a
later edition exists, and checks it against its record as it copies it, reading each
file once: a kept edition never changes.
"""

from __future__ import annotations

import datetime
import hashlib
import json
import os
import posixpath
import shutil
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from .settings import SettingsError

EDITIONS_FOLDER = "editions"  # in the docs folder, and in the site
PARAGRAPHS_FILE = "paragraphs.json"  # in a kept copy: its paragraphs' words, by anchor
# Where a kept copy's page says that a later edition exists: written by the theme when
# the copy is built, filled as the copy is published.
LATER_EDITION_SLOT = "<!--essay:later-edition-->"
# What a kept copy leaves out: the scripts' source maps, a megabyte that no reader loads.
LEFT_OUT_SUFFIXES = (".map",)


@dataclass(frozen=True)
class KeptEdition:
    number: int
    published: datetime.date
    files: Mapping[str, str]  # each file of the copy, by its path in it, and its SHA-256

    @property
    def folder(self) -> str:
        """Its folder, in the docs folder and in the site."""
        return f"{EDITIONS_FOLDER}/{self.number}"


def record_path(docs_dir: str, number: int) -> str:
    return os.path.join(docs_dir, EDITIONS_FOLDER, f"{number}.json")


def kept_editions(docs_dir: str, current: int) -> tuple[KeptEdition, ...]:
    """The editions kept in `docs_dir`, oldest first, from their records; SettingsError
    naming the file for a record that cannot be read, or one of an edition not earlier
    than the `current` one."""
    folder = os.path.join(docs_dir, EDITIONS_FOLDER)
    if not os.path.isdir(folder):
        return ()
    found: list[KeptEdition] = []
    for name in sorted(os.listdir(folder)):
        path = os.path.join(folder, name)
        if name.endswith(".json") and os.path.isfile(path):
            found.append(_read_record(path))
        elif os.path.isdir(path) and not os.path.isfile(path + ".json"):
            raise SettingsError(f"{path}: a kept edition without its record, {name}.json: keep editions with "
                                "scripts/new_edition.py")
    for edition in found:
        if edition.number >= current:
            raise SettingsError(f"{record_path(docs_dir, edition.number)}: edition {edition.number} is kept, so the "
                                f"current one is a later one; extra.essay.edition in mkdocs.yml is {current}")
    return tuple(sorted(found, key=lambda edition: edition.number))


def _read_record(path: str) -> KeptEdition:
    try:
        with open(path, encoding="utf-8") as file:
            record: Any = json.load(file)
        number, published, files = record["edition"], record["published"], record["files"]
        if not (isinstance(number, int) and number >= 1 and isinstance(files, dict)
                and all(isinstance(value, str) for value in files.values())):
            raise ValueError("unexpected values")
        if os.path.basename(path) != f"{number}.json":
            raise ValueError(f"it records edition {number}")
        return KeptEdition(number, datetime.date.fromisoformat(published), files)
    except (OSError, UnicodeDecodeError, ValueError, KeyError, TypeError) as problem:
        raise SettingsError(f"{path}: not the record of a kept edition ({problem})") from None


def files_in(folder: str) -> list[str]:
    """Each file under `folder`, by its path from it with "/" between folders, in order."""
    found: list[str] = []
    for root, folders, names in os.walk(folder):
        folders.sort()
        found.extend(posixpath.join(*os.path.relpath(os.path.join(root, name), folder).split(os.sep))
                     for name in sorted(names))
    return found


def file_hashes(folder: str) -> dict[str, str]:
    """Each file under `folder`, by its path from it, and its SHA-256."""
    hashes = {}
    for path in files_in(folder):
        with open(os.path.join(folder, *path.split("/")), "rb") as file:
            hashes[path] = hashlib.file_digest(file, "sha256").hexdigest()
    return hashes


def changed_since_kept(docs_dir: str, edition: KeptEdition) -> str | None:
    """What differs between the copy of `edition` and its record, as a problem naming a
    file; None if nothing does."""
    folder = os.path.join(docs_dir, edition.folder)
    return _difference(edition, file_hashes(folder) if os.path.isdir(folder) else {}, folder)


def _difference(edition: KeptEdition, found: Mapping[str, str], folder: str) -> str | None:
    for path, digest in edition.files.items():
        if path not in found:
            return f"{os.path.join(folder, path)}: missing from kept edition {edition.number}"
        if found[path] != digest:
            return f"{os.path.join(folder, path)}: changed since edition {edition.number} was kept"
    for path in found:
        if path not in edition.files:
            return f"{os.path.join(folder, path)}: added to kept edition {edition.number} since it was kept"
    return None


def publish(docs_dir: str, site_dir: str, edition: KeptEdition, later_line: Callable[[str], str]) -> None:
    """Copies the kept `edition` into the site, each of its pages with the line that
    `later_line` gives for its path in the copy; SettingsError naming a file of the copy
    that differs from the record, and nothing of the copy left in the site."""
    source, target = os.path.join(docs_dir, edition.folder), os.path.join(site_dir, edition.folder)
    found = {}
    for path in files_in(source):
        with open(os.path.join(source, *path.split("/")), "rb") as file:
            data = file.read()
        found[path] = hashlib.sha256(data).hexdigest()
        if path.endswith(".html"):
            data = _with_line(data, later_line(path).encode())
        destination = os.path.join(target, *path.split("/"))
        os.makedirs(os.path.dirname(destination), exist_ok=True)
        with open(destination, "wb") as file:
            file.write(data)
    if problem := _difference(edition, found, source):
        shutil.rmtree(target, ignore_errors=True)
        raise SettingsError(f"{problem}: a kept edition stays as it was published")


def _with_line(page: bytes, line: bytes) -> bytes:
    slot = LATER_EDITION_SLOT.encode()
    if slot in page:
        return page.replace(slot, line, 1)
    body = page.find(b"<body")
    end = page.find(b">", body) if body >= 0 else -1
    return page[: end + 1] + line + page[end + 1:] if end >= 0 else page


def relative_href(from_path: str, to_path: str) -> str:
    """A link from the file at `from_path` to the page at `to_path`, both from the site's
    root; a folder's index.html is linked as the folder."""
    target = posixpath.dirname(to_path) if posixpath.basename(to_path) == "index.html" else to_path
    href = posixpath.relpath(target or ".", posixpath.dirname(from_path) or ".")
    if posixpath.basename(to_path) == "index.html":
        href = "./" if href == "." else href + "/"
    return href
