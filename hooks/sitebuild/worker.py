"""Things made by their index, in a worker process beside the build where that is safe.

For a whole session, making the transcript's pages is most of a build's work, and none
of it waits on the rest of the build. So a worker process on another core makes them,
from the first on, while the build converts and writes the essay's pages. The build
takes each when it needs it: one the worker has not begun it takes back and makes itself,
and rather than wait for one the worker is making, it makes the last ones the worker has
not begun. It holds a few of those until asked for, and sets the others aside in the
worker's folder: all held here, the last half of a whole session would be in memory at
once. A call the pool has not passed to the worker is taken back by cancelling its
future; the one it has passed on, beyond the call the worker is making, by claiming its
index first: each side claims an index by making a file of that name in the folder,
which only one of them can make.

The worker is a `concurrent.futures.ProcessPoolExecutor` of one process, started by
forking: it inherits everything the work is made from. It writes each thing it makes to
a file of a temporary folder rather than send it back through the pool's pipe, which
holds 64 KB: there, the worker would wait, thing after thing, for this process to read
it. Forking is safe only where no other thread runs (a thread holding a lock at the fork
would leave the worker's copy of it locked forever): so on Linux, with this thread alone.
Everywhere else, and where no process can be forked, everything is made here, by the
same code: each future is then one that nobody runs, and taking it back always succeeds.

The worker and its folder are gone once `close` returns (it waits for the worker), once
a failed build has called `end_workers` (which closes it), and once SIGINT or SIGTERM has
stopped the build: until the worker is gone, either signal first kills it, waits for it
and removes the folder, then does what it would have done without a worker.
"""

from __future__ import annotations

import multiprocessing
import os
import pickle
import shutil
import signal
import sys
import tempfile
import threading
from collections.abc import Callable, Iterable
from concurrent.futures import Future, InvalidStateError, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from types import FrameType
from typing import Any, Generic, TypeVar, cast

Made = TypeVar("Made")
Arg = TypeVar("Arg")
_STOPPING_SIGNALS = (signal.SIGINT, signal.SIGTERM)


def can_fork() -> bool:
    """Whether this is Linux, and the main thread runs alone (only it can handle signals)."""
    alone = threading.active_count() == 1 and threading.current_thread() is threading.main_thread()
    return sys.platform.startswith("linux") and alone


def end_workers() -> None:
    """End every worker of this process still running: for a build that failed, and whose
    generator tells which build failed no more than that one did. What a worker has not
    begun is dropped, and what it is making is waited for: a worker killed instead would
    leave the pool's own thread to fail over the futures the build took back (Python 3.11
    sets an error on each, cancelled ones too, and prints that thread's traceback)."""
    for made in list(_RUNNING):
        made.close()


