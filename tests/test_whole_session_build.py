"""A whole session on the site (`context: all`): its pages are made by a worker process,
are the pages made without one, and no build leaves the worker behind, whether it
succeeds, fails, or is stopped by a signal."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml
from bs4 import BeautifulSoup

from conftest import entry_of, forking, mkdocs, selected
from message_index_reader import BuiltIndex
from sitebuild.rendering import IN_WORKER_MIN_MESSAGES

HOOK = Path(__file__).resolve().parent.parent / "hooks" / "mkdocs_hook.py"
MESSAGES = IN_WORKER_MIN_MESSAGES + 200
SECRET = "sk-ant-" + "a1B2" * 10


def record(n: int) -> dict:
    if n % 300 == 0:  # long enough to be cut, and to get a file of its whole text
        return {"n": n, "speaker": "tool", "provenance": "verbatim", "text": f"line {n} of a long output\n" * 400}
    if n == 7:
        return {"n": n, "speaker": "user", "provenance": "verbatim", "text": f"my key is {SECRET}, keep it"}
    if n % 3 == 0:
        return {"n": n, "speaker": "assistant", "provenance": "verbatim", "text": "", "tool_name": "Read",
                "tool_input": {"path": f"src/file_{n}.py"}}
    return {"n": n, "speaker": "user" if n % 2 else "assistant", "provenance": "verbatim",
            "text": f"message <{n}> & more"}


def session_project(project: Path, messages: int, in_worker: bool = True, essay: str = "") -> Path:
    project.mkdir()
    (project / "transcript.jsonl").write_text("".join(json.dumps(record(n)) + "\n" for n in range(1, messages + 1)))
    (project / "docs").mkdir()
    essay = essay or f"# Essay\n\nFirst [msg 5], then [msg 7], then [msg {messages - 1}].\n"
    (project / "docs" / "index.md").write_text(essay)
    (project / "docs" / "note-on-the-text.md").write_text("# Note on the text\n")
    config = {
        "site_name": "Whole", "site_url": "http://127.0.0.1:8000/", "theme": {"name": "material"},
        "nav": ["index.md", "note-on-the-text.md", "transcript/index.md"], "hooks": [str(HOOK)],
        "plugins": ["search"], "markdown_extensions": ["attr_list", {"toc": {"permalink": True}}],
        "validation": {"omitted_files": "warn", "unrecognized_links": "warn", "anchors": "warn"},
        "extra": {"transcript": {"source": "transcript.jsonl", "context": "all", "render_in_worker": in_worker}},
    }
    (project / "mkdocs.yml").write_text(yaml.safe_dump(config))
    return project


def whole_session(project: Path, in_worker: bool) -> Path:
    session_project(project, MESSAGES, in_worker)
    result = mkdocs(["build", "--strict", "--verbose", "-d", str(project / "site")], cwd=project, timeout=300)
    assert result.returncode == 0, result.stderr
    assert "WARNING" not in result.stderr, result.stderr
    made_in = "a worker process" if in_worker else "this process"
    assert f"Transcript pages: {MESSAGES} messages, made in {made_in}" in result.stderr
    # Redacted where the essay cites it and on its transcript page, in one process or two: told once.
    assert result.stderr.count("Redacted in transcript.jsonl, message 7: ") == 1, result.stderr
    return project / "site"


@pytest.fixture(scope="module")
def sites(tmp_path_factory) -> dict[bool, Path]:
    folder = tmp_path_factory.mktemp("whole")
    return {in_worker: whole_session(folder / f"worker-{in_worker}", in_worker) for in_worker in (True, False)}


def transcript_files(site: Path) -> dict[str, bytes]:
    return {str(path.relative_to(site)): path.read_bytes() for path in sorted((site / "transcript").rglob("*"))
            if path.is_file()}


def test_the_pages_made_by_a_worker_are_the_pages_made_without_one(sites):
    made = transcript_files(sites[True])
    assert made == transcript_files(sites[False])
    assert {"transcript/index.html", "transcript/page-2/index.html", "transcript/page-3/index.html"} <= set(made)
    texts = [name for name in made if name.startswith("transcript/messages/")]
    assert texts == [f"transcript/messages/msg-{n}.txt" for n in sorted(range(300, MESSAGES + 1, 300), key=str)]
    site_search = json.loads((sites[True] / "search/search_index.json").read_text())["docs"]
    assert not [doc for doc in site_search if doc["location"].startswith("transcript/")]
    # The transcript's own search (compared above with the rest of transcript/): each message once.
    assert sorted(BuiltIndex(sites[True]).messages()) == list(range(1, MESSAGES + 1))


def test_every_message_has_its_entry_its_permanent_link_and_its_text_escaped(sites):
    pages = [BeautifulSoup((sites[True] / path).read_text(encoding="utf-8"), "html.parser")
             for path in ("transcript/index.html", "transcript/page-2/index.html", "transcript/page-3/index.html")]
    headings = [h for page in pages for h in page.select("h2[id^=msg-]")]
    assert [h["id"] for h in headings] == [f"msg-{n}" for n in range(1, MESSAGES + 1)]
    assert all(selected(h, "a.msg-number")["href"] == f"#{h['id']}" for h in headings)
    first = pages[0]
    assert entry_of(first, 1).get_text() == "message <1> & more"
    assert SECRET not in str(first) and "[REDACTED: anthropic-key]" in entry_of(first, 7).get_text()
    assert selected(first, "#msg-5").find_parent(class_="msg-item--cited") is not None
    # A page of 500 messages lists only its title in its table of contents.
    assert [a.text.strip() for a in first.select("nav.md-nav--secondary a")] == []


def test_the_essay_links_to_messages_on_any_page(sites):
    essay = BeautifulSoup((sites[True] / "index.html").read_text(encoding="utf-8"), "html.parser")
    assert [a["href"] for a in essay.select("a.msg-ref")] == [
        "transcript/#msg-5", "transcript/#msg-7", f"transcript/page-3/#msg-{MESSAGES - 1}"]


# --- Nothing left behind ----------------------------------------------------------------------

def _second_opinion(pid: int) -> bool:
    """Whether the process is the second opinion's (`python -m transcript.second_opinion`)."""
    try:
        return b"\0msgref.second_opinion" in Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return False


