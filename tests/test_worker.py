"""Things made by index, in a worker process beside the build or in the build's own.

A worker is forked only where no other thread runs, so each scenario with a worker runs
in a process of its own (`worker_probe.py`), as a build does, rather than in this one,
where other tests may leave threads running."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

from conftest import forking
from sitebuild.worker import MadeByIndex
from test_whole_session_build import running

PROBE = Path(__file__).with_name("worker_probe.py")


def run_probe(scenario: str, folder: Path) -> subprocess.CompletedProcess[str]:
    """The probe run, its temporary folder `folder`/tmp and its marks in `folder`/marks."""
    (folder / "tmp").mkdir()
    (folder / "marks").mkdir()
    env = {**os.environ, "TMPDIR": str(folder / "tmp")}
    return subprocess.run([sys.executable, str(PROBE), scenario, str(folder / "marks")], capture_output=True,
                          text=True, timeout=60, env=env)


def made_times(folder: Path) -> dict[int, int]:
    """How many times each index was made, wherever."""
    indexes = [int(mark.name.split("-")[0]) for mark in (folder / "marks").iterdir()]
    return {index: indexes.count(index) for index in sorted(set(indexes))}


def probe(scenario: str, folder: Path) -> dict:
    """The probe's report, with `made_times`."""
    result = run_probe(scenario, folder)
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    found = json.loads(result.stdout)
    found["made_times"] = made_times(folder)
    return found


@forking
def test_each_is_made_once_in_the_worker_and_comes_in_order(tmp_path):
    found = probe("in-order", tmp_path)
    assert found["in_worker"] and len(found["workers"]) == 1 and found["children"] == []
    assert found["made"] == [[index, False] for index in range(6)]
    assert found["made_times"] == dict.fromkeys(range(6), 1)
    assert list((tmp_path / "tmp").iterdir()) == []  # its file had no name


@forking
def test_the_one_the_worker_is_making_is_waited_for_and_the_next_made_here_meanwhile(tmp_path):
    found = probe("waited", tmp_path)
    assert [index for index, _ in found["made"]] == list(range(6))
    assert found["made"][:2] == [[0, False], [1, True]]
    assert found["made_times"][0] == found["made_times"][1] == 1  # the worker passed the second


@forking
def test_one_the_worker_has_not_begun_is_made_here_and_not_again_by_the_worker(tmp_path):
    found = probe("not-begun", tmp_path)
    # The last, asked for while the worker makes the first, is made here; the first is
    # then waited for, while the second is made here.
    assert [index for index, _ in found["made"]] == [5, 0, 1, 2, 3, 4]
    assert found["made"][:3] == [[5, True], [0, False], [1, True]]
    assert found["made_times"][5] == found["made_times"][0] == found["made_times"][1] == 1


@forking
def test_what_a_worker_that_died_left_is_made_here(tmp_path):
    found = probe("crash", tmp_path)
    assert found["made"] == [[index, True] for index in range(6)] and found["children"] == []
    assert list((tmp_path / "tmp").iterdir()) == []


@forking
def test_an_error_comes_with_its_message_wherever_it_was_raised(tmp_path):
    assert probe("error", tmp_path)["made"][-1] == "t.jsonl:2: the second is broken"


@forking
def test_where_no_process_can_be_forked_everything_is_made_here_and_nothing_is_left(tmp_path):
    found = probe("no-fork", tmp_path)
    assert not found["in_worker"] and found["workers"] == [] and found["children"] == []
    assert found["made"] == [[index, True] for index in range(6)] and list((tmp_path / "tmp").iterdir()) == []


@forking
def test_after_close_the_rest_is_made_here(tmp_path):
    found = probe("closed", tmp_path)
    assert [index for index, _ in found["made"]] == list(range(6))
    assert all(here for _, here in found["made"][1:]) and found["children"] == []
    assert not running(found["workers"][0])


@forking
def test_no_worker_is_forked_while_another_thread_runs(tmp_path):
    assert probe("thread", tmp_path) == {"alone": True, "beside_a_thread": False, "made_times": {}}


@forking
def test_a_process_that_exits_without_closing_ends_its_worker_first(tmp_path):
    # As a build that failed: the worker, making the second, is ended as the process exits.
    result = run_probe("exits", tmp_path)
    assert result.returncode == 1 and "Traceback" not in result.stderr
    worker = json.loads(result.stdout)["workers"][0]
    assert not running(worker) and not Path(f"/proc/{worker}").exists()  # ended and reaped
    assert made_times(tmp_path) in ({0: 1}, {0: 1, 1: 1})  # ended before the second, or while making it
    assert list((tmp_path / "tmp").iterdir()) == []


@forking
def test_a_worker_whose_process_is_killed_ends_after_the_thing_it_is_making(tmp_path):
    result = run_probe("killed", tmp_path)
    assert result.returncode == -9
    worker = json.loads(result.stdout)["workers"][0]
    deadline = time.monotonic() + 20
    while running(worker) and time.monotonic() < deadline:
        time.sleep(0.02)
    assert not running(worker)
    assert made_times(tmp_path) == {0: 1, 1: 1}  # it finished the second, and began no other
    assert list((tmp_path / "tmp").iterdir()) == []


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
