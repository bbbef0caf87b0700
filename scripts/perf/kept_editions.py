"""What kept editions cost a build: the shipped site built with five kept editions
against the same site with none, beside the time it takes to copy those editions.

    cd scripts && ../.venv/bin/python -m perf.kept_editions [--repeat 5]

Each edition is kept by scripts/new_edition.py, as an author keeps one. The two builds
(`--clean`, as the benchmark's others) and the copy take turns (see measure.typical), so
that the machine's load weighs on each alike; the copy, like a clean build, first removes
what the last one wrote.
"""

from __future__ import annotations

import argparse
import datetime
import functools
import os
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from perf import measure, project, report
from sitebuild.editions import EDITIONS_FOLDER

EDITIONS = 5
PUBLIC_URL = "https://example.org/essay/"  # new_edition.py keeps no copy at a local address
NEW_EDITION = project.ROOT / "scripts" / "new_edition.py"


@dataclass(frozen=True)
class EditionsCost:
    editions: int
    files: int
    size: int  # bytes, of every kept copy
    none: float  # seconds: a build with no kept edition
    kept: float  # seconds: a build with them
    copy: float  # seconds: copying them alone, over the last copy (`cp -r`)

    @property
    def added(self) -> float:
        return self.kept - self.none


def essay_project(folder: Path) -> Path:
    """The shipped site, at a public address, with no kept edition."""
    shutil.copytree(project.ROOT / "docs", folder / "docs", ignore=shutil.ignore_patterns(EDITIONS_FOLDER))
    config = project.site_config()
    config["site_url"] = PUBLIC_URL
    config["hooks"] = [str((project.ROOT / hook).resolve()) for hook in config.get("hooks", [])]
    project.write_config(folder, config)
    return folder


def keep_editions(folder: Path, count: int) -> None:
    published = datetime.date.fromisoformat(str(project.site_config()["extra"]["essay"]["published"]))
    for n in range(1, count + 1):
        date = published + datetime.timedelta(days=n)
        result = subprocess.run([sys.executable, str(NEW_EDITION), "--date", date.isoformat()], cwd=folder,
                                capture_output=True, text=True, env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})
        if result.returncode:
            raise measure.MeasureError(f"new_edition.py failed in {folder}:\n{result.stderr[-2000:]}")


def copy(editions: Path, target: Path) -> measure.Run:
    """Copying the kept editions to `target`, over what the last copy left there, in a fresh process."""
    return measure.timed(["sh", "-c", 'rm -rf "$2" && cp -r "$1" "$2"', "copy", str(editions), str(target)],
                         editions, target.parent / "copy.log")


def measure_editions(work: Path, repeat: int, count: int = EDITIONS) -> EditionsCost:
    projects = {"none": essay_project(work / "editions-none"), "kept": essay_project(work / "editions-kept")}
    keep_editions(projects["kept"], count)
    # The site without them names the same edition, so that both build the same pages.
    shutil.copy(projects["kept"] / "mkdocs.yml", projects["none"] / "mkdocs.yml")
    editions = projects["kept"] / "docs" / EDITIONS_FOLDER
    runners = {name: functools.partial(measure.build, folder, work / f"site-{folder.name}")
               for name, folder in projects.items()}
    runs = measure.typical({**runners, "copy": functools.partial(copy, editions, work / "copied-editions")}, repeat)
    files = [path for path in editions.rglob("*") if path.is_file()]
    return EditionsCost(count, len(files), sum(path.stat().st_size for path in files), runs["none"].seconds,
                        runs["kept"].seconds, runs["copy"].seconds)


def summary(cost: EditionsCost) -> str:
    return (f"{cost.editions} kept editions ({cost.files:,} files, {cost.size / 1e6:.1f} MB): build "
            f"{cost.kept:.2f} s against {cost.none:.2f} s with none, {cost.added * 1000:+.0f} ms; copying them "
            f"alone takes {cost.copy * 1000:.0f} ms")


def budget(cost: EditionsCost) -> tuple[bool, str]:
    """(passed, text): kept editions cost a build about what copying them costs, a quarter
    more allowed for the noise of two builds against one copy."""
    return (cost.added <= 1.25 * cost.copy,
            f"{cost.editions} kept editions add to the build at most what copying them takes: "
            f"{cost.added * 1000:+.0f} ms against {cost.copy * 1000:.0f} ms")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=5, help="builds of each; the median counts (default 5)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="editions-benchmark-") as work:
        try:
            cost = measure_editions(Path(work), args.repeat)
            print(summary(cost))
            print(report.budget_lines([budget(cost)])[0])
        except measure.MeasureError as error:
            print(f"kept_editions: {error}", file=sys.stderr)
            return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
