"""Work done by a forked child process on another core while the caller goes on.

A build spends a tenth of a second or more between loading the transcript and first
needing it (reading the theme, listing the pages). Parsing and checking a transcript of
tens of megabytes takes about as long, so the two can overlap; and rendering the pages
of a whole session overlaps with converting and writing the essay's pages.

Only where forking is safe: on Linux, with no other thread running (a thread holding
a lock at the fork would leave the child's copy of it locked forever). Elsewhere the
work is done in the caller's process.
"""

from __future__ import annotations

import os
import pickle
import select
import struct
import sys
import tempfile
import threading
from collections.abc import Callable, Iterator
from typing import TypeVar

Result = TypeVar("Result")


def can_fork() -> bool:
    return sys.platform.startswith("linux") and threading.active_count() == 1


def start(work: Callable[[], Result], expected: type[Exception]) -> Callable[[], Result]:
    """Begin `work`; the function returned waits for its result, and must be called.

    An `expected` exception raised by the work in the child is raised again by the
    waiting function, with the same message. If the child fails in any other way
    (killed, or a result that cannot be pickled), the work is done again in this
    process, which then fails or succeeds as it would have without a child. Where no
    child is used, the work is done at once and its exceptions raised from here.
    """
    if not can_fork():
        result = work()
        return lambda: result
    stages = Stages(lambda: iter([work()]), expected)

    def wait() -> Result:
        try:
            return stages()
        except StopIteration:  # the child failed
            return work()

    return wait


class Stages:
    """Work that yields its results in stages, begun in a child process; each call waits
    for the next result, and raises StopIteration after the last one.

    An `expected` exception raised by the work in the child is raised again here, with
    the same message. If the child fails in any other way, its results end early: what
    it did not send is left to this process. Without a child (`in_child` false, or no
    fork possible), each stage is worked out when it is asked for.

    The child writes each result to a file and says on a pipe where it is: a pipe holds
    only 64 KB, and a child writing a larger result into one would wait for this
    process to read it, rather than go on to the next stage.
    """

    def __init__(self, work: Callable[[], Iterator[Result]], expected: type[Exception], in_child: bool = True):
        self._expected = expected
        self._pid = None
        if not (in_child and can_fork()):
            self._stages = work()
            return
        self._spool = tempfile.TemporaryFile()
        read_end, write_end = os.pipe()
        self._pid = os.fork()
        if self._pid == 0:
            _run_child(work, expected, read_end, write_end, self._spool.fileno())  # never returns
        os.close(write_end)
        self._pipe = read_end

    @property
    def in_child(self) -> bool:
        return self._pid is not None

    def ready(self) -> bool:
        """Whether the next result, or the news that there is none, is there without waiting."""
        return not self.in_child or self._pipe is None or bool(select.select([self._pipe], [], [], 0)[0])

    def __call__(self) -> Result:
        if not self.in_child:
            return next(self._stages)
        if self._pipe is None:
            raise StopIteration
        try:
            start, length = _PLACE.unpack(_read_exactly(self._pipe, _PLACE.size))
            kind, value = pickle.loads(os.pread(self._spool.fileno(), length, start))
        except Exception:  # the child died, or wrote what cannot be read
            kind, value = _END, None
        if kind == _RESULT:
            return value
        self._finish()
        if kind == _FAILED:
            raise self._expected(value)
        raise StopIteration

    def _finish(self) -> None:
        os.close(self._pipe)
        self._pipe = None
        self._spool.close()
        os.waitpid(self._pid, 0)


_RESULT, _FAILED, _END = range(3)
_PLACE = struct.Struct("QQ")  # where a message is in the spool file: its first byte, its length


def _read_exactly(fd: int, size: int) -> bytes:
    data = b""
    while len(data) < size:
        chunk = os.read(fd, size - len(data))
        if not chunk:
            raise EOFError("the child closed its pipe")
        data += chunk
    return data


def _run_child(work, expected, read_end: int, write_end: int, spool: int) -> None:
    status = 1
    try:
        os.close(read_end)
        written = 0

        def send(message) -> None:
            nonlocal written
            data = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
            os.pwrite(spool, data, written)
            os.write(write_end, _PLACE.pack(written, len(data)))
            written += len(data)

        try:
            for value in work():
                send((_RESULT, value))
        except expected as error:
            send((_FAILED, str(error)))
        else:
            send((_END, None))
        status = 0
    finally:
        # Leave at once: no exit handlers, no flushing of buffers copied from the parent.
        os._exit(status)
