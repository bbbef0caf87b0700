"""Lighthouse on the title page, an essay page, the transcript and How to cite, served with gzip.

Runs Lighthouse (scripts/lighthouse.py) once on each page with each of its presets, the
mobile one (a phone's screen, a slow phone simulated) and the desktop one; the reports
are kept in test-output/lighthouse/. Accessibility, best practices and SEO must score 100
with both: their audits read the page, not the clock, so one run of each page tells.
Performance moves with the machine's load: it is printed, and judged by no test.
"""

from __future__ import annotations

import json
import subprocess

import pytest

import lighthouse
from conftest import ESSAY
from sitebuild.site_pages import HOW_TO_CITE_PAGE
from sitebuild.urls import directory_url

PRESETS = ("mobile", "desktop")
# The script's pages, and How to cite, whose lists of citations and buttons no other
# measured page has.
PAGES = {**lighthouse.key_pages(ESSAY / "mkdocs.yml"), "how to cite": directory_url(HOW_TO_CITE_PAGE)}


@pytest.fixture(scope="module")
def lighthouse_reports(site_dir, output_dir) -> dict[str, dict]:
    if not lighthouse.LIGHTHOUSE.exists():
        pytest.fail(f"{lighthouse.LIGHTHOUSE} is missing: run `npm ci`")
    assert (site_dir / PAGES["how to cite"] / "index.html").is_file(), PAGES
    reports: dict[str, dict] = {}
    for preset in PRESETS:
        out = output_dir / "lighthouse" / preset
        try:
            pages = lighthouse.measure(site_dir, 1, out, PAGES, preset)
        except (RuntimeError, subprocess.TimeoutExpired) as error:
            pytest.fail(f"Lighthouse did not run: {error}")
        reports[preset] = {"runs_per_page": 1, "preset": preset, "targets": lighthouse.TARGETS, "pages": pages}
        (out / "report.json").write_text(json.dumps(reports[preset], indent=2) + "\n", encoding="utf-8")
        (out / "report.md").write_text(lighthouse.markdown_report(pages, 1, preset), encoding="utf-8")
    for preset, report in reports.items():
        scores = ", ".join(f"{name} {page['median']['performance']:g}" for name, page in report["pages"].items())
        print(f"Lighthouse performance, {preset} preset (not judged): {scores}")
    return reports


@pytest.mark.parametrize("category", list(lighthouse.TARGETS))
@pytest.mark.parametrize("page_name", list(PAGES))
@pytest.mark.parametrize("preset", PRESETS)
def test_lighthouse_score(lighthouse_reports, preset, page_name, category):
    page = lighthouse_reports[preset]["pages"][page_name]
    score = page["median"][category]
    target = lighthouse.TARGETS[category]
    shortfalls = sorted({a for run in page["runs"] for a in run["failing_audits"].get(category, [])})
    assert score >= target, f"{page_name}, {preset}: {category} {score} < {target}; audits: {shortfalls}"


@pytest.mark.parametrize("preset", PRESETS)
def test_each_page_was_measured(lighthouse_reports, preset):
    assert set(lighthouse_reports[preset]["pages"]) == set(PAGES)
    for name, page in lighthouse_reports[preset]["pages"].items():
        assert len(page["runs"]) == 1, name
        assert all(run["runtime_error"] is None for run in page["runs"]), name
