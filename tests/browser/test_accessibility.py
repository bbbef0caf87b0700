"""axe-core, injected into every page of the built site, finds no WCAG 2.2 AA violation."""

from __future__ import annotations

import pytest

from browser.site_browser import AXE, DESKTOP, PHONE, new_page, wait_for_material

# The rules of WCAG 2.0, 2.1 and 2.2 at levels A and AA.
WCAG_AA_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22a", "wcag22aa"]


def axe_violations(page) -> list[dict]:
    page.add_script_tag(path=str(AXE))
    result = page.evaluate(
        "tags => axe.run(document, {runOnly: {type: 'tag', values: tags}, resultTypes: ['violations']})",
        WCAG_AA_TAGS,
    )
    return [
        {"rule": v["id"], "impact": v["impact"], "help": v["help"],
         "nodes": [(n["target"], n["failureSummary"]) for n in v["nodes"][:5]]}
        for v in result["violations"]
    ]


def violations_on_pages(page, origin: str, paths: list[str], scheme: str = "light") -> dict[str, list[dict]]:
    """axe's violations on each page of `paths` at `origin` that has any, by path, in the colour `scheme`."""
    violations = {}
    for path in paths:
        page.goto(origin + path)
        wait_for_material(page)
        expected = "slate" if scheme == "dark" else "default"
        assert page.get_attribute("body", "data-md-color-scheme") == expected
        found = axe_violations(page)
        if found:
            violations[path or "/"] = found
    return violations


@pytest.mark.parametrize(("scheme", "viewport"), [("light", DESKTOP), ("dark", DESKTOP), ("light", PHONE)],
                         ids=["light-desktop", "dark-desktop", "light-phone"])
def test_no_wcag_aa_violation_on_any_page(browser, host, all_pages, scheme, viewport):
    if not AXE.is_file():
        pytest.fail(f"{AXE} is missing: run `npm ci`")
    context, page, problems = new_page(browser, viewport, color_scheme=scheme, origin=host.url)
    violations = violations_on_pages(page, host.url, all_pages, scheme)
    context.close()
    assert not violations, violations
    assert not problems.all(), problems.all()


def test_axe_finds_a_planted_violation(browser, host):
    """The check can fail: text with too little contrast is reported."""
    context, page, _ = new_page(browser, DESKTOP, origin=host.url)
    page.goto(host.url, wait_until="networkidle")
    wait_for_material(page)
    page.evaluate("""() => {
        const p = document.createElement('p');
        p.textContent = 'Barely visible text';
        p.style.cssText = 'color: #bbb; background: #fff';
        document.querySelector('.md-content').append(p);
    }""")
    rules = {v["rule"] for v in axe_violations(page)}
    context.close()
    assert "color-contrast" in rules
