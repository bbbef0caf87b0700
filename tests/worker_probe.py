"""`sitebuild.worker.MadeByIndex` run in a process of its own, where only the main thread
runs, as in a build: `python worker_probe.py SCENARIO MARKS`. Prints, as JSON, whether a
worker made things, the processes that made things beside this one and, for each index
asked for, whether this process made it; each time a thing is made, wherever, a file is made in the folder MARKS.

Scenarios:
  in-order   six things asked for in order, once the worker has made them
  waited     the worker makes the first slowly: this process makes the second meanwhile,
             then waits for the first
  not-begun  the last is asked for first, while the worker makes the first: made here
  crash      the worker dies making the first thing it makes
  error      making the second raises an error, wherever it is made
  closed     the worker is ended after the first; the rest is asked for after
  no-fork    the system forks no process: everything is made here
  thread     no worker while another thread runs, and one once it has ended
  exits      the process exits while the worker makes the second, without closing
  killed     the process is killed while the worker makes the second
"""

from __future__ import annotations

import json
import multiprocessing
import os
import signal
import sys
import threading
import time

from sitebuild.worker import MadeByIndex

HERE = os.getpid()
KEPT: list[MadeByIndex[tuple[int, int]]] = []


def main(scenario: str, marks: str) -> None:
    if scenario == "thread":
        print(json.dumps(beside_a_thread()))
        return
    first_begun_read, first_begun_write = os.pipe()  # the worker has begun the first
    go_read, go_write = os.pipe()  # the worker may finish the first

    def make(index: int) -> tuple[int, int]:
        in_worker = os.getpid() != HERE
        with open(os.path.join(marks, f"{index}-{os.getpid()}"), "x"):  # made twice by one process: an error
            pass
        if in_worker and index == 0 and scenario in ("waited", "not-begun"):
            os.write(first_begun_write, b"x")
            os.read(go_read, 1)
        if in_worker and scenario == "crash":
            os._exit(3)
        if in_worker and index == 1 and scenario in ("exits", "killed"):
            time.sleep(0.5)  # long enough for this process to end meanwhile
        if index == 1 and scenario == "error":
            raise ValueError("t.jsonl:2: the second is broken")
        return index, os.getpid()

    if scenario == "no-fork":
        os.fork = refuse_to_fork
    count = 6
    made = MadeByIndex(make, count, in_worker=True)
    report: dict[str, object] = {"in_worker": made.in_worker}
    if scenario in ("exits", "killed"):
        while not any(name.startswith("1-") for name in os.listdir(marks)):
            time.sleep(0.005)  # until the worker makes the second
        report["workers"] = workers(marks)
        print(json.dumps(report), flush=True)
        KEPT.append(made)  # as a build's objects may be, until the process exits
        if scenario == "killed":
            os.kill(os.getpid(), signal.SIGKILL)
        sys.exit(1)  # as a build that failed
    if scenario == "in-order":
        while len(os.listdir(marks)) < count:
            time.sleep(0.005)  # until the worker has made them all
    if scenario in ("waited", "not-begun"):
        os.read(first_begun_read, 1)
        threading.Timer(0.3, os.write, (go_write, b"x")).start()  # a thread: the worker is forked
    order = [count - 1, *range(count - 1)] if scenario == "not-begun" else range(count)
    results: list[tuple[int, int] | str] = []
    try:
        for index in order:
            if scenario == "closed" and index == 1:
                made.close()
            results.append(made[index])
    except ValueError as error:
        results.append(str(error))
    finally:
        made.close()
    report["workers"] = workers(marks)
    report["children"] = [process.pid for process in multiprocessing.active_children()]
    report["made"] = [item if isinstance(item, str) else [item[0], item[1] == HERE] for item in results]
    print(json.dumps(report))


def workers(marks: str) -> list[int]:
    """The processes other than this one that made things."""
    return sorted({int(name.split("-")[1]) for name in os.listdir(marks)} - {HERE})


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


def refuse_to_fork() -> int:
    raise OSError(11, "Resource temporarily unavailable")


if __name__ == "__main__":
    main(*sys.argv[1:])
