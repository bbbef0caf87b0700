"""The transcript's own search index (transcriptsite.message_index): words to message numbers in
shards, written page by page, read back as the site's script reads it."""

from __future__ import annotations

import errno
import io
import json
import os
import random
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

from author_project import ROOT
from message_index_reader import BuiltIndex, data_of
from sitebuild.site_folder import output_problem
from transcriptsite import message_index
from transcriptsite.message_index import (
    EXCERPT_CHARS,
    MAX_WORD_CHARS,
    MessageIndexWriter,
    SearchRecord,
    page_index,
    shard_name,
    words,
)


def written(folder: Path, pages: dict[int, list[SearchRecord]], order=None) -> BuiltIndex:
    """An index of `pages` (index -> records) written in `order`, in the site `folder`."""
    writer = MessageIndexWriter(str(folder / "transcript" / "search"))
    for index in order or sorted(pages):
        writer.add_page(index, "../" if index == 0 else f"../page-{index + 1}/", page_index(pages[index]))
    writer.finish()
    return BuiltIndex(folder)


def test_words_are_letters_and_digits_in_any_script_in_lower_case():
    assert words("Hello, WORLD! snake_case x-ray 42 Ünïcode 日本語 é") == {
        "hello", "world", "snake_case", "x", "ray", "42", "ünïcode", "日本語", "é"}
    assert words("a" * 40 + " " + "b" * 41) == {"a" * 40}  # no hashes or base64 runs


def test_words_of_ascii_text_are_the_runs_the_expression_finds():
    """ASCII text is split another, faster way: it finds the same words."""
    rng = random.Random(20261205)
    for _ in range(5_000):
        text = "".join(rng.choice([chr(code) for code in range(128)] + ["x" * 39, "Y" * 41])
                       for _ in range(rng.randint(0, 60)))
        assert words(text) == {word for word in re.findall(r"\w+", text.lower()) if len(word) <= MAX_WORD_CHARS}


def test_a_shard_is_named_by_the_code_points_of_its_words_first_two_characters():
    assert shard_name("hello") == "68-65" and shard_name("x") == "78"
    assert shard_name("日本語") == "65e5-672c" and shard_name("😀ok") == "1f600-6f"


def test_a_query_finds_the_messages_holding_each_word_or_a_word_it_begins(tmp_path):
    index = written(tmp_path, {
        0: [SearchRecord(1, "Message 1 — user", "Redact the token"), SearchRecord(2, "Message 2 — assistant", "Done.")],
        1: [SearchRecord(5, "Message 5 — tool", "redaction report: 3 tokens " + "x" * EXCERPT_CHARS),
            SearchRecord(9, "Message 9 — user", "x")]})
    assert index.search("redact") == [1, 5] and index.search("REDACTION") == [5]
    assert index.search("token redact") == [1, 5] and index.search("redact done") == []
    assert index.search("x") == [9] and index.search("3") == [5]  # one character: that word alone
    assert index.search("nothing") == []
    assert index.messages() == {
        1: ("transcript/#msg-1", "Message 1 — user", "Redact the token"),
        2: ("transcript/#msg-2", "Message 2 — assistant", "Done."),
        5: ("transcript/page-2/#msg-5", "Message 5 — tool",  # cut
            ("redaction report: 3 tokens " + "x" * EXCERPT_CHARS)[:EXCERPT_CHARS - 1] + "…"),
        9: ("transcript/page-2/#msg-9", "Message 9 — user", "x")}


def test_an_excerpt_is_the_start_of_the_text_with_its_spaces_collapsed(tmp_path):
    """However far the first words of a long text reach: its start alone is collapsed."""
    rng = random.Random(20261205)
    parts = ["a", "bc", " ", "\n", "\t", " " * 400, "w" * 300, "é"]
    pages = {0: [SearchRecord(n, "t", "".join(rng.choice(parts) for _ in range(rng.randint(0, 60))))
                 for n in range(1, 301)]}
    for n, (_, _, excerpt) in written(tmp_path, pages).messages().items():
        collapsed = " ".join(pages[0][n - 1].text.split())
        assert excerpt == (collapsed if len(collapsed) <= EXCERPT_CHARS
                           else collapsed[: EXCERPT_CHARS - 1].rstrip() + "…"), n


def test_pages_made_in_any_order_give_the_same_index(tmp_path):
    pages = {i: [SearchRecord(n, f"Message {n}", f"word{n % 3} common") for n in range(i * 10 + 1, i * 10 + 11)]
             for i in range(4)}
    in_order, shuffled = written(tmp_path / "a", pages), written(tmp_path / "b", pages, order=[2, 0, 3, 1])
    files = [{p.name: p.read_bytes() for p in (site / "transcript" / "search").iterdir()}
             for site in (tmp_path / "a", tmp_path / "b")]
    assert files[0] == files[1]
    assert in_order.search("common") == shuffled.search("common") == list(range(1, 41))
    assert in_order.search("word1") == [n for n in range(1, 41) if n % 3 == 1]


def test_words_spilled_page_by_page_give_the_index_of_words_held(tmp_path, monkeypatch):
    """Past a bound, the words held go to a file, each bucket's as a chunk: read back, they
    give the same shards."""
    pages = {i: [SearchRecord(n, f"Message {n}", f"word{n % 7} w{n} common") for n in range(i * 50 + 1, i * 50 + 51)]
             for i in range(5)}
    written(tmp_path / "held", pages, order=[3, 1, 4, 0, 2])
    monkeypatch.setattr(MessageIndexWriter, "HELD_CHARS", 0)  # spilled as each page is added
    written(tmp_path / "spilled", pages, order=[3, 1, 4, 0, 2])
    files = [{p.name: p.read_bytes() for p in (tmp_path / site / "transcript" / "search").iterdir()}
             for site in ("held", "spilled")]
    assert files[0] == files[1] and len(files[0]) > 5
    assert BuiltIndex(tmp_path / "spilled").search("common") == list(range(1, 251))


