"""A missing address, at any depth, is answered with the site's 404 page, styled and
working: its links lead back into the essay and its search form opens the search."""

from __future__ import annotations

import pytest

from browser.site_browser import COLOURS_JS, DESKTOP, PHONE, new_page, wait_for_material

MISSING = ["no-such-page", "context/no/such/page/", "transcript/msg-9999.html"]

# How the search form's field and button are drawn: for each, its height and the contrast
# against the page of its edge (its border) and of its fill, each colour laid over the
# page's background as the browser paints it (WCAG 2.2, 1.4.11 asks 3:1 of a control).
DRAWN = "() => {\n" + COLOURS_JS + """
  const page = over(rgba(getComputedStyle(document.body).backgroundColor), [255, 255, 255]);
  const drawn = (selector) => {
    const element = document.querySelector(selector);
    const style = getComputedStyle(element);
    const fill = over(rgba(style.backgroundColor), page);
    const edge = style.borderTopStyle === "none" ? fill : over(rgba(style.borderTopColor), fill);
    return {
      height: element.getBoundingClientRect().height,
      edge: parseFloat(style.borderTopWidth) >= 1 ? contrast(edge, page) : 1,
      fill: contrast(fill, page),
      text: contrast(over(rgba(style.color), fill), fill),
      fontSize: parseFloat(style.fontSize),
    };
  };
  return {
    scheme: document.body.dataset.mdColorScheme,
    field: drawn("#not-found-query"),
    button: drawn(".not-found-search button"),
  };
}"""


@pytest.mark.parametrize("path", MISSING)
def test_a_missing_page_shows_the_404_page_and_its_home_link_works(browser, host, path):
    context, page, problems = new_page(browser, PHONE, origin=host.url)
    response = page.goto(host.url + path)
    assert response is not None and response.status == 404
    wait_for_material(page)
    assert page.locator("article h1").inner_text() == "Page not found"
    # Material's style sheet came: the header is fixed to the top, as on every page.
    assert page.evaluate("getComputedStyle(document.querySelector('.md-header')).position") in ("sticky", "fixed")
    page.locator("article a", has_text="The Silence That Speaks").first.click()
    page.wait_for_url(host.url)
    assert page.locator("article h1").first.inner_text().startswith("The Silence That Speaks")
    context.close()
    # The 404 answer itself is what is asked for here; nothing else may fail.
    asked = host.url + path
    assert [p for p in problems.all()
            if not (p.startswith(f"{asked}: HTTP 404") or p.endswith(f"(Not Found) at {asked}"))] == []


def test_its_links_reach_every_section_and_the_transcript(browser, host):
    context, page, _ = new_page(browser, DESKTOP, origin=host.url)
    page.goto(host.url + "a/b/c/")
    wait_for_material(page)
    hrefs = page.eval_on_selector_all("article a", "links => links.map(a => a.href)")
    assert host.url + "context/" in hrefs and host.url + "transcript/" in hrefs
    for href in hrefs:
        assert page.request.get(href).status == 200, href
    context.close()


def test_its_search_form_opens_the_search(browser, host):
    context, page, _ = new_page(browser, DESKTOP, origin=host.url)
    page.goto(host.url + "missing/page")
    wait_for_material(page)
    page.fill("#not-found-query", "catastrophically")
    page.press("#not-found-query", "Enter")
    page.wait_for_url(f"{host.url}?q=catastrophically")
    wait_for_material(page)
    first = page.locator(".md-search-result__item a").first
    first.wait_for()
    href = first.get_attribute("href")
    assert href is not None and "context/" in href
    context.close()


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_its_search_field_and_button_are_drawn_as_such(browser, host, viewport, scheme):
    """The form is seen: a field with an edge against the page and a button that stands out
    of it (not text alone), each tall enough to tap, in either colour scheme."""
    context, page, _ = new_page(browser, viewport, color_scheme=scheme, origin=host.url)
    page.goto(host.url + "missing/page")
    wait_for_material(page)
    drawn = page.evaluate(DRAWN)
    context.close()
    assert drawn["scheme"] == {"light": "default", "dark": "slate"}[scheme], drawn
    field, button = drawn["field"], drawn["button"]
    assert field["height"] >= 36 and button["height"] >= 36, drawn
    assert max(field["edge"], field["fill"]) >= 3, drawn
    assert max(button["edge"], button["fill"]) >= 3, drawn
    assert button["fill"] > 1.05, drawn  # a filled button, not text on the page
    assert field["text"] >= 4.5 and button["text"] >= 4.5, drawn
    assert field["fontSize"] >= 16, drawn  # smaller, Safari zooms the page into the field
