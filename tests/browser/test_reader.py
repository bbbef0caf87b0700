"""The site as a reader uses it, in Chromium: citations, transcript, search, theme, navigation.
The previews of cited messages are tested in test_previews.py."""

from __future__ import annotations

import json
import re
import urllib.parse

import pytest
from playwright.sync_api import Page, expect

from browser.site_browser import PHONE, new_page, wait_for_material
from conftest import ESSAY

ESSAY_PAGE = "context/"
# A phrase of the essay's prose, and a phrase of a transcript message that the essay quotes:
# the site's search offers the essay page for each; the transcript's own search, the message.
ESSAY_PHRASE = "failed catastrophically"
TRANSCRIPT_PHRASE = "sm120 instructions"
# The header's toggle: the label of the radio button of the scheme it switches to, in the
# order of mkdocs.yml's palette (light first).
DARK_TOGGLE = 'label[for="__palette_1"]'
LIGHT_TOGGLE = 'label[for="__palette_0"]'


def transcript_texts() -> dict[int, str]:
    texts = {}
    for line in (ESSAY / "docs" / "transcript.jsonl").read_text(encoding="utf-8").splitlines():
        if line.strip():
            message = json.loads(line)
            texts[message["n"]] = " ".join(message["text"].split())
    return texts


def open_page(page: Page, url: str) -> None:
    page.goto(url)
    wait_for_material(page)


def in_viewport(page: Page, selector: str) -> bool:
    """The element's top edge is on screen, as after a jump to it."""
    return page.eval_on_selector(
        selector,
        """element => {
            const top = element.getBoundingClientRect().top;
            return top >= 0 && top < window.innerHeight;
        }""",
    )


def open_search(page: Page):
    """Click into the search field: in the header on a wide screen, behind the magnifier on a phone."""
    query = page.locator("input.md-search__input")
    if query.is_visible():
        query.click()
    else:
        page.locator('label.md-header__button[for="__search"]').click()
    return query


def first_quoted_citation(page: Page) -> tuple[str, int]:
    """The selector and number of the page's first citation of a message with text."""
    texts = transcript_texts()
    hrefs = page.eval_on_selector_all("a.msg-ref", "links => links.map(a => a.getAttribute('href'))")
    numbers = [int(match.group(1)) for href in hrefs if (match := re.search(r"#msg-(\d+)$", href))]
    number = next(n for n in numbers if len(texts.get(n, "")) > 20)
    return f'a.msg-ref[href$="#msg-{number}"]', number


def test_the_snippet_after_the_paragraph_shows_the_message(page, host):
    # Here the citing sentence does not repeat the description, so the snippet shows it.
    open_page(page, host.url + "interpretation/")
    link, number = first_quoted_citation(page)
    assert number == 5856
    paragraph = page.locator(f"p:has({link})")
    snippet = paragraph.locator("xpath=following-sibling::*[1]")
    expect(snippet).to_have_class(re.compile(r"\bmsg-snippets\b"))
    expect(snippet).to_be_visible()
    expect(snippet).to_contain_text(transcript_texts()[number][:30])


def test_a_citation_leads_to_the_message_and_cited_in_leads_back(page, host):
    open_page(page, host.url + ESSAY_PAGE)
    link, number = first_quoted_citation(page)
    page.click(link)
    page.wait_for_url(re.compile(rf"/transcript/#msg-{number}$"))
    message = f"#msg-{number}"
    expect(page.locator(message)).to_contain_text(f"Message {number}")
    page.wait_for_function(f"document.querySelector('{message}').getBoundingClientRect().top < innerHeight / 2")
    assert in_viewport(page, message)

    # The message's "Cited in" list, in its entry.
    entry = page.locator(f'.msg-item[data-msg="{number}"]')
    back = entry.locator(".msg-cited-in").locator(f'a[href*="{ESSAY_PAGE}#cite-{number}"]')
    expect(back).to_have_count(1)
    back.click()
    page.wait_for_url(re.compile(rf"/{ESSAY_PAGE}#cite-{number}$"))
    citation = f"#cite-{number}"
    page.wait_for_function(f"document.querySelector('{citation}').getBoundingClientRect().top < innerHeight")
    assert in_viewport(page, citation)
    # The anchor sits in the citing paragraph, which is the one on screen.
    assert page.eval_on_selector(citation, "a => a.closest('p') !== null && a.matches('a.msg-ref')")


@pytest.mark.parametrize(
    ("phrase", "expected_page"),
    [(ESSAY_PHRASE, ESSAY_PAGE), (TRANSCRIPT_PHRASE, ESSAY_PAGE)],
    ids=["essay", "quoted-message"],
)
def test_search_finds_a_phrase_and_every_result_lands(page, host, phrase, expected_page):
    open_page(page, host.url)
    query = open_search(page)
    expect(query).to_be_focused()
    query.press_sequentially(phrase, delay=10)  # search runs on the reader's keystrokes
    results = page.locator(".md-search-result__list a.md-search-result__link")
    expect(results.first).to_be_visible()
    expect(page.locator(".md-search-result mark").first).to_be_visible()
    hrefs = results.evaluate_all("links => links.map(a => a.href)")
    assert any(f"/{expected_page}" in href for href in hrefs), hrefs
    for href in hrefs:  # every result and group leads to a page, and to its anchor there
        assert "undefined" not in href, href
        response = page.goto(href)
        assert response is not None and response.status == 200, href
        anchor = urllib.parse.urlsplit(href).fragment
        assert not anchor or page.locator(f"[id='{anchor}']").count() == 1, href