def children_of(pid: int) -> set[int]:
    """The processes whose parent is `pid`, read from /proc."""
    found = set()
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue  # gone meanwhile
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                found.add(int(entry))
    return found


def running(pid: int) -> bool:
    """Whether process `pid` runs: it exists, and has not ended waiting for its parent to
    learn it (a zombie, which only its parent, or whoever adopts it, can reap)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def ended(pid: int, timeout: float = 30) -> bool:
    """Whether process `pid` has ended, or does within `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while running(pid) and time.monotonic() < deadline:
        time.sleep(0.02)
    return not running(pid)


def start_build(project: Path, temporary: Path, own_group: bool = False) -> subprocess.Popen:
    """`mkdocs build` of `project`, with `temporary` as its temporary folder; in a process
    group of its own if `own_group`, as a terminal starts a command."""
    temporary.mkdir()
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "TMPDIR": str(temporary)}
    return subprocess.Popen([sys.executable, "-m", "mkdocs", "build", "-d", str(project / "site")], cwd=project,
                            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                            start_new_session=own_group)


def worker_of(build: subprocess.Popen, timeout: float = 60) -> int:
    """The worker process of a running build, as soon as it has one: not the process of
    the second opinion on secrets, which the build may have started too."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and build.poll() is None:
        children = {pid for pid in children_of(build.pid) if not _second_opinion(pid)}
        if children:
            return children.pop()
        time.sleep(0.005)
    raise AssertionError("the build made no worker process")


def left_in(temporary: Path) -> list[str]:
    # Jinja's cache of the theme's compiled templates is kept on purpose, for the next build.
    return sorted(path.name for path in temporary.iterdir() if not path.name.startswith("_jinja2-cache"))


@forking
@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
def test_a_build_stopped_by_a_signal_leaves_no_process_or_temporary_file(tmp_path, signum):
    # Enough messages that the worker is busy for a good while.
    project = session_project(tmp_path / "project", 40 * IN_WORKER_MIN_MESSAGES)
    build = start_build(project, tmp_path / "tmp")
    worker = worker_of(build)
    build.send_signal(signum)
    build.communicate(timeout=60)
    assert build.returncode != 0
    if signum == signal.SIGINT:  # the build exits, and ends its worker first
        assert not running(worker)
    assert ended(worker)  # killed outright, the build leaves a worker that ends after the page it is making
    assert left_in(tmp_path / "tmp") == []


@forking
def test_ctrl_c_in_a_terminal_stops_the_build_and_its_worker_quietly(tmp_path):
    # A terminal sends SIGINT to the command's whole process group: the worker gets it too.
    project = session_project(tmp_path / "project", 40 * IN_WORKER_MIN_MESSAGES)
    build = start_build(project, tmp_path / "tmp", own_group=True)
    worker = worker_of(build)
    first_text = project / "site" / "transcript" / "messages" / "msg-300.txt"
    deadline = time.monotonic() + 60
    while not (first_text.exists() and first_text.stat().st_size) and time.monotonic() < deadline:
        time.sleep(0.005)  # until the worker has made the first page, which writes it
    os.killpg(build.pid, signal.SIGINT)
    _, stderr = build.communicate(timeout=60)
    assert build.returncode != 0 and "Aborted!" in stderr
    assert "Process ForkProcess" not in stderr  # how multiprocessing heads a traceback of the worker's
    assert not running(worker) and left_in(tmp_path / "tmp") == []


@forking
def test_a_build_that_fails_ends_its_worker(tmp_path):
    essay = "# Essay\n\n[msg 5]\n\n<div class=\"citation-slot\" data-part=\"nowhere.md\"></div>\n"
    project = session_project(tmp_path / "project", 20 * IN_WORKER_MIN_MESSAGES, essay=essay)
    config = yaml.safe_load((project / "mkdocs.yml").read_text())
    config["extra"]["essay"] = {"title": "Essay", "published": "2026-01-02", "edition": 1, "sections": ["index.md"]}
    (project / "mkdocs.yml").write_text(yaml.safe_dump(config))
    build = start_build(project, tmp_path / "tmp")
    worker = worker_of(build)
    _, stderr = build.communicate(timeout=120)
    assert build.returncode == 1
    assert "index.md: citation slot names 'nowhere.md', which is not a page of the site" in stderr
    assert "Traceback" not in stderr
    assert not running(worker) and left_in(tmp_path / "tmp") == []

