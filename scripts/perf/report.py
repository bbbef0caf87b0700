"""The benchmark's results: the machine, the table and the budgets, as Markdown."""

from __future__ import annotations

import os
import platform
import sys
from dataclasses import dataclass
from importlib import metadata

from .measure import PageStats, Run
from .whole_session import PEERS

MB = 1_000_000
MiB = 2**20


@dataclass(frozen=True)
class Row:
    label: str
    file_bytes: int
    hook: Run
    plain: Run
    messages: int | None = None  # None for the shipped site
    rebuild_seconds: float | None = None
    rebuild_reused: bool | None = None  # the transcript was not parsed again
    load_seconds: float | None = None
    pages: PageStats | None = None

    @property
    def ratio(self) -> float:
        return self.hook.seconds / self.plain.seconds

    @property
    def added_rss(self) -> int:
        return self.hook.peak_rss - self.plain.peak_rss

    @property
    def load_mb_s(self) -> float | None:
        return None if self.load_seconds is None else self.file_bytes / MB / self.load_seconds


def machine() -> list[str]:
    cpu = "unknown"
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as file:
            cpu = next((line.split(":", 1)[1].strip() for line in file if line.startswith("model name")), cpu)
    except OSError:
        pass
    memory = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") if hasattr(os, "sysconf") else 0
    versions = ", ".join(f"{name} {_version(name)}" for name in ("mkdocs", "mkdocs-material", "Markdown", "orjson"))
    return [
        f"- CPU: {cpu}, {os.cpu_count()} cores (nproc)",
        f"- Memory: {memory / 2**30:.1f} GiB",
        f"- Python {platform.python_version()} on {platform.system()} {platform.release()}",
        f"- {versions}",
    ]


def _version(name: str) -> str:
    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return "not installed"


def _size(n: int) -> str:
    return f"{n / MB:,.1f} MB" if n >= 100_000 else f"{n / 1000:,.1f} KB"


def table(rows: list[Row]) -> list[str]:
    lines = [
        "| Transcript | File | Build with hook | Build, plain links | Ratio | Peak RSS with hook "
        "| Peak RSS, plain | Added by hook | Serve rebuild | Loading | Transcript pages |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |",
    ]
    for row in rows:
        rebuild = "–" if row.rebuild_seconds is None else f"{row.rebuild_seconds:.2f} s"
        if row.rebuild_reused is False:
            rebuild += " (parsed again)"
        load = "–" if row.load_mb_s is None else f"{row.load_mb_s:,.0f} MB/s"
        pages = "–" if row.pages is None else (
            f"{row.pages.pages}, at most {row.pages.most_messages} messages, {_size(row.pages.largest_bytes)}")
        lines.append(
            f"| {row.label} | {_size(row.file_bytes)} | {row.hook.seconds:.2f} s | {row.plain.seconds:.2f} s "
            f"| {row.ratio:.2f}x | {row.hook.peak_rss / MiB:,.0f} MiB | {row.plain.peak_rss / MiB:,.0f} MiB "
            f"| {row.added_rss / MiB:,.0f} MiB | {rebuild} | {load} | {pages} |"
        )
    return lines


def budgets(shipped: Row | None, rows: list[Row], per_page: int) -> list[tuple[bool | None, str]]:
    """(passed, text) for each budget; passed is None when this run did not measure it."""
    results: list[tuple[bool | None, str]] = []
    if shipped is not None:
        results.append((shipped.ratio <= 1.10,
                        f"the hook adds at most 10% to the shipped site's build: {shipped.ratio:.2f}x"))
    ten_k = next((row for row in rows if row.messages == 10_000), None)
    if ten_k is None:
        results.append((None, "with 10,000 messages the build takes at most 1.5x the build without the hook: "
                              "not measured (10,000 is not among the sizes)"))
    else:
        results.append((ten_k.ratio <= 1.5, f"with 10,000 messages the build takes at most 1.5x the build without "
                                            f"the hook: {ten_k.ratio:.2f}x"))
    for row in rows:
        speed = row.load_mb_s
        measured = "not measured" if speed is None else f"{speed:,.0f} MB/s"
        results.append((None if speed is None else speed >= 100,
                        f"{row.label}: loading reaches at least 100 MB/s: {measured}"))
    results.extend((row.added_rss < 2 * row.file_bytes,
                    f"{row.label}: the peak memory the hook adds stays under twice the transcript file "
                    f"({_size(2 * row.file_bytes)}): {row.added_rss / MB:,.1f} MB") for row in rows)
    results.extend((row.rebuild_reused is True, f"{row.label}: a serve rebuild after an essay edit does not "
                                                "parse the transcript again") for row in rows)
    pages = [row.pages for row in rows if row.pages is not None]
    if pages:
        most = max(page.most_messages for page in pages)
        results.append((most <= per_page, f"no transcript page holds more than {per_page} messages: at most {most}"))
    return results


