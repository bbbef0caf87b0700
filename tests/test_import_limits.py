"""The importer's limits: memory that does not grow with the log, however it is broken.

A log line, or a value of a JSON document, longer than the stated limit stops the
import with one line naming where it starts, before the rest of it is read. The tests
set a small limit (the module constants are read at each use) so as to stay fast; one
runs the command on a file of zeros past the real limit.
"""

from __future__ import annotations

import errno
import io
import json
import os
import re
import signal
import subprocess
import sys
import time

import pytest

import import_transcript
from test_import_transcript import SCRIPT, run_cli
from transcript_formats import json_stream, jsonl
from transcript_formats.common import LogError
from transcript_formats.json_stream import JsonDocument
from transcript_formats.jsonl import read_json_lines

LIMIT = 1000


def user_line(content: str, uuid: str = "u1") -> str:
    return json.dumps({"type": "user", "uuid": uuid, "message": {"role": "user", "content": content}})


class CountingFile:
    """A binary file that counts the bytes read from it, and refuses to be read whole."""

    def __init__(self, data: bytes):
        self._file = io.BytesIO(data)
        self.bytes_read = 0

    def read(self, size: int) -> bytes:
        assert size >= 0
        data = self._file.read(size)
        self.bytes_read += len(data)
        return data

    def readline(self, size: int) -> bytes:
        assert size >= 0
        data = self._file.readline(size)
        self.bytes_read += len(data)
        return data


@pytest.fixture
def small_limits(monkeypatch):
    monkeypatch.setattr(jsonl, "MAX_LINE_BYTES", LIMIT)
    monkeypatch.setattr(json_stream, "MAX_ELEMENT_CHARS", LIMIT)


# --- Lines of JSON Lines logs ---------------------------------------------------------------

def test_the_stated_limit_is_64_mb():
    assert jsonl.MAX_LINE_BYTES == 64_000_000
    assert json_stream.MAX_ELEMENT_CHARS == jsonl.MAX_LINE_BYTES
    assert jsonl.size_text(jsonl.MAX_LINE_BYTES) == "64 MB"


def test_a_line_past_the_limit_stops_the_import_naming_it(tmp_path, small_limits, capsys):
    source = tmp_path / "session.jsonl"
    long_line = user_line("x" * 5 * LIMIT, "u2")
    source.write_text(user_line("hello") + "\n" + long_line + "\n" + user_line("bye", "u3") + "\n")
    output = tmp_path / "t.jsonl"
    output.write_text("the previous transcript\n")
    assert import_transcript.main([str(source), "-o", str(output)]) == 1
    assert capsys.readouterr().err == f"{source}:2: the line is longer than 1,000 bytes, the most a log line may be\n"
    assert output.read_text() == "the previous transcript\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["session.jsonl", "t.jsonl"]


def reply_line(n: int, text: str, call: dict | None = None) -> str:
    """A line of one assistant reply, message.id "msg_1", as Claude Code splits a reply."""
    content = [{"type": "text", "text": text}] + ([{"type": "tool_use", "id": f"t{n}", **call}] if call else [])
    return json.dumps({"type": "assistant", "uuid": f"a{n}", "message": {"id": "msg_1", "role": "assistant",
                                                                          "content": content}})


@pytest.mark.parametrize("call", [None, {"name": "Write", "input": {"content": "c" * 300}}], ids=["text", "calls"])
def test_a_reply_spread_over_endless_lines_stops_the_import_naming_it(tmp_path, small_limits, capsys, call):
    """Each line is short, but their reply is held until its last line."""
    source = tmp_path / "session.jsonl"
    source.write_text(user_line("hello") + "\n" + "".join(reply_line(n, "t" * 100, call) + "\n" for n in range(40)))
    assert import_transcript.main([str(source), "-o", str(tmp_path / "t.jsonl")]) == 1
    assert re.fullmatch(rf"{re.escape(str(source))}:2: one assistant reply, its lines sharing a message.id up to "
                        r"line \d+, holds more than 1,000 bytes, the most a message may\n", capsys.readouterr().err)


def test_a_reply_over_several_lines_within_the_limit_is_one_message(tmp_path, small_limits):
    source = tmp_path / "session.jsonl"
    source.write_text(user_line("hello") + "\n" + "".join(reply_line(n, "t" * 100) + "\n" for n in range(3)))
    assert import_transcript.main([str(source), "-o", str(tmp_path / "t.jsonl")]) == 0
    records = [json.loads(line) for line in (tmp_path / "t.jsonl").read_text().splitlines()]
    assert [record["speaker"] for record in records] == ["user", "assistant"]


