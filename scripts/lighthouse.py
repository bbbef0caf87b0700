"""Lighthouse scores of the built site: each page run several times, the median kept.

Serves the site with gzip on 127.0.0.1 (scripts/static_host.py), runs the Lighthouse
command line of node_modules (install with `npm ci`) against Debian's Chromium, and
writes report.json and report.md into the output folder. Exits 1 when the median score
of accessibility, best practices or SEO is below 100, 2 when Lighthouse itself fails.
Performance is reported, not judged: it moves with the machine's load.

Example: python scripts/lighthouse.py --site site/ --out test-output/lighthouse
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from sitebuild.config_file import read_config
from sitebuild.how_to_cite import example_section
from sitebuild.site_config import read_site_config
from sitebuild.urls import directory_url
from static_host import StaticHost
from transcriptsite.layout import page_src

ROOT = Path(__file__).resolve().parent.parent
LIGHTHOUSE = ROOT / "node_modules" / ".bin" / "lighthouse"
CHROMIUM = os.environ.get("CHROME_PATH", "/usr/bin/chromium")
# Headless, and no calls to Google's services, which this machine cannot reach.
CHROME_FLAGS = ("--headless=new --no-sandbox --disable-gpu --disable-dev-shm-usage --disable-background-networking"
                " --disable-component-update --disable-sync --no-first-run --disable-default-apps")
CATEGORIES = ("performance", "accessibility", "best-practices", "seo")
TARGETS = {"accessibility": 100, "best-practices": 100, "seo": 100}  # performance: reported only
PAGE_NAMES = ("title page", "essay page", "transcript")
METRICS = ("first-contentful-paint", "largest-contentful-paint", "total-blocking-time", "cumulative-layout-shift",
           "speed-index")


def run_lighthouse(url: str, output: Path, preset: str = "mobile") -> dict:
    command = [
        str(LIGHTHOUSE), url, "--quiet", "--output=json", f"--output-path={output}",
        *(["--preset=desktop"] if preset == "desktop" else []),
        f"--only-categories={','.join(CATEGORIES)}", f"--chrome-flags={CHROME_FLAGS}",
        "--disable-full-page-screenshot", "--max-wait-for-load=30000",
    ]
    env = {**os.environ, "CHROME_PATH": CHROMIUM}
    result = subprocess.run(command, env=env, capture_output=True, text=True, timeout=180)
    if result.returncode != 0 or not output.is_file():
        raise RuntimeError(f"lighthouse failed on {url} (exit {result.returncode}):\n{result.stderr[-3000:]}")
    return json.loads(output.read_text(encoding="utf-8"))


def summarise_run(report: dict) -> dict:
    """Scores 0-100 per category, the main metrics, and the audits that fell short."""
    scores = {c: round(report["categories"][c]["score"] * 100) for c in CATEGORIES}
    metrics = {m: report["audits"][m]["numericValue"] for m in METRICS if m in report["audits"]}
    failing: dict[str, list[str]] = {}
    for category in CATEGORIES:
        for ref in report["categories"][category]["auditRefs"]:
            audit = report["audits"][ref["id"]]
            if ref["weight"] > 0 and audit["score"] is not None and audit["score"] < 1:
                failing.setdefault(category, []).append(f"{ref['id']} ({audit['score']:.2f}): {audit['title']}")
    return {"scores": scores, "metrics": metrics, "failing_audits": failing,
            "runtime_error": report.get("runtimeError"),
            "run_warnings": report.get("runWarnings", []),
            # Lighthouse's measure of the machine's speed at the time: low under load.
            "benchmark_index": report.get("environment", {}).get("benchmarkIndex")}


def measure(site: Path, runs: int, out: Path, pages: dict[str, str], preset: str = "mobile") -> dict:
    out.mkdir(parents=True, exist_ok=True)
    results = {}
    with StaticHost(site) as host:
        for name, path in pages.items():
            url = host.url + path
            page_runs = []
            for number in range(1, runs + 1):
                slug = (path.strip("/").replace("/", "-") or "index")
                raw = out / f"{slug}-run{number}.json"
                page_runs.append(summarise_run(run_lighthouse(url, raw, preset)))
                raw.unlink()  # the summary keeps what matters; raw reports are 1 MB each
            median = {c: statistics.median(r["scores"][c] for r in page_runs) for c in CATEGORIES}
            results[name] = {
                "path": "/" + path,
                "median": median,
                "runs": page_runs,
                "median_metrics_ms": {m: statistics.median(r["metrics"].get(m, 0) for r in page_runs) for m in METRICS},
            }
    return results


def below_target(results: dict) -> list[str]:
    return [
        f"{name}: {category} {scores[category]:g} < {TARGETS[category]}"
        for name, page in results.items()
        for scores in [page["median"]]
        for category in TARGETS
        if scores[category] < TARGETS[category]
    ]


def markdown_report(results: dict, runs: int, preset: str = "mobile") -> str:
    setting = ("mobile emulation with simulated throttling (Lighthouse's default)" if preset == "mobile"
               else "desktop preset (simulated throttling for a desktop connection)")
    lines = [
        f"# Lighthouse: median of {runs} runs per page",
        "",
        f"Lighthouse's {setting}; the site served with gzip from 127.0.0.1.",
        "",
        "| Page | Path | Performance | Accessibility | Best practices | SEO |",
        "| --- | --- | ---: | ---: | ---: | ---: |",
    ]
    for name, page in results.items():
        scores = " | ".join(f"{page['median'][c]:g}" for c in CATEGORIES)
        lines.append(f"| {name} | `{page['path']}` | {scores} |")
    lines += ["", f"Targets: {', '.join(f'{c} {t}' for c, t in TARGETS.items())}; performance is reported only."]
    indexes = [run["benchmark_index"] for page in results.values() for run in page["runs"] if run["benchmark_index"]]
    if indexes:
        median = statistics.median(indexes)
        lines.append(f"Machine benchmark index (Lighthouse's; lower under load): median {median:.0f}, "
                     f"range {min(indexes):.0f}-{max(indexes):.0f}.")
    lines.append("")
    for name, page in results.items():
        shortfalls = sorted({a for run in page["runs"] for audits in run["failing_audits"].values() for a in audits})
        if shortfalls:
            lines += [f"Audits short of full marks on the {name} in some run:", ""]
            lines += [f"- {audit}" for audit in shortfalls] + [""]
    return "\n".join(lines)


def key_pages(config: Path) -> dict[str, str]:
    """The pages measured, as URL paths: the title page, the essay's first section after
    it, and the transcript's first page."""
    site = read_site_config(read_config(config), str(config.parent))
    essay_page = example_section(site.essay.sections) if site.essay else "index.md"
    urls = ["", directory_url(essay_page), directory_url(page_src(site.transcript.folder, 0))]
    return dict(zip(PAGE_NAMES, urls, strict=True))


