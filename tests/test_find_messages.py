"""scripts/find_messages.py, run as a person runs it, on transcripts imported from the
sample logs in tests/data/transcripts/ and on small ones written here."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

import import_transcript
from perf.find_timer import find_command, measured
from perf.synthetic import write_transcript

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "tests" / "data" / "transcripts"
SCRIPT = ROOT / "scripts" / "find_messages.py"
TAG_RE = re.compile(r"\[msg (\d+)\]")


def run_find(*args: str | Path, cwd: Path = ROOT, columns: int | None = None) -> subprocess.CompletedProcess[str]:
    """The command with its output a pipe, as wide as `columns` (COLUMNS), else as wide as a pipe gets."""
    env = {key: value for key, value in os.environ.items() if key not in ("COLUMNS", "LINES")}
    if columns is not None:
        env["COLUMNS"] = str(columns)
    return subprocess.run([sys.executable, str(SCRIPT), *map(str, args)],
                          cwd=cwd, env=env, capture_output=True, text=True, timeout=120)


def listed(result: subprocess.CompletedProcess[str]) -> list[int]:
    """The numbers of the messages listed, in order; each line must start with its tag."""
    numbers = []
    for line in result.stdout.splitlines():
        tag = TAG_RE.match(line)
        assert tag, f"a line without a tag at its start: {line!r}"
        numbers.append(int(tag[1]))
    return numbers


def written(folder: Path, *records: dict[str, object] | str, name: str = "t.jsonl") -> Path:
    """A transcript file of `records`, each as JSON, or a line as written."""
    path = folder / name
    lines = (record if isinstance(record, str) else json.dumps(record) for record in records)
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return path


def message(n: int, text: str = "text", speaker: str = "user", **fields: object) -> dict[str, object]:
    return {"n": n, "speaker": speaker, "provenance": "verbatim", "text": text, **fields}


@pytest.fixture(scope="module")
def claude(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The Claude Code sample imported: 11 messages, two of them tool calls (Edit, Bash)."""
    output = tmp_path_factory.mktemp("claude") / "transcript.jsonl"
    source = SAMPLES / "claude-code-log_representative_messages.jsonl"
    assert import_transcript.main([str(source), "-o", str(output)]) == 0
    return output