def test_hooks_output_held_by_an_open_reply_is_bounded_as_the_reply(tmp_path, small_limits, capsys):
    """A hook's output written while a reply is open waits for the reply to end: endless
    output stops the import as a reply spread over endless lines does."""
    hook = {"type": "attachment", "uuid": "h", "attachment": {"type": "hook_success", "hookName": "Stop",
                                                               "content": "h" * 100}}
    source = tmp_path / "session.jsonl"
    source.write_text(user_line("hello") + "\n" + reply_line(0, "hi") + "\n"
                      + "".join(json.dumps(hook) + "\n" for _ in range(40)))
    assert import_transcript.main([str(source), "-o", str(tmp_path / "t.jsonl")]) == 1
    assert re.fullmatch(rf"{re.escape(str(source))}:2: one assistant reply, its lines sharing a message.id up to "
                        r"line 12, holds more than 1,000 bytes, the most a message may\n", capsys.readouterr().err)


def test_a_codex_reply_too_long_to_hold_for_its_token_count_goes_without(tmp_path, small_limits):
    """A Codex reply waits for the token count that follows it; one of endless calls is
    not held past the limit: its messages are written as they come, without a count."""
    def envelope(record_type, payload):
        return json.dumps({"timestamp": "t", "type": record_type, "payload": payload}) + "\n"

    def call(n):
        return envelope("response_item", {"type": "function_call", "name": "w", "call_id": f"c{n}",
                                          "arguments": json.dumps({"content": "c" * 100})})

    count = envelope("event_msg", {"type": "token_count", "info": {"last_token_usage": {"input_tokens": 5}}})
    user = envelope("response_item", {"type": "message", "role": "user", "content": "Go."})
    output = envelope("response_item", {"type": "function_call_output", "call_id": "c0", "output": "ok"})
    source = tmp_path / "rollout.jsonl"
    source.write_text(user + "".join(call(n) for n in range(40)) + count + output + call(41) + count)
    assert import_transcript.main([str(source), "-o", str(tmp_path / "t.jsonl")]) == 0
    records = [json.loads(line) for line in (tmp_path / "t.jsonl").read_text().splitlines()]
    assert len(records) == 43
    assert [record["n"] for record in records if "usage" in record] == [43]


def test_the_rest_of_a_line_past_the_limit_is_not_read(small_limits):
    """Refused as soon as the limit is passed: a line of 10 MB is not read to its end."""
    file = CountingFile(b"0" * 10_000_000 + b"\n")
    with pytest.raises(LogError) as error:
        list(read_json_lines(file, "zeros"))
    assert str(error.value) == "zeros:1: the line is longer than 1,000 bytes, the most a log line may be"
    assert file.bytes_read == LIMIT + 1


@pytest.mark.parametrize("ending", [b"\n", b""])
def test_a_line_as_long_as_the_limit_is_read(small_limits, ending):
    record = user_line("")
    line = record[:-2] + ', "pad": "' + "p" * (LIMIT - len(record) - 11) + '"}}'
    assert len(line) == LIMIT
    data = (line.encode() + b"\n") * 3 + line.encode() + ending
    assert [number for number, _ in read_json_lines(io.BufferedReader(io.BytesIO(data)), "log")] == [1, 2, 3, 4]
    too_long = (line + " ").encode() + ending
    with pytest.raises(LogError, match=r"^log:1: the line is longer than 1,000 bytes"):
        list(read_json_lines(io.BufferedReader(io.BytesIO(too_long)), "log"))


@pytest.mark.parametrize("piece", [1, 7, 64, 999, 1000, 1001, 4096])
def test_long_lines_read_in_pieces_are_read_whole(monkeypatch, piece):
    """A line longer than a piece is read in several; where the pieces end changes nothing."""
    monkeypatch.setattr(jsonl, "MAX_LINE_BYTES", LIMIT)
    monkeypatch.setattr(jsonl, "_PIECE_BYTES", piece)
    def record(text: str, uuid: str) -> str:
        return json.dumps({"type": "user", "uuid": uuid, "message": {"content": text}}, ensure_ascii=False)

    lines = [record("é" * n, f"u{n}") for n in (0, 1, 6, 7, 8, 100, 400)]
    lines.append(record("x" * (LIMIT - len(record("", "last"))), "last"))
    assert len(lines[-1].encode()) == LIMIT
    data = "\n".join(lines).encode()  # the last line without its line break
    read = [(number, value) for number, value in read_json_lines(CountingFile(data), "log")]
    assert read == [(i + 1, json.loads(line)) for i, line in enumerate(lines)]
    too_long = CountingFile(data.replace(b'"last"', b'"last1"'))
    with pytest.raises(LogError, match=r"^log:8: the line is longer than 1,000 bytes"):
        list(read_json_lines(too_long, "log"))
    assert too_long.bytes_read == len(data) - len(lines[-1]) + LIMIT + 1


