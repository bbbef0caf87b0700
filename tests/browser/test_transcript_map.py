"""The transcript's map on a phone and a desktop, in both colour schemes, and the mark
of a landed message."""

from __future__ import annotations

import pytest

from browser.site_browser import DESKTOP, PHONE, new_page, wait_for_material

VIEWPORTS = {"phone": PHONE, "desktop": DESKTOP}


@pytest.fixture(scope="module")
def shots(output_dir):
    folder = output_dir / "screenshots"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("viewport_name", VIEWPORTS)
def test_the_map_fits_and_its_links_can_be_reached(browser, host, shots, viewport_name, scheme):
    viewport = VIEWPORTS[viewport_name]
    context, page, problems = new_page(browser, viewport, color_scheme=scheme, origin=host.url)
    page.goto(host.url + "transcript/", wait_until="networkidle")
    wait_for_material(page)
    svg = page.locator("figure.msg-map svg")
    box = svg.bounding_box()
    assert box is not None, "the map is not drawn"
    assert box["x"] >= 0 and box["x"] + box["width"] <= viewport["width"], box
    assert box["height"] > 40, box
    links = svg.locator("a")
    assert links.count() == 7
    for i in range(links.count()):
        link = links.nth(i)
        mark = link.bounding_box()
        assert mark and mark["width"] > 0 and mark["x"] >= 0 and mark["x"] + mark["width"] <= viewport["width"], mark
        link.focus()
        assert page.evaluate("document.activeElement.getAttribute('href')") == link.get_attribute("href")
    # Tab reaches the marks from the page's text: they are in the keyboard's order.
    page.locator("article p a").first.focus()
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.closest('svg') !== null")
    # Labels are drawn large enough to read.
    size = page.evaluate("document.querySelector('.msg-map__label').getBoundingClientRect().height")
    assert size >= 11, size
    svg.screenshot(path=str(shots / f"transcript-map-{viewport_name}-{scheme}.png"))
    context.close()
    assert not problems.all(), problems.all()


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_a_landed_message_is_marked(browser, host, shots, scheme):
    context, page, problems = new_page(browser, PHONE, color_scheme=scheme, origin=host.url)
    page.goto(host.url + "transcript/#msg-5855", wait_until="networkidle")
    wait_for_material(page)

    def look(n: int) -> dict:
        return page.evaluate("""n => { const item = document.getElementById('msg-' + n).closest('.msg-item');
            const style = getComputedStyle(item);
            return {outline: style.outlineStyle, background: style.backgroundColor,
                    top: document.getElementById('msg-' + n).getBoundingClientRect().top}; }""", n)

    landed, other = look(5855), look(5854)
    assert landed["outline"] == "solid" and other["outline"] == "none"
    assert landed["background"] != other["background"]
    header = page.evaluate("document.querySelector('.md-header').getBoundingClientRect().bottom")
    assert landed["top"] >= header, (landed, header)  # not hidden under the sticky header
    page.screenshot(path=str(shots / f"transcript-target-phone-{scheme}.png"))
    context.close()
    assert not problems.all(), problems.all()


def test_a_mark_of_the_map_previews_its_message_made_from_its_entry(browser, host):
    context, page, problems = new_page(browser, DESKTOP, origin=host.url)
    page.goto(host.url + "transcript/")
    wait_for_material(page)
    assert page.locator("[id^=msg-preview-]").count() == 0  # made when first asked for, not before
    page.locator('a.msg-map__mark[href="#msg-5854"]').hover()
    preview = page.locator("#msg-preview-5854")
    preview.wait_for(state="visible")
    entry = page.locator('.msg-item[data-msg="5854"] .msg-entry').inner_text()
    assert entry.strip() and entry.strip() in preview.inner_text()
    assert preview.get_attribute("role") == "dialog" and preview.locator("a").get_attribute("href") == "#msg-5854"
    assert page.locator("[id]").evaluate_all("els => els.length === new Set(els.map(e => e.id)).size")
    # By keyboard, from the map's list: the preview opens on focus and Escape closes it.
    page.locator("details.msg-map__list > summary").click()
    page.locator('details.msg-map__list a[href="#msg-5852"]').focus()
    page.keyboard.press("Shift+Tab")  # to the item before: the keyboard's focus
    listed = page.locator('details.msg-map__list a[href="#msg-5844"]')
    page.locator("#msg-preview-5844").wait_for(state="visible")
    assert listed.get_attribute("aria-expanded") == "true"
    page.keyboard.press("Tab")  # into the preview, next in the order
    assert page.evaluate("document.activeElement.closest('#msg-preview-5844') !== null")
    page.keyboard.press("Escape")
    page.locator("#msg-preview-5844").wait_for(state="hidden")
    assert page.evaluate("document.activeElement.getAttribute('href')") == "#msg-5844"
    context.close()
    assert not problems.all(), problems.all()


def test_a_tap_on_a_mark_previews_then_goes(browser, host):
    context, page, problems = new_page(browser, PHONE, origin=host.url, has_touch=True, is_mobile=True)
    page.goto(host.url + "transcript/")
    wait_for_material(page)
    mark = page.locator('a.msg-map__mark[href="#msg-5856"]')
    mark.tap()
    page.locator("#msg-preview-5856").wait_for(state="visible")
    assert page.url.endswith("/transcript/")  # the first tap shows, not follows
    page.locator("#msg-preview-5856 a").tap()
    page.wait_for_url("**/transcript/#msg-5856")
    context.close()
    assert not problems.all(), problems.all()
