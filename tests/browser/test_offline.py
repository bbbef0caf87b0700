"""The copy built for reading from disk (OFFLINE=true) works when opened from file://."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from browser.site_browser import DESKTOP, new_page, wait_for_material


def test_offline_copy_works_from_the_file_system(browser, offline_site_dir):
    start = (offline_site_dir / "index.html").as_uri()
    context, page, problems = new_page(browser, DESKTOP, origin="file://")
    page.goto(start)
    wait_for_material(page)

    # Navigation: the next-page link opens the next page's file.
    page.click("a.md-footer__link--next")
    page.wait_for_url(re.compile(r"/context\.html$"))
    wait_for_material(page)
    expect(page.locator("h1")).to_be_visible()

    # A message reference opens the transcript's file at the message.
    citation = page.locator("a.msg-ref").first
    href = citation.get_attribute("href")
    assert href is not None and href.startswith("transcript/index.html#"), href
    cited = re.search(r"#msg-(\d+)$", href)
    assert cited is not None, href
    number = cited.group(1)
    citation.click()
    page.wait_for_url(re.compile(rf"/transcript/index\.html#msg-{number}$"))
    expect(page.locator(f"#msg-{number}")).to_be_visible()
    wait_for_material(page)  # its search opens on focus only once Material's script has run

    # Search runs without a server: the index is read from a script, the worker from a frame.
    query = page.locator("input.md-search__input")
    query.click()
    query.press_sequentially("catastrophically", delay=10)
    result = page.locator(".md-search-result__list a.md-search-result__link").first
    expect(result).to_be_visible()
    result.click()
    page.wait_for_url(re.compile(r"/context\.html"))
    expect(page.locator("h1")).to_be_visible()

    context.close()
    assert not problems.all(), problems.all()


def test_offline_copy_loads_nothing_from_other_hosts(offline_site_dir):
    for html in offline_site_dir.rglob("*.html"):
        text = html.read_text(encoding="utf-8")
        assert "unpkg.com" not in text, html
        assert not re.search(r"""<script[^>]*\ssrc=["']?(?:https?:)?//""", text), html