def budget_lines(results: list[tuple[bool | None, str]]) -> list[str]:
    label = {True: "PASS", False: "FAIL", None: "SKIP"}
    return [f"{label[passed]}  {text}" for passed, text in results]


def whole_table(rows: list) -> list[str]:
    """The whole-session rows (`whole_session.WholeRow`)."""
    peer_columns = "".join(f"| {peer.name} (time, peak RSS) | Times faster " for peer in PEERS)
    lines = [
        "| Session | Log | Transcript | Build, every message | In one process | Worker saves | Build, cited only "
        f"| Every / cited {peer_columns}| Peak RSS, every message | Transcript pages "
        "| Serve rebuild, every / cited |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: " + "| ---: | ---: " * len(PEERS)
        + "| ---: | --- | ---: |",
    ]
    for row in rows:
        peers = ""
        for peer in PEERS:
            run, speedup = row.peers.get(peer.name), row.speedup(peer.name)
            if run is None or speedup is None:
                peers += "| not measured | – "
            else:
                peers += f"| {run.seconds:.2f} s, {run.peak_rss / MiB:,.0f} MiB | {speedup:.1f}x "
        lines.append(
            f"| {row.messages:,} messages | {_size(row.log_bytes)} | {_size(row.transcript_bytes)} "
            f"| {row.every.seconds:.2f} s | {row.single.seconds:.2f} s | {row.worker_saves:.0%} "
            f"| {row.cited.seconds:.2f} s | {row.ratio:.2f}x {peers}"
            f"| {row.every.peak_rss / MiB:,.0f} MiB | {row.pages.pages}, at most {row.pages.most_messages} messages, "
            f"{_size(row.pages.largest_bytes)} "
            f"| {row.rebuild_every:.2f} s / {row.rebuild_cited:.2f} s ({row.rebuild_ratio:.2f}x) |"
        )
    return lines


WHOLE_SESSION_MEMORY = 200 * MB
WHOLE_SESSION_BUDGETED = 10_000  # messages: the budgets are for sessions up to this size
WORKER_SAVES = 0.15  # the least part of a build a worker process must save to be worth keeping
PAGE_BYTES, PAGE_GZIP_BYTES = 600_000, 100_000  # the most a transcript page of 500 messages may weigh
REBUILD_RATIO = 1.5  # the most a serve rebuild of the whole session may take, against the cited messages' rebuild


def whole_budgets(rows: list) -> list[tuple[bool | None, str]]:
    results: list[tuple[bool | None, str]] = []
    for row in rows:
        label = f"{row.messages:,} messages, every message shown"
        if row.messages > WHOLE_SESSION_BUDGETED:
            results.append((None, f"{label}: no budget past {WHOLE_SESSION_BUDGETED:,} messages "
                                  f"({row.every.seconds:.2f} s, peak memory {row.every.peak_rss / MB:,.0f} MB)"))
            continue
        results.append((row.ratio <= 2.0, f"{label}: the build takes at most 2x the build of the cited messages: "
                                          f"{row.ratio:.2f}x"))
        worker = f"{label}: the worker process saves at least 15% of the build in one process"
        if sys.platform.startswith("linux"):
            against = f"({row.every.seconds:.2f} s against {row.single.seconds:.2f} s)"
            results.append((row.worker_saves >= WORKER_SAVES, f"{worker}: {row.worker_saves:.0%} {against}"))
        else:
            results.append((None, f"{worker}: not measured (a worker is forked on Linux only)"))
        speedup = row.speedup("claude-code-transcripts")
        if speedup is None:
            results.append((None, f"{label}: at least 3x faster than claude-code-transcripts: not measured "
                                  "(not installed; pip install -r requirements-benchmark.txt)"))
        else:
            results.append((speedup >= 3.0, f"{label}: at least 3x faster than claude-code-transcripts: "
                                            f"{speedup:.1f}x"))
        largest, zipped = row.pages.largest_bytes, row.pages.largest_gzip_bytes
        results.append((largest <= PAGE_BYTES and zipped <= PAGE_GZIP_BYTES,
                        f"{label}: a page of {row.pages.most_messages} messages at most 600 KB, 100 KB compressed: "
                        f"{largest / 1000:,.0f} KB, {zipped / 1000:,.0f} KB"))
        results.append((row.every.peak_rss < WHOLE_SESSION_MEMORY,
                        f"{label}: peak memory under 200 MB: {row.every.peak_rss / MB:,.0f} MB"))
        results.append((row.rebuild_ratio <= REBUILD_RATIO,
                        f"{label}: a serve rebuild after an essay page is edited takes at most 1.5x the rebuild "
                        f"of the cited messages: {row.rebuild_ratio:.2f}x ({row.rebuild_every:.2f} s against "
                        f"{row.rebuild_cited:.2f} s)"))
    return results
