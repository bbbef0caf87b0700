"""The keyboard alone: every Tab stop, from the page's load on, is drawn on screen with
its focus shown, on a phone and on a desktop; the closed navigation drawer, the empty
search results and, on a phone, the hidden search field take none; the drawer, once
opened, is reached, and so is the search."""

from __future__ import annotations

import contextlib

import pytest
from playwright.sync_api import Page

from browser.site_browser import DESKTOP, PHONE, new_page, wait_for_material

PAGES = {"home": "", "section": "context/", "transcript": "transcript/"}
STOPS = 40

# What the focused element shows: its box (a palette radio button is drawn as the label
# after it, the button that switches the scheme, which shows its focus), whether that box
# is on screen and drawn, and whether it lies in the drawer while the drawer is closed. A
# text field shows its focus by its caret.
FOCUSED = """() => {
  const focused = document.activeElement;
  if (!focused || focused === document.body) return null;
  const shown = focused.matches("input.md-option") ? focused.nextElementSibling : focused;
  shown.scrollIntoView({block: "nearest", inline: "nearest", behavior: "instant"});
  const box = shown.getBoundingClientRect();
  const drawer = focused.closest(".md-sidebar--primary");
  const style = getComputedStyle(shown);
  const label = (focused.textContent || focused.getAttribute("aria-label") || "").trim().slice(0, 40);
  return {
    element: `${focused.tagName.toLowerCase()}.${[...focused.classList].join(".")} "${label}"`,
    box: [box.left, box.top, box.width, box.height].map(Math.round),
    onScreen: box.width > 0 && box.height > 0 && box.left >= -0.5 && box.top >= -0.5
      && box.right <= innerWidth + 0.5 && box.bottom <= innerHeight + 0.5,
    drawn: shown.checkVisibility({opacityProperty: true, visibilityProperty: true}),
    inClosedDrawer: drawer !== null && getComputedStyle(drawer).position === "fixed"
      && !document.getElementById("__drawer").checked,
    focusShown: focused.matches("input[type=search], input[type=text]") || style.outlineStyle !== "none",
    inDrawer: drawer !== null,
    inContent: focused.closest(".md-content") !== null,
  };
}"""
GOOD = "stop => stop === null || (stop.onScreen && stop.drawn && !stop.inClosedDrawer && stop.focusShown)"


def next_stop(page: Page) -> dict | None:
    page.keyboard.press("Tab")
    return settled(page)


def settled(page: Page) -> dict | None:
    """The focus once it is drawn (transitions, Material's search overlay and its drawer
    take a moment), or as it stays if it never is."""
    with contextlib.suppress(Exception):  # timed out: report the stop as it is
        page.wait_for_function(f"() => ({GOOD})(({FOCUSED})())", timeout=1500)
    return page.evaluate(FOCUSED)


def walk(page: Page, stops: int = STOPS) -> list[dict]:
    """Tab from the page's load through `stops` stops or to the end of the page."""
    found = []
    for _ in range(stops):
        stop = next_stop(page)
        if stop is None:
            break
        found.append(stop)
    return found


def bad_stops(stops: list[dict]) -> list[dict]:
    return [s for s in stops if not (s["onScreen"] and s["drawn"] and not s["inClosedDrawer"] and s["focusShown"])]


def open_page(page: Page, url: str) -> None:
    page.goto(url)
    wait_for_material(page)


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
@pytest.mark.parametrize("name", PAGES)
def test_every_tab_stop_is_on_screen_and_shows_its_focus(browser, host, viewport, name):
    context, page, problems = new_page(browser, viewport, origin=host.url)
    open_page(page, host.url + PAGES[name])
    stops = walk(page)
    context.close()
    assert len(stops) >= 15 and any(s["inContent"] for s in stops), stops
    assert bad_stops(stops) == [], bad_stops(stops)
    # Wide, the navigation is a sidebar of the page; narrow, a drawer reached once opened.
    assert any(s["inDrawer"] for s in stops) == (viewport == DESKTOP), stops
    assert not problems.all(), problems.all()


def test_the_walk_finds_a_stop_in_a_closed_drawer(browser, host):
    """The check can fail: with the drawer's links left visible while it is closed, as
    Material leaves them, the walk meets them off screen."""
    context, page, _ = new_page(browser, PHONE, origin=host.url)
    open_page(page, host.url)
    # At once: essay.css delays the drawer's visibility by its slide, longer than the
    # walk may take to reach it.
    page.add_style_tag(content=".md-sidebar--primary { visibility: visible !important; transition: none !important; }")
    bad = bad_stops(walk(page, 20))
    context.close()
    assert bad and all(s["inClosedDrawer"] and not s["onScreen"] for s in bad), bad


def test_the_opened_drawer_is_reached_by_the_keyboard(browser, host):
    context, page, problems = new_page(browser, PHONE, origin=host.url)
    open_page(page, host.url + "context/")
    menu = page.locator(".md-header button.md-header__menu")
    # The menu button is a Tab stop of its own: the second, after "Skip to content".
    stops = walk(page, 2)
    assert stops[-1]["element"].startswith("button.md-header__button.md-icon.md-header__menu"), stops
    assert menu.get_attribute("aria-label") == "Navigation"
    assert page.locator('.md-header label[for="__drawer"]').count() == 0  # a button in its place
    assert menu.get_attribute("aria-expanded") == "false"
    page.keyboard.press("Enter")
    page.wait_for_function("document.getElementById('__drawer').checked")
    assert menu.get_attribute("aria-expanded") == "true"
    page.keyboard.press("Space")  # closes it, as Enter would
    page.wait_for_function("!document.getElementById('__drawer').checked")
    page.keyboard.press("Space")
    page.wait_for_function("document.getElementById('__drawer').checked")
    in_drawer = [s for s in walk(page, 12) if s["inDrawer"]]
    assert in_drawer and bad_stops(in_drawer) == [], bad_stops(in_drawer)
    context.close()
    assert not problems.all(), problems.all()


