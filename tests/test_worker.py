"""Things made by index, in a worker process beside the build or in the build's own.

A worker is forked only where no other thread runs, so each scenario with a worker runs
in a process of its own (`worker_probe.py`), as a build does, rather than in this one,
where other tests may leave threads running."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
from pathlib import Path

from conftest import forking
from sitebuild.worker import MadeByIndex

PROBE = Path(__file__).with_name("worker_probe.py")


def probe(scenario: str, folder: Path) -> dict:
    """The probe's report, with `made_times`: how many times each index was made. Its
    temporary folder is `folder`/tmp, which the caller can find empty or not."""
    (folder / "tmp").mkdir()
    (folder / "marks").mkdir()
    env = {**os.environ, "TMPDIR": str(folder / "tmp")}
    result = subprocess.run([sys.executable, str(PROBE), scenario, str(folder / "marks")], capture_output=True,
                            text=True, timeout=60, env=env)
    assert result.returncode == 0, result.stderr
    found = json.loads(result.stdout)
    indexes = [int(mark.name.split("-")[0]) for mark in (folder / "marks").iterdir()]
    found["made_times"] = {index: indexes.count(index) for index in sorted(set(indexes))}
    return found


@forking
def test_each_is_made_once_and_comes_in_order(tmp_path):
    found = probe("in-order", tmp_path)
    assert found["in_worker"] and found["children"] == 0
    assert found["job"] == "worker"  # a job given to it once it has made everything
    assert [index for index, _ in found["made"]] == list(range(6))
    assert found["made_times"] == dict.fromkeys(range(6), 1)
    assert list((tmp_path / "tmp").iterdir()) == []  # the worker's folder is gone


@forking
def test_what_the_worker_has_not_begun_is_made_here_rather_than_waited_for(tmp_path):
    found = probe("taken-back", tmp_path)
    # The worker holds the first until this process has made one: the last, which the
    # pool has not passed to the worker while the first is being made.
    assert found["made"][0] == [0, False] and found["made"][19] == [19, True]
    assert [index for index, _ in found["made"]] == list(range(20))
    assert found["made_times"] == dict.fromkeys(range(20), 1)


@forking
def test_what_the_pool_passed_to_a_busy_worker_is_taken_back_from_it(tmp_path):
    # The pool passes the worker the second while it makes the first, which it finishes
    # only once this process has made one: waiting for the worker would never end.
    found = probe("queued", tmp_path)
    assert found["made"] == [[0, False], [1, True]]
    assert found["made_times"] == {0: 1, 1: 1}
    assert list((tmp_path / "tmp").iterdir()) == []


@forking
def test_what_a_worker_that_died_left_is_made_here(tmp_path):
    found = probe("crash", tmp_path)
    assert found["made"] == [[index, True] for index in range(6)] and found["children"] == 0
    assert list((tmp_path / "tmp").iterdir()) == []


@forking
def test_an_error_comes_with_its_message_wherever_it_was_raised(tmp_path):
    assert probe("error", tmp_path)["made"][-1] == "t.jsonl:2: the second is broken"


@forking
def test_where_no_process_can_be_forked_everything_is_made_here_and_nothing_is_left(tmp_path):
    found = probe("no-fork", tmp_path)
    assert not found["in_worker"] and found["children"] == 0 and found["job"] == "here"
    assert found["made"] == [[index, True] for index in range(6)] and list((tmp_path / "tmp").iterdir()) == []


@forking
def test_after_close_the_rest_is_made_here(tmp_path):
    found = probe("closed", tmp_path)
    assert found["job"] == "here"  # the worker is gone: the job is the caller's
    assert [index for index, _ in found["made"]] == list(range(6))
    assert all(here for _, here in found["made"][1:]) and found["children"] == 0
    # What the worker was making when it ended went with its folder, and is made again here.
    assert set(found["made_times"]) == set(range(6)) and list((tmp_path / "tmp").iterdir()) == []


@forking
def test_a_signal_while_close_waits_for_the_worker_leaves_nothing(tmp_path):
    (tmp_path / "tmp").mkdir()
    env = {**os.environ, "TMPDIR": str(tmp_path / "tmp")}
    result = subprocess.run([sys.executable, str(PROBE), "stopped", str(tmp_path)], capture_output=True, text=True,
                            timeout=60, env=env)
    assert result.returncode == -signal.SIGTERM, result.stderr
    found = json.loads(result.stdout)
    assert found["in_worker"] and len(found["workers"]) == 1
    assert not Path(f"/proc/{found['workers'][0]}").exists()  # killed and reaped, not left waiting
    assert list((tmp_path / "tmp").iterdir()) == []


@forking
def test_no_worker_is_forked_while_another_thread_runs(tmp_path):
    assert probe("thread", tmp_path) == {"alone": True, "beside_a_thread": False, "made_times": {}}


def test_without_a_worker_each_is_made_when_first_asked_for():
    made: list[int] = []

    def make(index: int) -> int:
        made.append(index)
        return index * 10

    things = MadeByIndex(make, 3, in_worker=False)
    assert not things.in_worker and made == []
    assert things[2] == 20 and things[2] == 20 and made == [2]
    assert [things[index] for index in range(3)] == [0, 10, 20] and made == [2, 0, 1]
    things.close()


def test_the_pools_error_over_futures_taken_back_is_not_printed(monkeypatch):
    from concurrent.futures import InvalidStateError

    from sitebuild import worker

    seen: list[str] = []
    monkeypatch.setattr(worker, "_other_threads_hook", worker._other_threads_hook)  # restored after
    monkeypatch.setattr(threading, "excepthook", lambda args: seen.append(type(args.exc_value).__name__))
    worker._install_quiet_hook()

    class _ExecutorManagerThread(threading.Thread):  # the pool's thread, by its class's name
        def run(self):
            raise InvalidStateError("CANCELLED: <Future state=cancelled>")

    class Other(threading.Thread):
        def run(self):
            raise InvalidStateError("another thread's")

    for thread in (_ExecutorManagerThread(), Other()):
        thread.start()
        thread.join()
    assert seen == ["InvalidStateError"]  # the other thread's, passed on
