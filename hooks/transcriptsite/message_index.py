"""The transcript's own search index, in shards that a query loads one word at a time.

A whole session may hold a million messages. Given to the site's search, they would make
one index that every page of the site downloads whole, and that the build holds in memory
to write. Here each word goes to the shard of its first two characters (of its first
alone, in a small index), a small JSON file listing the words with the numbers of the
messages holding them; a query loads the shards of its words, then the short texts of the
messages it found, one file per transcript page; `index.js` lists the pages (first message
number, file, address), how many characters name a shard, and the shards.

Each file is a script, `messageSearchLoaded("<file>", <JSON>);`, which the page loads with
a `<script>` element: unlike a fetch, that works in the copy read from disk (file://)
too. The data is JSON, which is also JavaScript, and is never run as anything else.

Each page's part of the index is made with its entries (`page_index`, in the worker
process); the build writes it as the page is taken, its words held up to a bound and then
spilled to a temporary file, and puts the shards together a few at a time at the end, so
that it holds no more of the index than that bound and a few shards.
`assets/message-search.js` reads it, with the same rule for words (`words`) and shards
(`shard_name`).
"""

from __future__ import annotations

import functools
import itertools
import json
import operator
import os
import re
import tempfile
import zlib
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from typing import IO, NamedTuple

# Letters, digits and the underscore, as `\w` reads them (the script: `[\p{L}\p{N}_]`).
_WORD_RE = re.compile(r"\w+")
MAX_WORD_CHARS = 40  # longer runs (hashes, base64, minified code) are not words anyone types
# A word's shard is named by its first two characters; by its first alone in an index
# small enough that its shards would be a hundred files of a few kilobytes (see `key_chars`).
SHARD_KEY_CHARS = 2
INDEX_FILE = "index.js"  # the pages and the shards there are
LOADED = "messageSearchLoaded"  # the function each file calls with its data


class SearchRecord(NamedTuple):
    """One message for the search: its number, and its heading and text as its result
    shows them; its words are those of `searched` (see `msgview.search_text`), or of its
    text when that is None."""

    n: int
    title: str
    text: str
    searched: str | None = None


def words(text: str) -> set[str]:
    """The words of `text` the index holds, in lower case."""
    lower = text.lower()
    if not lower.isascii():
        return {word for word in _WORD_RE.findall(lower) if len(word) <= MAX_WORD_CHARS}
    # Most texts: each byte that is not a word character made a space, and the text split
    # there, in half the time the expression takes.
    found = set(lower.encode().translate(_ASCII_WORD_BYTES).decode().split())
    if max(map(len, found), default=0) <= MAX_WORD_CHARS:  # the common case: no word to leave out
        return found
    return {word for word in found if len(word) <= MAX_WORD_CHARS}


# Each ASCII byte that `\w` reads as a letter, digit or underscore as itself; the others as a space.
_ASCII_WORD_BYTES = bytes(byte if chr(byte).isascii() and _WORD_RE.fullmatch(chr(byte)) else 0x20
                          for byte in range(256))


def shard_name(word: str, key_chars: int = SHARD_KEY_CHARS) -> str:
    """The file of the shard holding `word`: the code points of its first `key_chars`
    characters in hex, so that any script makes a safe file name ("ab" -> "61-62")."""
    return "-".join(f"{ord(char):x}" for char in word[:key_chars])


# Of words' lines: an index this small or smaller (a few thousand messages) has shards of
# one character, the largest some tens of kilobytes.
SMALL_INDEX_CHARS = 1 << 19


def key_chars(words_chars: int) -> int:
    """How many of a word's first characters name its shard, in an index whose words'
    lines (see `page_index`) hold `words_chars` characters."""
    return 1 if words_chars <= SMALL_INDEX_CHARS else SHARD_KEY_CHARS


def page_file(index: int) -> str:
    """The file of the texts shown for the results on transcript page `index`."""
    return f"page-{index}.js"


EXCERPT_CHARS = 160  # of a message's text, shown with it in the results


@dataclass(frozen=True)
class PageIndex:
    """A transcript page's part of the index, made with the page's entries (in the
    worker process, beside the build): the first message's number, the texts shown
    with its results as a file's JSON, and its words' lines for the spill files, by
    bucket (see MessageIndexWriter)."""

    first: int
    excerpts: str
    spills: tuple[tuple[int, str], ...]

    def shown(self) -> dict[int, tuple[str, str]]:
        """Each message's number, heading and text as a result shows them."""
        return {int(n): (title, text) for n, (title, text) in json.loads(self.excerpts).items()}