class MadeByIndex(Generic[Made]):
    """`make(index)` for each index below `count`, each made once, in a worker process if
    `in_worker` and forking is safe, else in this process when first asked for.

    `close` must be called once nothing more is asked for, or `end` if the build failed:
    either ends the worker. What is asked for after that is made here. Of what this
    process makes ahead, while the worker makes what is asked for, up to `held_ahead`
    things at once are held in memory rather than set aside in the worker's folder.
    """

    def __init__(self, make: Callable[[int], Made], count: int, in_worker: bool, held_ahead: int = 4):
        self._make = make
        self._made: dict[int, Made] = {}
        # Made here while the worker had another, not asked for yet: held, or set aside.
        self._ahead: set[int] = set()
        self._aside: set[int] = set()
        self._held_ahead = held_ahead
        self._worker: _Worker | _NoWorker = _NoWorker()
        self._signals: dict[int, Any] = {}  # the handlers the worker's own replaced
        self._futures: list[Future[Any]] = [Future() for _ in range(count)]
        if in_worker and count > 0 and can_fork():
            self._start(make, count)

    @property
    def in_worker(self) -> bool:
        """Whether a worker process makes them (until `close` or `end`)."""
        return isinstance(self._worker, _Worker)

    @property
    def scratch_folder(self) -> str | None:
        """A folder of the worker's, for other files this process and the worker share,
        until `close` or `end`; None if there is no worker."""
        return self._worker.folder if isinstance(self._worker, _Worker) else None

    def run_in_worker(self, job: Callable[[Arg], object], arg: Arg) -> Future[Any] | None:
        """`job(arg)` in the worker, after what it was passed; None if there is no worker,
        or it has died (it is for the caller to do). `arg` goes to the worker pickled."""
        return self._worker.run(job, arg) if isinstance(self._worker, _Worker) else None

    def __getitem__(self, index: int) -> Made:
        self._ahead.discard(index)
        while index not in self._made:
            if index in self._aside:
                self._aside.discard(index)
                self._made[index] = self._taken_back(index)
            else:
                self._step(index)
        return self._made[index]

    def replace(self, index: int, made: Made) -> None:
        """Keep `made` for `index`, made already, instead: a lighter copy of it."""
        if index not in self._made:
            raise KeyError(index)
        self._made[index] = made

    def close(self) -> None:
        """End the worker, if there is one, once it has made what it has been passed;
        what was set aside in its folder is held here from then on."""
        try:
            for index in sorted(self._aside):
                self._made[index] = self._taken_back(index)
            self._aside.clear()
            self._worker.shutdown()
        finally:
            self._let_go()

    def end(self) -> None:
        """Kill the worker, if there is one, at once."""
        try:
            self._worker.kill()
        finally:
            self._let_go()

    def _start(self, make: Callable[[int], Made], count: int) -> None:
        _RUNNING.add(self)
        self._signals = {signum: signal.signal(signum, self._stop) for signum in _STOPPING_SIGNALS
                         if signal.getsignal(signum) is not signal.SIG_IGN}
        # Until the worker is known, to be killed, a signal waits; the worker lets its own through.
        held = set(self._signals)
        signal.pthread_sigmask(signal.SIG_BLOCK, held)
        try:
            self._worker = _Worker(make, held)
            self._futures = self._worker.submit_all(count)
        except OSError:  # no folder or no process could be made (a full disk, too many processes)
            self.end()
            self._futures = [Future() for _ in range(count)]
        finally:
            signal.pthread_sigmask(signal.SIG_UNBLOCK, held)

    def _taken_from_worker(self, index: int) -> bool:
        """Whether `index` is taken from the worker, to be made here: it had not begun it."""
        future = self._futures[index]
        return future.cancel() or (not future.done() and self._worker.claim(index))

    def _set_aside(self, index: int, made: Made) -> bool:
        """Whether `made` is set aside in the worker's folder: not on a full disk."""
        try:
            self._worker.set_aside(index, made)
        except OSError:
            return False
        self._aside.add(index)
        return True

    def _taken_back(self, index: int) -> Made:
        """What was set aside for `index`; made again if the worker's folder is gone."""
        try:
            return cast(Made, self._worker.taken_back(index))
        except OSError:
            return self._make(index)

    def _let_go(self) -> None:
        """Once the worker is gone: what comes after is made here, and the signals are
        handled as before."""
        self._worker = _NoWorker()
        _RUNNING.discard(self)
        for signum, handler in self._signals.items():
            signal.signal(signum, signal.SIG_DFL if handler is None else handler)  # None: not set from Python
        self._signals = {}

    def _step(self, wanted: int) -> None:
        """Take `wanted` back and make it here, or else, while the worker makes it, make the
        last one it has not begun; or wait for it."""
        future = self._futures[wanted]
        if self._taken_from_worker(wanted):
            self._made[wanted] = self._make(wanted)
            return
        if not future.done():
            for index in range(len(self._futures) - 1, wanted, -1):
                if index not in self._made and index not in self._aside and self._taken_from_worker(index):
                    made = self._make(index)
                    if len(self._ahead) < self._held_ahead or not self._set_aside(index, made):
                        self._made[index] = made
                        self._ahead.add(index)
                    return
        try:
            self._made[wanted] = cast(Made, self._worker.result(future, wanted))
        except (BrokenProcessPool, OSError):  # the worker died, or could not pass it on: made here
            self._made[wanted] = self._make(wanted)

    def _stop(self, signum: int, frame: FrameType | None) -> None:
        """SIGINT or SIGTERM: the worker is killed and waited for, without waiting on the
        pool, whose locks this thread may hold where the signal interrupted it. A second
        signal meanwhile does the same again, and finds the worker gone."""
        previous = self._signals.get(signum)
        self.end()
        if callable(previous):
            previous(signum, frame)
        elif previous in (signal.SIG_DFL, None):
            os.kill(os.getpid(), signum)  # its default action, now that the worker is gone


# The instances whose worker runs: a build ends its own, or `end_workers` does.
_RUNNING: set[MadeByIndex[Any]] = set()


def _quiet_about_taken_back(args: threading.ExceptHookArgs) -> None:
    """The pool's own thread, once the worker is gone (killed by the build on a signal,
    or by anyone), sets an error on every future it was given, those the build took back
    (cancelled) too: Python 3.11 then raises InvalidStateError in that thread and prints
    its traceback, over futures that nobody waits for. That one error is not printed."""
    if isinstance(args.exc_value, InvalidStateError) and type(args.thread).__name__ == "_ExecutorManagerThread":
        return
    _other_threads_hook(args)


_other_threads_hook = threading.excepthook  # the hook in place before, for every other error


