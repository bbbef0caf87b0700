"""JSON Lines logs, read one line at a time."""

from __future__ import annotations

import json
from collections.abc import Iterator

from .common import LogError, parse_json


def read_json_lines(file, path: str) -> Iterator[tuple[int, object]]:
    """Yield (line number, JSON value) for each line that is not blank.

    `file` is a binary file. Invalid UTF-8 and text that is not JSON stop the import:
    a log that breaks there may have lost anything after it.
    """
    for number, raw in enumerate(file, start=1):
        try:
            line = raw.decode("utf-8")
        except UnicodeDecodeError as error:
            raise LogError(path, number, f"not valid UTF-8 (byte {error.start + 1} of the line)") from None
        if not line.strip():
            continue
        try:
            yield number, parse_json(line, path, number)
        except json.JSONDecodeError as error:
            if not raw.endswith(b"\n"):
                # Only the last line can lack its line break: a log cut off while written.
                raise LogError(
                    path, number, f"the last line is cut off (truncated): {error.msg} (column {error.colno})"
                ) from None
            raise LogError(path, number, f"not valid JSON: {error.msg} (column {error.colno})") from None
