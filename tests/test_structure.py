"""The shape of the code that the README describes: thin hooks, a core free of MkDocs,
and no module that reaches the core by editing sys.path."""

import ast
from pathlib import Path

import pytest

from conftest import ROOT

HOOK_FILES = sorted((ROOT / "hooks").glob("*.py"))
CORE_FILES = sorted(path for package in ("msgref", "essaycite", "sitebuild") for path in (ROOT / "hooks" / package).glob("*.py"))
SCRIPT_FILES = sorted((ROOT / "scripts").rglob("*.py"))


def tree(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"), filename=str(path))


def imported_modules(module: ast.Module) -> set[str]:
    names = set()
    for node in ast.walk(module):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.add(node.module)
    return names


def test_there_is_a_hook():
    assert [path.name for path in HOOK_FILES] == ["mkdocs_hook.py"]


@pytest.mark.parametrize("path", HOOK_FILES, ids=lambda p: p.name)
def test_a_hook_is_short_and_keeps_no_state_of_its_own(path):
    assert len(path.read_text(encoding="utf-8").splitlines()) < 100
    module = tree(path)
    for node in module.body:
        if isinstance(node, (ast.Assign, ast.AnnAssign)):
            # Only the logger: no dict, list or object that one event fills for another.
            value = node.value
            assert isinstance(value, ast.Call) and ast.unparse(value.func) == "logging.getLogger", ast.unparse(node)
    assert not any(isinstance(node, (ast.Global, ast.Nonlocal)) for node in ast.walk(module))


@pytest.mark.parametrize("path", CORE_FILES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_the_core_never_imports_mkdocs(path):
    assert not {name for name in imported_modules(tree(path)) if name.split(".")[0] == "mkdocs"}


@pytest.mark.parametrize("path", [*HOOK_FILES, *CORE_FILES, *SCRIPT_FILES], ids=lambda p: p.name)
def test_nothing_edits_sys_path(path):
    source = path.read_text(encoding="utf-8")
    assert "sys.path" not in source
