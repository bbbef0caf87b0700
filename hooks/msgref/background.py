"""Work done by a forked child process on another core while the caller goes on.

A build spends a tenth of a second or more between loading the transcript and first
needing it (reading the theme, listing the pages). Parsing and checking a transcript of
tens of megabytes takes about as long, so the two can overlap.

Only where forking is safe: on Linux, with no other thread running (a thread holding
a lock at the fork would leave the child's copy of it locked forever). Elsewhere the
work is done at once, in the caller's process.
"""

from __future__ import annotations

import os
import pickle
import sys
import threading
from collections.abc import Callable
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
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:
        _run_child(work, expected, read_end, write_end)  # never returns
    os.close(write_end)

    def wait() -> Result:
        with open(read_end, "rb") as pipe:
            data = pipe.read()
        _, status = os.waitpid(pid, 0)
        if status != 0 or not data:
            return work()
        failed, value = pickle.loads(data)
        if failed:
            raise expected(value)
        return value

    return wait


def _run_child(work, expected, read_end: int, write_end: int) -> None:
    status = 1
    try:
        os.close(read_end)
        try:
            message = (False, work())
        except expected as error:
            message = (True, str(error))
        with open(write_end, "wb") as pipe:
            pickle.dump(message, pipe, protocol=pickle.HIGHEST_PROTOCOL)
        status = 0
    finally:
        # Leave at once: no exit handlers, no flushing of buffers copied from the parent.
        os._exit(status)
