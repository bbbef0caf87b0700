""""Cite this passage": words selected in a paragraph of the essay or in a transcript
message, by mouse, keyboard or touch, offer a button under it that shows their citation in
the reader's chosen style, with a link whose text fragment lands on those words, this
occurrence of them; a selection across two paragraphs offers nothing, nor does a page
without its script.

Most tests visit the essay of tests/projects/passages, whose page "Repeated Words" says
the same words in its first paragraph and its last, thirty paragraphs apart."""

from __future__ import annotations

import contextlib
import shutil
from collections.abc import Iterator
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Browser, BrowserContext, Page
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from author_project import author_project
from browser.site_browser import (
    CHROMIUM,
    CHROMIUM_ARGS,
    COLOURS_JS,
    DESKTOP,
    PHONE,
    build_site,
    new_page,
    wait_for_material,
)
from static_host import StaticHost

FIRST, LAST = "p-the-assistant-paused-and", "p-much-later-the-user"  # both say WORDS
WORDS = "quiet pause before the answer"
STYLE_KEY = "essay-citation-style"  # where cite-style.js keeps the reader's choice

# Selects `words` (the first time they stand in the element that `selector` finds) as a
# reader's selection; returns whether it found them.
SELECT = """([selector, words]) => {
  const walker = document.createTreeWalker(document.querySelector(selector), NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const at = node.data.indexOf(words);
    if (at < 0) continue;
    const range = document.createRange();
    range.setStart(node, at);
    range.setEnd(node, at + words.length);
    getSelection().removeAllRanges();
    getSelection().addRange(range);
    return true;
  }
  return false;
}"""

# Where `words` stand in the element with id `id`, on screen: the middle of their first
# and last characters, for a mouse to drag from one to the other.
ENDS = """([id, words]) => {
  const walker = document.createTreeWalker(document.getElementById(id), NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const at = node.data.indexOf(words);
    if (at < 0) continue;
    const box = (from) => {
      const range = document.createRange();
      range.setStart(node, from);
      range.setEnd(node, from + 1);
      const rect = range.getBoundingClientRect();
      return [rect.left + 1, rect.top + rect.height / 2, rect.right - 1];
    };
    const [x0, y0] = box(at), [, y1, x1] = box(at + words.length - 1);
    return [x0, y0, x1, y1];
  }
  return null;
}"""

# Whether the element with id `id` is in the viewport.
IN_VIEW = """id => {
  const box = document.getElementById(id).getBoundingClientRect();
  return box.bottom > 0 && box.top < innerHeight;
}"""


@pytest.fixture(scope="module")
def passages_host(output_dir) -> Iterator[StaticHost]:
    project = output_dir / "passages-project"
    if project.exists():
        shutil.rmtree(project)
    site = build_site(output_dir / "passages-site", author_project("passages", project))
    with StaticHost(site) as server:
        yield server


@pytest.fixture(scope="module")
def caret_browser(browser) -> Iterator[Browser]:
    """Chromium with caret browsing on (F7), as a reader who selects from the keyboard has it."""
    chromium = browser.browser_type.launch(executable_path=CHROMIUM, headless=True,
                                           args=[*CHROMIUM_ARGS, "--enable-caret-browsing"])
    yield chromium
    chromium.close()


def opened(page: Page, url: str) -> None:
    page.goto(url)
    wait_for_material(page)


def chosen_style(context: BrowserContext, style: str) -> None:
    context.add_init_script(f"localStorage.setItem({STYLE_KEY!r}, {style!r})")


def shown_citation(page: Page) -> tuple[str, str]:
    """The style of the passage's citation shown, and its text as its "Copy" button copies it."""
    shown = [dd for dd in page.locator("#passage-cite-panel dl.citations > dd").all() if dd.is_visible()]
    assert len(shown) == 1, [dd.get_attribute("data-style") for dd in shown]
    copied = shown[0].locator("button.cite-copy").get_attribute("data-copy") or ""
    return shown[0].get_attribute("data-style") or "", copied


def section_citation(page: Page, style: str) -> tuple[str, str]:
    """The section's citation in `style`, and the address it ends with."""
    entry = page.locator(f'#cite-this-section dd[data-style="{style}"]')
    copied = entry.locator("button.cite-copy").get_attribute("data-copy") or ""
    return copied, entry.locator("a").get_attribute("href") or ""