def build_site(config: Path, destination: Path) -> Path:
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-q", "-d", str(destination)],
                   cwd=config.parent, env=env, check=True)
    return destination


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     epilog="Needs `npm ci` (Lighthouse) and Chromium at $CHROME_PATH or "
                                            "/usr/bin/chromium.")
    parser.add_argument("--site", type=Path,
                        help="a built site's folder (default: build one with mkdocs build --strict)")
    parser.add_argument("--config", type=Path, default=ROOT / "mkdocs.yml",
                        help="the site's configuration, which names its pages (default: %(default)s)")
    parser.add_argument("--out", type=Path, default=ROOT / "test-output" / "lighthouse",
                        help="where report.json and report.md go (default: %(default)s)")
    parser.add_argument("--runs", type=int, default=3, help="runs per page; the median counts (default: %(default)s)")
    parser.add_argument("--preset", choices=("mobile", "desktop"), default="mobile",
                        help="Lighthouse's form factor and throttling (default: %(default)s)")
    args = parser.parse_args(argv)

    if not LIGHTHOUSE.exists():
        parser.error(f"{LIGHTHOUSE} is missing: run `npm ci` in {ROOT}")
    if not Path(CHROMIUM).exists():
        parser.error(f"Chromium not found at {CHROMIUM}: apt-get install chromium")

    started = time.monotonic()
    with tempfile.TemporaryDirectory() as scratch:
        site = args.site or build_site(args.config, Path(scratch) / "site")
        try:
            results = measure(site, args.runs, args.out, key_pages(args.config), args.preset)
        except (RuntimeError, subprocess.TimeoutExpired) as error:
            print(error, file=sys.stderr)
            return 2
    report = {"runs_per_page": args.runs, "preset": args.preset, "targets": TARGETS,
              "seconds": round(time.monotonic() - started, 1),
              "pages": results}
    (args.out / "report.json").write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    markdown = markdown_report(results, args.runs, args.preset)
    (args.out / "report.md").write_text(markdown, encoding="utf-8")
    print(markdown)
    shortfalls = below_target(results)
    for line in shortfalls:
        print("Below target:", line, file=sys.stderr)
    return 1 if shortfalls else 0


if __name__ == "__main__":
    sys.exit(main())
