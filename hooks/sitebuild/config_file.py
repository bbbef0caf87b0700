"""Reading mkdocs.yml outside a build, as MkDocs reads it: `!ENV` values resolved."""

from __future__ import annotations

import os
from pathlib import Path

import yaml


class _Loader(yaml.SafeLoader):
    pass


def _environment_value(loader: _Loader, node: yaml.Node):
    """`!ENV NAME` or `!ENV [NAME, OTHER, default]`: the first variable set, read as a
    YAML value (so that `true` is a boolean), else the default (or null)."""
    if isinstance(node, yaml.ScalarNode):
        names, default = [loader.construct_scalar(node)], None
    else:
        items = loader.construct_sequence(node)
        names, default = items[:-1], items[-1]
    for name in names:
        if name in os.environ:
            return yaml.safe_load(os.environ[name])
    return default


_Loader.add_constructor("!ENV", _environment_value)


def read_config(path: str | os.PathLike) -> dict:
    """The configuration in `path` as a dict."""
    return yaml.load(Path(path).read_text(encoding="utf-8"), Loader=_Loader) or {}
