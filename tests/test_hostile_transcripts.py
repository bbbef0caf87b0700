"""A transcript file or its settings made to break the build, through the real `mkdocs
build --strict`: each ends at once in one line naming the file (and line), never in a
traceback or a build that waits forever."""

from __future__ import annotations

import ctypes
import json
import os
import re
import subprocess
import sys

import pytest

from conftest import build, found, selected, soup

TRANSCRIPT = "docs/transcript.jsonl"


def nested(depth: int) -> dict:
    value: dict = {}
    for _ in range(depth - 1):
        value = {"a": value}
    return value


def add_record(project, record_text: str) -> int:
    """Add a line to the project's transcript; its line number."""
    path = project / TRANSCRIPT
    text = path.read_text()
    path.write_text(text + record_text + "\n")
    return text.count("\n") + 1


def assert_stops(result, expected: str) -> None:
    assert result.returncode == 1, result.stderr
    assert re.search(rf"ERROR\s+-\s+{re.escape(expected)}$", result.stderr, re.MULTILINE), result.stderr
    assert "Traceback" not in result.stderr


def test_a_tool_input_nested_too_deeply_is_refused_naming_its_line(project, tmp_path):
    record = {"n": 9001, "speaker": "tool", "provenance": "verbatim", "text": "", "tool_name": "Bash",
              "tool_input": nested(500)}
    line = add_record(project, json.dumps(record))
    (project / "docs" / "conclusion.md").open("a").write("\nDeep [msg 9001].\n")
    assert_stops(build(project, tmp_path / "site"),
                 f"{TRANSCRIPT}:{line}: field 'tool_input' nests deeper than 100 levels, the most a message may hold")


def test_a_line_nested_deeper_than_the_parsers_can_follow_is_refused_naming_it(project, tmp_path):
    deep = "[" * 5000 + "]" * 5000
    fields = '"n": 9001, "speaker": "tool", "provenance": "verbatim", "text": ""'
    line = add_record(project, f'{{{fields}, "tool_input": {deep}}}')
    assert_stops(build(project, tmp_path / "site"),
                 f"{TRANSCRIPT}:{line}: nests deeper than 100 levels, the most a message may hold")


def test_a_tool_input_just_within_the_limit_is_shown(project, tmp_path):
    record = {"n": 9001, "speaker": "tool", "provenance": "verbatim", "text": "", "tool_name": "Bash",
              "tool_input": nested(100)}
    add_record(project, json.dumps(record))
    (project / "docs" / "conclusion.md").open("a").write("\nDeep [msg 9001].\n")
    result = build(project, tmp_path / "site")
    assert result.returncode == 0, result.stderr
    heading = selected(soup(tmp_path / "site/transcript/index.html"), "#msg-9001")
    shown = found(heading.find_next("pre"), "the tool input of message 9001").get_text()
    assert json.loads(shown) == nested(100)


def test_a_named_pipe_as_the_transcript_is_refused_at_once(project, tmp_path):
    path = project / TRANSCRIPT
    path.unlink()
    os.mkfifo(path)
    assert_stops(build(project, tmp_path / "site"), f"{TRANSCRIPT}: is a named pipe, not a transcript file")


def test_a_device_as_the_transcript_is_refused(project, tmp_path):
    path = project / TRANSCRIPT
    path.unlink()
    path.symlink_to("/dev/zero")
    assert_stops(build(project, tmp_path / "site"), f"{TRANSCRIPT}: is a device, not a transcript file")


def without_root_reading_rights():
    """Run the child without the capabilities that let root read any file, so that file
    permissions apply to it as to anyone (PR_CAPBSET_DROP of CAP_DAC_OVERRIDE and
    CAP_DAC_READ_SEARCH: the capabilities a program run as root starts with)."""
    libc = ctypes.CDLL(None, use_errno=True)
    for capability in (1, 2):
        if libc.prctl(24, capability, 0, 0, 0) != 0:
            raise OSError(ctypes.get_errno(), "prctl(PR_CAPBSET_DROP)")


def run_unprivileged(args: list[str], cwd) -> subprocess.CompletedProcess:
    return subprocess.run(args, cwd=cwd, capture_output=True, text=True, timeout=120,
                          env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
                          preexec_fn=without_root_reading_rights if os.geteuid() == 0 else None)


def test_an_unreadable_transcript_is_named_without_a_traceback(project, tmp_path):
    (project / TRANSCRIPT).chmod(0)
    result = run_unprivileged([sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(tmp_path / "site")],
                              project)
    assert_stops(result, f"{TRANSCRIPT}: cannot read the transcript file: Permission denied")


def test_a_byte_order_mark_at_the_start_of_the_transcript_is_accepted(project, tmp_path):
    path = project / TRANSCRIPT
    path.write_bytes(b"\xef\xbb\xbf" + path.read_bytes())
    result = build(project, tmp_path / "site")
    assert result.returncode == 0, result.stderr
    first = selected(soup(tmp_path / "site/transcript/index.html"), "#msg-5843")
    assert first.get_text().startswith("Message 5843 — sender not stated")


def test_a_byte_order_mark_later_in_the_file_is_still_an_error(project, tmp_path):
    line = add_record(project, '\ufeff{"n": 9001, "speaker": "user", "provenance": "verbatim", "text": ""}')
    assert_stops(build(project, tmp_path / "site"), f"{TRANSCRIPT}:{line}: not valid JSON: Unexpected UTF-8 BOM "
                                                    "(decode using utf-8-sig) (column 1)")


@pytest.mark.parametrize("folder", ["../escape", ".hidden", "pages/.git", ".", "a\\\\b"])
def test_a_transcript_folder_outside_the_site_or_hidden_stops_the_build(project, tmp_path, folder):
    config = project / "mkdocs.yml"
    config.write_text(config.read_text().replace("    folder: transcript\n", f'    folder: "{folder}"\n'))
    result = build(project, tmp_path / "site")
    assert result.returncode == 1
    assert ("mkdocs.yml: extra.transcript.folder: expected a folder inside the site whose names do not start "
            "with '.', such as transcript, found") in result.stderr, result.stderr
    assert "Traceback" not in result.stderr
    assert not (tmp_path / "escape").exists()


def test_a_key_given_twice_in_a_tool_input_is_named_by_its_columns_never_by_itself(project, tmp_path):
    secret = "hunter" + "two" * 3  # a key of lower-case letters, as a password may be; built at run time
    fields = '"n": 9001, "speaker": "tool", "provenance": "verbatim", "text": "", "tool_name": "Bash"'
    record = f'{{{fields}, "tool_input": {{"{secret}": 1, "{secret}": 2}}}}'
    line = add_record(project, record)
    first = record.index(f'"{secret}"') + 1
    second = record.index(f'"{secret}"', first) + 1
    result = build(project, tmp_path / "site")
    assert_stops(result, f"{TRANSCRIPT}:{line}: a key appears twice in one object (at columns {first} and {second}); "
                         "a key of the log is not shown, as it may be a secret")
    assert secret not in result.stderr