def link_of(page: Page) -> str:
    return page.locator("#passage-cite-panel .cite-address a").get_attribute("href") or ""


def test_a_mouse_selection_cites_the_words_in_the_chosen_style(browser, passages_host):
    context, page, problems = new_page(browser, DESKTOP, origin=passages_host.url)
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=passages_host.url)
    chosen_style(context, "MLA")
    opened(page, passages_host.url + "repeats/")
    page.locator(f"#{LAST}").scroll_into_view_if_needed()
    x0, y0, x1, y1 = page.evaluate(ENDS, [LAST, WORDS])
    page.mouse.move(x0, y0)
    page.mouse.down()
    page.mouse.move(x1, y1, steps=8)
    page.mouse.up()
    assert page.evaluate("getSelection().toString()") == WORDS
    button = page.get_by_role("button", name="Cite this passage")
    button.click()
    assert button.get_attribute("aria-expanded") == "true"
    # It stands under the paragraph quoted, and says what the section's citation says.
    assert page.evaluate(f"document.getElementById('{LAST}').nextElementSibling.className") == "passage-cite"
    style, citation = shown_citation(page)
    section, url = section_citation(page, "MLA")
    link = link_of(page)
    assert style == "MLA"
    assert citation == f"\u201c{WORDS}\u201d " + section.replace(url, link)
    assert link.startswith(passages_host.url + f"repeats/#{LAST}:~:text=")
    assert page.locator("#passage-cite-panel .passage-cite-panel__quote").inner_text() == WORDS
    # Its "Copy" copies it, as every citation's does.
    page.locator('#passage-cite-panel dd[data-style="MLA"] button.cite-copy').click()
    page.wait_for_function("document.querySelector('.copy-status').textContent === 'Citation copied'")
    assert page.evaluate("navigator.clipboard.readText()") == citation
    # Pressed again, it closes.
    button.click()
    assert page.locator("#passage-cite-panel").count() == 0 and button.get_attribute("aria-expanded") == "false"
    context.close()
    assert not problems.all(), problems.all()


def landed(browser: Browser, url: str) -> tuple[bool, bool, int]:
    """A link opened in a fresh page: whether the first and the last paragraph that say
    WORDS are on screen, and how far the page scrolled."""
    context, page, _ = new_page(browser, DESKTOP)
    page.goto(url)
    wait_for_material(page)
    # The browser scrolls to a text fragment once the page is laid out.
    with contextlib.suppress(PlaywrightTimeoutError):  # a link that lands at the top never scrolls
        page.wait_for_function("scrollY > 0", timeout=3_000)
    page.wait_for_timeout(300)
    found = page.evaluate(IN_VIEW, FIRST), page.evaluate(IN_VIEW, LAST), page.evaluate("scrollY")
    context.close()
    return found


def test_the_link_lands_on_the_occurrence_selected(browser, passages_host):
    context, page, problems = new_page(browser, DESKTOP, origin=passages_host.url)
    opened(page, passages_host.url + "repeats/")
    assert page.evaluate(SELECT, [f"#{LAST}", WORDS])
    page.get_by_role("button", name="Cite this passage").click()
    link = link_of(page)
    path, fragment = link.split("#", 1)
    anchor, directive = fragment.split(":~:text=", 1)
    assert anchor == LAST
    # The words stand twice: the words before them say which.
    assert directive.endswith("-,quiet%20pause%20before%20the%20answer"), directive
    assert landed(browser, link)[:2] == (False, True)
    # The text fragment alone does it, without the paragraph's anchor to fall back on...
    alone = f"{path}#:~:text={directive}"
    assert landed(browser, alone)[:2] == (False, True)
    # ... which the words alone would not: they land on the first paragraph that says them.
    assert landed(browser, f"{path}#:~:text={directive.split('-,', 1)[1]}")[:2] == (True, False)
    context.close()
    assert not problems.all(), problems.all()


def test_the_first_occurrence_needs_no_words_around_it(browser, passages_host):
    context, page, problems = new_page(browser, DESKTOP, origin=passages_host.url)
    opened(page, passages_host.url + "repeats/")
    page.evaluate("scrollTo(0, document.body.scrollHeight)")
    assert page.evaluate(SELECT, [f"#{FIRST}", "quiet pause before"])
    page.get_by_role("button", name="Cite this passage").click()
    assert link_of(page).endswith(f"#{FIRST}:~:text=quiet%20pause%20before")
    context.close()
    assert not problems.all(), problems.all()


