"""YAML whose aliases repeat more than a little of it, found from its text alone.

PyYAML reads `&a [...]` once and makes every `*a` the same object, so that a file of a
few lines can hold a value of billions of items (`&b [*a, *a, ...]`, `&c [*b, *b, ...]`):
read at once, it stops the build whenever anything walks it, as the theme does a page's
title, or the settings' checks do. An alias within the value it names (`&a [*a]`) is a
value without end. Such text is found here from PyYAML's events, in time by its length,
before anything walks what it holds.
"""

from __future__ import annotations

import yaml

# How much the aliases of a text may repeat, in all: each alias counts the values and
# the characters of the value it names.
ALIASED_SIZE = 100_000


def alias_problem(text: str) -> tuple[int, str] | None:
    """The line (from 1) of the first alias of the YAML `text` past ALIASED_SIZE, or
    within the value it names, and what is wrong with it; None if there is none, or if
    `text` is no YAML (its reader says so)."""
    sizes: dict[str, int] = {}  # an anchor's value's size, once it is read
    open_values: list[tuple[str | None, int]] = []  # the collections being read: anchor, size so far
    repeated = 0
    try:
        for event in yaml.parse(text, Loader=yaml.SafeLoader):
            if isinstance(event, yaml.AliasEvent):
                line = event.start_mark.line + 1 if event.start_mark else 0
                if event.anchor in (anchor for anchor, _ in open_values):
                    return line, f"the alias *{event.anchor} is within the value it names, which would never end"
                size = sizes.get(event.anchor or "", 1)
                repeated += size
                if repeated > ALIASED_SIZE:
                    return line, (f"the aliases up to *{event.anchor} repeat more than {ALIASED_SIZE:,} values "
                                  "and characters: write the values out, or alias less")
                _add(open_values, size)
            elif isinstance(event, yaml.ScalarEvent):
                size = 1 + len(event.value)
                if event.anchor is not None:
                    sizes[event.anchor] = size
                _add(open_values, size)
            elif isinstance(event, yaml.CollectionStartEvent):
                open_values.append((event.anchor, 1))
            elif isinstance(event, yaml.CollectionEndEvent):
                anchor, size = open_values.pop()
                if anchor is not None:
                    sizes[anchor] = size
                _add(open_values, size)
    except yaml.YAMLError:
        return None
    return None


def _add(open_values: list[tuple[str | None, int]], size: int) -> None:
    """Counts a value of `size` into the collection that holds it."""
    if open_values:
        anchor, total = open_values[-1]
        open_values[-1] = (anchor, total + size)
