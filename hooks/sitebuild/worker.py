"""Things made by their index, in a worker process beside the build where that is safe.

For a whole session, making the transcript's pages is most of a build's work, and none
of it waits on the rest of the build. So a worker process on another core makes them,
in order from the first, while the build converts and writes the essay's pages. The
build takes each from the worker when it needs it. One the worker is making, it waits
for, once it has made the next itself meanwhile; one the worker has not come to, it
makes itself. Each thing the build makes itself is marked in a byte of memory the two
processes share, and the worker passes it (unless it had begun it: then it is made
twice, the same).

The worker is one `multiprocessing` process, forked: it inherits everything the work is
made from. It writes each thing it makes, pickled, to the end of a temporary file the
two processes share, then sends through a pipe where the thing ends, a few bytes: the
things themselves would fill the pipe, which holds 64 KB, and the worker would wait for
the build to read them. The file has no name: it is gone once both processes have let
go of it, however they end.

The worker ends after the last thing, or once the pipe is closed, which it finds as it
sends where the next thing ends: `close` closes it, then waits for the worker; the
system closes it when the build's process ends, however it ends. And the worker is a
daemon, which Python ends as the process that started it exits: a build that fails, or
that Ctrl-C stops, leaves no worker behind. Forking is safe only where no other thread
runs (a thread holding a lock at the fork would leave the worker's copy of it locked
forever): so on Linux, with this thread alone. Everywhere else, and where no process can
be forked, everything is made here, by the same code.
"""

from __future__ import annotations

import contextlib
import mmap
import multiprocessing
import os
import pickle
import sys
import tempfile
import threading
from collections.abc import Callable
from multiprocessing.connection import Connection
from typing import IO, Any, Generic, TypeVar, cast

Made = TypeVar("Made")


def can_fork() -> bool:
    """Whether this is Linux, and the main thread runs alone."""
    alone = threading.active_count() == 1 and threading.current_thread() is threading.main_thread()
    return sys.platform.startswith("linux") and alone


class MadeByIndex(Generic[Made]):
    """`make(index)` for each index below `count`, each made once: by a worker process if
    `in_worker` and forking is safe, else in this process when first asked for. `close`
    ends the worker, once nothing more is asked for of it: what is asked for after that
    is made here."""

    def __init__(self, make: Callable[[int], Made], count: int, in_worker: bool):
        self._make, self._count = make, count
        self._made: dict[int, Made] = {}
        self._worker: _Worker | None = None
        if in_worker and count > 0 and can_fork():
            # Unless no file or no process can be made (a full disk, too many processes).
            with contextlib.suppress(OSError):
                self._worker = _Worker(make, count)

    @property
    def in_worker(self) -> bool:
        """Whether a worker process makes them (until `close`)."""
        return self._worker is not None

    def __getitem__(self, index: int) -> Made:
        if index not in self._made:
            self._made[index] = self._from_worker(index)
        return self._made[index]

    def replace(self, index: int, made: Made) -> None:
        """Keep `made` for `index`, made already, instead: a lighter copy of it."""
        if index not in self._made:
            raise KeyError(index)
        self._made[index] = made

    def close(self) -> None:
        """End the worker, if there is one, once it has made the thing it is making."""
        worker, self._worker = self._worker, None
        if worker is not None:
            worker.end()

    def _from_worker(self, index: int) -> Made:
        """What the worker made for `index`, if it has made it or is making it; else made
        here. While the worker makes it, this process makes the next one, if nobody has."""
        worker = self._worker
        if worker is None:
            return self._make(index)
        if worker.is_making(index) and index + 1 < self._count and index + 1 not in self._made:
            worker.made_here(index + 1)
            self._made[index + 1] = self._make(index + 1)
        try:
            return cast(Made, worker.made(index))
        except LookupError:
            worker.made_here(index)
            return self._make(index)


class _Worker:
    """The worker process, the file it writes to, the pipe it tells where each thing ends
    and a byte for each thing, which this process sets for those it makes itself."""

    def __init__(self, make: Callable[[int], Any], count: int):
        self._file = tempfile.TemporaryFile(prefix="site-worker-")  # noqa: SIM115  # closed by `end`
        self._ends: list[int] = []  # where each thing the worker made (or passed) ends in the file, in order
        self._sent_all = False  # the pipe has ended: the worker made them all, or died
        self._made_here = mmap.mmap(-1, count)  # shared with the worker, as it is forked
        self._pipe, sending = multiprocessing.Pipe(duplex=False)
        try:
            self._process = multiprocessing.get_context("fork").Process(
                target=_make_all, args=(make, self._made_here, self._file, self._pipe, sending), daemon=True)
            self._process.start()
        except OSError:
            self._pipe.close()
            self._file.close()
            raise
        finally:
            sending.close()  # the worker's alone: the pipe ends when the worker does

    def is_making(self, index: int) -> bool:
        """Whether the worker is making `index` now."""
        self._receive(wait=False)
        return index == len(self._ends) and not self._sent_all

    def made_here(self, index: int) -> None:
        """`index` is made by this process: the worker passes it, unless it has begun it
        already (it is then made twice, the same)."""
        self._made_here[index] = 1

    def made(self, index: int) -> Any:
        """What the worker made for `index`, once it has, if it has made it or is making it
        now; LookupError if it has not begun it, or ended before it was done."""
        self._receive(wait=False)
        while index == len(self._ends) and not self._sent_all:
            self._receive(wait=True)
        if index >= len(self._ends):
            raise LookupError(index)
        start = self._ends[index - 1] if index else 0
        data = os.pread(self._file.fileno(), self._ends[index] - start, start)
        return pickle.loads(data)

    def end(self) -> None:
        self._pipe.close()  # the worker learns it as it sends where the thing it is making ends
        self._process.join()
        self._file.close()
        self._made_here.close()

    def _receive(self, wait: bool) -> None:
        """Where the things the worker has made since the last call end; the first waited
        for if `wait`."""
        try:
            while not self._sent_all and (wait or self._pipe.poll()):
                self._ends.append(self._pipe.recv())
                wait = False
        except EOFError:
            self._sent_all = True


def _make_all(make: Callable[[int], Any], made_here: mmap.mmap, file: IO[bytes], build_side: Connection,
              pipe: Connection) -> None:
    """The worker: each thing in order that the build does not make, written to `file`,
    and where it ends sent (for one the build makes, where the one before ends)."""
    build_side.close()  # closed here, the pipe breaks once the build closes its end
    try:
        for index in range(len(made_here)):
            if not made_here[index]:
                pickle.dump(make(index), file, protocol=pickle.HIGHEST_PROTOCOL)
                file.flush()
            pipe.send(file.tell())
    except (Exception, KeyboardInterrupt):
        # The build is done with it, or gone (the pipe broke); Ctrl-C in a terminal reached
        # the worker too; or a thing could not be made: the build makes it, and meets the
        # same error.
        pass
