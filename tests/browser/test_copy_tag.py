"""A transcript message's "Copy [msg N]" button puts exactly its tag on the clipboard, by
mouse, keyboard and touch, says so, stands on its heading's line, and is not shown where
no script can make it work."""

from __future__ import annotations

import pytest
from playwright.sync_api import BrowserContext, Page

from browser.site_browser import DESKTOP, PHONE, new_page, wait_for_material

CLIPBOARD = ["clipboard-read", "clipboard-write"]

# Where the button stands: its box, whether it overlaps any line of its heading's text,
# and whether its middle lies within the height of the heading's first line.
PLACE = """button => {
  const heading = button.previousElementSibling;
  const box = button.getBoundingClientRect();
  const range = document.createRange();
  range.selectNodeContents(heading);
  const lines = [...range.getClientRects()];
  const overlaps = lines.some(r => r.left < box.right && box.left < r.right
    && r.top < box.bottom && box.top < r.bottom);
  const first = heading.getClientRects()[0];
  const middle = (box.top + box.bottom) / 2;
  return {width: box.width, height: box.height, overlaps,
          onHeadingLine: middle > first.top && middle < first.top + parseFloat(getComputedStyle(heading).lineHeight)};
}"""


def button(page: Page, n: int):
    """Message n's button, found by its role and accessible name."""
    return page.locator(f'.msg-item[data-msg="{n}"]').get_by_role("button", name=f"Copy [msg {n}]", exact=True)


def clipboard(page: Page) -> str:
    return page.evaluate("navigator.clipboard.readText()")


def opened(context: BrowserContext, page: Page, url: str) -> Page:
    context.grant_permissions(CLIPBOARD, origin=url)
    page.goto(url + "transcript/")
    wait_for_material(page)
    page.evaluate("navigator.clipboard.writeText('')")
    return page


@pytest.fixture
def transcript(browser, host):
    context, page, problems = new_page(browser, DESKTOP, origin=host.url)
    yield opened(context, page, host.url)
    context.close()
    assert not problems.all(), problems.all()


@pytest.mark.parametrize("n", [5855, 5843])
def test_a_click_copies_exactly_the_tag(transcript, n):
    control = button(transcript, n)
    assert control.count() == 1 and control.is_visible()
    control.click()
    transcript.wait_for_function("document.querySelector('.copy-status').textContent !== ''")
    assert clipboard(transcript) == f"[msg {n}]"
    assert transcript.text_content(".copy-status") == f"Tag copied: [msg {n}]"


def test_the_button_is_the_tab_stop_after_the_permalink(transcript):
    transcript.focus("#msg-5855 a.headerlink")
    transcript.keyboard.press("Tab")
    focused = transcript.evaluate("""() => {
        const e = document.activeElement;
        return {text: e.textContent, tag: e.matches(".msg-tag"), outline: getComputedStyle(e).outlineStyle};
    }""")
    assert focused == {"text": "Copy [msg 5855]", "tag": True, "outline": "solid"}
    transcript.keyboard.press("Enter")
    transcript.wait_for_function("document.querySelector('.copy-status').textContent !== ''")
    assert clipboard(transcript) == "[msg 5855]"
    # The next stop is the entry's own: one stop a message for the button.
    transcript.keyboard.press("Tab")
    assert not transcript.evaluate("document.activeElement.matches('.msg-tag')")


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_it_stands_on_its_heading_line_clear_of_the_text(browser, host, viewport):
    context, page, problems = new_page(browser, viewport, origin=host.url)
    opened(context, page, host.url)
    for control in page.locator("button.msg-tag").all():
        place = control.evaluate(PLACE)
        assert place["width"] >= 24 and place["height"] >= 24, place  # WCAG 2.2 target size
        assert place["onHeadingLine"] and not place["overlaps"], place
    context.close()
    assert not problems.all(), problems.all()


def test_a_tap_copies_the_tag(browser, host):
    context, page, problems = new_page(browser, PHONE, origin=host.url, has_touch=True, is_mobile=True)
    opened(context, page, host.url)
    button(page, 5854).tap()
    page.wait_for_function("document.querySelector('.copy-status').textContent !== ''")
    assert clipboard(page) == "[msg 5854]"
    context.close()
    assert not problems.all(), problems.all()


def test_without_javascript_no_button_is_shown(browser, host):
    context, page, _ = new_page(browser, DESKTOP, origin=host.url, java_script_enabled=False)
    page.goto(host.url + "transcript/")
    assert page.locator("button.msg-tag").count() == 7
    assert not any(control.is_visible() for control in page.locator("button.msg-tag").all())
    context.close()
