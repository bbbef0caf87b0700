"""The importer given logs and paths it must not trust: it never writes over its input,
never replaces what is not a regular file, keeps nothing secret, and on any failure
leaves every file as it was, with one line naming the file (and line)."""

from __future__ import annotations

import base64
import contextlib
import errno
import json
import os
import shutil
import stat
import subprocess
import sys
import tempfile
import threading

import pytest

from image_bytes import png
from test_hostile_transcripts import run_unprivileged
from test_import_transcript import SAMPLES, SCRIPT, run_cli
from transcript.reader import load_transcript

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


# --- Outputs that cannot be written --------------------------------------------------------

def assert_one_line(result, expected: str) -> None:
    assert (result.returncode, result.stderr) == (1, expected + "\n")
    assert "Traceback" not in result.stderr


def leftovers(folder) -> list[str]:
    """Temporary files the importer left in `folder`."""
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".part"))


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full, the device that is always full")
@pytest.mark.parametrize("option", ["-o", "--report"])
def test_a_full_device_as_the_output_or_report_is_one_line(tmp_path, log, option):
    """/dev/full refuses every write with ENOSPC, as a full disk does."""
    output = tmp_path / "t.jsonl"
    output.write_text("the previous transcript\n")
    args = ["-o", "/dev/full"] if option == "-o" else ["-o", output, "--report", "/dev/full"]
    result = run_cli(log, *args)
    assert_one_line(result, "/dev/full: cannot write the file: No space left on device")
    assert output.read_text() == "the previous transcript\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["session.jsonl", "t.jsonl"]


def test_a_folder_without_write_permission_is_one_line(tmp_path, log):
    folder = tmp_path / "site"
    folder.mkdir()
    output = folder / "t.jsonl"
    output.write_text("the previous transcript\n")
    folder.chmod(0o555)
    try:
        result = run_unprivileged([sys.executable, str(SCRIPT), str(log), "-o", str(output)], tmp_path)
    finally:
        folder.chmod(0o755)
    assert_one_line(result, f"{output}: cannot write here: Permission denied")
    assert output.read_text() == "the previous transcript\n"
    assert leftovers(folder) == []


class _FailingFile:
    """A file being written whose `write`, `flush` or `close` fails with an OSError, as a
    full disk, a read-only file system or a failing device make it."""

    def __init__(self, file, error: OSError, when: str):
        self._file, self._error, self._when = file, error, when

    def write(self, text: str) -> int:
        if self._when == "write":
            raise self._error
        return self._file.write(text)

    def flush(self) -> None:
        self._file.flush()
        if self._when == "flush":
            raise self._error

    def close(self) -> None:  # as a file does: write what is buffered, close, and only once
        if self._file.closed:
            return
        try:
            self.flush()
        finally:
            self._file.close()
        if self._when == "close":
            raise self._error


@pytest.mark.parametrize("code", [errno.ENOSPC, errno.EROFS, errno.EACCES, errno.EIO, errno.EDQUOT])
@pytest.mark.parametrize("when", ["create", "open", "write", "flush", "close", "rename"])
@pytest.mark.parametrize("which", ["transcript", "report"])
def test_every_error_writing_the_output_is_one_line_leaving_the_previous_one(
        tmp_path, log, monkeypatch, capsys, code, when, which):
    """Wherever writing fails, the error names the file and why, with no traceback; the
    previous transcript and report stay, and no temporary file is left."""
    import import_transcript

    output, report = tmp_path / "t.jsonl", tmp_path / "report.txt"
    output.write_text("the previous transcript\n")
    report.write_text("the previous report\n")
    failing = output if which == "transcript" else report
    error = OSError(code, os.strerror(code))
    real_open, real_mkstemp, real_replace = open, tempfile.mkstemp, os.replace

    def fails(path) -> bool:  # the temporary file beside `failing`, or `failing` itself
        return os.path.basename(path).startswith(f".{failing.name}.") or str(path) == str(failing)

    def fake_mkstemp(suffix: str, prefix: str, dir: str) -> tuple[int, str]:
        if when == "create" and fails(os.path.join(dir, prefix)):
            raise OSError(code, os.strerror(code), dir)
        return real_mkstemp(suffix=suffix, prefix=prefix, dir=dir)

    def fake_open(path, *args, **kwargs):
        if fails(path) and when == "open":
            raise OSError(code, os.strerror(code), path)
        file = real_open(path, *args, **kwargs)
        return _FailingFile(file, error, when) if fails(path) else file

    def fake_replace(source, target, *args, **kwargs):
        if when == "rename" and fails(source):
            raise OSError(code, os.strerror(code), source, target)
        return real_replace(source, target, *args, **kwargs)

    monkeypatch.setattr(tempfile, "mkstemp", fake_mkstemp)  # as sitebuild.files makes the temporary file
    monkeypatch.setattr(import_transcript, "open", fake_open, raising=False)
    monkeypatch.setattr(os, "replace", fake_replace)
    assert import_transcript.main([str(log), "-o", str(output), "--report", str(report)]) == 1
    what = "here" if when in ("create", "open") else "the file"
    err = capsys.readouterr().err
    assert err == f"{failing}: cannot write {what}: {os.strerror(code)}\n"
    assert output.read_text() == "the previous transcript\n"
    if which == "transcript" and when == "rename":
        # The report is put in place first; then only renaming the transcript can fail.
        assert report.read_text().startswith("imported 8 messages")
    else:
        assert report.read_text() == "the previous report\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["report.txt", "session.jsonl", "t.jsonl"]


