"""Reading mkdocs.yml outside a build, as MkDocs reads it: `!ENV` values resolved."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import yaml


class _Loader(yaml.SafeLoader):
    pass


def _environment_value(loader: _Loader, node: yaml.Node) -> Any:
    """`!ENV NAME` or `!ENV [NAME, OTHER, default]`: the first variable set, read as a
    YAML value (so that `true` is a boolean), else the default (or null)."""
    names: list[Any] = []
    default = None
    if isinstance(node, yaml.ScalarNode):
        names = [loader.construct_scalar(node)]
    elif isinstance(node, yaml.SequenceNode):
        *names, default = loader.construct_sequence(node)
    for name in names:
        if name in os.environ:
            return yaml.safe_load(os.environ[name])
    return default


_Loader.add_constructor("!ENV", _environment_value)


def read_config(path: str | os.PathLike[str]) -> dict[str, Any]:
    """The configuration in `path` as a dict."""
    found = yaml.load(Path(path).read_text(encoding="utf-8"), Loader=_Loader)
    return found if isinstance(found, dict) else {}
