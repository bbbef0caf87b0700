"""A transcript message's "Cite": the page's one citation panel, made out for that message
under its heading, whose buttons copy its tag and its citations; by mouse, keyboard and
touch; and no button where no script can make it work."""

from __future__ import annotations

import pytest
from playwright.sync_api import BrowserContext, Page

from browser.site_browser import DESKTOP, PHONE, new_page, wait_for_material

CLIPBOARD = ["clipboard-read", "clipboard-write"]


def cite_button(page: Page, n: int):
    return page.locator(f'.msg-item[data-msg="{n}"] .msg-head').get_by_role("button", name="Cite", exact=True)


def clipboard(page: Page) -> str:
    return page.evaluate("navigator.clipboard.readText()")


def opened(context: BrowserContext, page: Page, url: str) -> Page:
    context.grant_permissions(CLIPBOARD, origin=url)
    page.goto(url + "transcript/")
    wait_for_material(page)
    page.evaluate("navigator.clipboard.writeText('')")
    return page


def copied(page: Page) -> str:
    page.wait_for_function("document.querySelector('.copy-status').textContent !== ''")
    return clipboard(page)


@pytest.fixture
def transcript(browser, host):
    context, page, problems = new_page(browser, DESKTOP, origin=host.url)
    yield opened(context, page, host.url)
    context.close()
    assert not problems.all(), problems.all()


@pytest.mark.parametrize("n", [5855, 5843])
def test_cite_opens_the_panel_made_out_for_its_message(transcript, n):
    button = cite_button(transcript, n)
    assert button.is_visible() and button.get_attribute("aria-expanded") is None
    button.click()
    panel = transcript.locator("#msg-cite-panel")
    assert button.get_attribute("aria-expanded") == "true" and button.get_attribute("aria-controls") == "msg-cite-panel"
    assert panel.evaluate("p => p.previousElementSibling.matches('.msg-head')")
    assert panel.evaluate("p => p.closest('.msg-item').dataset.msg") == str(n)
    # The permanent address, at the site's address (site_url), not the test's server.
    assert (panel.locator(".cite-address a").get_attribute("href") or "").endswith(f"/transcript/#msg-{n}")
    assert "987654321" not in panel.inner_text() and f"Message {n}" in panel.locator("dd").first.inner_text()
    panel.get_by_role("button", name=f"Copy [msg {n}]").click()
    assert copied(transcript) == f"[msg {n}]"
    assert transcript.text_content(".copy-status") == f"Tag copied: [msg {n}]"
    # Pressed again, it closes; another message's opens in its place: one panel a page.
    button.click()
    assert transcript.locator("#msg-cite-panel").count() == 0 and button.get_attribute("aria-expanded") == "false"
    cite_button(transcript, 5852).click()
    cite_button(transcript, 5853).click()
    assert transcript.locator(".msg-cite-panel").count() == 1
    assert transcript.locator("#msg-cite-panel").evaluate("p => p.closest('.msg-item').dataset.msg") == "5853"


def test_by_keyboard_the_number_then_cite_then_the_panel(transcript):
    transcript.focus("#msg-5855 a.msg-number")
    transcript.keyboard.press("Tab")
    assert transcript.evaluate("document.activeElement.matches('.msg-item[data-msg=\"5855\"] .msg-cite-button')")
    assert transcript.evaluate("getComputedStyle(document.activeElement).outlineStyle") == "solid"
    transcript.keyboard.press("Enter")
    transcript.keyboard.press("Tab")  # into the panel, right after the button
    assert transcript.evaluate("document.activeElement.closest('#msg-cite-panel') !== null")
    assert transcript.evaluate("document.activeElement.textContent") == "Copy [msg 5855]"
    transcript.keyboard.press("Enter")
    assert copied(transcript) == "[msg 5855]"
    transcript.keyboard.press("Escape")
    assert transcript.locator("#msg-cite-panel").count() == 0
    assert transcript.evaluate("document.activeElement.matches('.msg-cite-button')")


def test_two_tab_stops_a_message_outside_its_content(transcript):
    stops = transcript.evaluate("""() => [...document.querySelectorAll('.msg-item')].map(item =>
        [...item.querySelector('.msg-head').querySelectorAll('a[href], button, input, summary')]
          .filter(e => e.offsetParent !== null).length)""")
    assert stops and set(stops) == {2}


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_the_button_stands_on_the_heading_line_and_is_big_enough(browser, host, viewport):
    context, page, problems = new_page(browser, viewport, origin=host.url)
    opened(context, page, host.url)
    for control in page.locator("button.msg-cite-button").all():
        place = control.evaluate("""b => {
            const box = b.getBoundingClientRect();
            const heading = b.parentElement.querySelector('h2').getBoundingClientRect();
            return {width: box.width, height: box.height, middle: (box.top + box.bottom) / 2,
                    top: heading.top, bottom: heading.bottom, right: box.right, room: innerWidth};
        }""")
        assert place["width"] >= 24 and place["height"] >= 24, place  # WCAG 2.2 target size
        assert place["top"] <= place["middle"] <= place["bottom"] + 24 and place["right"] <= place["room"], place
    context.close()
    assert not problems.all(), problems.all()


def test_a_tap_opens_and_copies(browser, host):
    context, page, problems = new_page(browser, PHONE, origin=host.url, has_touch=True, is_mobile=True)
    opened(context, page, host.url)
    cite_button(page, 5854).tap()
    page.locator("#msg-cite-panel").get_by_role("button", name="Copy [msg 5854]").tap()
    assert copied(page) == "[msg 5854]"
    context.close()
    assert not problems.all(), problems.all()


def test_without_javascript_no_button_is_shown(browser, host):
    context, page, _ = new_page(browser, DESKTOP, origin=host.url, java_script_enabled=False)
    page.goto(host.url + "transcript/")
    assert page.locator("button.msg-cite-button").count() == 7
    assert not any(control.is_visible() for control in page.locator("button.msg-cite-button").all())
    context.close()
