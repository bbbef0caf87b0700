"""The importer given logs and paths it must not trust: it never writes over its input,
never replaces what is not a regular file, keeps nothing secret, and on any failure
leaves every file as it was, with one line naming the file (and line)."""

from __future__ import annotations

import json
import os
import stat
import sys
import threading

import pytest

from msgref.transcript import load_transcript
from test_hostile_transcripts import run_unprivileged
from test_import_transcript import SAMPLES, SCRIPT, run_cli

SAMPLE = SAMPLES / "claude-code-transcripts_sample_session.jsonl"
SECRET_KEY = "sk-ant-" + "api03-" + "k" * 40  # fake, built at run time


@pytest.fixture
def log(tmp_path):
    """A copy of a real session log, to import."""
    path = tmp_path / "session.jsonl"
    path.write_bytes(SAMPLE.read_bytes())
    return path


def user_line(content, uuid="u1") -> str:
    return json.dumps({"type": "user", "uuid": uuid, "message": {"role": "user", "content": content}})


# --- Never over its input --------------------------------------------------------------

@pytest.mark.parametrize("link", [None, "symbolic", "hard"])
@pytest.mark.parametrize("option", ["-o", "--report"])
def test_the_log_is_never_written_over(tmp_path, log, option, link):
    target = log
    if link == "symbolic":
        target = tmp_path / "link.jsonl"
        target.symlink_to(log)
    elif link == "hard":
        target = tmp_path / "hard.jsonl"
        os.link(log, target)
    args = ["-o", target] if option == "-o" else ["-o", tmp_path / "t.jsonl", "--report", target]
    result = run_cli(log, *args)
    assert result.returncode == 1
    assert result.stderr == f"{target}: is the log being imported ({log}); {option} must name another file\n"
    assert log.read_bytes() == SAMPLE.read_bytes()
    assert not (tmp_path / "t.jsonl").exists()
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".")) == []


def test_the_report_is_never_written_over_the_transcript(tmp_path, log):
    output = tmp_path / "t.jsonl"
    output.write_text("the previous transcript\n")
    result = run_cli(log, "-o", output, "--report", tmp_path / "." / "t.jsonl")
    assert result.returncode == 1
    assert "t.jsonl: is the transcript being written (-o); --report must name another file" in result.stderr
    assert output.read_text() == "the previous transcript\n"


# --- Never replacing what is not a regular file ------------------------------------------

def test_a_named_pipe_as_the_output_is_written_directly(tmp_path, log):
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    received = []
    reader = threading.Thread(target=lambda: received.append(pipe.read_text(encoding="utf-8")))
    reader.start()
    result = run_cli(log, "-o", pipe)
    reader.join(timeout=30)
    assert result.returncode == 0, result.stderr
    assert stat.S_ISFIFO(os.lstat(pipe).st_mode)
    assert [json.loads(line)["n"] for line in received[0].splitlines()] == list(range(1, 9))


@pytest.mark.skipif(os.geteuid() != 0, reason="making a device file takes root")
def test_a_device_as_the_output_is_written_directly_and_kept(tmp_path, log):
    null = tmp_path / "null"
    os.mknod(null, stat.S_IFCHR | 0o666, os.makedev(1, 3))  # a device like /dev/null, of this test's own
    result = run_cli(log, "-o", null, "--report", null)
    assert result.returncode == 0, result.stderr
    assert stat.S_ISCHR(os.lstat(null).st_mode) and os.lstat(null).st_rdev == os.makedev(1, 3)
    assert "report written to" in result.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["null", "session.jsonl"]


def test_a_folder_as_the_output_is_refused(tmp_path, log):
    folder = tmp_path / "transcripts"
    folder.mkdir()
    result = run_cli(log, "-o", folder)
    expected = f"{folder}: cannot write here: a folder, which is never replaced\n"
    assert (result.returncode, result.stderr) == (1, expected)
    assert list(folder.iterdir()) == []


def test_a_symbolic_link_as_the_output_stays_and_its_file_is_replaced(tmp_path, log):
    target = tmp_path / "kept" / "transcript.jsonl"
    target.parent.mkdir()
    target.write_text("the previous transcript\n")
    link = tmp_path / "transcript.jsonl"
    link.symlink_to(target)
    assert run_cli(log, "-o", link).returncode == 0
    assert link.is_symlink() and os.readlink(link) == str(target)
    assert len(load_transcript(str(target))) == 8


