"""Writing a file so that it is whole or not there: under a temporary name beside it,
renamed into place only once complete."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def replaced_when_done(path: str | os.PathLike) -> Iterator[str]:
    """A temporary path beside `path` to write; when the block ends without an error it
    is renamed to `path`, replacing what was there, and otherwise removed. OSError
    tells why the temporary file could not be made or renamed."""
    folder = os.path.dirname(os.path.abspath(path))
    handle, temporary = tempfile.mkstemp(dir=folder, prefix=f".{os.path.basename(path)}.", suffix=".part")
    os.close(handle)
    try:
        yield temporary
        # mkstemp makes the file readable by its owner only; give it the usual mode.
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(temporary, 0o666 & ~umask)
        os.replace(temporary, path)
    finally:
        if os.path.exists(temporary):
            os.unlink(temporary)
