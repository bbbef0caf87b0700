"""Measure the transcript's search index of whole sessions: the benchmark's generated
Claude Code log (perf.claude_log, seed 1), imported, built once with every message shown,
and the files of its index measured as written and gzipped.

    cd scripts && python -m perf.search_index [--sizes 6000,10000] [--hooks DIR]

For each size it prints the index's files and bytes, its largest shard and its largest
file of results' texts, what a query of one word loads at most (the list of shards, the
largest shard and the largest file of texts), the build's time and its largest
transcript page. --hooks names the folder of the hook and its packages to build with
(default: this repository's), so that another checkout's index can be measured beside it.
"""

from __future__ import annotations

import argparse
import gzip
import os
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from . import claude_log, measure, project, synthetic, whole_session

ROOT = Path(__file__).resolve().parents[2]


@dataclass(frozen=True)
class FileSize:
    name: str
    bytes: int
    gzip_bytes: int


def sizes_of(folder: Path) -> list[FileSize]:
    return [FileSize(path.name, len(data), len(gzip.compress(data, 6)))
            for path in sorted(folder.iterdir()) for data in [path.read_bytes()]]


def built_site(messages: int, work: Path, hooks: Path) -> tuple[Path, float]:
    """The whole session of `messages` built into a site, and the build's seconds."""
    log, transcript = work / "session.jsonl", work / "transcript.jsonl"
    claude_log.write_log(log, messages, seed=1)
    whole_session.import_log(log, transcript)
    essay = synthetic.make_essay(messages, 10, 200, seed=2)
    site_project = project.synthetic_site(work, essay.pages, transcript, {"context": "all"})["hook"]
    config = site_project / "mkdocs.yml"
    config.write_text(config.read_text(encoding="utf-8").replace(str(project.HOOK), str(hooks / "mkdocs_hook.py")),
                      encoding="utf-8")
    env = {**measure.ENV, "PYTHONPATH": os.pathsep.join([str(hooks), measure.ENV.get("PYTHONPATH", "")])}
    start = time.perf_counter()
    result = subprocess.run([sys.executable, "-m", "mkdocs", "build", "-d", str(work / "site")], cwd=site_project,
                            env=env, capture_output=True, text=True)
    seconds = time.perf_counter() - start
    if result.returncode != 0:
        raise SystemExit(f"search_index: the build of {messages:,} messages failed:\n{result.stderr[-2000:]}")
    return work / "site", seconds


def report(messages: int, site: Path, seconds: float) -> list[str]:
    folder = project.transcript_settings().folder
    files = sizes_of(site / folder / "search")
    shards = [file for file in files if not file.name.startswith(("index", "page-"))]
    texts = [file for file in files if file.name.startswith("page-")]
    [listing] = [file for file in files if file.name == "index.js"]
    shard, text = max(shards, key=lambda f: f.bytes), max(texts, key=lambda f: f.bytes)
    query = listing.gzip_bytes + shard.gzip_bytes + text.gzip_bytes
    pages = measure.transcript_page_stats(site, folder)
    kb = lambda file: f"{file.bytes / 1000:,.0f} KB ({file.gzip_bytes / 1000:,.0f} KB gzipped)"  # noqa: E731
    return [
        f"{messages:,} messages: built in {seconds:.2f} s",
        f"  index: {len(files)} files, {sum(f.bytes for f in files) / 1e6:,.2f} MB "
        f"({sum(f.gzip_bytes for f in files) / 1e6:,.2f} MB gzipped), {len(shards)} shards",
        f"  largest shard {shard.name}: {kb(shard)}; largest file of texts {text.name}: {kb(text)}",
        f"  a query of one word loads at most {query / 1000:,.0f} KB gzipped (index.js {kb(listing)})",
        f"  largest transcript page: {pages.largest_bytes / 1000:,.0f} KB "
        f"({pages.largest_gzip_bytes / 1000:,.0f} KB gzipped), {pages.most_messages} messages",
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="6000,10000", help="messages of each session (default 6000,10000)")
    parser.add_argument("--hooks", type=Path, default=ROOT / "hooks", help="the folder of the hook and its packages")
    args = parser.parse_args(argv)
    try:
        sizes = [int(size) for size in args.sizes.split(",") if size.strip()]
    except ValueError:
        parser.error("--sizes takes whole numbers separated by commas, such as 6000,10000")
    if not (args.hooks / "mkdocs_hook.py").is_file():
        parser.error(f"--hooks: no mkdocs_hook.py in {args.hooks}")
    print(f"hooks: {args.hooks.resolve()}")
    for messages in sizes:
        with tempfile.TemporaryDirectory(prefix="search-index-") as work:
            site, seconds = built_site(messages, Path(work), args.hooks.resolve())
            print("\n".join(report(messages, site, seconds)), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
