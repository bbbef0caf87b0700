"""The home folder of a session's owner, which every path of a log holds, shortened to `~`.

A log's paths (`/Users/NAME/project/…`, `/home/NAME/…`, `C:\\Users\\NAME\\…`) publish the
owner's user name. The owner's home folder is the one the log names most often; the
importer writes `~` in its place, and the build warns of a transcript line that holds
one and that the importer did not write as it is. Other users' folders (`/home/postgres`)
are left as they are: `~` would misname them. Plain Python: nothing here imports MkDocs.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable
from typing import Any

# A home folder on macOS, Linux or Windows, its separators escaped in JSON text or not.
# Group `name` is the user's name.
_HOME = r"(?:/Users/|/home/|[A-Za-z]:\\{1,2}Users\\{1,2})(?P<name>[A-Za-z0-9][\w.-]{0,63})(?![\w.-])"
HOME_FOLDER = re.compile(r"(?<![\w.~-])" + _HOME)
HOME_FOLDER_BYTES = re.compile((r"(?<![\w.~-])" + _HOME).encode())
# Where a home folder may be: found with a substring search, far quicker than the pattern.
_HINTS = (b"/Users/", b"/home/", b"Users\\")


def owner(names: Iterable[str]) -> str | None:
    """The user name that the home folders found name most often (the log's owner), or None."""
    counts = Counter(names)
    return counts.most_common(1)[0][0] if counts else None


def names_in(data: bytes) -> list[str]:
    """The user names of the home folders in `data` (a log's bytes), one a folder."""
    if not any(hint in data for hint in _HINTS):
        return []
    return [match.group("name").decode("utf-8", "replace") for match in HOME_FOLDER_BYTES.finditer(data)]


class HomeShortener:
    """Writes `~` for the home folder of the user `name` in every string of a value."""

    def __init__(self, name: str):
        self.name = name

    def shorten_text(self, text: str) -> tuple[str, int]:
        """`text` with each of the owner's home folders written `~`, and how many there were."""
        count = 0

        def tilde(match: re.Match[str]) -> str:
            nonlocal count
            if match.group("name") != self.name:
                return match.group(0)
            count += 1
            return "~"

        return HOME_FOLDER.sub(tilde, text), count

    def shorten(self, value: Any) -> tuple[Any, int]:
        """`value` (a string, or JSON-like: keys too) shortened as shorten_text does."""
        if isinstance(value, str):
            return self.shorten_text(value) if self.name in value else (value, 0)
        if isinstance(value, list):
            pairs = [self.shorten(item) for item in value]
            return [item for item, _ in pairs], sum(count for _, count in pairs)
        if isinstance(value, dict):
            shortened, total = {}, 0
            for key, item in value.items():
                new_key, key_count = self.shorten(key)
                shortened[new_key], count = self.shorten(item)
                total += key_count + count
            return shortened, total
        return value, 0


def first_line_with_home(path: str, imported: Callable[[bytes], bool]) -> tuple[int, str, int] | None:
    """The first line of the file at `path` (a transcript) holding a home folder: its
    number (from 1), the folder, and how many lines hold one; None if none does. A line
    that `imported` says the importer wrote as it is (its redaction seal matches) is left
    out: the importer wrote `~` for its owner's home folder, or was told to keep it, and
    said so. A file without any home folder is read by a substring search alone."""
    with open(path, "rb") as file:
        data = file.read()
    if not any(hint in data for hint in _HINTS):
        return None
    first: tuple[int, str] | None = None
    count = 0
    for number, line in enumerate(data.splitlines(keepends=True), 1):
        if any(hint in line for hint in _HINTS) and (match := HOME_FOLDER_BYTES.search(line)) is not None \
                and not imported(line):
            count += 1
            if first is None:
                first = number, match.group(0).decode("utf-8", "replace")
    return None if first is None else (*first, count)
