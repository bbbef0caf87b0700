"""JSON Lines logs, read one line at a time."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterator

from .common import LogError, parse_json

# The longest log line read, in bytes, without its line break. A record of a real log
# holds a message with its tool output, or images pasted as base64 text: a few MB at
# most. A line that goes on past this is not a record (a file of zeros, a dump with no
# line breaks); it is refused before more of it is read, so that memory stays bounded.
# JSON documents hold their records to the same size (json_stream.MAX_ELEMENT_CHARS).
MAX_LINE_BYTES = 64_000_000
# A long line is read in pieces of this size into one growing buffer: reading it in one
# call would hold its pieces and their joined copy, twice its size, at once.
_PIECE_BYTES = 1 << 20


def size_text(n: int) -> str:
    """A limit as a person reads it: "64 MB", or bytes for small ones."""
    return f"{n / 1_000_000:g} MB" if n >= 1_000_000 else f"{n:,} bytes"


def read_error(path: str, line: int, error: OSError) -> LogError:
    """The log could not be read (a failing disk, a file cut short under the reader)."""
    reason = error.strerror or (os.strerror(error.errno) if error.errno else "an error of the operating system")
    return LogError(path, line, f"cannot read the file: {reason}")


def number_error(path: str, line: int) -> LogError:
    """A number with more digits than Python turns into an integer."""
    return LogError(path, line, f"holds a number of more than {sys.get_int_max_str_digits():,} digits")


def _read_line(file, limit: int) -> bytes | bytearray:
    """The next line of `file` with its line break, or its first `limit` + 1 bytes."""
    piece = file.readline(min(limit + 1, _PIECE_BYTES))
    if len(piece) < _PIECE_BYTES or piece.endswith(b"\n"):
        return piece  # a whole line (or the end of the file): nearly every line
    line = bytearray(piece)
    while len(line) <= limit and not line.endswith(b"\n"):
        piece = file.readline(min(limit + 1 - len(line), _PIECE_BYTES))
        if not piece:
            break
        line += piece
    return line


def read_json_lines(file, path: str) -> Iterator[tuple[int, object]]:
    """Yield (line number, JSON value) for each line that is not blank.

    `file` is a binary file. Invalid UTF-8, text that is not JSON and a line longer
    than MAX_LINE_BYTES stop the import: a log that breaks there may have lost anything
    after it. Errors name the line and what is wrong with it, never its text.
    """
    number = 0
    while True:
        limit = MAX_LINE_BYTES  # read at each line, so that tests can set a small one
        number += 1
        try:
            raw = _read_line(file, limit)
        except OSError as error:
            raise read_error(path, number, error) from None
        if not raw:
            return
        if len(raw) > limit and not raw.endswith(b"\n"):
            # The rest of the line is not read: it may go on to the end of a huge file.
            raise LogError(path, number, f"the line is longer than {size_text(limit)}, the most a log line may be")
        ended = raw.endswith(b"\n")
        try:
            line = raw.decode("utf-8")
        except UnicodeDecodeError as error:
            if not ended and error.end == len(raw):  # a character cut in two, where the file ends
                raise LogError(path, number, "the last line is cut off (truncated) in the middle of a character") \
                    from None
            raise LogError(path, number, f"not valid UTF-8 (byte {error.start + 1} of the line)") from None
        del raw  # a long line is held once as text, not also as bytes, while it is parsed

        if number == 1:
            line = line.removeprefix("\ufeff")  # a byte order mark, as some editors save a file
        if not line.strip():
            continue
        try:
            value = parse_json(line, path, number)
        except json.JSONDecodeError as error:
            if number == 1 and not ended and "\r" in line.rstrip("\r"):
                raise LogError(path, number, "the lines end in a carriage return alone, not a line feed: convert "
                                             "the file's line ends (as dos2unix -c mac does)") from None
            if not ended:
                # Only the last line can lack its line break: a log cut off while written.
                raise LogError(
                    path, number, f"the last line is cut off (truncated): {error.msg} (column {error.colno})"
                ) from None
            raise LogError(path, number, f"not valid JSON: {error.msg} (column {error.colno})") from None
        except ValueError:  # an integer past Python's limit on the digits of one number
            raise number_error(path, number) from None
        yield number, value
