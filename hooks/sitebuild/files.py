"""The site's files: one written so that it is whole or not there (under a temporary
name beside it, renamed into place only once complete), and the links among its sources
that lead out of the project."""

from __future__ import annotations

import errno
import os
import stat
import tempfile
from collections.abc import Iterable, Iterator
from contextlib import contextmanager

from msgref.transcript import file_kind

from .site_pages import PageError


@contextmanager
def replaced_when_done(path: str | os.PathLike[str]) -> Iterator[str]:
    """A temporary path beside `path` to write; when the block ends without an error it
    is renamed to `path`, replacing what was there, and otherwise removed. OSError
    tells why the temporary file could not be made or renamed.

    Only a regular file is ever replaced. A symbolic link stays, and the file it points
    to is replaced; a device or a named pipe (`/dev/null`, `/dev/stdout`) is the path
    given back, to be written directly; a folder or anything else is refused with OSError.
    """
    path = os.path.realpath(path)
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        mode = None
    if mode is not None and (stat.S_ISCHR(mode) or stat.S_ISFIFO(mode)):
        yield path
        return
    if mode is not None and not stat.S_ISREG(mode):
        code = errno.EISDIR if stat.S_ISDIR(mode) else errno.EPERM
        raise OSError(code, f"{file_kind(mode)}, which is never replaced", path)
    folder = os.path.dirname(path)
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


def check_links(paths: Iterable[str], project_dir: str) -> None:
    """PageError naming the first of the site's source files `paths` that a symbolic link
    (to it, or to a folder above it) leads out of the project, or to nothing. A generator
    publishes what a link leads to: a link to a file outside the project, made by mistake
    or by someone else, would publish that file. The build stops rather than leaving the
    file out with a warning: a build that is not strict, as `mkdocs serve` is, would go on
    without it."""
    project = os.path.realpath(project_dir)
    for path in paths:
        target = os.path.realpath(path)
        if target == path or (target.startswith(project + os.sep) and os.path.exists(target)):
            continue  # no link on the way, or one within the project
        name = os.path.relpath(path, project_dir)
        if not os.path.exists(target):
            raise PageError(f"{name}: a symbolic link to {target}, which does not exist")
        raise PageError(f"{name}: a symbolic link to {target}, outside the project folder: copy the file in instead")
