"""Time scripts/find_messages.py on a large transcript and measure its peak memory.

    cd scripts && python -m perf.find_timer [TRANSCRIPT] [--messages N] [--repeat R]

Without TRANSCRIPT, a synthetic transcript of N messages (default 100,000; see
perf.synthetic) is written to a temporary folder and removed afterwards. Each search runs
R times (default 3) in a fresh process, its output read through a pipe and counted;
the figures are the best time and the largest peak resident memory of the runs.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from .synthetic import write_transcript

FIND = Path(__file__).resolve().parents[1] / "find_messages.py"
SEARCHES = {
    "every message": [],
    "two words": ["kernel", "timeout"],
    "one speaker": ["--speaker", "user"],
    "one tool": ["--tool", "bash"],
    "the first 20": ["--limit", "20"],
}

# Run in a small process of its own: a child's peak memory, as Linux counts it, is at
# least the memory of the process that started it (the two share it until the child
# starts its program), so the command is started by this probe, not by a large parent.
_PROBE = """
import resource, subprocess, sys, time
start = time.perf_counter()
with subprocess.Popen(sys.argv[1:], stdout=subprocess.PIPE) as child:
    lines = sum(1 for _ in child.stdout)
seconds = time.perf_counter() - start
print(seconds, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, child.returncode, lines)
"""
_MAXRSS_BYTES = 1 if sys.platform == "darwin" else 1024  # ru_maxrss is in bytes on macOS, kilobytes elsewhere


@dataclass(frozen=True)
class Measure:
    seconds: float
    peak_bytes: int
    exit_status: int
    lines: int  # of the command's output
    stderr: str


def measured(command: list[str], timeout: float = 300) -> Measure:
    """Run `command` in a fresh process, reading its output; its time and peak resident memory."""
    probe = subprocess.run([sys.executable, "-c", _PROBE, *command],
                           capture_output=True, text=True, timeout=timeout, check=True)
    seconds, peak, status, lines = probe.stdout.split()
    return Measure(float(seconds), int(peak) * _MAXRSS_BYTES, int(status), int(lines), probe.stderr)


def find_command(transcript: str | Path, *options: str) -> list[str]:
    return [sys.executable, str(FIND), "--transcript", str(transcript), *options]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("transcript", nargs="?", help="a transcript file (default: a synthetic one)")
    parser.add_argument("--messages", type=int, default=100_000, help="of the synthetic transcript")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each search")
    args = parser.parse_args(argv)
    if args.messages < 1 or args.repeat < 1:
        parser.error("--messages and --repeat must be 1 or more")
    with tempfile.TemporaryDirectory() as folder:
        path = Path(args.transcript or Path(folder, "transcript.jsonl"))
        if args.transcript is None:
            write_transcript(path, args.messages)
        what = f"{path}" if args.transcript else f"a synthetic transcript of {args.messages:,} messages"
        print(f"{what}: {path.stat().st_size / 1e6:.0f} MB")
        for name, options in SEARCHES.items():
            runs = [measured(find_command(path, *options)) for _ in range(args.repeat)]
            if runs[0].exit_status not in (0, 1):
                print(f"{name}: find_messages.py failed: {runs[0].stderr.strip()}", file=sys.stderr)
                return 1
            best = min(run.seconds for run in runs)
            peak = max(run.peak_bytes for run in runs)
            command = " ".join(["find_messages.py", *options])
            print(f"{name:<14} {best:6.2f} s  {peak / 1e6:6.1f} MB peak  {runs[0].lines:>7} listed  ({command})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
