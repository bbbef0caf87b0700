"""Sidenotes: on a wide page whose right margin is free, the cited messages shown after a
paragraph stand beside it in the margin, one below the other; on a phone, or beside a
table of contents, they stay between the paragraphs. Screenshots of a section's byline
and sidenote go to test-output/screenshots."""

from __future__ import annotations

from browser.site_browser import DESKTOP, PHONE, new_page, wait_for_material

PLACE = """() => [...document.querySelectorAll('article > .msg-snippets')].map(note => {
  const box = note.getBoundingClientRect(), beside = note.previousElementSibling.getBoundingClientRect();
  const article = document.querySelector('article').getBoundingClientRect();
  return {left: box.left, right: box.right, top: box.top, besideTop: beside.top, besideBottom: beside.bottom,
          articleRight: article.right, room: innerWidth};
})"""


def test_a_cited_message_stands_in_the_margin_beside_its_paragraph(browser, host, output_dir):
    context, page, problems = new_page(browser, DESKTOP, origin=host.url)
    page.goto(host.url + "interpretation/")
    wait_for_material(page)
    [note] = page.evaluate(PLACE)
    assert note["left"] > note["articleRight"] and note["right"] <= note["room"], note
    assert abs(note["top"] - note["besideTop"]) < 2, note
    folder = output_dir / "screenshots"
    folder.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(folder / "sidenote-and-byline-desktop.png"), clip={"x": 0, "y": 0, "width": 1280,
                                                                               "height": 600})
    context.close()
    assert not problems.all(), problems.all()


def test_several_never_overlap_and_a_phone_keeps_them_between_paragraphs(browser, host):
    context, page, problems = new_page(browser, DESKTOP, origin=host.url)
    page.goto(host.url + "empty-message/")
    wait_for_material(page)
    # Three notes where one paragraph stood: each below the one before.
    page.evaluate("""() => { const note = document.querySelector('article > .msg-snippets');
        note.after(note.cloneNode(true)); note.after(note.cloneNode(true)); dispatchEvent(new Event('resize')); }""")
    notes = page.evaluate(PLACE)
    assert len(notes) == 3
    tops = [note["top"] for note in notes]
    assert tops == sorted(tops) and len(set(tops)) == 3
    heights = page.evaluate("[...document.querySelectorAll('article > .msg-snippets')].map(n => n.offsetHeight)")
    assert all(tops[i] + heights[i] <= tops[i + 1] for i in range(2))
    page.set_viewport_size(PHONE)
    page.wait_for_function("!document.documentElement.classList.contains('has-sidenotes')")
    for note in page.evaluate(PLACE):
        assert note["top"] >= note["besideBottom"] and note["right"] <= note["room"], note
    context.close()
    assert not problems.all(), problems.all()