def page_index(records: Iterable[SearchRecord]) -> PageIndex | None:
    """The part of the index of a page showing `records`; None if it shows none. Its
    spilled words are a line a word: the word, then, after tabs, the first and the last
    number of its messages, and the differences between their numbers after the first,
    as the shard writes them (see `_write_shard`)."""
    excerpts: dict[int, list[str]] = {}
    numbers: dict[str, list[int]] = defaultdict(list)  # word -> the numbers of its messages
    for record in sorted(records):
        excerpts[record.n] = [record.title, _excerpt(record.text, EXCERPT_CHARS)]
        for word in words(record.text if record.searched is None else record.searched):
            numbers[word].append(record.n)
    if not excerpts:
        return None
    by_bucket: dict[int, list[str]] = defaultdict(list)
    for word, found in numbers.items():
        rest = ",".join(map(_NUMBER_TEXT.__getitem__, map(operator.sub, itertools.islice(found, 1, None), found)))
        by_bucket[_bucket_of(word[0])].append(f"{word}\t{found[0]}\t{found[-1]}\t{rest}\n")
    return PageIndex(min(excerpts), _json(excerpts),
                     tuple((bucket, "".join(lines)) for bucket, lines in by_bucket.items()))


class _NumberTexts(dict[int, str]):
    """Numbers as text, the small ones looked up: a page's differences are hundreds of
    thousands of numbers, most of them small, and `str` takes four times as long."""

    def __missing__(self, number: int) -> str:
        return str(number)


_NUMBER_TEXT = _NumberTexts((number, str(number)) for number in range(4096))


class MessageIndexWriter:
    """Writes the index into `folder` (in the built site), page by page: `add_page` with
    each page's part, in any order, then `finish`, or `discard` if the build fails.

    The words are held by bucket (the words of a few first characters) until they reach
    HELD_CHARS; then each bucket's go to the end of one temporary file as a chunk of it.
    That file is anonymous: however the build ends, nothing of it is left behind."""

    HELD_CHARS = 1 << 22

    def __init__(self, folder: str):
        self.folder = folder
        self._words_chars = 0  # of every page's words' lines
        self._held: dict[int, list[str]] = defaultdict(list)  # bucket -> its words' lines not spilled yet
        self._held_chars = 0
        self._spill: IO[bytes] | None = None  # made when first needed
        self._chunks: dict[int, list[_Chunk]] = defaultdict(list)  # bucket -> its words in the spill file
        self._spilled_bytes = 0
        self._pages: dict[int, tuple[int, str]] = {}  # index -> (first message number, page URL)

    def add_page(self, index: int, url: str, part: PageIndex | None) -> None:
        """The part of the index of transcript page `index`, found at `url` (relative to `folder`)."""
        if part is None:
            return
        self._pages[index] = (part.first, url)
        os.makedirs(self.folder, exist_ok=True)
        _write_script(self.folder, page_file(index), part.excerpts)
        for bucket, lines in part.spills:
            self._held[bucket].append(lines)
            self._held_chars += len(lines)
            self._words_chars += len(lines)
        if self._held_chars > self.HELD_CHARS:
            self._spill_held()

    def finish(self) -> None:
        """Put each shard together from its words, and write the list of pages and shards."""
        try:
            spill = self._spill
            buckets = (_bucket_text(spill, self._chunks[bucket]) + "".join(self._held[bucket])
                       for bucket in sorted(self._held.keys() | self._chunks.keys()))
            write_index(self.folder, buckets, key_chars(self._words_chars), self._page_list())
        finally:
            self.discard()

    def discard(self) -> None:
        """Let go of the words: the index is written, or not to be."""
        if self._spill is not None:
            self._spill.close()
        self._spill = None
        self._held.clear()
        self._held_chars = 0
        self._chunks.clear()
        self._spilled_bytes = 0

    def _spill_held(self) -> None:
        """The words held, each bucket's a chunk at the end of the spill file."""
        try:
            for bucket, lines in self._held.items():
                data = "".join(lines).encode()
                if self._spill is None:
                    self._spill = self._new_spill()
                self._spill.write(data)
                self._chunks[bucket].append((self._spilled_bytes, len(data)))
                self._spilled_bytes += len(data)
        except OSError as error:  # a full disk: named, as the file itself has no name
            raise OSError(error.errno, error.strerror, f"{tempfile.gettempdir()} (the temporary files of the "
                          "transcript's search index)") from None
        self._held.clear()
        self._held_chars = 0

    @staticmethod
    def _new_spill() -> IO[bytes]:
        return tempfile.TemporaryFile(prefix="message-index-")

    def _page_list(self) -> list[list[int | str]]:
        return [[first, page_file(index), url] for index, (first, url) in sorted(self._pages.items())]


