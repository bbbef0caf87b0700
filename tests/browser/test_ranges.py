"""A range of messages cited as one (`[msg 5852-5854]`): following its link lands on its
first message, and the whole range is outlined; another range landed on moves the outline."""

from __future__ import annotations

from pathlib import Path

import pytest

from browser.site_browser import DESKTOP, PHONE, build_site, essay_project, new_page, wait_for_material
from browser.test_accessibility import axe_violations
from static_host import StaticHost


@pytest.fixture(scope="module")
def range_host(output_dir):
    project = essay_project(output_dir / "range-project")
    page = project / "docs" / "conclusion.md"
    page.write_text(page.read_text() + "\nThe exchange [msg 5852-5854] in brief, then [msg 5855\u20135856].\n")
    site: Path = build_site(output_dir / "range-site", project)
    with StaticHost(site) as server:
        yield server


def outlines(page) -> dict[str, str]:
    return page.evaluate("""() => Object.fromEntries([...document.querySelectorAll('.msg-item[data-msg]')]
        .map(item => [item.dataset.msg, getComputedStyle(item).outlineStyle]))""")


def test_following_a_range_link_lands_on_its_first_message_and_outlines_the_range(browser, range_host, output_dir):
    context, page, problems = new_page(browser, PHONE, origin=range_host.url)
    page.goto(range_host.url + "conclusion/", wait_until="networkidle")
    wait_for_material(page)
    page.locator("a.msg-ref--range", has_text="msg 5852\u20135854").click()
    page.wait_for_url("**/transcript/#msg-5852-5854")
    page.wait_for_function("document.querySelector('.msg-item--in-range') !== null")
    shown = outlines(page)
    assert {n: shown[n] for n in ("5852", "5853", "5854")} == dict.fromkeys(("5852", "5853", "5854"), "solid")
    assert shown["5855"] == "none" and shown["5844"] == "none"
    first = page.evaluate("document.getElementById('msg-5852').getBoundingClientRect().top")
    header = page.evaluate("document.querySelector('.md-header').getBoundingClientRect().bottom")
    assert header <= first < PHONE["height"] / 2, (first, header)  # its first message, clear of the header
    shots = output_dir / "screenshots"
    shots.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(shots / "transcript-range-phone.png"))
    # The range's own "Cite", beside its first message's, opens the range's citation.
    cite = page.locator('.msg-item[data-msg="5852"] button.msg-cite-range')
    assert cite.inner_text() == "Cite 5852\u20135854"
    cite.click()
    panel = page.locator("#msg-cite-panel")
    assert panel.locator(".msg-cite-panel__title").inner_text() == "Cite these messages"
    assert panel.locator("dd[data-style='APA'] .citation").inner_text().startswith(
        "Messages 5852\u20135854 of the session transcript")
    assert panel.locator("button.msg-tag").inner_text() == "Copy [msg 5852-5854]"
    # Another range on the same page: the outline follows the address, and so does its "Cite".
    page.evaluate("location.hash = '#msg-5855-5856'")
    page.wait_for_function("getComputedStyle(document.querySelector('.msg-item[data-msg=\"5852\"]')).outlineStyle"
                           " === 'none'")
    shown = outlines(page)
    assert (shown["5855"], shown["5856"], shown["5854"]) == ("solid", "solid", "none")
    assert page.locator("button.msg-cite-range").all_inner_texts() == ["Cite 5855\u20135856"]
    assert page.locator("#msg-cite-panel").count() == 0  # the other range's panel closed with its button
    context.close()
    assert not problems.all(), problems.all()


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_a_range_its_snippet_and_its_landing_have_no_wcag_aa_violation(browser, range_host, scheme):
    context, page, problems = new_page(browser, DESKTOP, color_scheme=scheme, origin=range_host.url)
    page.goto(range_host.url + "conclusion/", wait_until="networkidle")
    wait_for_material(page)
    assert page.locator("figure.msg-range").count() == 2
    found = {"conclusion": axe_violations(page)}
    page.goto(range_host.url + "transcript/#msg-5852-5854", wait_until="networkidle")
    wait_for_material(page)
    page.locator("button.msg-cite-range").click()
    assert page.locator("#msg-cite-panel").count() == 1
    page.mouse.move(0, 0)  # the button as it stays open, not as the pointer over it shows it
    found["transcript"] = axe_violations(page)
    context.close()
    assert found == {"conclusion": [], "transcript": []}
    assert not problems.all(), problems.all()
