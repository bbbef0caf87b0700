"""Measurements: a build's time and peak memory, a `mkdocs serve` rebuild, transcript loading."""

from __future__ import annotations

import functools
import gzip
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

from .dev_server import ENV, Server, ServerError

LOAD_TIMER = Path(__file__).with_name("load_timer.py")  # times one load, in a process of its own


@dataclass(frozen=True)
class Run:
    seconds: float
    peak_rss: int  # bytes
    log: str


class MeasureError(Exception):
    """A build or server that did not do what the benchmark needs."""


def timed(command: list[str], cwd: Path, log_path: Path) -> Run:
    """Run `command` in a fresh process; its own peak RSS comes from wait4."""
    with open(log_path, "w+", encoding="utf-8") as log:
        start = time.perf_counter()
        process = subprocess.Popen(command, cwd=cwd, env=ENV, stdout=log, stderr=subprocess.STDOUT)
        _, status, usage = os.wait4(process.pid, 0)
        seconds = time.perf_counter() - start
        log.seek(0)
        text = log.read()
    if os.waitstatus_to_exitcode(status) != 0:
        raise MeasureError(f"{' '.join(command)} failed in {cwd}:\n{text[-2000:]}")
    return Run(seconds, usage.ru_maxrss * 1024, text)  # ru_maxrss is in KiB on Linux


def build(project: Path, site: Path) -> Run:
    """Run `mkdocs build` of `project` into `site`, in a fresh process."""
    return timed([sys.executable, "-m", "mkdocs", "build", "--clean", "-d", str(site)], project,
                 site.parent / (site.name + ".log"))


def typical(runners: Mapping[str, Callable[[], Run]], repeat: int) -> dict[str, Run]:
    """Run each of `runners` `repeat` times, taking turns; keep the median time and the highest peak.

    The machine's load drifts during a run. Taking turns spreads it over the variants
    alike, and the median of each variant's runs follows it steadily, where the fastest
    run can fall in a quiet moment for one variant and not for the other.
    """
    runs: dict[str, list[Run]] = {name: [] for name in runners}
    for _ in range(repeat):
        for name, run in runners.items():
            runs[name].append(run())
    return {
        name: Run(statistics.median(r.seconds for r in done), max(r.peak_rss for r in done), done[-1].log)
        for name, done in runs.items()
    }


def typical_builds(projects: dict[str, Path], work: Path, repeat: int) -> dict[str, Run]:
    """Build each project `repeat` times in turns (see `typical`); each variant's last
    site stays in `work`."""
    return typical({name: functools.partial(build, project, work / f"site-{project.name}")
                    for name, project in projects.items()}, repeat)


@dataclass(frozen=True)
class PageStats:
    pages: int
    most_messages: int  # on one page
    largest_bytes: int  # of one page's HTML
    largest_gzip_bytes: int = 0  # of one page's HTML, as a server sends it compressed


def transcript_page_stats(site: Path, folder: str) -> PageStats:
    """How many transcript pages a built site has, and how big the biggest is, as written
    and compressed."""
    pages = [page.read_bytes() for page in sorted((site / folder).rglob("*.html"))]
    counts = [page.count(b'<h2 id="msg-') for page in pages]
    return PageStats(len(pages), max(counts, default=0), max(map(len, pages), default=0),
                     max((len(gzip.compress(page, 6)) for page in pages), default=0))


def serve_rebuilds(project: Path, page: Path, touches: int, timeout: float = 600) -> tuple[float, bool]:
    """The fastest of `touches` rebuilds after `page` is edited, timed from the moment the
    server tells it saw the edit until it reloads browsers (the file watcher's own delay,
    which moves in steps of a quarter second or more, left out), and whether every
    rebuild reused the parsed transcript."""
    return serve_rebuilds_in_turns({"": (project, page)}, touches, timeout)[""]


def serve_rebuilds_in_turns(edits: Mapping[str, tuple[Path, Path]], touches: int,
                            timeout: float = 600) -> dict[str, tuple[float, bool]]:
    """For each named (project, page) of `edits`, served at once, what `serve_rebuilds`
    tells: the projects' pages edited in turns, so that the machine's load weighs on each alike."""
    servers = {name: Server(project) for name, (project, _) in edits.items()}
    try:
        for server in servers.values():
            server.wait_for("Serving on", timeout)
        originals = {name: page.read_text(encoding="utf-8") for name, (_, page) in edits.items()}
        times: dict[str, list[float]] = {name: [] for name in edits}
        reused = dict.fromkeys(edits, True)
        for touch in range(touches):
            for name, (_, page) in edits.items():
                time.sleep(0.5)  # let the watcher settle after the previous build
                # A rebuild the edit did not cause (the watcher seeing the first build's
                # files, say) must not be taken for the edit's.
                servers[name].drain()
                page.write_text(originals[name] + "\n" * (touch % 2 + 1), encoding="utf-8")
                log = servers[name].wait_for("Detected file changes", timeout)
                start = time.perf_counter()
                log += servers[name].wait_for("Reloading browsers", timeout)
                times[name].append(time.perf_counter() - start)
                reused[name] = reused[name] and not any("Parsed transcript" in line for line in log)
        return {name: (min(times[name]), reused[name]) for name in edits}
    except ServerError as error:
        raise MeasureError(str(error)) from None
    finally:
        for server in servers.values():
            server.stop()


def load_seconds(transcript: Path, repeat: int) -> float:
    """The fastest of `repeat` loads of the transcript, each in a fresh process."""
    best = float("inf")
    for _ in range(repeat):
        result = subprocess.run([sys.executable, str(LOAD_TIMER), str(transcript)],
                                capture_output=True, text=True, env=ENV)
        if result.returncode != 0:
            raise MeasureError(f"loading {transcript} failed:\n{result.stderr[-2000:]}")
        best = min(best, float(result.stdout.split()[0]))
    return best
