"""`sitebuild.worker.MadeByIndex` run in a process of its own, where only the main thread
runs, as in a build: `python worker_probe.py SCENARIO MARKS`. Prints, as JSON, whether a
worker made things and, for each index, what was made and whether this process made it;
each time a thing is made, wherever, a file is made in the folder MARKS.

Scenarios:
  in-order   six things asked for in order
  taken-back the worker begins the first and waits until this process has made one itself
  queued     the same with two things: the second is passed to the worker while it makes
             the first, and this process must take it back from there
  stopped    SIGTERM while `close` waits for a worker that never finishes: prints the
             worker's pid first, as the process is then killed by the signal
  crash      the worker dies making the first thing it makes
  error      making the second raises an error, wherever it is made
  closed     the worker is ended after the first; the rest is asked for after
  no-fork    the system forks no process: everything is made here
  thread     no worker while another thread runs, and one once it has ended
"""

from __future__ import annotations

import json
import multiprocessing
import os
import signal
import sys
import threading

from sitebuild.worker import MadeByIndex

HERE = os.getpid()


def main(scenario: str, marks: str) -> None:
    if scenario == "thread":
        print(json.dumps(beside_a_thread()))
        return
    if scenario == "stopped":
        stopped_while_closing()
        return
    started_read, started_write = os.pipe()  # the worker has begun the first
    go_read, go_write = os.pipe()  # this process has made one itself

    holds_first = scenario in ("taken-back", "queued")  # the worker holds the first until this process made one

    def make(index: int) -> tuple[int, int]:
        in_worker = os.getpid() != HERE
        with open(os.path.join(marks, f"{index}-{os.getpid()}"), "x"):  # made twice by one process: an error
            pass
        if not in_worker and holds_first:
            os.write(go_write, b"x")
        if in_worker and index == 0 and holds_first:
            os.write(started_write, b"x")
            os.read(go_read, 1)
        if in_worker and scenario == "crash":
            os._exit(3)
        if index == 1 and scenario == "error":
            raise ValueError("t.jsonl:2: the second is broken")
        return index, os.getpid()

    if scenario == "no-fork":
        os.fork = refuse_to_fork
    count = {"taken-back": 20, "queued": 2}.get(scenario, 6)
    made = MadeByIndex(make, count, in_worker=True, held_ahead=1)  # what it makes ahead: held, then set aside
    in_worker = made.in_worker
    if holds_first:
        os.read(started_read, 1)
    results: list[tuple[int, int] | str] = []
    job = None  # where a job given to the worker ran: "worker", "here" (no worker to run it) or None
    try:
        for index in range(count):
            if scenario == "closed" and index == 1:
                made.close()
            results.append(made[index])
        ran = made.run_in_worker(_pid, None)
        job = "here" if ran is None else "worker" if ran.result(timeout=30) != HERE else "this process"
    except ValueError as error:
        results.append(str(error))
    finally:
        made.close()
    print(json.dumps({"in_worker": in_worker, "children": len(multiprocessing.active_children()), "job": job,
                      "made": [item if isinstance(item, str) else [item[0], item[1] == HERE] for item in results]}))


def _pid(_: None) -> int:
    """A job for the worker: the process it runs in."""
    return os.getpid()


def beside_a_thread() -> dict[str, bool]:
    alone = MadeByIndex(lambda index: index, 2, in_worker=True)
    was_forked = alone.in_worker
    alone.close()
    stop = threading.Event()
    thread = threading.Thread(target=stop.wait)
    thread.start()
    beside = MadeByIndex(lambda index: index, 2, in_worker=True)
    stop.set()
    thread.join()
    return {"alone": was_forked, "beside_a_thread": beside.in_worker}


def stopped_while_closing() -> None:
    never_read, _never_written = os.pipe()
    made = MadeByIndex(lambda index: os.read(never_read, 1), 2, in_worker=True)
    print(json.dumps({"in_worker": made.in_worker,
                      "workers": [process.pid for process in multiprocessing.active_children()]}), flush=True)
    # A thread may run now that the worker is forked; whenever its signal comes, before
    # `close` or while it waits, the outcome is the same.
    threading.Timer(0.3, os.kill, (os.getpid(), signal.SIGTERM)).start()
    made.close()


def refuse_to_fork() -> int:
    raise OSError(11, "Resource temporarily unavailable")


if __name__ == "__main__":
    main(*sys.argv[1:])