@pytest.fixture
def small_filesystem(tmp_path):
    """A file system of 64 KB of its own (tmpfs), mounted for the test: a disk that fills."""
    folder = tmp_path / "small"
    folder.mkdir()
    if shutil.which("mount") is None:
        pytest.skip("no mount command")
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(folder)],
                             capture_output=True, text=True)
    if mounted.returncode != 0:
        pytest.skip(f"mounting a tmpfs is not permitted here: {mounted.stderr.strip()}")
    try:
        yield folder
    finally:
        subprocess.run(["umount", "-l", str(folder)], check=True)


def long_log(path, replies: int = 200) -> None:
    body = "A reply long enough to fill a small disk. " * 20
    lines = [user_line(body, f"u{i}") for i in range(replies)]
    path.write_text("\n".join(lines) + "\n")


def test_a_full_disk_is_one_line_leaving_the_previous_transcript(tmp_path, small_filesystem):
    log = tmp_path / "session.jsonl"
    long_log(log)
    assert log.stat().st_size > 100_000  # more than the file system holds
    output = small_filesystem / "t.jsonl"
    output.write_text("the previous transcript\n")
    result = run_cli(log, "-o", output)
    assert_one_line(result, f"{output}: cannot write the file: No space left on device")
    assert output.read_text() == "the previous transcript\n"
    assert sorted(p.name for p in small_filesystem.iterdir()) == ["t.jsonl"]
    # The report on the full disk, the transcript elsewhere: neither is replaced.
    report = small_filesystem / "report.txt"
    report.write_text("the previous report\n")
    with open(small_filesystem / "filler", "wb", buffering=0) as filler, contextlib.suppress(OSError):
        while filler.write(b"f" * 4096):  # as much as fits: none is left for the report
            pass
    other = tmp_path / "t.jsonl"
    result = run_cli(log, "-o", other, "--report", report)
    assert_one_line(result, f"{report}: cannot write the file: No space left on device")
    assert report.read_text() == "the previous report\n" and not other.exists()
    assert leftovers(small_filesystem) == [] and leftovers(tmp_path) == []


def test_images_that_fill_the_disk_are_one_line_leaving_the_previous_transcript_and_images(tmp_path,
                                                                                          small_filesystem):
    """The images are written before the transcript is put in place: a disk that fills
    with them leaves the earlier transcript and folder of images, and no partial folder."""
    output = small_filesystem / "t.jsonl"
    output.write_text("the previous transcript\n")
    (small_filesystem / "t-images").mkdir()
    earlier = small_filesystem / "t-images" / ("0" * 32 + ".png")
    earlier.write_bytes(b"\x89PNG\r\n\x1a\n")
    log = tmp_path / "session.jsonl"
    pictures = [{"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": base64.b64encode(
        png(seed, size=20_000)).decode()}} for seed in range(5)]  # 100 KB, over 64 KB
    log.write_text(user_line(pictures) + "\n")
    result = run_cli(log, "-o", output)
    assert_one_line(result, f"{small_filesystem / 't-images'}: cannot write the images: No space left on device")
    assert output.read_text() == "the previous transcript\n"
    assert sorted(p.name for p in small_filesystem.iterdir()) == ["t-images", "t.jsonl"]
    assert [p.name for p in (small_filesystem / "t-images").iterdir()] == [earlier.name]


def test_a_read_only_file_system_is_one_line_leaving_the_previous_transcript(tmp_path, log, small_filesystem):
    output = small_filesystem / "t.jsonl"
    output.write_text("the previous transcript\n")
    subprocess.run(["mount", "-o", "remount,ro", str(small_filesystem)], check=True)
    result = run_cli(log, "-o", output)
    assert_one_line(result, f"{output}: cannot write here: Read-only file system")
    assert output.read_text() == "the previous transcript\n"
    assert sorted(p.name for p in small_filesystem.iterdir()) == ["t.jsonl"]


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
