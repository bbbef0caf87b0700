import os
from pathlib import Path

import pytest

from conftest import message_in
from sitebuild.between_builds import LastTranscript
from transcript.reader import TranscriptError, load_transcript
from transcripts import jsonl, read


def message(n, **fields):
    return {"n": n, "speaker": "user", "provenance": "verbatim", "text": f"text {n}", **fields}


def error_of(folder: Path, *records) -> str:
    with pytest.raises(TranscriptError) as raised:
        read(folder, *records)
    return str(raised.value)


def test_messages_are_ordered_by_number_and_keep_their_fields(tmp_path):
    transcript = read(
        tmp_path,
        message(7, source_id="u-7", timestamp="2026-01-01T00:00:00Z", tool_name="Bash", tool_input={"command": "ls"}),
        "",
        message(3, speaker="assistant", provenance="described", text="a description", described_with=[7]),
    )
    assert list(transcript.numbers) == [3, 7]
    described = message_in(transcript, 3)
    assert described.is_described and described.described_with == (7,) and described.line == 3
    assert message_in(transcript, 7).tool_input == {"command": "ls"}
    assert transcript.get(99) is None


def test_the_empty_message_is_kept_as_empty_text(tmp_path):
    transcript = read(tmp_path, message(5855, text=""))
    assert message_in(transcript, 5855).text == ""


@pytest.mark.parametrize(
    "records, expected",
    [
        ((message(1), '{"n": 2, "speaker": '), "t.jsonl:2: not valid JSON"),
        ((message(1), "[1, 2]"), "t.jsonl:2: expected a JSON object, found a list"),
        (({"n": 1, "speaker": "user", "text": "x"},), "t.jsonl:1: missing required field 'provenance'"),
        ((message(1, colour="red"),), "t.jsonl:1: unknown field 'colour'"),
        ((message(1, text=None),), "t.jsonl:1: field 'text' must be a string, found null"),
        ((message(True),), "t.jsonl:1: field 'n' must be an integer, found a boolean"),
        ((message(0),), "t.jsonl:1: field 'n' must be a message number from 1 to 9,223,372,036,854,775,807"),
        ((message(1, speaker="robot"),), "t.jsonl:1: field 'speaker' must be one of user, assistant, tool, unknown"),
        ((message(1, provenance="quoted"),), "t.jsonl:1: field 'provenance' must be one of verbatim, described"),
        ((message(1), message(2), message(1)), "t.jsonl:3: message 1 is already defined on line 1"),
        ((message(1, provenance="described", described_with=[9]),), "t.jsonl:1: described_with names message 9"),
        ((message(1, described_with=[2]), message(2)), "t.jsonl:1: 'described_with' is only for described messages"),
        ((message(1), '{"n": 2, "speaker": "user", "provenance": "verbatim", "text": "", "tool_input": ' + "9" * 5000
          + "}"), "t.jsonl:2: holds a number of more than 4,300 digits"),
    ],
)
def test_a_broken_line_is_named_by_file_and_line(tmp_path, records, expected):
    assert error_of(tmp_path, *records).startswith(expected)


def test_invalid_utf8_is_named_by_line(tmp_path):
    with pytest.raises(TranscriptError, match=r"^t.jsonl:2: not valid UTF-8"):
        read(tmp_path, message(1), b'{"text": "\xff"}')


def test_a_missing_file_is_named(tmp_path):
    with pytest.raises(TranscriptError, match=r"docs/none.jsonl: transcript file not found"):
        load_transcript(str(tmp_path / "none.jsonl"), "docs/none.jsonl")


def test_a_folder_is_not_a_transcript(tmp_path):
    with pytest.raises(TranscriptError, match="is a folder"):
        load_transcript(str(tmp_path))


def test_the_file_is_read_again_by_the_next_build_only_when_it_changes(tmp_path):
    path = tmp_path / "t.jsonl"
    path.write_bytes(jsonl(message(1)))
    kept = LastTranscript()
    first, reused = kept.read(str(path), "t.jsonl", None, lambda n, kinds: None)
    assert not reused and kept.read(str(path), "t.jsonl", None, lambda n, kinds: None) == (first, True)

    path.write_bytes(jsonl(message(1), message(2)))
    stat = path.stat()
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000))
    again, reused = kept.read(str(path), "t.jsonl", None, lambda n, kinds: None)
    assert not reused and list(again.numbers) == [1, 2]


