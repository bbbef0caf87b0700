"""The whole session on the site: a generated Claude Code log, imported, built with every
message shown (`context: all`), beside the same build without a worker process, the
build that shows only the cited messages, and two peers, claude-code-transcripts and
claude-code-log, rendering the same log, all in turns; then a development server's
rebuild after an essay page is edited, with every message shown and with the cited
ones, in turns.
"""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

from . import claude_log, measure, project, synthetic
from .measure import MeasureError, PageStats, Run

IMPORTER = project.ROOT / "scripts" / "import_transcript.py"


@dataclass(frozen=True)
class WholeRow:
    messages: int
    log_bytes: int
    transcript_bytes: int
    every: Run  # the build that shows every message
    single: Run  # the same build in one process (`render_in_worker: false`)
    cited: Run  # the build that shows only the cited messages
    peers: dict[str, Run]  # by name, the peers that rendered the same log (those installed)
    pages: PageStats
    rebuild_every: float  # seconds of a serve rebuild after an essay page is edited, every message shown
    rebuild_cited: float  # the same, the cited messages shown

    @property
    def rebuild_ratio(self) -> float:
        """How many times the rebuild of the cited messages the rebuild of the whole session takes."""
        return self.rebuild_every / self.rebuild_cited

    @property
    def ratio(self) -> float:
        """How many times the build of the cited messages the whole session takes."""
        return self.every.seconds / self.cited.seconds

    @property
    def worker_saves(self) -> float:
        """The part of the one-process build that the worker process saves."""
        return 1 - self.every.seconds / self.single.seconds

    def speedup(self, name: str) -> float | None:
        """How many times faster than the peer `name` the whole session builds, if it was measured."""
        run = self.peers.get(name)
        return None if run is None else run.seconds / self.every.seconds


@dataclass(frozen=True)
class Peer:
    """Another program that renders a Claude Code log as HTML (requirements-benchmark.txt installs it)."""
    name: str  # its command and its package
    arguments: Callable[[Path, Path], list[str]]  # for the log and a folder of the peer's own


PEERS = (
    Peer("claude-code-transcripts", lambda log, out: ["json", str(log), "-o", str(out)]),
    # One HTML file, and no cache (it keeps one for folders of logs), so that every run
    # does the whole work.
    Peer("claude-code-log", lambda log, out: [str(log), "-o", str(out / "session.html"), "--no-cache"]),
)


def peer_program(name: str) -> str | None:
    """The peer's command, beside this Python (in its virtual environment) or on PATH."""
    here = str(Path(sys.executable).parent)
    return shutil.which(name, path=os.pathsep.join([here, os.environ.get("PATH", "")]))


def peer_version(name: str) -> str | None:
    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return None


def peer_command(peer: Peer, program: str, log: Path, out: Path) -> list[str]:
    """The peer's command, with `out` as its home: whatever it would read or keep in the
    user's home (~/.claude, caches) stays in the benchmark's folder. `env` replaces itself
    with the peer, so the time and peak memory measured are the peer's."""
    return ["env", f"HOME={out}", program, *peer.arguments(log, out)]


def import_log(log: Path, transcript: Path) -> None:
    """The site's transcript from the log, by the site's own importer."""
    result = subprocess.run([sys.executable, str(IMPORTER), str(log), "-o", str(transcript)],
                            capture_output=True, text=True, env=measure.ENV)
    if result.returncode != 0:
        raise MeasureError(f"importing {log} failed:\n{result.stderr[-2000:]}")


def measure_whole(messages: int, args, work: Path, use_peer: bool = True) -> WholeRow:
    folder = work / f"whole-{messages}"
    folder.mkdir()
    log, transcript = folder / "session.jsonl", folder / "transcript.jsonl"
    claude_log.write_log(log, messages, seed=args.seed)
    import_log(log, transcript)
    essay = synthetic.make_essay(messages, args.pages, args.references, seed=args.seed + 1)
    sites = {}
    variants: dict[str, dict[str, object]] = {
        "every": {"context": "all"}, "single": {"context": "all", "render_in_worker": False}, "cited": {"context": 0}}
    for name, variant in variants.items():
        (folder / name).mkdir()
        settings = {**args.settings, **variant}
        sites[name] = project.synthetic_site(folder / name, essay.pages, transcript, settings)["hook"]
    runners = {name: functools.partial(measure.build, path, folder / f"site-{name}") for name, path in sites.items()}
    for peer in PEERS if use_peer else ():
        program = peer_program(peer.name)
        if program:
            out = folder / peer.name
            out.mkdir()
            runners[peer.name] = functools.partial(measure.timed, peer_command(peer, program, log, out), folder,
                                                   folder / f"{peer.name}.log")
    runs = measure.typical(runners, args.repeat)
    pages = measure.transcript_page_stats(folder / "site-every", project.transcript_settings(args.settings).folder)
    first_page = next(iter(essay.pages))
    rebuilds = measure.serve_rebuilds_in_turns(
        {name: (sites[name], sites[name] / "docs" / first_page) for name in ("every", "cited")}, args.touches)
    return WholeRow(messages, log.stat().st_size, transcript.stat().st_size, runs["every"], runs["single"],
                    runs["cited"], {peer.name: runs[peer.name] for peer in PEERS if peer.name in runs}, pages,
                    rebuilds["every"][0], rebuilds["cited"][0])