def test_a_file_of_zeros_with_no_line_break_is_refused_at_the_real_limit(tmp_path):
    """The command itself, past the real limit: it stops after reading 64 MB, in a moment."""
    zeros = tmp_path / "zeros.jsonl"
    with open(zeros, "wb") as file:
        file.truncate(jsonl.MAX_LINE_BYTES + 10_000_000)  # a sparse file: zeros that take no disk space
    output = tmp_path / "t.jsonl"
    result = run_cli(zeros, "-o", output, "--format", "claude-code")
    assert (result.returncode, result.stderr) == (
        1, f"{zeros}:1: the line is longer than 64 MB, the most a log line may be\n")
    result = run_cli(zeros, "-o", output)  # not a format the importer knows: refused at its first byte
    assert result.returncode == 1 and result.stderr.startswith(f"{zeros}:1: unknown log format")
    assert not output.exists()


# --- Values of JSON documents ---------------------------------------------------------------

def test_a_value_of_a_json_document_past_the_limit_stops_the_import_naming_it(tmp_path, small_limits, capsys):
    source = tmp_path / "chat.json"
    source.write_text(json.dumps([{"role": "user", "content": "hi"}, {"role": "assistant", "content": "y" * 5000},
                                  {"role": "user", "content": "bye"}], indent=1))
    line = 1 + source.read_text().splitlines().index(" {", 2)
    assert import_transcript.main([str(source), "-o", str(tmp_path / "t.jsonl")]) == 1
    assert capsys.readouterr().err == (
        f"{source}:{line}: the JSON value starting on this line is longer than 1,000 bytes, the most a log record "
        "may be (or a quote or bracket in it is never closed)\n")
    assert not (tmp_path / "t.jsonl").exists()


@pytest.mark.parametrize("value", [b'"' + b"s" * 10_000_000 + b'"', b"0" * 10_000_000, b"[" * 10_000_000])
def test_the_buffer_of_a_json_document_never_grows_past_the_limit(small_limits, value):
    """A string, a number or a bracket that goes on for 10 MB: refused once the limit is
    passed, having read (and held) no more than the limit and one piece of the file."""
    file = CountingFile(b'[\n{"role": "user", "content": "hi"},\n' + value + b"]")
    document = JsonDocument(file, "doc.json", chunk_size=64)
    lines = document.iter_array()
    next(lines)
    document.read_value()
    next(lines)
    with pytest.raises(LogError) as error:
        document.read_value()
    assert str(error.value).startswith("doc.json:3: the JSON value starting on this line is longer than 1,000 bytes")
    assert file.bytes_read <= LIMIT + 200
    assert len(document._buffer) <= LIMIT + 200


def test_values_as_long_as_the_limit_are_read(small_limits):
    text = "é" * (LIMIT - 2)  # two bytes each: the limit counts characters
    value = json.dumps(text, ensure_ascii=False)
    data = ("[" + ",\n".join([value] * 5) + "]").encode()
    document = JsonDocument(io.BufferedReader(io.BytesIO(data)), "doc.json", chunk_size=7)
    assert [document.read_value() for _ in document.iter_array()] == [text] * 5


def test_memory_reading_a_huge_document_of_small_values_stays_small(small_limits):
    """Values under the limit, many of them: the buffer is cut down as they are read."""
    data = ("[" + ",\n".join(['"' + "v" * 900 + '"'] * 20_000) + "]").encode()
    document = JsonDocument(io.BufferedReader(io.BytesIO(data)), "doc.json")
    largest = 0
    for _ in document.iter_array():
        document.read_value()
        largest = max(largest, len(document._buffer))
    document.finish()
    assert largest <= (1 << 20) + LIMIT + json_stream.CHUNK_SIZE + 1


# --- Numbers, and what error messages show ----------------------------------------------------

@pytest.mark.parametrize("document", [False, True])
def test_a_number_of_too_many_digits_stops_the_import_naming_its_line(tmp_path, capsys, document):
    digits = "7" * 5000
    if document:
        source = tmp_path / "chat.json"
        source.write_text('[{"role": "user", "content": "hi"},\n{"role": "user", "content": "x", "n": ' + digits + "}]")
    else:
        source = tmp_path / "session.jsonl"
        source.write_text(user_line("hi") + "\n" + user_line("x")[:-1] + ', "n": ' + digits + "}\n")
    assert import_transcript.main([str(source), "-o", str(tmp_path / "t.jsonl")]) == 1
    err = capsys.readouterr().err
    assert err == f"{source}:2: holds a number of more than 4,300 digits\n"