def _install_quiet_hook() -> None:
    global _other_threads_hook
    if threading.excepthook is not _quiet_about_taken_back:
        _other_threads_hook = threading.excepthook
        threading.excepthook = _quiet_about_taken_back


class _Worker:
    """One process, forked at the first submit, and the folder it writes what it makes to.
    `held` are the signals the build holds while it forks: the worker lets them through."""

    def __init__(self, make: Callable[[int], Any], held: Iterable[int]):
        _install_quiet_hook()
        self.folder = tempfile.mkdtemp(prefix="site-worker-")
        self._pool = ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("fork"),
                                         initializer=_start_worker, initargs=(make, self.folder, set(held)))
        self._processes: list[multiprocessing.process.BaseProcess] = []

    def submit_all(self, count: int) -> list[Future[Any]]:
        before = set(multiprocessing.active_children())
        futures = [self._submit(0)]  # forks the worker: the process that was not there before
        self._processes = [process for process in multiprocessing.active_children() if process not in before]
        return futures + [self._submit(index) for index in range(1, count)]

    def result(self, future: Future[Any], index: int) -> Any:
        """What the worker made for `future`, once it has. BrokenProcessPool if it died."""
        future.result()
        path = os.path.join(self.folder, str(index))
        with open(path, "rb") as file:
            made = pickle.load(file)
        os.unlink(path)
        return made

    def claim(self, index: int) -> bool:
        """Whether the build claims `index` before the worker begins it (see `claimed`)."""
        try:
            return claimed(self.folder, str(index))
        except OSError:  # the folder is gone: what the worker made for it is asked for, and made here
            return False

    def set_aside(self, index: int, made: Any) -> None:
        """Keep `made`, made by the build for `index`, in the folder until `taken_back`."""
        with open(os.path.join(self.folder, f"aside-{index}"), "wb") as file:
            pickle.dump(made, file, protocol=pickle.HIGHEST_PROTOCOL)

    def taken_back(self, index: int) -> Any:
        """What was set aside for `index`, removed from the folder."""
        path = os.path.join(self.folder, f"aside-{index}")
        with open(path, "rb") as file:
            made = pickle.load(file)
        os.unlink(path)
        return made

    def shutdown(self) -> None:
        try:
            self._pool.shutdown(wait=True, cancel_futures=True)
        finally:
            self._remove_folder()

    def kill(self) -> None:
        for process in self._processes:
            process.kill()
            process.join()
        self._remove_folder()

    def run(self, job: Callable[[Arg], object], arg: Arg) -> Future[Any] | None:
        try:
            return self._pool.submit(job, arg)
        except BrokenProcessPool:
            return None

    def _submit(self, index: int) -> Future[Any]:
        try:
            return self._pool.submit(_make_in_worker, index)
        except BrokenProcessPool:  # the worker died already: this one is made here
            return Future()

    def _remove_folder(self) -> None:
        shutil.rmtree(self.folder, ignore_errors=True)  # gone already if a signal's handler removed it


class _NoWorker:
    """Where there is no worker: a future that nobody runs, for the caller to take back."""

    def result(self, future: Future[Any], index: int) -> Any:
        # Only for a future of a worker that has ended: what it made went with its folder.
        raise BrokenProcessPool("the worker has ended")

    def claim(self, index: int) -> bool:
        return False  # no worker to claim it from: `result` fails, and it is made here

    def set_aside(self, index: int, made: Any) -> None:
        raise OSError("no worker's folder to set it aside in")

    def taken_back(self, index: int) -> Any:
        raise OSError("the worker has ended, and its folder with it")

    def shutdown(self) -> None:
        pass

    def kill(self) -> None:
        pass


class _InWorker:
    """The worker process's work and folder, given when it starts: inherited by the fork."""

    make: Callable[[int], Any]
    folder: str


def _start_worker(make: Callable[[int], Any], folder: str, held: set[int]) -> None:
    # Ctrl-C in a terminal signals the build and its worker alike: the build ends the worker.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # not the build's handler, copied by the fork
    signal.pthread_sigmask(signal.SIG_UNBLOCK, held)
    _InWorker.make, _InWorker.folder = make, folder


def _make_in_worker(index: int) -> None:
    if not claimed(_InWorker.folder, str(index)):  # the build makes it
        return
    made = _InWorker.make(index)
    with open(os.path.join(_InWorker.folder, str(index)), "wb") as file:
        pickle.dump(made, file, protocol=pickle.HIGHEST_PROTOCOL)


def claimed(folder: str, name: str) -> bool:
    """Whether this process claims `name` first, the build or the worker, in the worker's
    folder: each tries to make the same file, and only one can (an atomic step of the file
    system, no lock to hold)."""
    try:
        os.close(os.open(os.path.join(folder, f"claim-{name}"), os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600))
    except FileExistsError:
        return False
    return True
