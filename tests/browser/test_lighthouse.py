"""Lighthouse on the title page, an essay page and the transcript, served with gzip.

Runs scripts/lighthouse.py once for the module with each of Lighthouse's presets, the
mobile one (a slow phone simulated) and the desktop one; the reports are kept in
test-output/lighthouse/. Accessibility, best practices and SEO must score 100 with both:
their audits read the page, not the clock, so one run of each page tells. Performance
moves with the machine's load: it is printed, and judged by no test.
"""

from __future__ import annotations

import json

import pytest

import lighthouse
from conftest import ESSAY

PRESETS = ("mobile", "desktop")


@pytest.fixture(scope="module")
def lighthouse_reports(site_dir, output_dir) -> dict[str, dict]:
    if not lighthouse.LIGHTHOUSE.exists():
        pytest.fail(f"{lighthouse.LIGHTHOUSE} is missing: run `npm ci`")
    reports = {}
    for preset in PRESETS:
        out = output_dir / "lighthouse" / preset
        status = lighthouse.main(["--site", str(site_dir), "--config", str(ESSAY / "mkdocs.yml"), "--out", str(out),
                                  "--runs", "1", "--preset", preset])
        assert status in (0, 1), "Lighthouse did not run: see the output above"
        reports[preset] = json.loads((out / "report.json").read_text(encoding="utf-8"))
    for preset, report in reports.items():
        scores = ", ".join(f"{name} {page['median']['performance']:g}" for name, page in report["pages"].items())
        print(f"Lighthouse performance, {preset} preset (not judged): {scores}")
    return reports


@pytest.mark.parametrize("category", list(lighthouse.TARGETS))
@pytest.mark.parametrize("page_name", lighthouse.PAGE_NAMES)
@pytest.mark.parametrize("preset", PRESETS)
def test_lighthouse_score(lighthouse_reports, preset, page_name, category):
    page = lighthouse_reports[preset]["pages"][page_name]
    score = page["median"][category]
    target = lighthouse.TARGETS[category]
    shortfalls = sorted({a for run in page["runs"] for a in run["failing_audits"].get(category, [])})
    assert score >= target, f"{page_name}, {preset}: {category} {score} < {target}; audits: {shortfalls}"


@pytest.mark.parametrize("preset", PRESETS)
def test_each_page_was_measured(lighthouse_reports, preset):
    for name, page in lighthouse_reports[preset]["pages"].items():
        assert len(page["runs"]) == 1, name
        assert all(run["runtime_error"] is None for run in page["runs"]), name
