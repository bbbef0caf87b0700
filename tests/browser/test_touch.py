"""A touch screen, which has no hover: the ¶ marks and the headings' permalinks are shown,
big enough to tap and seen against the page, a heading's mark on its last line, and a
tap on a mark lands on its paragraph."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page

from browser.site_browser import COLOURS_JS, DESKTOP, PHONE, new_page, wait_for_material

PARAGRAPH = "p-the-initial-deployment-attempt"  # the second paragraph of "The Context"
TARGET_PX = 24  # WCAG 2.2, 2.5.8: a target of at least 24 × 24 CSS pixels

SHOWN = """link => ({
  drawn: link.checkVisibility({opacityProperty: true, visibilityProperty: true}),
  opacity: getComputedStyle(link).opacity,
  width: link.getBoundingClientRect().width,
  height: link.getBoundingClientRect().height,
})"""


# A heading's permalink as drawn: the contrast of its colour (laid over the page's
# background) with the background, and whether it stands on the line of the heading's
# last character, found from the boxes of that character and of the mark.
PERMALINK = "link => {\n" + COLOURS_JS + """
  const page = over(rgba(getComputedStyle(document.body).backgroundColor), [255, 255, 255]);
  const colour = over(rgba(getComputedStyle(link).color), page);
  // The heading's last character before the mark, wherever it stands (a badge's text too).
  const heading = link.parentElement;
  const walker = document.createTreeWalker(heading, NodeFilter.SHOW_TEXT, {
    acceptNode: (node) => !link.contains(node) && node.textContent.trim()
      && node.parentElement.checkVisibility() && !node.parentElement.closest(".visually-hidden")
      ? NodeFilter.FILTER_ACCEPT : NodeFilter.FILTER_REJECT,
  });
  let last = null;
  while (walker.nextNode()) last = walker.currentNode;
  const end = last.textContent.trimEnd().length;
  const range = document.createRange();
  range.setStart(last, end - 1);
  range.setEnd(last, end);
  const line = range.getBoundingClientRect();
  const lineHeight = parseFloat(getComputedStyle(heading).lineHeight);
  const box = link.getBoundingClientRect();
  const glyph = document.createRange();
  glyph.selectNodeContents(link);
  const mark = glyph.getBoundingClientRect();
  const middle = (mark.top + mark.bottom) / 2;
  return {
    heading: heading.textContent.slice(0, 60),
    contrast: contrast(colour, page),
    // the ¶'s middle within the line box of the last character, the box around that character's middle
    onLastLine: Math.abs(middle - (line.top + line.bottom) / 2) < lineHeight / 2,
    right: Math.round(box.right), width: box.width, height: box.height,
  };
}"""


def open_context(page: Page, url: str) -> None:
    page.goto(url + "context/")
    wait_for_material(page)


def test_a_tap_on_a_paragraph_mark_lands_on_its_paragraph(browser, host):
    context, page, problems = new_page(browser, PHONE, origin=host.url, has_touch=True, is_mobile=True)
    open_context(page, host.url)
    assert page.evaluate("matchMedia('(hover: none)').matches")
    mark = page.locator(f"#{PARAGRAPH} > a.paragraph-link")
    mark.scroll_into_view_if_needed()
    shown = mark.evaluate(SHOWN)
    assert shown["drawn"] and shown["opacity"] == "1", shown
    assert shown["width"] >= TARGET_PX and shown["height"] >= TARGET_PX, shown
    mark.tap()
    page.wait_for_url(f"**/context/#{PARAGRAPH}")
    assert page.evaluate("document.querySelector(':target').id") == PARAGRAPH
    context.close()
    assert not problems.all(), problems.all()


def test_heading_permalinks_are_shown_and_tappable_on_touch(browser, host):
    context, page, problems = new_page(browser, PHONE, origin=host.url, has_touch=True, is_mobile=True)
    page.goto(host.url)
    wait_for_material(page)
    links = page.locator("article a.headerlink")
    assert links.count() >= 2
    for index in range(links.count()):
        shown = links.nth(index).evaluate(SHOWN)
        assert shown["drawn"] and shown["width"] >= TARGET_PX and shown["height"] >= TARGET_PX, shown
    context.close()
    assert not problems.all(), problems.all()


def test_with_a_mouse_the_marks_wait_for_hover(browser, host):
    """The check can fail: where there is hover, a mark is drawn only under the pointer."""
    context, page, _ = new_page(browser, DESKTOP, origin=host.url)
    open_context(page, host.url)
    mark = page.locator(f"#{PARAGRAPH} > a.paragraph-link")
    page.mouse.move(0, 0)
    page.wait_for_function("link => getComputedStyle(link).opacity === '0'", arg=mark.element_handle())
    assert not mark.evaluate(SHOWN)["drawn"]
    page.locator(f"#{PARAGRAPH}").hover()
    page.wait_for_function("link => getComputedStyle(link).opacity === '1'", arg=mark.element_handle())
    context.close()


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("path", ["", "context/", "transcript/", "how-to-cite/"])
def test_heading_permalinks_are_seen_and_stay_on_the_headings_line(browser, host, scheme, path):
    """A control needs 3:1 against its background (WCAG 2.2, 1.4.11); a mark that wrapped
    would stand alone on a line under its heading."""
    context, page, problems = new_page(browser, PHONE, color_scheme=scheme, origin=host.url,
                                       has_touch=True, is_mobile=True)
    page.goto(host.url + path)
    wait_for_material(page)
    width = page.evaluate("document.querySelector('article').getBoundingClientRect().right")
    marks = [link.evaluate(PERMALINK) for link in page.locator("article a.headerlink").all()]
    context.close()
    assert marks
    for mark in marks:
        assert mark["contrast"] >= 3, mark
        assert mark["onLastLine"], mark
        assert mark["width"] >= TARGET_PX and mark["height"] >= TARGET_PX, mark
        assert mark["right"] <= width, mark  # not pushed out past the text's edge
    assert not problems.all(), problems.all()
