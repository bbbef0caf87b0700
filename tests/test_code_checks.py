"""The code's style and types, as ruff and mypy check them with the settings of
pyproject.toml: strict types for the build's code under hooks/, checked bodies for the
scripts and the tests."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from conftest import ROOT

# A suppression says which finding it silences and why: `# type: ignore[code]  # why`
# (or the why on the line above).
_IGNORE_RE = re.compile(r"#\s*type:\s*ignore(?P<code>\[[^\]]+\])?(?P<after>.*)$")


def run(*command: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", *command], cwd=ROOT, capture_output=True, text=True, timeout=600)


def test_ruff_finds_nothing():
    result = run("ruff", "check", "--no-cache", ".")
    assert result.returncode == 0, result.stdout + result.stderr


def test_mypy_finds_nothing():
    result = run("mypy")
    assert result.returncode == 0, result.stdout + result.stderr


def python_files() -> list[Path]:
    return sorted(path for folder in ("hooks", "scripts", "tests") for path in (ROOT / folder).rglob("*.py"))


def test_each_type_ignore_names_its_code_and_says_why():
    for path in python_files():
        lines = path.read_text(encoding="utf-8").splitlines()
        for number, line in enumerate(lines, start=1):
            found = _IGNORE_RE.search(line)
            if found and "_IGNORE_RE" not in line:
                where = f"{path.relative_to(ROOT)}:{number}"
                assert found.group("code"), f"{where}: name the error code"
                # Why: a comment after the code, or a comment right above, ending at that line.
                above = lines[number - 2].strip() if number > 1 else ""
                said = re.match(r"\s*#\s*\S", found.group("after")) or (above.startswith("#") and len(above) > 1)
                assert said, f"{where}: say why, after the code or on the line above"
