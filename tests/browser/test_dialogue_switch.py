"""The transcript page's "Dialogue only" switch (essay.css, assets/dialogue-switch.js) in a
real browser, on a real Claude Code log shown whole: its focus drawn from the keyboard in
either scheme, and never hiding what the address points at, however the reader gets there."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Page

from browser.site_browser import COLOURS_JS, DESKTOP, PHONE, build_site, new_page, wait_for_material
from browser.test_conversation import whole_session_project
from static_host import StaticHost

TOOL_CALL = 32  # a Bash call of the log, hidden by the switch
SPOKEN = 2  # the user's words, which it leaves

# The focused element's outline as drawn: its style, its width, and its contrast with
# the page's background (WCAG 2.2's 3:1 for what shows a control's state).
OUTLINE = """() => {
""" + COLOURS_JS + """
  const focused = document.activeElement;
  const style = getComputedStyle(focused);
  const page = rgba(getComputedStyle(document.body).backgroundColor);
  return {
    id: focused.id,
    focusVisible: focused.matches(":focus-visible"),
    style: style.outlineStyle,
    width: parseFloat(style.outlineWidth),
    contrast: contrast(over(rgba(style.outlineColor), page), page),
  };
}"""


@pytest.fixture(scope="module")
def session(output_dir) -> Iterator[StaticHost]:
    project = whole_session_project(output_dir / "dialogue-project")
    with StaticHost(build_site(output_dir / "dialogue-site", project)) as server:
        yield server


@pytest.fixture
def transcript(browser, session) -> Iterator[Page]:
    """The transcript page, opened at its top, its switch on."""
    context, page, problems = new_page(browser, DESKTOP, origin=session.url)
    page.goto(session.url + "transcript/")
    wait_for_material(page)
    page.check("#dialogue-only")
    assert not page.locator(f"#msg-{TOOL_CALL}").is_visible() and page.locator(f"#msg-{SPOKEN}").is_visible()
    yield page
    context.close()
    assert not problems.all(), problems.all()


def landed_on(page: Page, n: int) -> None:
    """The page shows message n, on screen, at its address, the switch off and saying why."""
    page.wait_for_url(f"**#msg-{n}")
    heading = page.locator(f"#msg-{n}")
    heading.wait_for(state="visible")
    page.wait_for_function(f"""() => {{
        const box = document.getElementById("msg-{n}").getBoundingClientRect();
        return box.top >= 0 && box.bottom <= innerHeight;
    }}""")
    assert not page.is_checked("#dialogue-only")  # the switch says what the page shows
    assert page.locator(".msg-switch__note").inner_text() == f"Turned off to show message {n}."


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_the_switch_shows_its_focus_from_the_keyboard(browser, session, scheme, viewport):
    context, page, problems = new_page(browser, viewport, color_scheme=scheme, origin=session.url)
    page.goto(session.url + "transcript/")
    wait_for_material(page)
    page.locator("#transcript-search").focus()
    for _ in range(10):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.id") == "dialogue-only":
            break
    drawn = page.evaluate(OUTLINE)
    context.close()
    assert drawn["id"] == "dialogue-only" and drawn["focusVisible"], drawn
    assert drawn["style"] not in ("none", "hidden") and drawn["width"] >= 2, drawn
    assert drawn["contrast"] >= 3, drawn
    assert not problems.all(), problems.all()


def test_an_address_changed_to_a_hidden_message_turns_the_switch_off(transcript):
    transcript.evaluate(f"location.hash = '#msg-{SPOKEN}'")  # shown: the switch stays on
    transcript.wait_for_url(f"**#msg-{SPOKEN}")
    assert transcript.is_checked("#dialogue-only") and transcript.locator(".msg-switch__note").inner_text() == ""
    transcript.evaluate(f"location.hash = '#msg-{TOOL_CALL}'")
    landed_on(transcript, TOOL_CALL)
    transcript.check("#dialogue-only")  # on again: the note goes, the message hides
    assert transcript.locator(".msg-switch__note").inner_text() == ""
    assert not transcript.locator(f"#msg-{TOOL_CALL}").is_visible()


def test_a_link_in_the_page_to_a_hidden_message_turns_the_switch_off(transcript):
    transcript.locator("#transcript-search").fill(str(TOOL_CALL))
    go_to = transcript.locator("form.msg-search .msg-search__results li a").first
    assert go_to.inner_text().startswith(f"Go to message {TOOL_CALL}:")
    go_to.click()
    landed_on(transcript, TOOL_CALL)


def test_enter_in_the_go_to_box_reaches_a_hidden_message(transcript):
    transcript.locator("#transcript-search").fill(f"msg {TOOL_CALL}")
    transcript.keyboard.press("Enter")
    landed_on(transcript, TOOL_CALL)


def test_a_page_opened_at_a_hidden_message_with_the_switch_on_shows_it(browser, session):
    """As a browser that restores the switch's state (a page brought back, reloaded) opens it."""
    context, page, problems = new_page(browser, DESKTOP, origin=session.url)
    page.add_init_script("""new MutationObserver((_, observer) => {
        const toggle = document.getElementById("dialogue-only");
        if (toggle) { toggle.checked = true; observer.disconnect(); }
    }).observe(document, {childList: true, subtree: true});""")
    page.goto(session.url + f"transcript/#msg-{TOOL_CALL}")
    wait_for_material(page)
    landed_on(page, TOOL_CALL)
    context.close()
    assert not problems.all(), problems.all()


def test_a_tool_call_found_by_its_command_is_reached_with_the_switch_on(transcript):
    """The search reads a call's input: the Bash call is found by its command, its result
    shown by its heading and its command, and followed to the message."""
    field = transcript.locator("#transcript-search")
    field.fill("tree node_modules")
    transcript.wait_for_function("document.querySelector('form.msg-search').dataset.answered === 'tree node_modules'")
    results = transcript.locator("form.msg-search .msg-search__results li")
    shown = [" ".join(text.split()) for text in results.all_inner_texts()]
    assert len(shown) == 1 and shown[0].startswith(f"Message {TOOL_CALL} — assistant $ tree ")
    results.first.locator("a").click()
    landed_on(transcript, TOOL_CALL)
