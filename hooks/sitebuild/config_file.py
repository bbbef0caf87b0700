"""Reading mkdocs.yml outside a build, as MkDocs reads it: `!ENV` values resolved; and,
in a build too, refusing one whose aliases repeat too much (`yaml_aliases`)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import yaml

from .settings import SettingsError
from .yaml_aliases import alias_problem


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


def _integer(loader: _Loader, node: yaml.Node) -> Any:
    """A YAML integer; one of more digits than Python reads (4,300) is a problem on its
    line, not a ValueError from within the reader."""
    try:
        return loader.construct_yaml_int(node)  # type: ignore[arg-type]  # the stubs want a ScalarNode, which an int is
    except ValueError:
        raise yaml.constructor.ConstructorError(None, None, "a number of more digits than can be read",
                                                node.start_mark) from None


_Loader.add_constructor("!ENV", _environment_value)
_Loader.add_constructor("tag:yaml.org,2002:int", _integer)


def read_config(path: str | os.PathLike[str]) -> dict[str, Any]:
    """The configuration in `path` as a dict."""
    text = Path(path).read_text(encoding="utf-8")
    check_aliases(text, Path(path).name)
    found = yaml.load(text, Loader=_Loader)
    return found if isinstance(found, dict) else {}


def check_aliases(text: str, name: str) -> None:
    """Refuses, naming the file `name` and the line, a configuration whose aliases repeat
    too much to be walked, or never end. MkDocs has read it by then, into values each
    alias shares, but the settings' checks walk every copy."""
    if aliased := alias_problem(text):
        raise SettingsError(f"{name}:{aliased[0]}: {aliased[1]}")