SECRET_TEXT = "hunter2-" + "q" * 12


@pytest.mark.parametrize(("name", "content"), [
    ("chat.json", '[{"role": "user", "content": "hi"} ' + SECRET_TEXT + "]"),
    ("chat.json", '{"messages" ' + SECRET_TEXT + "}"),
    ("chat.json", '[{"role": "user", "content": "' + SECRET_TEXT + '" ' + SECRET_TEXT + "}]"),
    ("session.jsonl", user_line("hi") + "\n" + '{"type": "user", ' + SECRET_TEXT + "}\n"),
    ("session.jsonl", user_line("hi") + "\n" + user_line(SECRET_TEXT)[:-1] + " " + SECRET_TEXT + "\n"),
    ("session.jsonl", user_line("hi") + "\n" + user_line(SECRET_TEXT)[:-3]),
])
def test_error_messages_never_show_the_text_of_the_log(tmp_path, name, content):
    source = tmp_path / name
    source.write_text(content)
    result = run_cli(source, "-o", tmp_path / "t.jsonl")
    assert result.returncode == 1
    assert len(result.stderr.splitlines()) == 1 and result.stderr.startswith(f"{source}:")
    assert "hunter2" not in result.stderr and "Traceback" not in result.stderr


def test_what_the_report_keeps_of_skipped_lines_stays_small():
    """A reason a reader gives may name a value of the log (an unknown record type): the
    report keeps a bounded number of reasons, each short, and without secrets."""
    secret = "sk-ant-" + "api03-" + "k" * 40  # fake, built at run time
    result = import_transcript.ImportResult("log.jsonl", "t.jsonl", "claude-code", import_transcript.Redactor())
    stats = result.stats
    stats.skip(1, f"unknown record type 'a {secret} here'")
    for i in range(200):
        stats.skip(i + 2, f"unknown record type 'kind-{i}-" + "z" * 5000 + "'")
        stats.ignore(f"event_msg kind-{i}")
    assert len(stats.skipped) == import_transcript.MAX_REASONS
    assert all(len(reason) <= import_transcript.MAX_REASON_CHARS for reason in stats.skipped)
    assert stats.skipped_count == 201
    assert stats.skipped["other reasons"][0] == 201 - import_transcript.MAX_REASONS + 1
    assert len(stats.ignored) == import_transcript.MAX_REASONS
    assert stats.ignored["other records"] == 200 - import_transcript.MAX_REASONS + 1
    summary = "\n".join(result.summary_lines())
    assert secret not in summary
    assert "unknown record type 'a [REDACTED: anthropic-key] here'" in summary
    result.close()


class _FailingDisk(CountingFile):
    """A file whose disk fails after its first bytes."""

    def read(self, size: int) -> bytes:
        if self.bytes_read:
            raise OSError(errno.EIO, os.strerror(errno.EIO))
        return super().read(min(size, 40))

    def readline(self, size: int) -> bytes:
        if self.bytes_read:
            raise OSError(errno.EIO, os.strerror(errno.EIO))
        return super().readline(size)


def test_a_log_that_cannot_be_read_to_its_end_is_one_line():
    data = (user_line("hi") + "\n" + user_line("there") + "\n").encode()
    with pytest.raises(LogError) as error:
        list(read_json_lines(_FailingDisk(data), "log"))
    assert str(error.value) == "log:2: cannot read the file: Input/output error"
    document = JsonDocument(_FailingDisk(b'[\n{"role": "user", "content": "a longer message"}]'), "doc.json")
    with pytest.raises(LogError) as error:
        [document.read_value() for _ in document.iter_array()]
    assert str(error.value) == "doc.json:2: cannot read the file: Input/output error"


def test_a_byte_order_mark_before_the_first_line_is_read_past(tmp_path):
    source = tmp_path / "session.jsonl"
    line = {"type": "user", "uuid": "u1", "message": {"role": "user", "content": "hello"}}
    source.write_bytes(b"\xef\xbb\xbf" + json.dumps(line).encode() + b"\n")
    output = tmp_path / "transcript.jsonl"
    result = run_cli(source, "-o", output)
    assert result.returncode == 0, result.stderr
    assert json.loads(output.read_text(encoding="utf-8").splitlines()[0])["text"] == "hello"


