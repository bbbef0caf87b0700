"""Material's start on a long page: what its script sets on <html> and <body> as it starts
is there before the page is drawn, so that the browser does not restyle every element of
the page (thousands on a transcript page) for it; and the colour scheme still switches."""

from __future__ import annotations

from typing import Literal

import pytest

from browser.site_browser import DESKTOP, PHONE, new_page, wait_for_material

COLOURS = {"data-md-color-scheme", "data-md-color-primary", "data-md-color-accent", "data-md-color-switching"}
# Every change of the attributes of <html> and <body> once the page's content is parsed
# (the footer is its end), as [element, attribute, value before, value after].
RECORD_CHANGES = """(() => {
  const seen = [];
  new MutationObserver((records) => {
    for (const record of records) {
      const target = record.target;
      if (target !== document.documentElement && target !== document.body) continue;
      if (!document.querySelector(".md-footer")) continue;
      seen.push([target.tagName, record.attributeName, record.oldValue]);
    }
  }).observe(document, { attributes: true, attributeOldValue: true, subtree: true });
  window.startChanges = () => {
    // A record's value after is the next record's value before, or the value now.
    const changes = seen.map(([tag, name, before], i) => {
      const next = seen.slice(i + 1).find(([t, n]) => t === tag && n === name);
      const element = tag === "HTML" ? document.documentElement : document.body;
      return [tag, name, before, next ? next[2] : element.getAttribute(name)];
    });
    return changes.filter(([, , before, after]) => before !== after);
  };
})();"""


def start(browser, host, viewport, scheme: Literal["light", "dark"]) -> tuple[list[list[str]], str | None]:
    """The changes of <html> and <body> as the transcript page starts, and the body."""
    context, page, problems = new_page(browser, viewport, color_scheme=scheme, origin=host.url)
    page.add_init_script(RECORD_CHANGES)
    page.goto(host.url + "transcript/")
    wait_for_material(page)
    page.wait_for_load_state("load")
    page.evaluate("new Promise(requestAnimationFrame)")  # Material unmarks the switch a frame later
    page.evaluate("new Promise(requestAnimationFrame)")
    changes = page.evaluate("window.startChanges()")
    # Material marked <html> as scripted, and no longer marks the body as switching.
    assert {"js", "js-focus-visible"} <= set(page.evaluate("[...document.documentElement.classList]"))
    assert page.locator("body").get_attribute("data-md-color-switching") is None
    assert problems.all() == []
    body = page.locator("body").get_attribute("data-md-color-scheme")
    context.close()
    return changes, body


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_material_starts_without_changing_the_classes_or_colours_of_the_page(browser, host, viewport):
    changes, scheme = start(browser, host, viewport, "light")
    assert scheme == "default"
    assert [change for change in changes if change[1] in COLOURS or change[1] == "class"] == []


def test_a_reader_who_prefers_dark_gets_it_before_the_content_is_parsed(browser, host):
    """The page is written light; the theme switches it right after the header, before
    the content: once the content is parsed, nothing of the colours changes."""
    changes, scheme = start(browser, host, DESKTOP, "dark")
    assert scheme == "slate"
    assert [change for change in changes if change[1] in COLOURS or change[1] == "class"] == []


# Each layout shift of the page as it loads, by the elements it moved.
RECORD_SHIFTS = """window.layoutShifts = [];
new PerformanceObserver((list) => {
  for (const shift of list.getEntries()) {
    window.layoutShifts.push(shift.sources.map((source) => source.node && source.node.className));
  }
}).observe({ type: "layout-shift", buffered: true });"""


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_the_transcript_does_not_move_as_its_scripts_start(browser, host, viewport):
    """The search box, shown by its script once loaded, had its place kept before."""
    context, page, problems = new_page(browser, viewport, origin=host.url)
    page.add_init_script(RECORD_SHIFTS)
    page.goto(host.url + "transcript/")
    wait_for_material(page)
    page.wait_for_load_state("load")
    assert page.locator("form.msg-search").is_visible()
    page.evaluate("new Promise(requestAnimationFrame)")
    page.evaluate("new Promise(requestAnimationFrame)")
    shifts = page.evaluate("window.layoutShifts")
    assert problems.all() == []
    context.close()
    assert shifts == []