def test_a_long_selection_is_linked_by_its_first_and_last_words(browser, passages_host):
    context, page, problems = new_page(browser, DESKTOP, origin=passages_host.url)
    opened(page, passages_host.url + "repeats/")
    words = "Much later the user wrote again, and a quiet pause before the answer is where the session ended"
    assert page.evaluate(SELECT, [f"#{LAST}", words])
    page.get_by_role("button", name="Cite this passage").click()
    link = link_of(page)
    assert link.endswith(":~:text=Much%20later%20the%20user%20wrote,is%20where%20the%20session%20ended"), link
    _, citation = shown_citation(page)
    assert citation.startswith(f"\u201c{words}\u201d ")
    assert landed(browser, link)[:2] == (False, True)
    context.close()
    assert not problems.all(), problems.all()


def test_a_keyboard_selection_and_the_button_reached_by_tab(caret_browser, host):
    """On the essay the tests of the tool expect: a reader with caret browsing on moves
    the caret into a paragraph, selects with shift and the arrows, and Tab reaches the
    button, which Enter presses and Escape closes."""
    context, page, problems = new_page(caret_browser, DESKTOP, origin=host.url)
    chosen_style(context, "Chicago")
    opened(page, host.url + "context/")
    paragraph = "p-the-initial-deployment-attempt"
    page.evaluate("""id => {
      const text = document.getElementById(id).firstChild;
      getSelection().collapse(text, 0);
    }""", paragraph)
    for _ in range(3):
        page.keyboard.press("Control+Shift+ArrowRight")
    selected = page.evaluate("getSelection().toString()").strip()
    assert len(selected.split()) == 3, selected
    page.wait_for_selector(".passage-cite-button")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.textContent") == "Cite this passage"
    page.keyboard.press("Enter")
    style, citation = shown_citation(page)
    section, url = section_citation(page, "Chicago")
    assert style == "Chicago"
    assert citation == f"\u201c{selected}\u201d " + section.replace(url, link_of(page))
    assert urlsplit(link_of(page)).fragment.startswith(f"{paragraph}:~:text=")
    # The panel is the next Tab stop; Escape closes it and gives the button the focus again.
    page.keyboard.press("Tab")
    assert page.evaluate("document.getElementById('passage-cite-panel').contains(document.activeElement)")
    page.keyboard.press("Escape")
    assert page.locator("#passage-cite-panel").count() == 0
    assert page.evaluate("document.activeElement.classList.contains('passage-cite-button')")
    context.close()
    assert not problems.all(), problems.all()


def test_a_tap_cites_on_a_phone_and_nothing_overflows(browser, passages_host):
    context, page, problems = new_page(browser, PHONE, origin=passages_host.url, has_touch=True, is_mobile=True)
    opened(page, passages_host.url + "")
    item = "p-the-second-asked-for"  # a list item: the button ends it
    assert page.evaluate(SELECT, [f"#{item}", "takes arguments"])
    button = page.get_by_role("button", name="Cite this passage")
    button.scroll_into_view_if_needed()
    box = button.bounding_box()
    assert box and box["width"] >= 24 and box["height"] >= 24, box
    assert page.evaluate(f"document.getElementById('{item}').lastElementChild.className") == "passage-cite"
    button.tap()
    style, citation = shown_citation(page)
    assert style == "APA" and citation.startswith("\u201ctakes arguments\u201d Quill, A. (2027, April 2).")
    assert link_of(page).startswith(passages_host.url + f"#{item}:~:text=takes%20arguments")
    assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")
    cut = page.evaluate("""() => [...document.querySelectorAll('#passage-cite-panel :is(p, pre, code)')]
        .filter(e => e.offsetParent !== null && e.scrollWidth > e.clientWidth + 1).length""")
    assert cut == 0
    context.close()
    assert not problems.all(), problems.all()


