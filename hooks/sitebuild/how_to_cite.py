"""The "How to cite" page a site gets when its author writes none: each way of citing
the essay, with an example taken from the essay itself.

The citations are the slots of `citing.CitableEssay`, filled once every page is
converted; the examples of a paragraph and of a message name the first of each that the
essay has, found only then.
"""

from __future__ import annotations

from .site_pages import NOTE_ON_THE_TEXT

KEPT_EDITIONS_SLOT = '<div class="kept-editions-slot"></div>'  # filled with the kept editions, if any

FIRST_PARAGRAPH = "first paragraph"  # slot: the essay's first paragraph with an anchor
FIRST_MESSAGE = "first message"  # slot: the first message the essay cites, in reading order


def example_section(sections: tuple[str, ...]) -> str:
    """The section that shows how a section is cited: the first after the home page, whose
    section is often only its opening part; the home page if it is the only one."""
    return sections[1] if len(sections) > 1 else sections[0]


def how_to_cite_markdown(example: str, *, signed: bool, anchors_paragraphs: bool, cites_messages: bool,
                         transcript_start: str, has_note: bool, pdf: bool) -> str:
    """The page's Markdown, its section example `example` (a page of the essay).
    The page is at the top of the docs folder: its links are the pages' source paths."""
    unsigned = "" if signed else " The essay names no author; each style's rule for a work without one is followed."
    parts = [
        "# How to cite",
        "Every citation below is made when the site is built, from the details kept once in the site's "
        "settings: the title, the author, the date of publication, the edition and the address." + unsigned,
        "## The whole essay",
        _slot("essay"),
        "The downloads under the citations give the same details for a reference manager (BibTeX, RIS and "
        "CSL-JSON)" + (", and a PDF of the whole essay with its citation on the first page." if pdf else "."),
        "## A section",
        "Each page of the essay is one of its sections. At the end of every section, **Cite this section** "
        "gives the citation of that section in each style, with the section's own address. For example:",
        _slot(example),
    ]
    if anchors_paragraphs:
        parts += [
            "## A paragraph",
            "A paragraph's anchor stays the same when the text around it changes. Move the pointer over a "
            "paragraph, or reach it with the keyboard, and its mark appears at its end: **¶ 4** is the fourth "
            "paragraph of the page. One click on the mark copies the paragraph's address. Cite the "
            "section, add the paragraph number the way the style does (\"para. 2\" in APA, \"par. 2\" in MLA), "
            "and give the paragraph's address. For example:",
            _slot(FIRST_PARAGRAPH),
        ]
    if cites_messages:
        transcript = f"[transcript]({transcript_start})"
        parts += [
            "## A message of the session",
            f"Each message the essay cites has an anchor on the {transcript} pages, `msg-` and its number, and "
            "**Cite**, on its line, opens its permanent address and its citation in each style. The "
            "message's words are the session's, not the essay's: its citation names the essay as the work that "
            "publishes it. For example:",
            _slot(FIRST_MESSAGE),
        ]
    note = f" (see the [note on the text]({NOTE_ON_THE_TEXT}))" if has_note else ""
    parts += [
        "## The edition",
        "Each citation names the edition of the text (APA's form for a page on the web has no place for it: "
        "there the date of publication, which each edition changes, tells them apart). The edition changes "
        f"when the essay's text changes{note}; changes to the site's look or machinery leave it as it is. "
        "Cite the edition you read.",
        KEPT_EDITIONS_SLOT,
    ]
    return "\n\n".join(parts) + "\n"


def _slot(part: str) -> str:
    return f'<div class="citation-slot" data-part="{part}"></div>'
