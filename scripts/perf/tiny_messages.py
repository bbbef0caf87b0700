"""Peak memory of builds of a transcript of many one-character messages, beside the file's size.

    cd scripts && python -m perf.tiny_messages [--messages N] [--context cited,all]

The transcript (default 1,000,000 messages, about 72 MB) is as small per message as a
transcript can be: what a build keeps for each message, rather than for each byte,
is all its memory holds. An essay of three tags cites the first, middle and last but one
message. Each build runs in a fresh process; the figures are its time and its peak
resident memory, and the peak's ratio to the file's size.
"""

from __future__ import annotations

import argparse
import json
import tempfile
from pathlib import Path

from . import measure
from .project import HOOK, compile_hooks

CONTEXTS = {"cited": 0, "all": "all"}


def write_tiny_transcript(path: Path, messages: int) -> int:
    with open(path, "w", encoding="utf-8") as file:
        for n in range(1, messages + 1):
            file.write(json.dumps({"n": n, "speaker": "user", "provenance": "verbatim", "text": "x"}) + "\n")
    return path.stat().st_size


def tiny_project(folder: Path, transcript: Path, messages: int, context: object) -> Path:
    (folder / "docs").mkdir(parents=True)
    cited = (1, messages // 2, max(1, messages - 1))
    (folder / "docs" / "index.md").write_text("# Essay\n\n" + ", ".join(f"[msg {n}]" for n in cited) + ".\n")
    config = {
        "site_name": "Tiny messages", "theme": {"name": "material"}, "hooks": [str(HOOK)], "plugins": ["search"],
        "nav": ["index.md", "transcript/index.md"],
        "extra": {"transcript": {"source": str(transcript), "context": context}},
    }
    (folder / "mkdocs.yml").write_text(json.dumps(config), encoding="utf-8")  # JSON is YAML
    return folder


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--messages", type=int, default=1_000_000)
    parser.add_argument("--context", default="cited,all", help="which builds: cited, all, or both (default)")
    args = parser.parse_args()
    compile_hooks()
    with tempfile.TemporaryDirectory(prefix="tiny-messages-") as work_dir:
        work = Path(work_dir)
        transcript = work / "transcript.jsonl"
        size = write_tiny_transcript(transcript, args.messages)
        print(f"{args.messages:,} messages, transcript file {size / 1e6:.1f} MB")
        print(f"{'shown':<8} {'seconds':>8} {'peak MB':>8} {'peak / file':>12}")
        for name in args.context.split(","):
            project = tiny_project(work / name, transcript, args.messages, CONTEXTS[name])
            run = measure.build(project, work / f"site-{name}")
            print(f"{name:<8} {run.seconds:>8.1f} {run.peak_rss / 1e6:>8.0f} {run.peak_rss / size:>12.2f}")


if __name__ == "__main__":
    main()