def test_an_import_stopped_by_sigterm_leaves_nothing_half_written(tmp_path):
    source = tmp_path / "session.jsonl"
    with source.open("w", encoding="utf-8") as file:
        for n in range(300_000):
            file.write(json.dumps({"type": "user", "uuid": f"u{n}", "message": {"role": "user", "content": f"m {n}"}}))
            file.write("\n")
    output = tmp_path / "out" / "transcript.jsonl"
    output.parent.mkdir()
    process = subprocess.Popen([sys.executable, str(SCRIPT), str(source), "-o", str(output)],
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    while not list(output.parent.iterdir()) and time.monotonic() < deadline and process.poll() is None:
        time.sleep(0.01)  # until the output's temporary file is there
    process.send_signal(signal.SIGTERM)
    _, stderr = process.communicate(timeout=60)
    assert process.returncode == 130 and "Traceback" not in stderr, stderr
    assert "import stopped; the output file was left as it was" in stderr
    assert list(output.parent.iterdir()) == []


@pytest.mark.parametrize("line, problem", [
    ('{"type":"user","uuid":"u1","message":{"role":"user","content":"A","content":"B"}}',
     "a key given twice in one object ('content')"),
    ('{"type":"assistant","uuid":"a1","message":{"id":"m","content":[{"type":"tool_use","id":"t","name":"Bash",'
     '"input":{"n":NaN}}]}}', "not valid JSON: NaN is no JSON number"),
])
def test_a_log_line_json_does_not_allow_is_named_by_its_line(tmp_path, line, problem):
    source = tmp_path / "session.jsonl"
    first = '{"type":"user","uuid":"u0","message":{"role":"user","content":"hello"}}'
    source.write_text(first + "\n" + line + "\n", encoding="utf-8")
    result = run_cli(source, "-o", tmp_path / "transcript.jsonl")
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert result.stderr.strip() == f"{source}:2: {problem}"
    assert not (tmp_path / "transcript.jsonl").exists()


@pytest.mark.parametrize("document, line", [
    ('{"sessionId": "s", "messages": [{"type": "user", "content": "one"}],\n'
     ' "messages": [{"type": "user", "content": "two"}]}', 2),  # Gemini CLI's two lists would be read as one
    ('{"loglines": [],\n"loglines": [{"type": "user", "uuid": "u", "message": {"role": "user", "content": "x"}}]}', 2),
])
def test_a_documents_list_of_messages_given_twice_is_named_by_its_line(tmp_path, document, line):
    source = tmp_path / "session.json"
    source.write_text(document, encoding="utf-8")
    result = run_cli(source, "-o", tmp_path / "transcript.jsonl")
    key = "messages" if "messages" in document else "loglines"
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert result.stderr.strip() == f"{source}:{line}: a key given twice in one object ('{key}')"
    assert not (tmp_path / "transcript.jsonl").exists()


@pytest.mark.parametrize("data, problem", [
    (b'{"type":"user","uuid":"u1","message":{"role":"user","content":"one"}}\n'
     b'{"type":"user","uuid":"u2","message":{"role":"user","content":"caf\xc3',
     ":2: the last line is cut off (truncated) in the middle of a character"),
    (b'{"type":"user","uuid":"u1","message":{"role":"user","content":"one"}}\r'
     b'{"type":"user","uuid":"u2","message":{"role":"user","content":"two"}}\r',
     ":1: the lines end in a carriage return alone, not a line feed: convert the file's line ends "
     "(as dos2unix -c mac does)"),
])
def test_a_cut_or_oddly_ended_log_is_named_for_what_it_is(tmp_path, data, problem):
    source = tmp_path / "session.jsonl"
    source.write_bytes(data)
    result = run_cli(source, "-o", tmp_path / "transcript.jsonl")
    assert result.returncode == 1 and result.stderr.strip() == f"{source}{problem}", result.stderr


def test_an_empty_output_name_is_refused(tmp_path):
    source = tmp_path / "session.jsonl"
    source.write_text('{"type":"user","uuid":"u1","message":{"role":"user","content":"one"}}\n', encoding="utf-8")
    result = run_cli(source, "-o", "")
    assert result.returncode == 2 and "-o: expected a file name, found nothing" in result.stderr


def test_the_transcript_may_go_to_standard_output_through_a_pipe(tmp_path):
    source = tmp_path / "session.jsonl"
    source.write_text('{"type":"user","uuid":"u1","message":{"role":"user","content":"one"}}\n', encoding="utf-8")
    result = run_cli(source, "-o", "/dev/stdout")  # standard output is a pipe here
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout.splitlines()[0])["text"] == "one"
