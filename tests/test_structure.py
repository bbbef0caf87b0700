"""The shape of the code that hooks/README.md describes: a hook that keeps no state, a core free
of MkDocs and of import cycles, and no module that reaches the core by editing sys.path."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from conftest import ROOT

HOOK_FILES = sorted((ROOT / "hooks").glob("*.py"))
# The packages of the core, each importing only those before it.
PACKAGES = ("transcript", "msgview", "msgref", "transcriptsite", "essaycite", "sitebuild")
CORE_FILES = sorted(path for package in PACKAGES for path in (ROOT / "hooks" / package).glob("*.py"))
SCRIPT_FILES = sorted((ROOT / "scripts").rglob("*.py"))


def tree(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"), filename=str(path))


def imported_modules(module: ast.Module, package: str = "") -> set[str]:
    """The modules `module` imports, at any place (under TYPE_CHECKING too); relative
    imports resolved against `package`, and `from package import name` as `package.name`."""
    names: set[str] = set()
    for node in ast.walk(module):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package if node.level else ""
            module_name = ".".join(part for part in (base, node.module or "") if part)
            names.add(module_name)
            names.update(f"{module_name}.{alias.name}" for alias in node.names)
    return names


def core_imports() -> dict[str, set[str]]:
    """Each module of the core, and the modules of the core it imports."""
    modules = {f"{path.parent.name}.{path.stem}": path for path in CORE_FILES if path.stem != "__init__"}
    return {name: {imported for imported in imported_modules(tree(path), name.split(".")[0]) if imported in modules}
            for name, path in modules.items()}


def test_there_is_a_hook():
    assert [path.name for path in HOOK_FILES] == ["mkdocs_hook.py"]


@pytest.mark.parametrize("path", HOOK_FILES, ids=lambda p: p.name)
def test_a_hook_keeps_no_state_of_its_own(path):
    module = tree(path)
    for node in module.body:
        if isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None:
            # Only the logger, type variables and events of two priorities: no dict, list or
            # object that one event fills for another.
            value = node.value
            assert isinstance(value, ast.Call), ast.unparse(node)
            assert ast.unparse(value.func) in ("logging.getLogger", "TypeVar", "ParamSpec", "CombinedEvent"), \
                ast.unparse(node)
    assert not any(isinstance(node, (ast.Global, ast.Nonlocal)) for node in ast.walk(module))


@pytest.mark.parametrize("path", CORE_FILES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_the_core_never_imports_mkdocs(path):
    assert not {name for name in imported_modules(tree(path)) if name.split(".")[0] == "mkdocs"}


def test_the_core_has_no_import_cycle():
    imports = core_imports()
    assert {"sitebuild.build", "transcriptsite.entries", "transcriptsite.layout"} <= set(imports)
    done: set[str] = set()

    def visit(name: str, path: tuple[str, ...]) -> None:
        assert name not in path, " -> ".join([*path, name])
        if name not in done:
            for imported in sorted(imports[name]):
                visit(imported, (*path, name))
            done.add(name)

    for name in sorted(imports):
        visit(name, ())


def test_each_package_imports_only_those_below_it():
    below = {package: set(PACKAGES[:index]) for index, package in enumerate(PACKAGES)}
    below["essaycite"] -= {"transcriptsite"}  # the citable essay knows nothing of the transcript's pages
    for name, imported in core_imports().items():
        package = name.split(".")[0]
        upward = {other for other in imported if other.split(".")[0] not in below[package] | {package}}
        assert not upward, f"{name} imports {sorted(upward)}"


def test_the_cycle_check_finds_a_cycle_through_a_type_checking_import():
    cyclic = ast.parse("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .build import SiteBuild\n")
    assert "sitebuild.build" in imported_modules(cyclic, "sitebuild")


@pytest.mark.parametrize("path", [*HOOK_FILES, *CORE_FILES, *SCRIPT_FILES], ids=lambda p: p.name)
def test_nothing_edits_sys_path(path):
    source = path.read_text(encoding="utf-8")
    assert "sys.path" not in source
