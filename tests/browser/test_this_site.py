"""The site in this repository, whatever essay it holds, in the browser: every page opens
without an error or a failed request, and axe-core finds no WCAG 2.2 AA violation on it,
on a desktop and on a phone."""

from __future__ import annotations

import pytest

from browser.site_browser import AXE, DESKTOP, PHONE, new_page, site_paths
from browser.test_accessibility import violations_on_pages


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_every_page_opens_cleanly_and_passes_axe(browser, this_host, this_site_dir, viewport):
    if not AXE.is_file():
        pytest.fail(f"{AXE} is missing: run `npm ci`")
    pages = site_paths(this_site_dir)
    assert "" in pages, pages
    context, page, problems = new_page(browser, viewport, origin=this_host.url)
    violations = violations_on_pages(page, this_host.url, pages)
    context.close()
    assert not violations, violations
    assert not problems.all(), problems.all()
