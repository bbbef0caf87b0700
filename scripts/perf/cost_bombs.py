"""Time and peak memory of builds of small inputs made to cost far more than their size.

    cd scripts && python -m perf.cost_bombs [--hooks DIR] [--timeout S] [--memory-gb G] [--only NAME,...]

Each case is a tiny project of one page, built with `mkdocs build --strict` in a fresh
process, stopped at --timeout seconds (default 60) or when it would hold more than
--memory-gb (default 4) of address space, so that a build that would take the machine's
memory fails instead. The figures are its time, its peak resident memory, how it ended,
and the length of the longest line it wrote (a value written out whole in an error
makes a line of megabytes).

--hooks names the folder of the hook and its packages to build with (default: this
repository's), so that another checkout's can be measured beside this one's.

The cases: a thinking of a fence whose `hl_lines` repeat a range 3,000 times over
22,000 empty lines (in one message, and in three); a MultiEdit of 1,500 edits, each
under the diff's limit; a TodoWrite of 100,000 items (its cost grows with it, no faster);
a page whose front matter title is a YAML "billion laughs"
(9**9 values); the same in mkdocs.yml, under extra.transcript.redact_allow, of 9**7
values and of 9**9; a quoted edition of 5,000 digits.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from .dev_server import ENV
from .project import ROOT

PAGE = "# Essay\n\nWords [msg 1].\n"


@dataclass(frozen=True)
class Ended:
    seconds: float
    peak_rss: int  # bytes
    how: str  # "ok", "exit N", "timeout"
    longest_line: int
    problem: str  # the last line of an error, or else the last line


def laughs(levels: int, indent: str = "") -> tuple[str, str]:
    """YAML lines whose last anchor names 9**levels values, and an alias of it."""
    lines = [f"{indent}l0: &l0 [{', '.join(['lol'] * 9)}]"]
    lines += [f"{indent}l{i}: &l{i} [{', '.join([f'*l{i - 1}'] * 9)}]" for i in range(1, levels)]
    return "\n".join(lines) + "\n", f"*l{levels - 1}"


def project(folder: Path, hooks: Path, records: list[dict], page: str = PAGE, extra: str = "") -> Path:
    """A project of one page citing message 1 of `records`, with `extra` lines under `extra:`."""
    (folder / "docs").mkdir(parents=True)
    (folder / "docs" / "index.md").write_text(page, encoding="utf-8")
    with open(folder / "docs" / "transcript.jsonl", "w", encoding="utf-8") as file:
        for record in records:
            file.write(json.dumps(record) + "\n")
    (folder / "mkdocs.yml").write_text(
        "site_name: Cost bombs\ntheme:\n  name: material\nplugins: [search]\n"
        f"hooks: [{json.dumps(str(hooks / 'mkdocs_hook.py'))}]\n"
        "nav: [index.md, transcript/index.md]\n"
        f"extra:\n{extra or '  transcript: {}'}\n", encoding="utf-8")
    return folder


def said(n: int, **fields: object) -> dict:
    return {"n": n, "speaker": "assistant", "provenance": "verbatim", "text": "Done.", **fields}


def fence_thinking() -> str:
    ranges = " ".join(["1-99999"] * 3_000)
    return f'```python hl_lines="{ranges}"\n' + "\n" * 22_000 + "```\n"


def many_edits() -> dict:
    lines = 999  # old and new together under the diff's limit of 2,000 lines an edit
    edits = [{"old_string": "\n".join(f"line {i} {k}" for i in range(lines)),
              "new_string": "\n".join(f"line {i * 7 % lines} {k}" for i in range(lines))} for k in range(1_500)]
    return {"file_path": "a.py", "edits": edits}


def front_matter_laughs() -> str:
    lines, alias = laughs(9)
    return f"---\n{lines}title: {alias}\n---\n{PAGE}"


def settings_laughs(levels: int) -> str:
    lines, alias = laughs(levels, indent="    ")
    return f"  laughs:\n{lines}  transcript:\n    redact_allow: {alias}\n"


def long_edition() -> str:
    digits = "1" * 5_000
    return f'  essay:\n    title: T\n    published: 2026-01-01\n    edition: "{digits}"\n    sections: [index.md]\n'


CASES: dict[str, Callable[[Path, Path], Path]] = {
    "fence-1-message": lambda folder, hooks: project(folder, hooks, [said(1, thinking=fence_thinking())]),
    "fence-3-messages": lambda folder, hooks: project(
        folder, hooks, [said(n, thinking=fence_thinking()) for n in (1, 2, 3)], page=PAGE + "[msg 2] [msg 3]\n"),
    "multiedit-1500": lambda folder, hooks: project(
        folder, hooks, [said(1, text="", tool_name="MultiEdit", tool_input=many_edits())]),
    "todowrite-100k": lambda folder, hooks: project(folder, hooks, [said(1, text="", tool_name="TodoWrite", tool_input={
        "todos": [{"content": f"item {i}", "status": "pending"} for i in range(100_000)]})]),
    "front-matter-9^9": lambda folder, hooks: project(folder, hooks, [said(1)], page=front_matter_laughs()),
    "mkdocs.yml-9^7": lambda folder, hooks: project(folder, hooks, [said(1)], extra=settings_laughs(7)),
    "mkdocs.yml-9^9": lambda folder, hooks: project(folder, hooks, [said(1)], extra=settings_laughs(9)),
    "edition-5000-digits": lambda folder, hooks: project(folder, hooks, [said(1)], extra=long_edition()),
}


def built(folder: Path, hooks: Path, timeout: float, memory: int) -> Ended:
    """`mkdocs build --strict` of `folder` in a fresh process, its packages from `hooks`."""
    def limited() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (memory, memory))

    log_path = folder.with_suffix(".log")
    env = {**ENV, "PYTHONPATH": os.pathsep.join([str(hooks), ENV.get("PYTHONPATH", "")])}
    command = [sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(folder / "site")]
    with open(log_path, "w+b") as log:
        start = time.perf_counter()
        process = subprocess.Popen(command, cwd=folder, env=env, stdout=log, stderr=subprocess.STDOUT,
                                   preexec_fn=limited)
        how = ""
        while True:
            pid, status, usage = os.wait4(process.pid, os.WNOHANG)
            if pid:
                break
            if time.perf_counter() - start > timeout:
                process.kill()
                _, status, usage = os.wait4(process.pid, 0)
                how = "timeout"
                break
            time.sleep(0.05)
        seconds = time.perf_counter() - start
        process.returncode = os.waitstatus_to_exitcode(status)  # reaped here: Popen must not wait for it again
        code = process.returncode
        how = how or ("ok" if code == 0 else f"exit {code}")
        log.seek(0)
        longest, error, last = 0, "", ""
        for line in log:  # read line by line: one line may be hundreds of megabytes
            longest = max(longest, len(line.rstrip(b"\n")))
            shown = line[:300].decode(errors="replace").strip()
            if shown.startswith("ERROR"):
                error = shown
            last = shown or last
    return Ended(seconds, usage.ru_maxrss * 1024, how, longest, error or last)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hooks", type=Path, default=ROOT / "hooks", help="the folder of the hook and its packages")
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds a build may take (default 60)")
    parser.add_argument("--memory-gb", type=float, default=4.0, help="address space a build may hold (default 4)")
    parser.add_argument("--only", default="", help="the cases to build, by name, separated by commas")
    args = parser.parse_args()
    chosen = [name for name in CASES if not args.only or name in args.only.split(",")]
    print(f"hooks: {args.hooks.resolve()}")
    print(f"{'case':<24} {'seconds':>8} {'peak MB':>8} {'ended':>8} {'longest line':>13}  error")
    with tempfile.TemporaryDirectory(prefix="cost-bombs-") as work_dir:
        for number, name in enumerate(chosen):
            folder = CASES[name](Path(work_dir) / f"case-{number}", args.hooks.resolve())
            run = built(folder, args.hooks.resolve(), args.timeout, int(args.memory_gb * 2**30))
            print(f"{name:<24} {run.seconds:>8.1f} {run.peak_rss / 1e6:>8.0f} {run.how:>8} {run.longest_line:>13,}  "
                  f"{run.problem[:140]}", flush=True)


if __name__ == "__main__":
    main()
