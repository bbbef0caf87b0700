#!/usr/bin/env python3
"""Measure how the site's build scales with the transcript.

Generates synthetic transcripts of the given sizes (most messages a few hundred bytes,
1% over 100 KB) and an essay that cites them, then measures side by side: a full
`mkdocs build` with the citation hook against the same pages with plain links, the
build's peak memory, how long `mkdocs serve` takes to rebuild after an essay page is
edited, and how fast the transcript loads. For whole sessions, it generates a Claude
Code log, imports it, and times in turns the build that shows every message, the same
build in one process (no worker), the build that shows only the cited ones, and two
peers on the same log, claude-code-transcripts and claude-code-log (when they are
installed: pip install -r requirements-benchmark.txt). Last, the shipped site with five
kept editions against none, beside the time of copying them. Prints the tables and the budgets
as PASS or FAIL, and writes both to benchmark-results.md in the output folder.
"""

from __future__ import annotations

import argparse
import shlex
import shutil
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

import yaml

from perf import kept_editions, measure, project, report, synthetic, whole_session
from sitebuild.settings import SettingsError, TranscriptSettings, read_settings

DEFAULT_SIZES = "1000,10000,100000"
QUICK_SIZES = "200,1000"
DEFAULT_WHOLE_SIZES = "6000,10000"
QUICK_WHOLE_SIZES = "1000"
RESULTS_FILE = "benchmark-results.md"


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], epilog=__doc__.split("\n\n", 1)[1],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", help=f"transcript sizes in messages, comma-separated (default {DEFAULT_SIZES})")
    parser.add_argument("--whole-sizes", help="sessions shown whole (context: all), in messages, beside the build of "
                                              "the cited messages, claude-code-transcripts and claude-code-log "
                                              f"(default {DEFAULT_WHOLE_SIZES}; empty for none)")
    parser.add_argument("--no-peer", action="store_true",
                        help="leave claude-code-transcripts and claude-code-log out even if installed")
    parser.add_argument("--quick", action="store_true",
                        help=f"a small smoke run: sizes {QUICK_SIZES}, whole sizes {QUICK_WHOLE_SIZES}, one build of "
                             "each, one serve rebuild")
    parser.add_argument("-o", "--output", type=Path, default=Path("benchmark"),
                        help="folder for the results file (default: benchmark/)")
    parser.add_argument("--repeat", type=int, help="builds of each variant; the median counts (default 5)")
    parser.add_argument("--touches", type=int, help="serve rebuilds timed; the fastest counts (default 3)")
    parser.add_argument("--pages", type=int, default=10, help="essay pages (default 10)")
    parser.add_argument("--references", type=int, default=200, help="[msg N] tags in the essay (default 200)")
    parser.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                        help="override an extra.transcript setting of the synthetic sites, such as context=all")
    parser.add_argument("--seed", type=int, default=1, help="seed of the synthetic data (default 1)")
    parser.add_argument("--keep", action="store_true", help="keep the generated projects and sites")
    parser.add_argument("--check", action="store_true", help="exit with status 1 when a budget fails")
    args = parser.parse_args(argv)
    args.sizes = _sizes(parser, "--sizes", args.sizes, QUICK_SIZES if args.quick else DEFAULT_SIZES)
    args.whole_sizes = _sizes(parser, "--whole-sizes", args.whole_sizes,
                              QUICK_WHOLE_SIZES if args.quick else DEFAULT_WHOLE_SIZES)
    if args.repeat is None:
        args.repeat = 1 if args.quick else 5
    if args.touches is None:
        args.touches = 1 if args.quick else 3
    if args.repeat < 1 or args.touches < 1:
        parser.error("--repeat and --touches must be 1 or more")
    if args.pages < 1 or args.references < args.pages:
        parser.error("--pages must be 1 or more, and --references at least --pages")
    args.settings = {}
    for item in args.set:
        key, sep, value = item.partition("=")
        if not sep or not key:
            parser.error(f"--set takes KEY=VALUE, found {item!r}")
        args.settings[key] = yaml.safe_load(value)
    try:
        read_settings(TranscriptSettings, args.settings, "extra.transcript", config_name="--set")
    except SettingsError as error:
        parser.error(str(error))
    return args


def _sizes(parser: argparse.ArgumentParser, option: str, given: str | None, default: str) -> list[int]:
    text = default if given is None else given
    try:
        sizes = [int(size) for size in text.split(",") if size.strip()]
    except ValueError:
        parser.error(f"{option} takes whole numbers separated by commas, such as 1000,10000")
    if any(size < 1 for size in sizes):
        parser.error(f"{option} must all be 1 or more")
    return sizes


