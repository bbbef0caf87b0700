"""The preview of a cited message, in Chromium: by mouse, keyboard and touch, from the
server and from the file system, and with axe while it is open."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from browser.site_browser import DESKTOP, PHONE, new_page, wait_for_material
from browser.test_accessibility import axe_violations
from browser.test_reader import ESSAY_PAGE, first_quoted_citation, open_page, transcript_texts

OPEN_DELAY_MS = 300  # assets/previews.js


def preview_of(page: Page, link: str):
    preview_id = page.get_attribute(link, "aria-controls")
    assert preview_id, f"{link} controls no preview"
    return page.locator(f"#{preview_id}")


def is_open(page: Page, link: str) -> bool:
    return page.eval_on_selector(
        link, "a => document.getElementById(a.getAttribute('aria-controls')).matches(':popover-open')")


def expect_preview_with_message(page: Page, link: str, number: int):
    preview = preview_of(page, link)
    expect(preview).to_be_visible()
    expect(preview).to_have_attribute("role", "dialog")
    expect(page.locator(link)).to_have_attribute("aria-expanded", "true")
    expect(preview).to_contain_text(f"Message {number}")
    expect(preview).to_contain_text(transcript_texts()[number][:30])
    described = page.get_attribute(link, "aria-describedby")
    expect(page.locator(f"#{described}")).to_contain_text(transcript_texts()[number][:30])
    return preview


def expect_closed(page: Page, link: str) -> None:
    expect(preview_of(page, link)).to_be_hidden()
    expect(page.locator(link)).to_have_attribute("aria-expanded", "false")


def tab_to(page: Page, link: str) -> None:
    """Tab from the start of the page until `link` has focus, as a keyboard user would."""
    for _ in range(200):
        page.keyboard.press("Tab")
        if page.evaluate("selector => document.activeElement.matches(selector)", link):
            return
    pytest.fail(f"{link} never took the keyboard focus")


def test_hovering_a_citation_opens_its_preview_after_a_delay_beside_it(page, host):
    open_page(page, host.url + ESSAY_PAGE)
    link, number = first_quoted_citation(page)
    page.evaluate("""selector => {
        const link = document.querySelector(selector);
        link.addEventListener('pointerenter', () => { window.hoveredAt = performance.now(); });
        document.getElementById(link.getAttribute('aria-controls')).addEventListener('toggle', event => {
            if (event.newState === 'open') window.openedAt = performance.now();
        });
    }""", link)
    page.hover(link)
    expect_preview_with_message(page, link, number)
    # Not at once: a pointer passing over the link does not open it.
    assert page.evaluate("window.openedAt - window.hoveredAt") >= OPEN_DELAY_MS - 20

    # Next to the link, inside the window.
    box = preview_of(page, link).bounding_box()
    anchor = page.locator(link).bounding_box()
    assert box["y"] >= 0 and box["y"] + box["height"] <= DESKTOP["height"]
    assert box["x"] >= 0 and box["x"] + box["width"] <= DESKTOP["width"]
    assert min(abs(box["y"] - (anchor["y"] + anchor["height"])), abs(anchor["y"] - (box["y"] + box["height"]))) <= 12

    # The pointer can move into the preview; moving it away closes the preview.
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2, steps=5)
    page.wait_for_timeout(600)
    assert is_open(page, link)
    page.mouse.move(5, DESKTOP["height"] - 5)
    expect_closed(page, link)


def test_escape_or_a_click_elsewhere_closes_the_preview(page, host):
    open_page(page, host.url + ESSAY_PAGE)
    link, number = first_quoted_citation(page)
    page.hover(link)
    expect_preview_with_message(page, link, number)
    page.keyboard.press("Escape")
    expect_closed(page, link)

    page.mouse.move(5, 5)
    page.hover(link)
    expect_preview_with_message(page, link, number)
    page.mouse.click(DESKTOP["width"] - 5, DESKTOP["height"] - 5)
    expect_closed(page, link)


def test_keyboard_focus_opens_the_preview_its_links_come_next_and_escape_closes_it(page, host):
    open_page(page, host.url + ESSAY_PAGE)
    link, number = first_quoted_citation(page)
    tab_to(page, link)
    preview = expect_preview_with_message(page, link, number)

    # The next Tab goes into the preview, the next Tabs through it and on out of it.
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.closest('.msg-preview') !== null")
    expect(preview.locator(".msg-preview__more a")).to_be_focused()
    page.keyboard.press("Escape")
    expect_closed(page, link)
    expect(page.locator(link)).to_be_focused()  # back where the reader was

    tab_to(page, link)
    expect_preview_with_message(page, link, number)
    for _ in range(20):  # Tab through the preview's links and out of it: it closes
        page.keyboard.press("Tab")
        if not page.evaluate("document.activeElement.closest('.msg-preview')"):
            break
    expect_closed(page, link)
    assert not page.evaluate("selector => document.activeElement.matches(selector)", link)


def test_every_tab_stop_of_the_page_content_is_visible(page, host):
    """Material's own visually hidden controls aside (its palette and search toggles)."""
    open_page(page, host.url + ESSAY_PAGE)
    hidden, in_previews = [], 0
    for _ in range(300):
        page.keyboard.press("Tab")
        stop = page.evaluate("""() => {
            const element = document.activeElement;
            if (element === document.body || element.closest('.md-footer')) return null;
            const box = element.getBoundingClientRect();
            const seen = element.checkVisibility({visibilityProperty: true}) && box.width > 0 && box.height > 0
                && box.bottom > 0 && box.top < innerHeight;
            return {content: !!element.closest('article'), preview: !!element.closest('.msg-preview'),
                    seen, html: element.outerHTML.slice(0, 120)};
        }""")
        if stop is None:
            break
        in_previews += stop["preview"]
        if stop["content"] and not stop["seen"]:
            hidden.append(stop["html"])
    assert in_previews > 0  # the walk went through open previews
    assert hidden == []


