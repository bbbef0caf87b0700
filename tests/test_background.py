"""Work done in a forked child process, and a large transcript parsed that way."""

import json
import os
import sys
import threading

import pytest

from msgref import background
from msgref import transcript as transcript_module
from msgref.transcript import TranscriptError, load_transcript

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="a child is forked on Linux only")


class Expected(Exception):
    pass


@pytest.fixture
def forking(monkeypatch):
    # Other tests of the session may leave threads running (a web server for the browser
    # tests); the work here takes no lock they could hold, so fork regardless.
    monkeypatch.setattr(background, "can_fork", lambda: True)


def test_the_work_runs_in_a_child_and_its_result_comes_back(forking):
    wait = background.start(lambda: {"pid": os.getpid(), "numbers": list(range(5))}, Expected)
    result = wait()
    assert result["numbers"] == [0, 1, 2, 3, 4]
    assert result["pid"] != os.getpid()


def test_an_expected_error_is_raised_again_with_its_message(forking):
    def work():
        raise Expected("t.jsonl:3: not valid JSON")

    wait = background.start(work, Expected)
    with pytest.raises(Expected, match=r"^t\.jsonl:3: not valid JSON$"):
        wait()


def test_a_child_that_dies_leaves_the_work_to_this_process(forking):
    parent = os.getpid()

    def work():
        if os.getpid() != parent:
            os._exit(3)
        return "done here"

    assert background.start(work, Expected)() == "done here"


def test_an_unexpected_error_is_raised_by_this_process_as_without_a_child(forking):
    calls = []

    def work():
        calls.append(os.getpid())  # only this process's list is seen here
        raise ValueError("a bug")

    wait = background.start(work, Expected)
    with pytest.raises(ValueError, match="a bug"):
        wait()
    assert calls == [os.getpid()]


def test_no_child_while_another_thread_runs():
    stop = threading.Event()
    thread = threading.Thread(target=stop.wait)
    thread.start()
    try:
        assert not background.can_fork()
        assert background.start(os.getpid, Expected)() == os.getpid()
    finally:
        stop.set()
        thread.join()


def record(n, text="x"):
    return json.dumps({"n": n, "speaker": "tool", "provenance": "verbatim", "text": text}).encode() + b"\n"


def test_a_large_transcript_is_parsed_in_a_child(tmp_path, monkeypatch, forking):
    path = tmp_path / "t.jsonl"
    path.write_bytes(b"".join(record(n, f"text {n}") for n in range(1, 301)))
    monkeypatch.setattr(transcript_module, "BACKGROUND_MIN_BYTES", path.stat().st_size)
    pids = tmp_path / "pids"
    real_index = transcript_module._file_index

    def index(*args):
        with open(pids, "a") as file:
            file.write(f"{os.getpid()}\n")
        return real_index(*args)

    monkeypatch.setattr(transcript_module, "_file_index", index)
    loaded = load_transcript(str(path), "t.jsonl")
    parsed_by = pids.read_text().split()
    assert len(parsed_by) == 1 and parsed_by[0] != str(os.getpid())
    assert loaded.numbers == list(range(1, 301))
    assert loaded.get(300).text == "text 300"


def test_a_large_transcript_with_a_broken_line_names_it(tmp_path, monkeypatch, forking):
    path = tmp_path / "t.jsonl"
    path.write_bytes(b"".join(record(n) for n in range(1, 200)) + b'{"n": 200,\n')
    monkeypatch.setattr(transcript_module, "BACKGROUND_MIN_BYTES", 1)
    with pytest.raises(TranscriptError, match=r"^t\.jsonl:200: not valid JSON"):
        load_transcript(str(path), "t.jsonl")


# --- work in stages ------------------------------------------------------------------------


def test_stages_come_in_order_each_when_ready_and_then_end(forking):
    parent = os.getpid()
    stages = background.Stages(lambda: ({"stage": i, "pid": os.getpid(), "data": "x" * 200_000} for i in range(3)), Expected)
    assert stages.in_child
    received = []
    while True:
        while not stages.ready():
            pass
        try:
            received.append(stages())
        except StopIteration:
            break
    # Results larger than a pipe holds come through whole, from the child.
    assert [r["stage"] for r in received] == [0, 1, 2] and {r["pid"] for r in received} != {parent}
    assert all(len(r["data"]) == 200_000 for r in received)
    with pytest.raises(StopIteration):
        stages()


def test_an_expected_error_between_stages_comes_after_the_stages_before_it(forking):
    def work():
        yield "first"
        raise Expected("t.jsonl:9: the file changed")

    stages = background.Stages(work, Expected)
    assert stages() == "first"
    with pytest.raises(Expected, match="^t.jsonl:9: the file changed$"):
        stages()


def test_a_child_that_dies_between_stages_ends_them_early(forking):
    parent = os.getpid()

    def work():
        yield 1
        if os.getpid() != parent:
            os._exit(3)
        yield 2

    stages = background.Stages(work, Expected)
    assert stages() == 1
    with pytest.raises(StopIteration):  # what the child did not send is left to this process
        stages()


def test_without_a_child_each_stage_is_made_when_asked_for():
    made = []

    def work():
        for i in range(2):
            made.append(i)
            yield i

    stages = background.Stages(work, Expected, in_child=False)
    assert not stages.in_child and stages.ready() and made == []
    assert stages() == 0 and made == [0]
