"""The essay's kept editions: each a copy of the site as it was built when its author kept
it (scripts/new_edition.py), in the docs folder's `editions/N/`, and beside it a record,
`editions/N.json`, of its number, its date and the hash of each of its files.

A build publishes each copy at `editions/N/`, with a line on each page saying that a
later edition exists, and checks it against its record as it publishes it: a kept
edition never changes. Its other files are never written: the site gets a second name
for each (a hard link), where the file system allows it, and a copy where it does not.
"""

from __future__ import annotations

import contextlib
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
class KeptFile:
    sha256: str
    size: int  # bytes


@dataclass(frozen=True)
class KeptEdition:
    number: int
    published: datetime.date
    files: Mapping[str, KeptFile]  # each file of the copy, by its path in it

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
        if not (isinstance(number, int) and number >= 1 and isinstance(files, dict)):
            raise ValueError("unexpected values")
        if os.path.basename(path) != f"{number}.json":
            raise ValueError(f"it records edition {number}")
        kept = {name: KeptFile(str(file["sha256"]), int(file["bytes"])) for name, file in files.items()}
        return KeptEdition(number, datetime.date.fromisoformat(published), kept)
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


def kept_files(folder: str) -> dict[str, KeptFile]:
    """Each file under `folder`, by its path from it, with its SHA-256 and size."""
    found = {}
    for path in files_in(folder):
        with open(os.path.join(folder, *path.split("/")), "rb") as file:
            found[path] = KeptFile(hashlib.file_digest(file, "sha256").hexdigest(), os.fstat(file.fileno()).st_size)
    return found


def changed_since_kept(docs_dir: str, edition: KeptEdition) -> str | None:
    """What differs between the copy of `edition` and its record, as a problem naming a
    file; None if nothing does."""
    folder = os.path.join(docs_dir, edition.folder)
    found = kept_files(folder) if os.path.isdir(folder) else {}
    if problem := _listing_difference(edition, list(found), folder):
        return problem
    changed = next((path for path, file in edition.files.items() if found[path] != file), None)
    return f"{os.path.join(folder, changed)}: changed since edition {edition.number} was kept" if changed else None


def _listing_difference(edition: KeptEdition, listed: list[str], folder: str) -> str | None:
    """A file of the record missing from the copy, or one the record does not list."""
    present = set(listed)
    if missing := next((path for path in edition.files if path not in present), None):
        return f"{os.path.join(folder, missing)}: missing from kept edition {edition.number}"
    if added := next((path for path in listed if path not in edition.files), None):
        return f"{os.path.join(folder, added)}: added to kept edition {edition.number} since it was kept"
    return None


def publish(docs_dir: str, site_dir: str, edition: KeptEdition, later_line: Callable[[str], str]) -> None:
    """Publishes the kept `edition` in the site, each of its pages with the line that
    `later_line` gives for its path in the copy. Its pages, which it reads for that line,
    must hold the hashes of its record, and every other file its size: SettingsError names
    one that differs, and nothing of the copy is left in the site. (The tests hold every
    file of a kept edition to its hash.)"""
    source, target = os.path.join(docs_dir, edition.folder), os.path.join(site_dir, edition.folder)
    listed = files_in(source)
    problem = _listing_difference(edition, listed, source)
    folders: set[str] = set()
    for path in listed if problem is None else ():
        origin, destination = os.path.join(source, *path.split("/")), os.path.join(target, *path.split("/"))
        if (folder := os.path.dirname(destination)) not in folders:
            os.makedirs(folder, exist_ok=True)
            folders.add(folder)
        if not path.endswith(".html"):
            _link_or_copy(origin, destination)
            if os.path.getsize(destination) != edition.files[path].size:
                problem = problem or f"{origin}: changed since edition {edition.number} was kept"
            continue
        with open(origin, "rb") as file:
            data = file.read()
        if hashlib.sha256(data).hexdigest() != edition.files[path].sha256:
            problem = problem or f"{origin}: changed since edition {edition.number} was kept"
        with contextlib.suppress(FileNotFoundError):
            os.unlink(destination)  # not written through, if a last build linked it
        with open(destination, "wb") as file:
            file.write(_with_line(data, later_line(path).encode()))
    if problem:
        shutil.rmtree(target, ignore_errors=True)
        raise SettingsError(f"{problem}: a kept edition stays as it was published")


def _link_or_copy(origin: str, destination: str) -> None:
    """`destination` made a second name of the file `origin`, or else its copy (a site
    folder on another file system). What a last build left there is removed first, never
    written through: it may be a name of a kept file."""
    with contextlib.suppress(FileNotFoundError):
        os.unlink(destination)
    try:
        os.link(origin, destination)
    except OSError:
        shutil.copyfile(origin, destination)


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