def test_words_of_a_transcript_message_are_cited_as_the_message(browser, passages_host):
    context, page, problems = new_page(browser, DESKTOP, origin=passages_host.url)
    opened(page, passages_host.url + "transcript/")
    words = "three levels of functions"
    assert page.evaluate(SELECT, ["#msg-6", "x"]) is False  # the heading holds no words of the message
    assert page.evaluate(SELECT, ['.msg-item[data-msg="6"] .msg-entry', words])
    page.get_by_role("button", name="Cite this passage").click()
    _, citation = shown_citation(page)
    message = page.locator('.msg-item[data-msg="6"] .msg-cite-button')
    link = link_of(page)
    assert link.startswith(passages_host.url + "transcript/#msg-6:~:text=three%20levels%20of%20functions")
    # What the message's own citation says, the words before it and their address at its end.
    message.click()
    own = page.locator('#msg-cite-panel dd[data-style="APA"] button.cite-copy').get_attribute("data-copy") or ""
    own_url = page.locator("#msg-cite-panel .cite-address a").get_attribute("href") or ""
    assert citation == f"\u201c{words}\u201d " + own.replace(own_url, link)
    context.close()
    assert not problems.all(), problems.all()


def test_a_selection_of_two_paragraphs_offers_nothing(browser, passages_host):
    context, page, problems = new_page(browser, DESKTOP, origin=passages_host.url)
    opened(page, passages_host.url + "repeats/")
    assert page.evaluate(SELECT, ["#p-filler-lantern", "lantern alone"])
    page.wait_for_selector(".passage-cite-button")
    page.evaluate("""() => {
      const range = getSelection().getRangeAt(0);
      range.setEnd(document.getElementById('p-filler-harbour').firstChild, 10);
    }""")
    page.wait_for_selector(".passage-cite-button", state="detached")
    # Nor do words outside the paragraphs: a heading's.
    page.evaluate("getSelection().selectAllChildren(document.querySelector('article h1'))")
    page.wait_for_timeout(200)
    assert page.locator(".passage-cite-button").count() == 0
    context.close()
    assert not problems.all(), problems.all()


def test_the_button_is_seen_against_the_page_and_axe_finds_nothing(browser, passages_host):
    from browser.test_accessibility import axe_violations

    for scheme in ("light", "dark"):
        context, page, problems = new_page(browser, DESKTOP, color_scheme=scheme, origin=passages_host.url)
        opened(page, passages_host.url + "repeats/")
        assert page.evaluate(SELECT, [f"#{LAST}", WORDS])
        button = page.get_by_role("button", name="Cite this passage")
        contrast = button.evaluate("button => {\n" + COLOURS_JS + """
          const page = over(rgba(getComputedStyle(document.body).backgroundColor), [255, 255, 255]);
          const back = over(rgba(getComputedStyle(button).backgroundColor), page);
          return contrast(over(rgba(getComputedStyle(button).color), back), back);
        }""")
        assert contrast >= 4.5, (scheme, contrast)
        button.click()
        assert axe_violations(page) == [], scheme
        context.close()
        assert not problems.all(), problems.all()


def test_without_a_script_nothing_is_offered(browser, passages_host):
    context, page, _ = new_page(browser, DESKTOP, origin=passages_host.url, java_script_enabled=False)
    page.goto(passages_host.url + "repeats/")
    paragraph = page.locator(f"#{LAST}")
    paragraph.scroll_into_view_if_needed()
    box = paragraph.bounding_box()
    assert box
    # A triple click selects the paragraph (a drag would wait on the page's scripts).
    page.mouse.click(box["x"] + 40, box["y"] + 10, click_count=3)
    page.wait_for_timeout(300)
    assert page.locator(".passage-cite, .passage-cite-button").count() == 0
    assert not page.get_by_text("Cite this passage").is_visible()
    context.close()


def test_a_triple_click_cites_the_whole_paragraph_without_its_mark(browser, passages_host):
    """A triple click selects up to the start of the next paragraph: that is still one."""
    context, page, problems = new_page(browser, DESKTOP, origin=passages_host.url)
    opened(page, passages_host.url + "repeats/")
    paragraph = page.locator("#p-filler-ember")
    paragraph.scroll_into_view_if_needed()
    box = paragraph.bounding_box()
    assert box
    page.mouse.click(box["x"] + 40, box["y"] + 10, click_count=3)
    page.get_by_role("button", name="Cite this passage").click()
    whole = "Filler paragraph 8 speaks of the ember alone, so that the page is long and its words stand far apart " \
            "from one another."
    assert page.locator("#passage-cite-panel .passage-cite-panel__quote").inner_text() == whole
    assert landed(browser, link_of(page).replace("#p-filler-ember", "#"))[2] > 0
    context.close()
    assert not problems.all(), problems.all()