def test_a_click_on_the_menu_opens_the_drawer_to_the_keyboard(browser, host):
    """On the transcript page the drawer holds the page's contents as a panel of its own:
    closed, its links take no focus; opened from the page's name, they do."""
    context, page, problems = new_page(browser, PHONE, origin=host.url)
    open_page(page, host.url + "transcript/")
    page.locator(".md-header button.md-header__menu").click()
    page.wait_for_function("document.getElementById('__drawer').checked")
    in_drawer: list[dict] = []
    while len(in_drawer) < 20 and not (in_drawer and in_drawer[-1]["element"].startswith("label.md-nav__link")):
        stop = next_stop(page)
        assert stop is not None, f"nothing took the focus after {in_drawer}"
        in_drawer.append(stop)
    assert len(in_drawer) > 5 and bad_stops(in_drawer) == [], in_drawer
    assert in_drawer[-1]["element"].startswith("label.md-nav__link") and "Transcript" in in_drawer[-1]["element"]
    assert not any("Message 5843" in s["element"] for s in in_drawer)
    page.keyboard.press("Enter")
    page.wait_for_function("document.getElementById('__toc').checked")
    # First the panel's title, the button back, then its links.
    back, first, *_ = contents = walk(page, 3)
    assert "Table of contents" in back["element"] and "Message 5843" in first["element"], contents
    assert bad_stops(contents) == [], contents
    context.close()
    assert not problems.all(), problems.all()


SEARCH_STATE = """() => ({
  open: document.getElementById("__search").checked,
  inField: document.activeElement === document.querySelector(".md-search__input"),
  onButton: document.activeElement.matches(".md-header button.md-header__search"),
})"""


def search_state(page: Page) -> dict:
    return page.evaluate(SEARCH_STATE)


@pytest.mark.parametrize("name", ["home", "section"])
def test_on_a_phone_the_closed_search_takes_no_tab_stop(browser, host, name):
    """Material's hidden search field was the fourth Tab stop, and focused it opened the
    whole-screen search until the next Tab. The search button takes its place."""
    context, page, problems = new_page(browser, PHONE, origin=host.url)
    open_page(page, host.url + PAGES[name])
    seen: list[dict | None] = []
    for _ in range(12):
        stop = next_stop(page)
        state = search_state(page)
        assert not state["open"] and not state["inField"], (stop, seen)
        seen.append(stop)
    assert any(s is not None and s["element"].startswith("button.md-header__button.md-icon.md-header__search")
               for s in seen), seen
    assert bad_stops([s for s in seen if s is not None]) == [], seen
    context.close()
    assert not problems.all(), problems.all()


def results_settled(page: Page) -> None:
    """Wait until the search's results stop changing: each keystroke's query is answered
    in turn, and the answer to an earlier one may replace the list under the focus."""
    seen, same = None, 0
    while same < 3:
        page.wait_for_timeout(100)
        now = page.evaluate("document.querySelector('.md-search-result')?.innerHTML")
        same = same + 1 if now == seen else 0
        seen = now


def test_on_a_phone_the_search_opens_from_its_button_and_keys_and_is_used_by_keyboard(browser, host):
    context, page, problems = new_page(browser, PHONE, origin=host.url)
    open_page(page, host.url)
    button = page.locator(".md-header button.md-header__search")
    assert button.get_attribute("aria-label") == "Search"
    assert page.locator('.md-header label.md-header__button[for="__search"]').is_hidden()  # the button in its place
    button.focus()
    page.keyboard.press("Enter")
    page.wait_for_function(f"({SEARCH_STATE})().open && ({SEARCH_STATE})().inField")
    page.keyboard.type("catastrophically")
    page.locator(".md-search-result__item a").first.wait_for()
    results_settled(page)
    page.keyboard.press("ArrowDown")  # Material's way through the results
    assert page.evaluate("document.activeElement.closest('.md-search-result') !== null")
    page.keyboard.press("Escape")  # closed, the focus goes back to the button
    page.wait_for_function(f"!({SEARCH_STATE})().open && ({SEARCH_STATE})().onButton")
    for key in ["/", "s"]:
        page.keyboard.press(key)
        page.wait_for_function(f"({SEARCH_STATE})().open && ({SEARCH_STATE})().inField")
        page.keyboard.press("Escape")
        page.wait_for_function(f"!({SEARCH_STATE})().open")
    # Opened with the button, Enter in the field goes to the best result.
    button.press("Space")
    page.wait_for_function(f"({SEARCH_STATE})().inField")
    page.keyboard.press("ControlOrMeta+a")
    page.keyboard.type("catastrophically")
    page.locator(".md-search-result__item a").first.wait_for()
    results_settled(page)
    page.keyboard.press("Enter")
    page.wait_for_url("**/context/?h=*")
    wait_for_material(page)
    context.close()
    assert not problems.all(), problems.all()


def test_on_a_desktop_the_search_field_stays_a_tab_stop(browser, host):
    """Wide, the field stands in the header: it is reached by Tab, and no button is shown."""
    context, page, problems = new_page(browser, DESKTOP, origin=host.url)
    open_page(page, host.url)
    assert page.locator(".md-header button.md-header__search").is_hidden()
    for _ in range(6):
        next_stop(page)
        if search_state(page)["inField"]:
            break
    page.wait_for_function("document.getElementById('__search').checked")  # opened by the focus, after a task
    assert search_state(page) == {"open": True, "inField": True, "onButton": False}
    context.close()
    assert not problems.all(), problems.all()
