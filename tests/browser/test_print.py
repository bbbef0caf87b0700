"""The whole essay as it prints: no box runs past the printed page's text width."""

from __future__ import annotations

import html

import pytest
from playwright.sync_api import ViewportSize
from pypdf import PdfReader

from browser.site_browser import new_page, wait_for_material

# An A4 page less the print margins (20 mm left and right) at 96 px an inch.
A4_TEXT: ViewportSize = {"width": round((210 - 2 * 18) / 25.4 * 96), "height": 1000}

OVERFLOWING = """() => {
  const article = document.querySelector("article");
  const right = article.getBoundingClientRect().right;
  return [...article.querySelectorAll("*")]
    .filter((element) => element.getBoundingClientRect().right > right + 0.5)
    .map((element) => `${element.tagName.toLowerCase()}.${element.className}`);
}"""


@pytest.mark.parametrize("path", ["print/", "how-to-cite/", "context/"])
def test_nothing_runs_past_the_printed_text(browser, host, path):
    context, page, problems = new_page(browser, A4_TEXT, origin=host.url)
    page.emulate_media(media="print")
    page.goto(host.url + path, wait_until="networkidle")
    wait_for_material(page)
    assert page.locator("article .essay-citation, article .citations").count() > 0 or path == "context/"
    assert page.evaluate(OVERFLOWING) == []
    context.close()
    assert not problems.all(), problems.all()


def test_the_pdfs_bookmarks_drawn_for_a_person_to_look_at(browser, site_dir, output_dir):
    """The PDF's outline, read back with pypdf and drawn as the nested list a reader's
    sidebar shows, into test-output/screenshots/pdf-bookmarks.png."""
    def items(outline: list) -> str:
        parts, index = [], 0
        while index < len(outline):
            entry = outline[index]
            nested = outline[index + 1] if index + 1 < len(outline) and isinstance(outline[index + 1], list) else None
            parts.append(f"<li>{html.escape(entry.title)}{f'<ul>{items(nested)}</ul>' if nested else ''}</li>")
            index += 2 if nested else 1
        return "".join(parts)

    outline = PdfReader(site_dir / "essay.pdf").outline
    context, page, _ = new_page(browser, {"width": 640, "height": 400})
    page.set_content(f"<title>Bookmarks of essay.pdf</title><ul style='font: 14px sans-serif'>{items(outline)}</ul>")
    assert page.locator("li").count() >= 10 and "Appendix" in page.inner_text("ul")
    folder = output_dir / "screenshots"
    folder.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(folder / "pdf-bookmarks.png"), full_page=True)
    context.close()