KEY_NOT_SHOWN = "a key of the log is not shown, as it may be a secret"


@pytest.mark.parametrize(
    "line, expected",
    [
        ("null", "t.jsonl:2: expected a JSON object, found null"),
        ('{"n": 9001, "n": 9002, "speaker": "user", "provenance": "verbatim", "text": "x"}',
         "t.jsonl:2: the key 'n' appears twice in one object"),
        ('{"n": 2, "speaker": "user", "provenance": "verbatim", "text": "x", "text" : "y"}',
         "t.jsonl:2: the key 'text' appears twice in one object"),
        ('{"n": 2, "speaker": "user", "provenance": "verbatim", "\\u0074ext": "x", "text": "y"}',
         "t.jsonl:2: the key 'text' appears twice in one object"),
        ('{"n": 2, "speaker": "user", "provenance": "verbatim", "text": "say \\"hi\\"", "n": 3}',
         "t.jsonl:2: the key 'n' appears twice in one object"),
        ('{"n": 2, "speaker": "tool", "provenance": "verbatim", "text": "", "tool_name": "Bash",'
         ' "tool_input": {"command": "ls", "command": "rm"}}',
         f"t.jsonl:2: a key appears twice in one object (at columns 103 and 120); {KEY_NOT_SHOWN}"),
        # A key of the log may be a secret: named by where it is written, never by itself.
        ('{"n": 2, "speaker": "tool", "provenance": "verbatim", "text": "", "tool_name": "Bash",'
         ' "tool_input": {"hunter": 1, "x": {"hunter": 2}, "hunter" : 3}}',
         f"t.jsonl:2: a key appears twice in one object (at columns 103 and 136); {KEY_NOT_SHOWN}"),
        # The line past the key given twice is no JSON: where it is is still found.
        ('{"n": 2, "speaker": "tool", "provenance": "verbatim", "text": "", "tool_name": "Bash",'
         ' "tool_input": {"k": {"s": 1, "s": 2}}, "b\\q": 1}',
         f"t.jsonl:2: a key appears twice in one object (at columns 109 and 117); {KEY_NOT_SHOWN}"),
        ('{"n": 2, "speaker": "tool", "provenance": "verbatim", "text": "", "tool_name": "Bash",'
         ' "tool_input": {"\\u0073ecret": 1, "secret": 2}}',
         f"t.jsonl:2: a key appears twice in one object (at columns 103 and 121); {KEY_NOT_SHOWN}"),
        ('{"n": 2, "speaker": "user", "provenance": "verbatim", "text": "' + "x" * 60_000 + '", "n": 3}',
         "t.jsonl:2: the key 'n' appears twice in one object"),
    ],
)
def test_a_null_line_or_a_repeated_key_is_named_by_file_and_line(tmp_path, line, expected):
    assert error_of(tmp_path, message(1), line) == expected


TOKEN = "ghp_" + "A1b2C3d4E5" * 4


@pytest.mark.parametrize(
    "line",
    [
        message(2, speaker=TOKEN),
        message(2, provenance=TOKEN),
        message(2, **{TOKEN: "x"}),
        message(2, **{TOKEN.lower(): "x"}),
        '{"n": 2, "speaker": "user", "provenance": "verbatim", "text": "x", "KEY": 1, "KEY": 2}'.replace("KEY", TOKEN),
    ],
)
def test_a_problem_never_repeats_a_value_from_the_log(tmp_path, line):
    """A field's value, or a key that does not read as a field name, may be a secret."""
    problem = error_of(tmp_path, message(1), line)
    assert problem.startswith("t.jsonl:2: ") and TOKEN.casefold() not in problem.casefold()


def test_quotes_within_strings_are_no_repeated_keys(tmp_path):
    transcript = read(
        tmp_path,
        message(1, text='say "hi"', thinking='a \\u0022 quote'),
        '{"n": 2, "speaker": "tool", "provenance": "verbatim", "text": "\\u0022x\\u0022", "tool_name": "Bash",'
        ' "tool_input": {"command": "echo \\"a\\": 1", "args": ["a", {"b": null}]}}',
        message(3, provenance="described", described_with=[1], text="{\"n\": 4}"),
    )
    assert message_in(transcript, 1).text == 'say "hi"'
    assert message_in(transcript, 2).text == '"x"'
    assert message_in(transcript, 2).tool_input == {"command": 'echo "a": 1', "args": ["a", {"b": None}]}
    assert list(transcript.numbers) == [1, 2, 3]
