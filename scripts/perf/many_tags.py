"""How a page's build time grows with its number of tags, beside ten times fewer.

    cd scripts && python -m perf.many_tags [--tags 800,8000]

A page of an essay cites messages `--tags` times: once spread one tag a paragraph, once
all in one paragraph, each page holding a raw HTML link too (which makes each tag look
back over its paragraph for an open link). Each build runs in a fresh process; the
figures are its time, and each time's ratio to the first size's. Placement is linear in
the number of tags when ten times the tags take at most about ten times as long (a
build's fixed cost makes small sizes relatively slower).
"""

from __future__ import annotations

import argparse
import json
import tempfile
from pathlib import Path

from . import measure
from .project import HOOK, compile_hooks

MESSAGES = 20
LAYOUTS = ("spread", "one paragraph")


def tag_project(folder: Path, tags: int, layout: str) -> Path:
    docs = folder / "docs"
    docs.mkdir(parents=True)
    with open(docs / "transcript.jsonl", "w", encoding="utf-8") as file:
        for n in range(1, MESSAGES + 1):
            file.write(json.dumps({"n": n, "speaker": "user", "provenance": "verbatim", "text": f"message {n}"}) + "\n")
    cited = [f"Text [msg {i % MESSAGES + 1}] cited." for i in range(tags)]
    body = "\n\n".join(cited) if layout == "spread" else " ".join(cited)
    raw_link = 'A <a href="https://example.org/">raw link</a> first.'
    (docs / "index.md").write_text(f"# Tags\n\n{raw_link}\n\n{body}\n", encoding="utf-8")
    config = {
        "site_name": "Many tags", "theme": {"name": "material"}, "hooks": [str(HOOK)],
        "nav": ["index.md", "transcript/index.md"],
        "extra": {"transcript": {"source": "docs/transcript.jsonl"}},
    }
    (folder / "mkdocs.yml").write_text(json.dumps(config), encoding="utf-8")  # JSON is YAML
    return folder


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tags", default="800,8000", help="the numbers of tags, comma-separated")
    args = parser.parse_args()
    sizes = [int(size) for size in args.tags.split(",")]
    compile_hooks()
    with tempfile.TemporaryDirectory(prefix="many-tags-") as work_dir:
        work = Path(work_dir)
        print(f"{'layout':<14} {'tags':>7} {'seconds':>8} {'ratio':>6}")
        for layout in LAYOUTS:
            first = None
            for tags in sizes:
                name = f"{layout.replace(' ', '-')}-{tags}"
                run = measure.build(tag_project(work / name, tags, layout), work / f"site-{name}")
                first = first or run.seconds
                print(f"{layout:<14} {tags:>7,} {run.seconds:>8.1f} {run.seconds / first:>6.1f}")


if __name__ == "__main__":
    main()