def test_the_transcript_search_finds_a_message_and_lands_on_it(page, host):
    open_page(page, host.url + "transcript/")
    page.locator("#transcript-search").fill(TRANSCRIPT_PHRASE)
    result = page.locator(".msg-search__results a").first
    expect(result).to_have_text(re.compile(r"^Message 5852 — "))
    result.click()
    page.wait_for_url(re.compile(r"/transcript/(page-\d+/)?#msg-5852$"))
    expect(page.locator("#msg-5852")).to_be_in_viewport()


def test_the_colour_scheme_toggle_switches_and_is_remembered(page, host):
    open_page(page, host.url + ESSAY_PAGE)
    body = page.locator("body")
    expect(body).to_have_attribute("data-md-color-scheme", "default")
    light_background = page.evaluate("getComputedStyle(document.body).backgroundColor")

    page.click(DARK_TOGGLE)
    expect(body).to_have_attribute("data-md-color-scheme", "slate")
    assert page.evaluate("getComputedStyle(document.body).backgroundColor") != light_background
    expect(page.locator(LIGHT_TOGGLE)).to_be_visible()

    page.reload()
    wait_for_material(page)
    expect(body).to_have_attribute("data-md-color-scheme", "slate")
    page.click(LIGHT_TOGGLE)
    expect(body).to_have_attribute("data-md-color-scheme", "default")


# The essay's sections in the order mkdocs.yml lists them, then the site's other pages.
NAV_PATHS = ["", "context/", "response/", "empty-message/", "interpretation/", "significance/", "conclusion/",
             "how-to-cite/", "note-on-the-text/", "transcript/"]


def test_previous_and_next_links_walk_the_site_in_order(page, host):
    nav = NAV_PATHS
    open_page(page, host.url)
    visited = [_site_path(page.url, host.url)]
    while page.locator("a.md-footer__link--next").count():
        page.click("a.md-footer__link--next")
        page.wait_for_load_state()
        wait_for_material(page)
        visited.append(_site_path(page.url, host.url))
        assert len(visited) <= len(nav), visited
    assert visited == nav

    for expected in reversed(nav[:-1]):
        page.click("a.md-footer__link--prev")
        page.wait_for_url(host.url + expected)
        wait_for_material(page)
    expect(page.locator("a.md-footer__link--prev")).to_have_count(0)


def test_no_page_scrolls_sideways_on_a_phone(browser, host, all_pages):
    context, page, problems = new_page(browser, PHONE, origin=host.url)
    too_wide = {}
    for path in all_pages:
        open_page(page, host.url + path)
        widths = page.evaluate(
            "({page: document.documentElement.scrollWidth, screen: document.documentElement.clientWidth})")
        if widths["page"] > widths["screen"]:
            too_wide[path or "/"] = widths
    context.close()
    assert not too_wide, too_wide
    assert not problems.all(), problems.all()


def test_no_console_error_failed_request_or_other_host_on_any_page(browser, host, all_pages):
    failures = {}
    for path in all_pages:
        context, page, problems = new_page(browser, {"width": 1280, "height": 800}, origin=host.url)
        page.goto(host.url + path, wait_until="networkidle")
        wait_for_material(page)
        # Search loads its index and worker on first use: open it on every page.
        open_search(page).press_sequentially("message", delay=10)
        expect(page.locator(".md-search-result__list li").first).to_be_visible()
        context.close()
        if problems.all():
            failures[path or "/"] = problems.all()
    assert not failures, failures


def test_no_script_stylesheet_or_font_comes_from_another_host(site_dir):
    """What a page loads is on its own host (the browser tests check the requests too)."""
    loaded = re.compile(
        r"""<(?:script[^>]*\ssrc|img[^>]*\ssrc|link[^>]*rel="(?:stylesheet|preconnect|preload|icon|modulepreload)"[^>]*\shref)"""
        r"""=["']?(?:https?:)?//""")
    offenders = {}
    for html in site_dir.rglob("*.html"):
        found = loaded.findall(html.read_text(encoding="utf-8"))
        if found:
            offenders[html.relative_to(site_dir).as_posix()] = found
    assert not offenders, offenders
    for css in site_dir.rglob("*.css"):
        text = css.read_text(encoding="utf-8")
        assert not re.search(r"@import|fonts\.(googleapis|gstatic)", text), css


def _site_path(url: str, base: str) -> str:
    return url.removeprefix(base).split("#", 1)[0]
