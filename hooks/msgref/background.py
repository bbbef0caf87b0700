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
    return start_stages(lambda: iter([work()]), 1, expected)


def start_stages(work: Callable[[], Iterator[Result]], count: int, expected: type[Exception],
                 in_child: bool = True) -> Callable[[], Result]:
    """Begin `work`, which yields `count` results in stages; each call of the function
    returned waits for the next one. Failures are handled as `start` handles them.
    Without a child (`in_child` false, or no fork possible) each stage is worked out
    when it is asked for.

    The child writes each result to a file and says on a pipe where it is: a pipe holds
    only 64 KB, and a child writing a larger result into one would wait for this
    process to read it, rather than go on to the next stage."""
    if not (in_child and can_fork()):
        stages = work()
        return lambda: next(stages)
    spool = tempfile.TemporaryFile()
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:
        _run_child(work, expected, read_end, write_end, spool.fileno())  # never returns
    os.close(write_end)
    pipe = open(read_end, "rb")
    received = 0
    redone: Iterator[Result] | None = None

    def finish() -> None:
        pipe.close()
        spool.close()
        os.waitpid(pid, 0)

    def next_stage() -> Result:
        nonlocal received, redone
        if redone is None:
            try:
                start, length = _PLACE.unpack(pipe.read(_PLACE.size))
                failed, value = pickle.loads(os.pread(spool.fileno(), length, start))
            except Exception:  # the child died, or wrote what cannot be read
                redone = _skipped(work(), received)
                finish()
            else:
                received += 1
                if failed or received == count:
                    finish()
                if failed:
                    raise expected(value)
                return value
        return next(redone)

    return next_stage


_PLACE = struct.Struct("QQ")  # where a result is in the spool file: its first byte, its length


def _skipped(stages: Iterator[Result], count: int) -> Iterator[Result]:
    """The stages after the first `count`, worked out again in this process."""
    for _ in range(count):
        next(stages)
    return stages


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
                send((False, value))
        except expected as error:
            send((True, str(error)))
        status = 0
    finally:
        # Leave at once: no exit handlers, no flushing of buffers copied from the parent.
        os._exit(status)
