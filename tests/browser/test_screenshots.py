"""Screenshots of the title page, an essay page and the transcript, at desktop and phone width.

Written to test-output/screenshots/ (beside the build in test-output/site/) for a person to
look at; the test checks that each is a whole page with something drawn on it.
"""

from __future__ import annotations

import struct

import pytest

from browser.site_browser import DESKTOP, KEY_PAGES, PHONE, new_page, wait_for_material

VIEWPORTS = {"desktop": DESKTOP, "phone": PHONE}


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    return struct.unpack(">II", data[16:24])


@pytest.fixture(scope="module")
def screenshot_dir(output_dir):
    folder = output_dir / "screenshots"
    folder.mkdir(parents=True, exist_ok=True)
    for page_name in KEY_PAGES:  # its own, not those other tests write here
        for viewport_name in VIEWPORTS:
            (folder / f"{page_name}-{viewport_name}.png").unlink(missing_ok=True)
    return folder


@pytest.mark.parametrize("viewport_name", VIEWPORTS)
@pytest.mark.parametrize("page_name", KEY_PAGES)
def test_screenshot(browser, host, screenshot_dir, page_name, viewport_name):
    viewport = VIEWPORTS[viewport_name]
    context, page, problems = new_page(browser, viewport, origin=host.url)
    page.goto(host.url + KEY_PAGES[page_name], wait_until="networkidle")
    wait_for_material(page)
    page.evaluate("document.fonts.ready")
    path = screenshot_dir / f"{page_name}-{viewport_name}.png"
    data = page.screenshot(path=str(path), full_page=True, animations="disabled")
    context.close()
    width, height = png_size(data)
    assert width == viewport["width"], (width, viewport)
    assert height >= viewport["height"], (height, viewport)
    assert len(data) > 20_000, f"{path} looks blank ({len(data)} bytes)"
    assert not problems.all(), problems.all()