_Chunk = tuple[int, int]  # where a bucket's words are in the spill file: offset and length in bytes


def _bucket_text(spill: IO[bytes] | None, chunks: Iterable[_Chunk]) -> str:
    """A bucket's words' lines, as spilled."""
    parts = []
    for offset, length in chunks:
        assert spill is not None  # a chunk is only ever written to it
        spill.seek(offset)
        parts.append(spill.read(length))
    return b"".join(parts).decode()


def write_index(folder: str, buckets: Iterable[str], key_chars: int, pages: list[list[int | str]]) -> None:
    """Each shard, named by a word's first `key_chars` characters, put together from its
    words' lines, a bucket's at a time, and the list of pages and shards."""
    _write_list(folder, pages, key_chars, _write_shards(folder, buckets, key_chars))


def _write_list(folder: str, pages: list[list[int | str]], key_chars: int, shards: Iterable[str]) -> None:
    _write_data(folder, INDEX_FILE, {"pages": pages, "key": key_chars, "shards": sorted(shards)})


def _write_shards(folder: str, buckets: Iterable[str], key_chars: int) -> list[str]:
    os.makedirs(folder, exist_ok=True)
    shards = []
    for lines in buckets:
        for shard, postings in _shards(lines, key_chars).items():
            _write_shard(folder, f"{shard}.js", postings)
            shards.append(shard)
    return shards


# A bucket holds the words of a few first characters, whichever the shards' key: each a
# small part of the words, as a shard is put together a bucket at a time.
_BUCKETS = 64


@functools.lru_cache(maxsize=65536)
def _bucket_of(first: str) -> int:
    """The bucket of the words that start with `first`: asked for each word of each
    message, so kept."""
    return zlib.crc32(shard_name(first).encode()) % _BUCKETS


_shard_of = functools.lru_cache(maxsize=65536)(shard_name)  # asked for each word as a shard is put together


# A page's part of a word's numbers: its first and last number, and the differences
# after the first, written (see `page_index`).
_Piece = tuple[int, int, str]


def _shards(lines: str, key_chars: int) -> dict[str, dict[str, list[_Piece]]]:
    """The shards of a bucket's words' lines: for each, its words and the pieces of their numbers."""
    shards: dict[str, dict[str, list[_Piece]]] = defaultdict(lambda: defaultdict(list))
    for line in lines.splitlines():
        word, first, last, rest = line.split("\t")
        shards[_shard_of(word[:key_chars], key_chars)][word].append((int(first), int(last), rest))
    return shards


def _write_shard(folder: str, name: str, pieces: dict[str, list[_Piece]]) -> None:
    """A shard: a list of each word with the numbers of its messages, in order, each
    written as its difference from the one before (the first as itself), short in JSON.
    A list, not an object: in a JavaScript object, the key "__proto__" would set the
    object's prototype rather than hold the word, which no search would then find. A page's
    differences are written as the page gave them, after the difference of its first
    number from the last of the page before (pages hold runs of numbers that do not
    overlap, but may be given in any order)."""
    with open(os.path.join(folder, name), "w", encoding="utf-8") as file:
        file.write(f'{LOADED}("{name}", [')
        for count, word in enumerate(sorted(pieces)):
            file.write(("," if count else "") + "[" + json.dumps(word, ensure_ascii=False) + ",[")
            before = 0
            for start, (first, last, rest) in enumerate(sorted(pieces.pop(word))):
                file.write(f"{',' if start else ''}{first - before}{',' if rest else ''}{rest}")
                before = last
            file.write("]]")
        file.write("]);\n")


def _excerpt(text: str, chars: int) -> str:
    """The start of `text`, its spaces collapsed, cut to `chars` characters."""
    # Only the start of a long text is collapsed, if it reaches far enough: collapsed, the
    # start of a text is the start of the text collapsed (its last word perhaps cut short).
    start = text[: 2 * chars]
    collapsed = " ".join(start.split())
    if len(collapsed) <= chars and len(start) < len(text):
        collapsed = " ".join(text.split())
    return collapsed if len(collapsed) <= chars else collapsed[: chars - 1].rstrip() + "…"


def _json(value: object) -> str:
    data = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    # Line and paragraph separators end a string in JavaScript before ES2019.
    return data.replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")


def _write_data(folder: str, name: str, value: object) -> None:
    _write_script(folder, name, _json(value))


def _write_script(folder: str, name: str, data: str) -> None:
    with open(os.path.join(folder, name), "w", encoding="utf-8") as file:
        file.write(f'{LOADED}("{name}", {data});\n')
