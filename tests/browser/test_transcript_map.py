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
