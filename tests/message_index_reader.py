"""The transcript's search index of a built site read back as its script reads it
(docs/assets/message-search.js): the tests' view of what a search can find."""

from __future__ import annotations

import itertools
import json
import posixpath
from pathlib import Path
from typing import Any

from transcriptsite.message_index import INDEX_FILE, LOADED, shard_name, words


def data_of(path: Path) -> Any:
    """The data of a file of the index: `LOADED("<its name>", <JSON>);`."""
    text = path.read_text(encoding="utf-8")
    start = f'{LOADED}("{path.name}", '
    assert text.startswith(start) and text.endswith(");\n"), path
    return json.loads(text[len(start) : -len(");\n")])


class BuiltIndex:
    """The index in `site`'s folder `folder` (the transcript's, then `search`)."""

    def __init__(self, site: Path, folder: str = "transcript/search"):
        self.site, self.folder = site, folder
        self.index = data_of(site / folder / INDEX_FILE)

    def messages(self) -> dict[int, tuple[str, str, str]]:
        """Each message of the index: the address it links to (from the site's root), its
        title and the text shown with it."""
        found = {}
        for _, file, url in self.index["pages"]:
            page = posixpath.normpath(posixpath.join(self.folder, url)) + "/"
            for n, (title, text) in data_of(self.site / self.folder / file).items():
                found[int(n)] = (f"{page.removeprefix('./')}#msg-{n}", title, text)
        return found

    def numbers(self, word: str) -> list[int]:
        """The messages holding a word that starts with `word` (a word of one character:
        that word alone), in order."""
        shard = shard_name(word, self.index["key"])
        if shard not in self.index["shards"]:
            return []
        postings = data_of(self.site / self.folder / f"{shard}.js")
        found: set[int] = set()
        for term, deltas in postings:
            if term == word or (len(word) > 1 and term.startswith(word)):
                found.update(itertools.accumulate(deltas))
        return sorted(found)

    def search(self, query: str) -> list[int]:
        """The messages holding every word of `query`."""
        found: set[int] | None = None
        for word in words(query):
            numbers = set(self.numbers(word))
            found = numbers if found is None else found & numbers
        return sorted(found or ())
