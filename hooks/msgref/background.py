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
import sys
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
    when it is asked for."""
    if not (in_child and can_fork()):
        stages = work()
        return lambda: next(stages)
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:
        _run_child(work, expected, read_end, write_end)  # never returns
    os.close(write_end)
    pipe = open(read_end, "rb")
    received = 0
    redone: Iterator[Result] | None = None

    def next_stage() -> Result:
        nonlocal received, redone
        if redone is None:
            try:
                failed, value = pickle.load(pipe)
            except Exception:  # the child died or sent what cannot be read
                redone = _skipped(work(), received)
                _finish(pipe, pid)
            else:
                received += 1
                if failed or received == count:
                    _finish(pipe, pid)
                if failed:
                    raise expected(value)
                return value
        return next(redone)

    return next_stage


def _skipped(stages: Iterator[Result], count: int) -> Iterator[Result]:
    """The stages after the first `count`, worked out again in this process."""
    for _ in range(count):
        next(stages)
    return stages


def _finish(pipe, pid: int) -> None:
    pipe.close()
    os.waitpid(pid, 0)


def _run_child(work, expected, read_end: int, write_end: int) -> None:
    status = 1
    try:
        os.close(read_end)
        with open(write_end, "wb") as pipe:
            try:
                for value in work():
                    pickle.dump((False, value), pipe, protocol=pickle.HIGHEST_PROTOCOL)
                    pipe.flush()
            except expected as error:
                pickle.dump((True, str(error)), pipe, protocol=pickle.HIGHEST_PROTOCOL)
        status = 0
    finally:
        # Leave at once: no exit handlers, no flushing of buffers copied from the parent.
        os._exit(status)