def measure_size(messages: int, args, work: Path) -> report.Row:
    transcript = work / f"transcript-{messages}.jsonl"
    size = synthetic.write_transcript(transcript, messages, seed=args.seed)
    essay = synthetic.make_essay(messages, args.pages, args.references, seed=args.seed + 1)
    projects = project.synthetic_site(work, essay.pages, transcript, args.settings)
    runs = measure.typical_builds(projects, work, args.repeat)
    folder = project.transcript_settings(args.settings).folder
    pages = measure.transcript_page_stats(work / f"site-{projects['hook'].name}", folder)
    first_page = projects["hook"] / "docs" / next(iter(essay.pages))
    rebuild, reused = measure.serve_rebuilds(projects["hook"], first_page, args.touches)
    load = measure.load_seconds(transcript, max(args.repeat, 5))  # each load is short: take more
    return report.Row(f"{messages:,} messages", size, runs["hook"], runs["plain"], messages,
                      rebuild, reused, load, pages)


def peer_sentence(left_out: bool) -> str:
    """What the whole sessions' table says of the peers."""
    names = [peer.name for peer in whole_session.PEERS]
    if left_out:
        return f"{' and '.join(names)} left out (--no-peer)."
    versions = {name: whole_session.peer_version(name) for name in names}
    installed = [f"{name} {version}" for name, version in versions.items() if version is not None]
    missing = [name for name, version in versions.items() if version is None]
    parts = []
    if installed:
        parts.append(f"{' and '.join(installed)} {'renders' if len(installed) == 1 else 'render'} the same log")
    if missing:
        parts.append(f"{' and '.join(missing)} not installed")
    return "; ".join(parts) + "."


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    work = Path(tempfile.mkdtemp(prefix="site-benchmark-"))
    started = time.monotonic()
    try:
        print(f"Working in {work}", flush=True)
        project.compile_hooks()
        shipped_projects = project.shipped_site(work)
        # The shipped site builds in about half a second, so background noise weighs more: more runs.
        runs = measure.typical_builds(shipped_projects, work, 5 * args.repeat)
        transcript = project.ROOT / "docs" / "transcript.jsonl"
        shipped = report.Row("shipped site", transcript.stat().st_size, runs["hook"], runs["plain"])
        print(f"shipped site: {shipped.ratio:.2f}x", flush=True)
        rows = []
        for messages in args.sizes:
            rows.append(measure_size(messages, args, work))
            print(f"{messages:,} messages: {rows[-1].ratio:.2f}x", flush=True)
        whole = []
        for messages in args.whole_sizes:
            whole.append(whole_session.measure_whole(messages, args, work, use_peer=not args.no_peer))
            print(f"{messages:,} messages, every one shown: {whole[-1].every.seconds:.2f} s", flush=True)
        editions = kept_editions.measure_editions(work, args.repeat)
        print(kept_editions.summary(editions), flush=True)
    except measure.MeasureError as error:
        print(f"benchmark: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("benchmark: interrupted", file=sys.stderr)
        return 130
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)

    per_page = project.transcript_settings(args.settings).messages_per_page
    results = report.budgets(shipped, rows, per_page) + report.whole_budgets(whole) \
        + [kept_editions.budget(editions)]
    lines = [
        f"# Build benchmark, {datetime.now(UTC):%Y-%m-%d %H:%M} UTC",
        "",
        f"Command: `python scripts/benchmark.py {shlex.join(argv if argv is not None else sys.argv[1:])}`",
        f"Essay: {args.pages} pages, {args.references} references. Builds: median of {args.repeat} "
        f"(shipped site: of {5 * args.repeat}); serve rebuilds: fastest of {args.touches}; "
        f"transcript settings: {args.settings or 'as in mkdocs.yml'}; the hooks' bytecode written before the builds. "
        f"Took {time.monotonic() - started:.0f} s.",
        "",
        *report.machine(),
        "",
        *report.table([shipped, *rows]),
        "",
        *(["Whole sessions: a generated Claude Code log, imported, built with `context: all`; "
           + peer_sentence(args.no_peer), "", *report.whole_table(whole), ""] if whole else []),
        f"Kept editions: {kept_editions.summary(editions)}.",
        "",
        "```",
        *report.budget_lines(results),
        "```",
        "",
    ]
    args.output.mkdir(parents=True, exist_ok=True)
    (args.output / RESULTS_FILE).write_text("\n".join(lines), encoding="utf-8")
    print("\n".join(lines[2:]))
    print(f"Written to {args.output / RESULTS_FILE}")
    failed = any(passed is False for passed, _ in results)
    return 1 if failed and args.check else 0


if __name__ == "__main__":
    sys.exit(main())
