"""Loading a transcript file: the fast parser, the index kept in memory, and reading messages back."""

from array import array
from dataclasses import replace

import orjson
import pytest

from conftest import message_in
from transcript.reader import IndexedTranscript, MessageFlags, TranscriptError, load_transcript
from transcripts import MemoryTranscript, jsonl


def record(n, **fields):
    return {"n": n, "speaker": "user", "provenance": "verbatim", "text": f"text {n}", **fields}


def write(path, *lines):
    path.write_bytes(jsonl(*lines))
    return str(path)


def test_a_loaded_file_keeps_only_where_messages_are_and_reads_them_back(tmp_path):
    records = [record(3, text="é – a line\twith \"quotes\""), record(1, tool_input={"a": [1, 2]}), record(2, text="")]
    path = write(tmp_path / "t.jsonl", records[0], b"", b"  \r", records[1], records[2])
    loaded = load_transcript(path, "t.jsonl")
    in_memory = MemoryTranscript(records)
    assert list(loaded.numbers) == list(in_memory.numbers) == [1, 2, 3]
    assert [replace(message, line=0) for message in loaded] == [replace(message, line=0) for message in in_memory]
    assert message_in(loaded, 1).line == 4 and loaded.get(7) is None and 3 in loaded and 7 not in loaded


@pytest.mark.parametrize("line, expected", [
    (b'{"n": 2, "speaker": ', "t.jsonl:2: not valid JSON: Expecting value (column 1)"),
    (b'{"n": 2, "text": "\xff"}', "t.jsonl:2: not valid UTF-8 (byte 19)"),
    (b"[1, 2]", "t.jsonl:2: expected a JSON object, found a list"),
    (b'{"n": 2.5, "speaker": "user", "provenance": "verbatim", "text": ""}',
     "t.jsonl:2: field 'n' must be an integer, found a number with a fraction"),
])
def test_the_fast_and_the_standard_parser_name_the_same_problem(tmp_path, monkeypatch, line, expected):
    path = write(tmp_path / "t.jsonl", record(1), line)
    messages = []
    for fast in (True, False):
        if not fast:  # every line then goes to the standard library, as one the fast parser rejects
            monkeypatch.setattr(orjson, "loads", refuse)
        with pytest.raises(TranscriptError) as raised:
            load_transcript(path, "t.jsonl")
        messages.append(str(raised.value))
    assert messages == [expected, expected]


def refuse(raw: bytes) -> object:
    raise ValueError("refused")


def test_json_that_only_the_standard_library_reads_is_still_read(tmp_path):
    big = 2**63 - 1  # the largest message number; larger ones the fast parser reads as floats
    path = write(tmp_path / "t.jsonl", b'{"n": 1, "speaker": "tool", "provenance": "verbatim", "text": "", '
                                       b'"tool_input": {"x": NaN, "lone": "\\ud800"}}', record(big))
    loaded = load_transcript(path)
    tool_input = message_in(loaded, 1).tool_input
    assert list(loaded.numbers) == [1, big] and isinstance(tool_input, dict) and tool_input["lone"] == "\ud800"


def test_numbers_in_a_tool_input_are_read_as_the_line_writes_them(tmp_path):
    # The fast parser reads an integer past 64 bits as a float: such a line is read again.
    numbers = {"big": 2**70, "negative": -(2**65), "half": 0.5, "nested": [{"id": 12345678901234567890123}]}
    path = write(tmp_path / "t.jsonl", record(1, tool_input=numbers), record(2, tool_input={"count": 3}))
    loaded = load_transcript(path)
    read = message_in(loaded, 1).tool_input
    assert read == numbers and isinstance(read, dict) and type(read["big"]) is int
    assert message_in(loaded, 2).tool_input == {"count": 3}


def test_a_message_number_past_64_bits_is_refused_by_line(tmp_path):
    path = write(tmp_path / "t.jsonl", record(1), record(2**63))
    with pytest.raises(TranscriptError, match=r"^t\.jsonl:2: field 'n' must be a message number from 1 to "
                                              r"9,223,372,036,854,775,807$"):
        load_transcript(path, "t.jsonl")


def test_a_file_changed_during_a_build_is_reported(tmp_path):
    path = write(tmp_path / "t.jsonl", record(1), record(2))
    loaded = load_transcript(path, "t.jsonl")
    write(tmp_path / "t.jsonl", record(5), record(6))
    changed = r"^t.jsonl: the file changed while the site was being built; build again$"
    with pytest.raises(TranscriptError, match=changed):
        loaded.get(2)


def test_long_messages_are_read_again_rather_than_kept(tmp_path, monkeypatch):
    monkeypatch.setattr(IndexedTranscript, "CACHED_LINE_BYTES", 100)
    path = write(tmp_path / "t.jsonl", record(1), record(2, text="x" * 500))
    loaded = load_transcript(path)
    assert loaded.get(1) is loaded.get(1)
    assert loaded.get(2) is not loaded.get(2) and message_in(loaded, 2).text == "x" * 500


def test_message_flags_say_yes_only_for_the_numbers_marked():
    flags = MessageFlags(array("q", [3, 4, 5, 9, 12]))  # with gaps: found by bisection
    for n in (4, 12, 7, -1):
        flags.add(n)  # 7 and -1 are no message: nothing to mark
    assert [n for n in range(-2, 15) if n in flags] == [4, 12]
    assert "4" not in flags and 4.0 not in flags
    assert 1 not in MessageFlags([])