def tap_first_citation(browser, host):
    """A phone's page of the essay, its first quoted citation tapped: (context, page,
    problems, the link's selector, its message number, the preview)."""
    context, page, problems = new_page(browser, PHONE, origin=host.url, has_touch=True, is_mobile=True)
    open_page(page, host.url + ESSAY_PAGE)
    link, number = first_quoted_citation(page)
    page.locator(link).scroll_into_view_if_needed()
    page.tap(link)
    return context, page, problems, link, number, expect_preview_with_message(page, link, number)


def test_on_a_touch_screen_a_tap_opens_the_preview_and_its_link_goes_on(browser, host):
    context, page, problems, _link, number, preview = tap_first_citation(browser, host)
    page.wait_for_timeout(300)
    assert page.url == host.url + ESSAY_PAGE  # the tap did not follow the link
    box = preview.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]

    preview.locator(".msg-preview__more a").tap()
    page.wait_for_url(re.compile(rf"/transcript/#msg-{number}$"))
    expect(page.locator(f"#msg-{number}")).to_be_visible()
    context.close()
    assert not problems.all(), problems.all()


def test_on_a_touch_screen_a_tap_elsewhere_closes_the_preview(browser, host):
    context, page, problems, link, _, _ = tap_first_citation(browser, host)
    page.touchscreen.tap(PHONE["width"] // 2, 70)
    expect_closed(page, link)
    context.close()
    assert not problems.all(), problems.all()


def test_the_preview_works_in_the_copy_opened_from_the_file_system(browser, offline_site_dir):
    context, page, problems = new_page(browser, DESKTOP, origin="file://")
    page.goto((offline_site_dir / "context.html").as_uri())
    wait_for_material(page)
    link, number = first_quoted_citation(page)
    page.hover(link)
    preview = expect_preview_with_message(page, link, number)
    expect(preview.locator(".msg-preview__more a")).to_have_attribute("href", f"transcript/index.html#msg-{number}")
    preview.locator(".msg-preview__more a").click()
    page.wait_for_url(re.compile(rf"/transcript/index\.html#msg-{number}$"))
    context.close()
    assert not problems.all(), problems.all()


def test_without_script_the_link_still_leads_to_the_message(browser, host):
    context, page, problems = new_page(browser, DESKTOP, origin=host.url, java_script_enabled=False)
    page.goto(host.url + ESSAY_PAGE)
    link = page.locator("article a.msg-ref").first
    href = link.get_attribute("href")
    assert href is not None, "a citation without an address"
    cited = re.search(r"#msg-(\d+)$", href)
    assert cited is not None, href
    number = cited.group(1)
    expect(page.locator(f"#msg-preview-{number}")).to_be_hidden()
    link.click()
    page.wait_for_url(re.compile(rf"/transcript/#msg-{number}$"))
    context.close()
    assert not problems.all(), problems.all()


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_axe_finds_no_violation_with_the_preview_open(browser, host, scheme):
    context, page, problems = new_page(browser, DESKTOP, color_scheme=scheme, origin=host.url)
    open_page(page, host.url + ESSAY_PAGE)
    assert page.get_attribute("body", "data-md-color-scheme") == ("slate" if scheme == "dark" else "default")
    link, number = first_quoted_citation(page)
    page.hover(link)
    expect_preview_with_message(page, link, number)
    violations = axe_violations(page)
    assert is_open(page, link)  # axe checked the open preview
    context.close()
    assert violations == []
    assert not problems.all(), problems.all()


def test_a_cited_in_link_previews_the_passage_that_cites(browser, host):
    context, page, problems = new_page(browser, DESKTOP, origin=host.url)
    page.goto(host.url + "transcript/")
    wait_for_material(page)
    link = page.locator('.msg-item[data-msg="5852"] .msg-cited-in li a').first
    link.hover()
    preview = page.locator(f"#{link.get_attribute('data-passage')}")
    preview.wait_for(state="visible")
    assert "demonstrating deep domain knowledge" in preview.inner_text()
    assert link.get_attribute("aria-expanded") == "true"
    preview.get_by_role("link", name="Read it in the essay").click()
    page.wait_for_url("**/context/#cite-5852")
    context.close()
    assert not problems.all(), problems.all()