def test_a_small_index_names_shards_by_one_character_a_larger_by_two(tmp_path, monkeypatch):
    rng = random.Random(20261205)
    vocabulary = ["alpha", "alps", "al", "a", "beta", "b", "büro", "日本語", "日本", "x_1", "42", "4"]
    pages = {i: [SearchRecord(n, f"Message {n}", " ".join(rng.sample(vocabulary, 3))) for n in range(i * 40 + 1,
                                                                                                  i * 40 + 41)]
             for i in range(3)}
    small = written(tmp_path / "small", pages)
    monkeypatch.setattr(message_index, "SMALL_INDEX_CHARS", 0)
    large = written(tmp_path / "large", pages)
    assert small.index["key"] == 1 and large.index["key"] == 2
    assert "61" in small.index["shards"] and "61-6c" in large.index["shards"] and "61-6c" not in small.index["shards"]
    for query in [*vocabulary, "alp", "日", "bü", "x", "4 al", "zzz", "a b"]:
        expected = [record.n for records in pages.values() for record in records
                    if all(any(word == typed or (len(typed) > 1 and word.startswith(typed))
                               for word in words(record.text)) for typed in words(query))]
        assert small.search(query) == large.search(query) == expected, query


def test_a_word_of_every_message_is_written_as_differences_in_pieces(tmp_path):
    records = [SearchRecord(n, f"Message {n}", "x") for n in range(1, 25_001)]
    index = written(tmp_path, {0: records})
    shard = data_of(tmp_path / "transcript/search/78.js")
    assert shard == [["x", [1] * 25_000]]  # one page's differences, written as it gave them
    assert index.search("x") == list(range(1, 25_001))


def test_nothing_of_the_spilled_words_stays_on_disk(tmp_path, monkeypatch):
    monkeypatch.setattr(MessageIndexWriter, "HELD_CHARS", 0)  # spilled at once
    before = set(os.listdir(tempfile.gettempdir()))
    writer = MessageIndexWriter(str(tmp_path / "search"))
    writer.add_page(0, "../", page_index([SearchRecord(1, "Message 1", "some words")]))
    assert set(os.listdir(tempfile.gettempdir())) == before  # anonymous files
    writer.discard()
    assert not (tmp_path / "search" / "index.js").exists()  # not finished: no index to mislead
    writer = MessageIndexWriter(str(tmp_path / "empty"))
    writer.finish()
    assert data_of(tmp_path / "empty" / "index.js") == {"pages": [], "key": 1, "shards": []}


def test_a_full_disk_under_the_spilled_words_names_their_folder(tmp_path, monkeypatch):
    class Full(io.BytesIO):
        def write(self, data) -> int:
            raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(tempfile, "TemporaryFile", lambda *args, **kwargs: Full())
    monkeypatch.setattr(MessageIndexWriter, "HELD_CHARS", 0)  # spilled at once
    writer = MessageIndexWriter(str(tmp_path / "search"))
    with pytest.raises(OSError) as raised:
        writer.add_page(0, "../", page_index([SearchRecord(1, "Message 1", "some words")]))
    assert output_problem(raised.value) == (f"{tempfile.gettempdir()} (the temporary files of the transcript's "
                                            "search index): cannot be written: No space left on device")


def test_each_file_is_a_script_whose_data_is_json_and_only_data(tmp_path):
    title, text = "ends a line\u2028in old JavaScript\u2029", '"); alert(1); (" </script>'
    written(tmp_path, {0: [SearchRecord(1, title, text)]})
    page = tmp_path / "transcript/search/page-0.js"
    raw = page.read_text(encoding="utf-8")
    assert raw.startswith('messageSearchLoaded("page-0.js", {') and "\u2028" not in raw and "\u2029" not in raw
    assert data_of(page) == {"1": [title, text]}


@pytest.mark.skipif(shutil.which("node") is None, reason="Node.js is not installed")
def test_the_search_script_finds_words_that_name_what_every_javascript_object_has(tmp_path):
    """Run by Node over an index on disk: "__proto__", in an object's keys, would set the
    object's prototype rather than be a word; "constructor" and the like are every
    object's without being any message's."""
    records = [SearchRecord(1, "Message 1", "the __proto__ key"), SearchRecord(2, "Message 2", "constructor toString"),
               SearchRecord(3, "Message 3", "plain words"), SearchRecord(4, "Message 4", "__proto__ hasOwnProperty")]
    index = written(tmp_path, {0: records})
    queries = ["__proto__", "__proto", "constructor", "tostring", "hasownproperty", "valueof", "plain"]
    run = subprocess.run(["node", str(Path(__file__).parent / "message_search_in_node.js"),
                          str(ROOT / "docs" / "assets" / "message-search.js"), str(tmp_path / "transcript/search"),
                          *queries], capture_output=True, text=True, timeout=30)
    assert run.returncode == 0, run.stderr
    listed = json.loads(run.stdout)
    expected = [[1, 4], [1, 4], [2], [2], [4], [], [3]]
    assert [index.search(query) for query in queries] == expected
    for query, results, numbers in zip(queries, listed, expected, strict=True):
        assert results == [[f"Message {n}", f"{(tmp_path / 'transcript').as_uri()}/#msg-{n}"] for n in numbers], query