def test_a_report_that_cannot_be_written_leaves_the_previous_transcript(tmp_path, log):
    output = tmp_path / "t.jsonl"
    output.write_text("the previous transcript\n")
    report = tmp_path / "reports"
    report.mkdir()
    result = run_cli(log, "-o", output, "--report", report)
    expected = f"{report}: cannot write here: a folder, which is never replaced\n"
    assert (result.returncode, result.stderr) == (1, expected)
    assert output.read_text() == "the previous transcript\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["reports", "session.jsonl", "t.jsonl"]


# --- Logs that are not regular, readable files ---------------------------------------------

def test_a_named_pipe_as_the_log_is_refused_at_once(tmp_path):
    pipe = tmp_path / "session.jsonl"
    os.mkfifo(pipe)  # no writer: opening it to read in the usual way would wait forever
    result = run_cli(pipe, "-o", tmp_path / "t.jsonl")
    assert (result.returncode, result.stderr) == (
        1, f"{pipe}: is a named pipe, not a log file; save the log to a file and import that\n")


def test_an_unreadable_log_is_named(tmp_path, log):
    log.chmod(0)
    result = run_unprivileged([sys.executable, str(SCRIPT), str(log), "-o", str(tmp_path / "t.jsonl")],
                              tmp_path)
    assert (result.returncode, result.stderr) == (1, f"{log}: cannot read the file: Permission denied\n")


# --- Nesting ------------------------------------------------------------------------------

def deep_list(depth: int) -> str:
    return "[" * depth + "]" * depth


@pytest.mark.parametrize("depth", [150, 5000])  # one the parser reads, one it cannot follow
def test_a_log_line_nested_too_deeply_stops_the_import_naming_it(tmp_path, depth):
    source = tmp_path / "session.jsonl"
    source.write_text(user_line("hello") + "\n" + user_line([{"type": "text", "text": "x"}], "u2")[:-2]
                      + f', "extra": {deep_list(depth)}}}}}\n')
    result = run_cli(source, "-o", tmp_path / "t.jsonl")
    assert (result.returncode, result.stderr) == (
        1, f"{source}:2: nested deeper than 100 levels, the most a transcript message may hold\n")
    assert not (tmp_path / "t.jsonl").exists()


@pytest.mark.parametrize("depth", [150, 5000])
def test_an_element_of_a_json_document_nested_too_deeply_stops_the_import_naming_it(tmp_path, depth):
    source = tmp_path / "chat.json"
    source.write_text('[\n{"role": "user", "content": "hi"},\n'
                      f'{{"role": "assistant", "content": "ok", "extra": {deep_list(depth)}}}\n]\n')
    result = run_cli(source, "-o", tmp_path / "t.jsonl")
    assert (result.returncode, result.stderr) == (
        1, f"{source}:3: nested deeper than 100 levels, the most a transcript message may hold\n")


def test_tool_arguments_nested_too_deeply_stay_text(tmp_path):
    arguments = json.dumps({"a": json.loads(deep_list(120))})
    source = tmp_path / "chat.json"
    source.write_text(json.dumps([
        {"role": "user", "content": "go"},
        {"role": "assistant", "content": None, "tool_calls": [
            {"id": "c1", "type": "function", "function": {"name": "run", "arguments": arguments}}]}]))
    output = tmp_path / "t.jsonl"
    assert run_cli(source, "-o", output).returncode == 0
    call = [json.loads(line) for line in output.read_text().splitlines()][1]
    assert call["tool_input"] == arguments
    assert len(load_transcript(str(output))) == 2  # a transcript the site reads


# --- Secrets in keys -------------------------------------------------------------------------

def test_a_secret_used_as_a_key_is_redacted_and_reported(tmp_path):
    source = tmp_path / "session.jsonl"
    call = {"type": "tool_use", "id": "toolu_1", "name": "Configure",
            "input": {SECRET_KEY: "x", "env": {SECRET_KEY: 1}}}
    reply = {"type": "assistant", "uuid": "a1", "message": {"id": "m1", "content": [call]}}
    source.write_text(user_line("configure it") + "\n" + json.dumps(reply) + "\n")
    output, report = tmp_path / "t.jsonl", tmp_path / "report.txt"
    result = run_cli(source, "-o", output, "--report", report)
    assert result.returncode == 0, result.stderr
    for text in (output.read_text(), report.read_text(), result.stderr):
        assert SECRET_KEY not in text
    records = [json.loads(line) for line in output.read_text().splitlines()]
    assert records[1]["tool_input"] == {"[REDACTED: anthropic-key]": "x", "env": {"[REDACTED: anthropic-key]": 1}}
    assert "  msg 2 tool_input: anthropic-key, anthropic-key" in report.read_text().splitlines()
