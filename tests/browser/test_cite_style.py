"""Citing is quiet: each list of citations shows one style, the reader's choice, the others
one choice away in a menu; the choice holds on every page and in the transcript's panel;
"How to cite" is short on a phone and cuts nothing off; without a script, every style shows."""

from __future__ import annotations

from playwright.sync_api import Page

from browser.site_browser import DESKTOP, PHONE, new_page, wait_for_material

STYLES = ["APA", "MLA", "Chicago", "BibTeX", "biblatex"]


def shown_styles(page: Page, scope: str) -> list[str | None]:
    return [dd.get_attribute("data-style") for dd in page.locator(f"{scope} dl.citations > dd").all()
            if dd.is_visible()]


def opened(page: Page, url: str) -> None:
    page.goto(url)
    wait_for_material(page)


def test_one_style_shown_and_the_choice_holds_across_pages(browser, host):
    context, page, problems = new_page(browser, DESKTOP, origin=host.url)
    opened(page, host.url + "empty-message/")
    page.locator("details.cite-this > summary").click()
    menu = page.locator("details.cite-this select.cite-style")
    assert [o.get_attribute("value") for o in menu.locator("option").all()] == STYLES
    assert menu.input_value() == "APA" and shown_styles(page, "details.cite-this") == ["APA"]
    menu.select_option("biblatex")
    assert shown_styles(page, "details.cite-this") == ["biblatex"]
    # Another page, and the transcript's panel made out on demand, show the same style.
    opened(page, host.url + "how-to-cite/")
    assert all(select.input_value() == "biblatex" for select in page.locator("select.cite-style").all())
    assert set(shown_styles(page, ".citations-shown")) == {"biblatex"}
    opened(page, host.url + "transcript/")
    page.locator('.msg-item[data-msg="5852"] .msg-cite-button').click()
    assert page.locator("#msg-cite-panel select.cite-style").input_value() == "biblatex"
    assert shown_styles(page, "#msg-cite-panel") == ["biblatex"]
    page.locator("#msg-cite-panel select.cite-style").select_option("MLA")
    opened(page, host.url + "context/")
    page.locator("details.cite-this > summary").click()
    assert shown_styles(page, "details.cite-this") == ["MLA"]
    context.close()
    assert not problems.all(), problems.all()


def test_how_to_cite_is_short_on_a_phone_and_cuts_nothing_off(browser, host):
    context, page, problems = new_page(browser, PHONE, origin=host.url)
    opened(page, host.url + "how-to-cite/")
    height = page.evaluate("document.documentElement.scrollHeight")
    assert height < 3_500, height  # five styles a citation, every one shown: 5,712 px
    for style in ("APA", "BibTeX"):
        page.locator("select.cite-style").first.select_option(style)
        assert page.evaluate("document.documentElement.scrollWidth <= innerWidth"), style
        cut = page.evaluate("""() => [...document.querySelectorAll('.citations dd')]
            .filter(dd => dd.offsetParent !== null)
            .flatMap(dd => [...dd.querySelectorAll('pre, code, p')])
            .filter(e => e.scrollWidth > e.clientWidth + 1).length""")
        assert cut == 0, style
    context.close()
    assert not problems.all(), problems.all()


def test_without_a_script_every_style_shows(browser, host):
    context, page, _ = new_page(browser, DESKTOP, origin=host.url, java_script_enabled=False)
    page.goto(host.url + "how-to-cite/")
    first = page.locator("dl.citations").first
    assert [dd.get_attribute("data-style") for dd in first.locator("dd").all() if dd.is_visible()] == STYLES
    assert page.locator("select.cite-style").count() == 0
    context.close()


def test_the_bylines_cite_opens_the_sections_citations(browser, host):
    context, page, problems = new_page(browser, DESKTOP, origin=host.url)
    opened(page, host.url + "context/")
    box = page.locator("details#cite-this-section")
    assert box.get_attribute("open") is None
    page.locator(".essay-byline").get_by_role("link", name="Cite", exact=True).click()
    page.wait_for_function("document.getElementById('cite-this-section').open")
    assert shown_styles(page, "#cite-this-section") == ["APA"]
    # Arriving at the address of the citations opens them too.
    opened(page, host.url + "response/#cite-this-section")
    assert page.evaluate("document.getElementById('cite-this-section').open")
    context.close()
    assert not problems.all(), problems.all()


def test_a_list_of_one_style_shows_it_whatever_the_choice(browser, host):
    context, page, problems = new_page(browser, DESKTOP, origin=host.url)
    opened(page, host.url + "context/")
    page.locator("details.cite-this > summary").click()
    page.locator("details.cite-this select.cite-style").select_option("MLA")
    opened(page, host.url + "print/")
    cite_as = page.locator(".essay-citation dl.citations")
    assert cite_as.locator("dd").is_visible() and cite_as.locator("xpath=preceding-sibling::label").count() == 0
    context.close()
    assert not problems.all(), problems.all()
