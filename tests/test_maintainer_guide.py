"""hooks/README.md, the maintainer's guide to the build, names what exists: each module,
event and name of the build it mentions, and every module of the packages."""

from __future__ import annotations

import importlib
import re

import pytest

import mkdocs_hook
from conftest import ROOT, found

GUIDE = ROOT / "hooks" / "README.md"
PACKAGES = ("msgref", "essaycite", "sitebuild")
# `package.module` or `package.module.Name`; `SiteBuild.method`; `on_event`.
DOTTED_RE = re.compile(rf"`((?:{'|'.join(PACKAGES)})(?:\.\w+)+)`")
METHOD_RE = re.compile(r"`(SiteBuild|SiteConfig)\.(\w+)`")
EVENT_RE = re.compile(r"^\| `(on_\w+)`", re.MULTILINE)


def guide() -> str:
    return GUIDE.read_text(encoding="utf-8")


@pytest.mark.parametrize("name", sorted(set(DOTTED_RE.findall(guide()))))
def test_each_module_and_name_it_mentions_exists(name: str) -> None:
    parts = name.split(".")
    for split in range(len(parts), 0, -1):  # the longest importable prefix, then attributes
        try:
            found: object = importlib.import_module(".".join(parts[:split]))
        except ModuleNotFoundError:
            continue
        for attribute in parts[split:]:
            found = getattr(found, attribute)
        return
    pytest.fail(f"hooks/README.md names {name}, which does not exist")


def test_each_method_and_event_it_mentions_exists() -> None:
    from sitebuild.build import SiteBuild
    from sitebuild.site_config import SiteConfig

    owners = {"SiteBuild": SiteBuild, "SiteConfig": SiteConfig}
    methods = METHOD_RE.findall(guide())
    assert methods
    for owner, method in methods:
        assert hasattr(owners[owner], method), f"{owner}.{method}"
    events = EVENT_RE.findall(guide())
    assert "on_files" in events
    for event in events:
        assert callable(getattr(mkdocs_hook, event, None)), event


def test_every_module_is_in_the_guide() -> None:
    text = guide()
    for package in PACKAGES:
        # The package's own entry in the list of folders: "- `hooks/package/`: ..." up to the next entry.
        entry = found(re.search(rf"^- `hooks/{package}/`:.*?(?=^- |\Z)", text, re.MULTILINE | re.DOTALL),
                      f"the entry of hooks/{package}/")
        for path in sorted((ROOT / "hooks" / package).glob("*.py")):
            if path.stem == "__init__":
                continue
            named = f"{package}.{path.stem}" in text or f"`{path.stem}`" in entry[0]
            assert named, f"hooks/README.md does not name {package}.{path.stem}"
