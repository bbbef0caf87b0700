"""The home folder of a log's owner: written `~` by the importer unless `--keep-home`,
reported, and warned of by the build when a transcript still holds one."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import import_transcript
from conftest import build
from transcript.home_folder import HomeShortener, first_line_with_home, names_in, owner
from transcript.redact import Redactor
from transcript.seal import SealCheck

ROOT = Path(__file__).resolve().parent.parent
REAL_LOG = ROOT / "tests" / "data" / "transcripts" / "claude-code-log_image_edit_bash.jsonl"


@pytest.mark.parametrize("path, shortened", [
    ("/Users/ann/project/src/app.py", "~/project/src/app.py"),
    ("cd /home/ann && ls", "cd ~ && ls"),
    ("C:\\Users\\ann\\repo", "~\\repo"),
    ("C:\\\\Users\\\\ann\\\\repo", "~\\\\repo"),  # as JSON text inside a string writes it
    ("/home/annabel/x", "/home/annabel/x"),  # another user's
    ("/home/postgres/data", "/home/postgres/data"),
    ("/srv/home/ann/x", "/srv/home/ann/x"),  # not a home folder
])
def test_the_owner_s_home_folder_is_written_tilde(path, shortened):
    assert HomeShortener("ann").shorten_text(path)[0] == shortened


def test_the_owner_is_the_user_the_log_names_most():
    data = b'{"cwd": "/Users/ann/p"}\n{"cmd": "ls /home/postgres"}\n{"file": "/Users/ann/p/x"}\n'
    assert owner(names_in(data)) == "ann"
    assert owner(names_in(b"no paths at all")) is None


def test_a_value_s_strings_and_keys_are_shortened():
    value = {"file_path": "/Users/ann/a.py", "/Users/ann/b": ["/Users/ann/c", 3]}
    assert HomeShortener("ann").shorten(value) == ({"file_path": "~/a.py", "~/b": ["~/c", 3]}, 3)


def _import(tmp_path: Path, *options: str, capsys) -> tuple[str, str]:
    output = tmp_path / "transcript.jsonl"
    assert import_transcript.main([str(REAL_LOG), "-o", str(output), *options]) == 0
    return output.read_text(encoding="utf-8"), capsys.readouterr().err


def test_the_importer_writes_tilde_for_the_owner_s_home_and_reports_it(tmp_path, capsys):
    original = REAL_LOG.read_text(encoding="utf-8")
    name = owner(names_in(original.encode()))
    assert name is not None and f"/Users/{name}/" in original
    transcript, report = _import(tmp_path, capsys=capsys)
    assert name not in transcript and "~/workspace" in transcript
    assert re.search(rf"^wrote ~ for the home folder of {name} \d+ times in \d+ messages \(--keep-home keeps it\)$",
                     report, re.MULTILINE), report


def test_keep_home_keeps_it_and_says_so(tmp_path, capsys):
    transcript, report = _import(tmp_path, "--keep-home", capsys=capsys)
    name = owner(names_in(REAL_LOG.read_bytes()))
    assert f"/Users/{name}/" in transcript and "wrote ~" not in report
    assert f"\nkept the home folder of {name} in its paths (--keep-home)\n" in report


def test_the_build_leaves_alone_what_the_importer_wrote(tmp_path):
    """Another user's home folder in an imported log (a test's fixture path) is kept, and
    the line that holds it is the importer's, sealed: the build does not warn of it."""
    log = ROOT / "tests" / "data" / "transcripts" / "codemie-code_codex_rollout_reasoning_message.jsonl"
    output = tmp_path / "transcript.jsonl"
    assert import_transcript.main([str(log), "-o", str(output)]) == 0
    assert "/Users/user/" in output.read_text(encoding="utf-8")
    assert first_line_with_home(str(output), SealCheck(Redactor().fingerprint).matches) is None
    line, folder, _ = first_line_with_home(str(output), lambda line: False) or (0, "", 0)
    assert line > 0 and folder == "/Users/user"


def test_the_build_warns_of_a_transcript_that_holds_a_home_folder(project, tmp_path):
    transcript = project / "docs" / "transcript.jsonl"
    lines = transcript.read_text(encoding="utf-8").splitlines()
    record = json.loads(lines[2])
    record["text"] += " (saved in /home/ann/notes.md)"
    lines[2] = json.dumps(record, ensure_ascii=False)
    transcript.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert first_line_with_home(str(transcript), lambda line: False) == (3, "/home/ann", 1)
    result = build(project, tmp_path / "site")
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert re.search(r"WARNING\s+-\s+docs/transcript\.jsonl:3: holds a home folder, /home/ann \(1 lines hold one\)",
                     result.stderr), result.stderr
