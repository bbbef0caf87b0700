"""The whole essay as it prints: no box runs past the printed page's text width."""

from __future__ import annotations

import pytest
from playwright.sync_api import ViewportSize

from browser.site_browser import new_page, wait_for_material

# An A4 page less the print margins (20 mm left and right) at 96 px an inch.
A4_TEXT: ViewportSize = {"width": round((210 - 2 * 18) / 25.4 * 96), "height": 1000}

OVERFLOWING = """() => {
  const article = document.querySelector("article");
  const right = article.getBoundingClientRect().right;
  return [...article.querySelectorAll("*")]
    .filter((element) => element.getBoundingClientRect().right > right + 0.5)
    .map((element) => `${element.tagName.toLowerCase()}.${element.className}`);
}"""


@pytest.mark.parametrize("path", ["print/", "how-to-cite/", "context/"])
def test_nothing_runs_past_the_printed_text(browser, host, path):
    context, page, problems = new_page(browser, A4_TEXT, origin=host.url)
    page.emulate_media(media="print")
    page.goto(host.url + path, wait_until="networkidle")
    wait_for_material(page)
    assert page.locator("article .essay-citation, article .citations").count() > 0 or path == "context/"
    assert page.evaluate(OVERFLOWING) == []
    context.close()
    assert not problems.all(), problems.all()
