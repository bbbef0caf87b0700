"""Lighthouse on a whole session's transcript page: a real log, imported, every message shown.

Imports the log with the site's importer, builds a site with the site's own theme and
settings and `context: all` (an essay page citing a few messages), serves it with gzip
on 127.0.0.1, runs Lighthouse's mobile preset on the transcript's first page several
times, and prints the median performance and accessibility scores, the audits short of
full marks, and the page's weight. Figures are printed, never judged: performance moves
with the machine's load, which Lighthouse's benchmark index shows.

    cd scripts && ../.venv/bin/python -m perf.transcript_lighthouse
    cd scripts && ../.venv/bin/python -m perf.transcript_lighthouse --log SESSION.jsonl --runs 5
"""

from __future__ import annotations

import argparse
import gzip
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

import lighthouse
from sitebuild.urls import directory_url
from static_host import StaticHost
from transcriptsite.layout import page_src

from . import project, whole_session
from .measure import MeasureError

DEFAULT_LOG = project.ROOT / "tests" / "data" / "transcripts" / "claude-code-log_ide_wrappers_errors.jsonl"
SCORED = ("performance", "accessibility")
# Performance diagnostics worth a line even though they weigh nothing in the score.
DIAGNOSTICS = ("dom-size", "bootup-time", "mainthread-work-breakdown", "render-blocking-resources",
               "long-tasks", "total-byte-weight", "unsized-images", "layout-shifts")


def essay_citing(messages: int) -> str:
    """An essay page that cites the first, a middle and the last message."""
    tags = ", ".join(f"[msg {n}]" for n in sorted({1, max(1, messages // 2), messages}))
    return f"# Essay\n\nThe session, cited at {tags}.\n"


def whole_session_site(log: Path, work: Path) -> tuple[Path, str]:
    """The built site of the log's whole session, and the transcript's first page as a URL path."""
    transcript = work / "transcript.jsonl"
    whole_session.import_log(log, transcript)
    with open(transcript, encoding="utf-8") as lines:
        messages = sum(1 for _ in lines)
    folder = project.synthetic_site(work, {"index.md": essay_citing(messages)}, transcript, {"context": "all"})["hook"]
    # The site's own style sheet and scripts, which its mkdocs.yml names, as a reader gets them.
    shutil.copytree(project.ROOT / "docs" / "assets", folder / "docs" / "assets")
    site = lighthouse.build_site(folder / "mkdocs.yml", work / "site")
    return site, directory_url(page_src(project.transcript_settings().folder, 0))


def diagnostics(report: dict) -> list[str]:
    """The performance diagnostics of one run, each with Lighthouse's own summary of it."""
    audits = report["audits"]
    return [f"{name}: {audits[name].get('displayValue', '')} (score {audits[name]['score']})"
            for name in DIAGNOSTICS if name in audits and audits[name].get("score") is not None]


def page_weight(site: Path, path: str) -> tuple[int, int]:
    """The page's HTML in bytes, as written and gzipped (as the host sends it)."""
    html = (site / path / "index.html").read_bytes()
    return len(html), len(gzip.compress(html))


def measure(site: Path, path: str, runs: int, out: Path) -> tuple[list[dict], list[str]]:
    summaries, notes = [], []
    out.mkdir(parents=True, exist_ok=True)
    with StaticHost(site) as host:
        for number in range(1, runs + 1):
            raw = out / f"transcript-run{number}.json"
            report = lighthouse.run_lighthouse(host.url + path, raw, "mobile")
            summaries.append(lighthouse.summarise_run(report))
            notes = diagnostics(report)  # the last run's: they vary little between runs
            raw.unlink()
    return summaries, notes


def print_figures(log: Path, path: str, weight: tuple[int, int], summaries: list[dict], notes: list[str]) -> None:
    print(f"Lighthouse, mobile preset, {len(summaries)} runs: /{path} of the whole session of {log.name}")
    print(f"page: {weight[0]:,} bytes of HTML, {weight[1]:,} gzipped")
    for category in SCORED:
        scores = [run["scores"][category] for run in summaries]
        print(f"{category}: median {statistics.median(scores):g} (runs: {', '.join(map(str, scores))})")
    for metric in lighthouse.METRICS:
        values = [run["metrics"][metric] for run in summaries if metric in run["metrics"]]
        if values:
            print(f"  {metric}: median {statistics.median(values):,.2f}")
    indexes = [run["benchmark_index"] for run in summaries if run["benchmark_index"]]
    if indexes:
        print(f"machine benchmark index (lower under load): {', '.join(f'{i:.0f}' for i in indexes)}")
    failing = sorted({audit for run in summaries for category in SCORED
                      for audit in run["failing_audits"].get(category, [])})
    print("audits short of full marks in some run:" if failing else "no audit short of full marks")
    for audit in failing:
        print(f"  - {audit}")
    print("diagnostics (last run):")
    for note in notes:
        print(f"  - {note}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     epilog="Needs `npm ci` (Lighthouse) and Chromium at $CHROME_PATH or "
                                            "/usr/bin/chromium.")
    parser.add_argument("--log", type=Path, default=DEFAULT_LOG, help="the session log (default: %(default)s)")
    parser.add_argument("--runs", type=int, default=3, help="Lighthouse runs; the median counts (default: %(default)s)")
    parser.add_argument("--keep", type=Path, help="build into this folder and keep it (default: a temporary one)")
    args = parser.parse_args(argv)
    if not lighthouse.LIGHTHOUSE.exists():
        parser.error(f"{lighthouse.LIGHTHOUSE} is missing: run `npm ci` in {project.ROOT}")
    if not Path(lighthouse.CHROMIUM).exists():
        parser.error(f"Chromium not found at {lighthouse.CHROMIUM}: apt-get install chromium")
    if not args.log.is_file():
        parser.error(f"{args.log}: no such file")
    with tempfile.TemporaryDirectory() as scratch:
        work = args.keep or Path(scratch)
        work.mkdir(parents=True, exist_ok=True)
        try:
            site, path = whole_session_site(args.log, work)
            summaries, notes = measure(site, path, args.runs, work / "lighthouse")
        except (MeasureError, RuntimeError, subprocess.CalledProcessError, subprocess.TimeoutExpired) as error:
            print(error, file=sys.stderr)
            return 2
        print_figures(args.log, path, page_weight(site, path), summaries, notes)
    return 0


if __name__ == "__main__":
    sys.exit(main())