@pytest.fixture(scope="module")
def codex(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The Codex rollout sample imported: a message of reasoning only, a tool input that is a string."""
    output = tmp_path_factory.mktemp("codex") / "transcript.jsonl"
    assert import_transcript.main([str(SAMPLES / "codex-rollout_synthetic.jsonl"), "-o", str(output)]) == 0
    return output


# --- The listing ---------------------------------------------------------------------

def test_lists_every_message_in_order_with_tag_speaker_time_and_first_line(claude: Path) -> None:
    result = run_find("-t", claude, columns=200)
    assert result.returncode == 0, result.stderr
    assert listed(result) == list(range(1, 12))
    lines = result.stdout.splitlines()
    assert lines[0] == ("[msg 1]       user       2025-06-14 10:00  "
                        "Hello Claude! Can you help me understand how Python decorators work?")
    assert lines[4] == ("[msg 5]       tool       2025-06-14 10:01  "
                        "File created successfully at: /tmp/decorator_example.py")
    # The first non-blank line only, never the lines after it.
    assert lines[8] == "[msg 9]       tool       2025-06-14 10:03  Hello, Alice!"


def test_a_tool_call_shows_its_tool_and_its_input(claude: Path, codex: Path) -> None:
    edit = run_find("-t", claude, "--range", "4", columns=200).stdout
    assert edit.startswith(
        '[msg 4]       assistant  2025-06-14 10:01  Edit  {"file_path": "/tmp/decorator_example.py", "old_string": ""')
    assert edit.count("\n") == 1  # the input as one line, though its strings hold line breaks
    result = run_find("-t", codex)
    by_number = dict(zip(listed(result), result.stdout.splitlines(), strict=True))
    assert by_number[5].endswith("apply_patch  *** Begin Patch")  # an input that is text: its first line
    assert by_number[2].endswith("  (thinking) I will inspect the synthetic directory.")


def test_a_long_first_line_is_cut_to_the_width(claude: Path) -> None:
    for columns, width in ((None, 100), (80, 80), (200, 200)):
        lines = run_find("-t", claude, columns=columns).stdout.splitlines()
        assert max(map(len, lines)) == width, columns
        assert [line for line in lines if len(line) == width and line.endswith("…")], columns
    # However narrow the terminal, the columns and a little of the text.
    narrow = run_find("-t", claude, "--range", "1", columns=10).stdout
    assert narrow == "[msg 1]       user       2025-06-14 10:00  Hello Claude! Can y…\n"


def test_a_message_without_time_leaves_the_column_blank_and_odd_times_are_cut(tmp_path: Path) -> None:
    path = written(tmp_path, message(1, "no time"), message(2, "odd time", timestamp="June 14th, around noon"),
                   message(3, "offset", timestamp="2025-06-14T23:59:59.123+02:00"))
    assert run_find("-t", path).stdout.splitlines() == [
        "[msg 1]       user                         no time",
        "[msg 2]       user       June 14th, aroun  odd time",
        "[msg 3]       user       2025-06-14 23:59  offset",
    ]


def test_what_a_terminal_would_act_on_is_shown_as_spaces(tmp_path: Path) -> None:
    path = written(tmp_path, message(1, "\n\n  \x1b[31mred\x1b[0m\rback\tand forth\nsecond line", tool_name="X\x07"))
    result = run_find("-t", path)
    assert result.stdout == "[msg 1]       user                         X   [31mred [0m back and forth\n"


# --- The filters ---------------------------------------------------------------------

@pytest.mark.parametrize(("words", "numbers"), [
    (["alice"], [4, 6, 9, 10]),  # in a tool's input (4) and in texts, in any case
    (["ALICE", "three"], [6, 10]),  # every word
    (["decorator_example"], [4, 5, 8]),
    (["bash"], [8]),  # the tool's name
    (["description"], [8]),  # a key of the tool's input
    (["to show the output"], [7]),  # a phrase
    (["alice", "nowhere"], []),
])
def test_words_must_all_be_in_the_text_tool_name_or_tool_input(claude: Path, words: list[str],
                                                               numbers: list[int]) -> None:
    result = run_find("-t", claude, *words)
    assert listed(result) == numbers
    assert result.returncode == (0 if numbers else 1)


def test_words_in_a_tool_input_that_is_text(codex: Path) -> None:
    assert listed(run_find("-t", codex, "GAMMA.txt")) == [5]
    assert listed(run_find("-t", codex, "maxdepth")) == [3]


@pytest.mark.parametrize(("options", "numbers"), [
    (["--speaker", "tool"], [5, 9]),
    (["--speaker", "user", "--speaker", "tool"], [1, 3, 5, 7, 9, 11]),
    (["--tool", "BASH"], [8]),
    (["--tool", "edit"], [4]),
    (["--tool", "Read"], []),
    (["--range", "3-5"], [3, 4, 5]),
    (["--range", "10-"], [10, 11]),
    (["--range", "7"], [7]),
    (["--from", "3", "--to", "4"], [3, 4]),
    (["--to", "2"], [1, 2]),
    (["--limit", "2"], [1, 2]),
    (["--speaker", "assistant", "--range", "1-8", "decorator"], [2, 4, 6, 8]),
    (["--speaker", "assistant", "--limit", "1", "alice"], [4]),
])
def test_filters(claude: Path, options: list[str], numbers: list[int]) -> None:
    result = run_find("-t", claude, *options)
    assert listed(result) == numbers
    assert result.returncode == (0 if numbers else 1)


def test_nothing_matched_exits_1_and_says_so(claude: Path) -> None:
    result = run_find("-t", claude, "--speaker", "unknown")
    assert (result.returncode, result.stdout) == (1, "")
    assert result.stderr == f"{claude}: no message matched\n"


@pytest.mark.parametrize(("options", "problem"), [
    (["--range", "5-3"], "the range starts at 5, after its end 3"),
    (["--range", "a-b"], "--range: expected a message number of 1 or more, found 'a'"),
    (["--range", "0-3"], "--range: expected a message number of 1 or more, found '0'"),
    (["--range", "1-3", "--from", "2"], "--range and --from/--to both set the numbers"),
    (["--limit", "0"], "--limit must be 1 or more"),
    (["--speaker", "bot"], "--speaker: invalid choice: 'bot'"),
    (["--transcript", ""], "--transcript: the path is empty"),
])
def test_wrong_usage_exits_2(claude: Path, options: list[str], problem: str) -> None:
    result = run_find("-t", claude, *options)
    assert (result.returncode, result.stdout) == (2, "")
    assert problem in result.stderr


def test_help_names_the_exit_statuses() -> None:
    result = run_find("--help")
    assert result.returncode == 0
    assert "Exit status: 0 when a message was listed" in result.stdout
    assert "2 for wrong usage" in result.stdout


# --- The transcript named by mkdocs.yml ------------------------------------------------

def test_the_transcript_defaults_to_the_one_mkdocs_yml_names(tmp_path: Path) -> None:
    (tmp_path / "data").mkdir()
    written(tmp_path / "data", message(3, "configured"), name="session.jsonl")
    (tmp_path / "mkdocs.yml").write_text("site_name: t\nextra:\n  transcript:\n    source: data/session.jsonl\n")
    assert run_find(cwd=tmp_path).stdout.startswith("[msg 3]")
    assert run_find("nowhere", cwd=tmp_path).stderr == "data/session.jsonl: no message matched\n"


def test_without_mkdocs_yml_the_transcript_must_be_named(tmp_path: Path) -> None:
    result = run_find(cwd=tmp_path)
    assert result.returncode == 2
    assert "give it with --transcript FILE" in result.stderr


def test_a_bad_setting_in_mkdocs_yml_is_named(tmp_path: Path) -> None:
    (tmp_path / "mkdocs.yml").write_text("extra:\n  transcript:\n    sauce: t.jsonl\n")
    result = run_find(cwd=tmp_path)
    assert result.returncode == 1
    assert result.stderr.startswith("mkdocs.yml: extra.transcript: unknown setting 'sauce'; did you mean source?")


def test_a_mkdocs_yml_that_is_not_yaml_is_named_in_one_line(tmp_path: Path) -> None:
    (tmp_path / "mkdocs.yml").write_text("extra: [\n  transcript:\n")
    result = run_find(cwd=tmp_path)
    assert result.returncode == 1
    assert result.stderr.startswith("mkdocs.yml: cannot be read: ") and result.stderr.count("\n") == 1


# --- Bad input: one line naming the file and line, never a traceback -------------------------

@pytest.mark.parametrize(("line", "problem"), [
    ('{"n": 2, "speaker": "user"', "not valid JSON: "),
    ('{"n": 2, "speaker": "bot", "provenance": "verbatim", "text": "x"}',
     "field 'speaker' must be one of user, assistant, tool, unknown"),
    ('{"n": 2, "speaker": "user", "text": "x"}', "missing required field 'provenance'"),
    ('{"n": "2", "speaker": "user", "provenance": "verbatim", "text": "x"}', "field 'n' must be an integer"),
    ('[1, 2]', "expected a JSON object, found a list"),
    ('{"n": 2, "speaker": "user", "provenance": "verbatim", "text": "x", "tool_input": %s}' % ("9" * 5000),
     "holds a number of more than 4,300 digits"),
])
def test_a_bad_line_is_named_by_file_and_line(tmp_path: Path, line: str, problem: str) -> None:
    written(tmp_path, message(1, "before"), "", line, message(4, "after"))
    result = run_find("-t", "t.jsonl", cwd=tmp_path)
    assert result.returncode == 1
    assert listed(result) == [1]  # the messages before the bad line are listed
    assert result.stderr.startswith(f"t.jsonl:3: {problem}")
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr


def test_a_line_that_is_not_utf_8_is_named(tmp_path: Path) -> None:
    (tmp_path / "t.jsonl").write_bytes(b'{"n": 1, "speaker": "user", "provenance": "verbatim", "text": "\xff"}\n')
    result = run_find("-t", "t.jsonl", cwd=tmp_path)
    assert (result.returncode, result.stderr) == (1, "t.jsonl:1: not valid UTF-8 (byte 64)\n")


def test_a_missing_file_or_a_folder_is_named(tmp_path: Path) -> None:
    missing = run_find("-t", "nowhere.jsonl", cwd=tmp_path)
    assert (missing.returncode, missing.stdout, missing.stderr) == (1, "", "nowhere.jsonl: transcript file not found\n")
    folder = run_find("-t", ".", cwd=tmp_path)
    assert (folder.returncode, folder.stderr) == (1, ".: is a folder, not a transcript file\n")


def test_a_closed_output_pipe_ends_the_listing_quietly(tmp_path: Path) -> None:
    path = written(tmp_path, *(message(n, f"message number {n} " * 5) for n in range(1, 20_001)))
    with subprocess.Popen([sys.executable, str(SCRIPT), "-t", str(path)], stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, text=True) as child:
        assert child.stdout is not None and child.stderr is not None
        assert child.stdout.readline().startswith("[msg 1]")
        child.stdout.close()  # as `| head -1` does: far more than a pipe holds is still to be written
        errors = child.stderr.read()
        assert child.wait(timeout=60) == 0
    assert errors == ""


# --- Memory: the file is streamed ------------------------------------------------------------

MESSAGES = 20_000  # the memory test's file: 65 MB; the benchmark (perf.find_timer) reads 100,000


@pytest.fixture(scope="module")
def large_transcript(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """20,000 messages, 1% of them tool outputs of 100 KB or more: some 65 MB, removed
    afterwards rather than kept with the last runs' temporary folders."""
    path = tmp_path_factory.mktemp("large") / "transcript.jsonl"
    write_transcript(path, MESSAGES)
    yield path
    path.unlink()


def test_memory_does_not_grow_with_the_transcript(tmp_path: Path, large_transcript: Path) -> None:
    small = tmp_path / "small.jsonl"
    write_transcript(small, 1_000)
    # Every message listed: each read, checked, matched and written.
    on_large, on_small = measured(find_command(large_transcript)), measured(find_command(small))
    assert (on_large.exit_status, on_large.lines) == (0, MESSAGES), on_large.stderr
    assert (on_small.exit_status, on_small.lines) == (0, 1_000), on_small.stderr
    megabyte = 1 << 20
    # What a larger file may add: the longest line (400 KB) read, decoded and lower-cased,
    # and the read buffer; reading the file whole would add its 65 MB.
    assert on_large.peak_bytes - on_small.peak_bytes < 12 * megabyte, (on_large.peak_bytes, on_small.peak_bytes)


def test_words_searched_in_bounded_memory(large_transcript: Path) -> None:
    result = measured(find_command(large_transcript, "kernel", "timeout", "--speaker", "tool"))
    assert result.exit_status == 0 and result.lines > 0, result.stderr
    assert result.peak_bytes < 64 << 20
