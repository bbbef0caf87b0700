"""The site's folder, held by one build at a time, and found writable before a build empties it.

Two builds into one folder (a build started while `mkdocs serve` or another build
writes there) would empty the folder under each other, and one would stop at a file
the other removed. A build therefore takes an exclusive lock on the folder itself
before the generator empties it, and lets go once the site is written: the second
build waits for the first, and both end with the site whole. The lock is on the
folder rather than on a file in it, which emptying the folder would remove.
"""

from __future__ import annotations

import errno
import os
import tempfile
from collections.abc import Callable

try:
    import fcntl
except ImportError:  # not on Windows: builds there are not kept apart
    fcntl = None  # type: ignore[assignment]  # the module's name stands for "no locks here"

from .site_pages import PageError


def holds_a_source(site_dir: str, sources: list[str], code_folders: list[str]) -> str | None:
    """Why the build may not write the site into `site_dir`: it is, or holds, one of the
    project's `sources` (its configuration, the transcript) or `code_folders` (its hooks'
    folders, with the modules they import), or lies inside one of those folders: the
    generator's emptying of the folder before a build would delete them. None if not."""
    folder = os.path.realpath(site_dir)

    def within(path: str, outer: str) -> bool:
        return path == outer or path.startswith(outer + os.sep)

    for source in [*sources, *code_folders]:
        if within(os.path.realpath(source), folder):
            return f"{site_dir}: the site's folder holds {source}, which a build empties first: choose another folder"
    for code in code_folders:
        if within(folder, os.path.realpath(code)):
            return f"{site_dir}: the site's folder is in {code}, the hooks' code: choose another folder"
    return None


def remove_links(site_dir: str) -> None:
    """Remove the symbolic links at the top of `site_dir`, not what they lead to. The
    generator empties the folder before a build, but leaves a link to a folder in place
    (it cannot remove it as a folder) and would then write the site through it, into
    the folder it leads to, anywhere on the disk."""
    try:
        entries = list(os.scandir(site_dir))
    except OSError:
        return  # no folder yet, or none to read: nothing to remove
    for entry in entries:
        if entry.is_symlink():
            try:
                os.unlink(entry.path)
            except OSError as error:
                raise PageError(f"{entry.path}: a link in the site's folder cannot be removed: "
                                f"{error.strerror}") from None


class SiteFolder:
    """The lock on one site folder, while a build holds it."""

    def __init__(self) -> None:
        self._held: int | None = None  # the folder's file descriptor, while locked

    def take(self, site_dir: str, on_wait: Callable[[], None]) -> None:
        """Hold `site_dir` (made if missing) for this build; `on_wait()` is called first
        if another build holds it, and this one then waits. PageError if the folder
        cannot be made or written."""
        self.release()
        try:
            os.makedirs(site_dir, exist_ok=True)
            descriptor = os.open(site_dir, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
        except OSError as error:
            raise PageError(f"{site_dir}: the site's folder cannot be made: {error.strerror}") from None
        self._held = descriptor
        if fcntl is not None:
            try:
                fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                on_wait()
                fcntl.flock(descriptor, fcntl.LOCK_EX)
        try:
            _check_writable(site_dir)
        except PageError:
            self.release()
            raise

    def release(self) -> None:
        """Let go of the folder, if held: closing it ends the lock."""
        if self._held is not None:
            os.close(self._held)
            self._held = None


def _check_writable(site_dir: str) -> None:
    """PageError if no file can be written in `site_dir` (a read-only or full disk):
    found here, it is one line, rather than the generator's error at its first page."""
    try:
        with tempfile.TemporaryFile(dir=site_dir) as probe:
            probe.write(b"\n" * 4096)
            probe.flush()
            os.fsync(probe.fileno())
    except OSError as error:
        raise PageError(f"{site_dir}: the site's folder cannot be written: {error.strerror}") from None


# Errors of a disk or its permissions, rather than of the build: full, read-only, refused,
# or a path longer than the file system holds.
_OUTPUT_ERRNOS = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EROFS, errno.EACCES, errno.EPERM,
                            errno.EIO, errno.ENAMETOOLONG})


def output_problem(error: BaseException) -> str | None:
    """One line for an error of writing the site's files (a disk filled or made read-only
    while the build writes), naming the file; None for any other error."""
    if not isinstance(error, OSError) or error.errno not in _OUTPUT_ERRNOS:
        return None
    return f"{error.filename2 or error.filename or 'the site'}: cannot be written: {error.strerror}"  # 2: a copy's


SITE_FOLDER = SiteFolder()  # the one a build in this process holds
