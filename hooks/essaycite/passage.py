"""How to cite a passage: words a reader selects in one of the essay's paragraphs or in a
transcript message, quoted and followed by the citation of the section or message they
stand in, which ends with the passage's own address.

A page gets one panel, as a template with holes: the quoted words and the passage's
address, which the page's script (assets/passage-cite.js) fills from the reader's
selection and from the address the page is served at, with a text fragment
(`#p-…:~:text=…`) that lands on the words. Everything else it says (author, title,
edition, date) is the section's or the message's citation in the same style, made from
the same record (`work.Work`), so the two never disagree.
"""

from __future__ import annotations

import xml.etree.ElementTree as etree

from .cite_box import NOT_SEARCHED, citation_list
from .exchange import bibtex_url
from .formats import Reference

TEMPLATE_ID = "passage-cite-template"
# Private-use characters: no essay's title or author is written with them.
QUOTE_HOLE = "\ue000quote\ue000"
ADDRESS_HOLE = "\ue000address\ue000"
# The styles whose citations are prose and so open with the words quoted; the exchange
# formats (BibTeX, biblatex) cite the passage by its address alone, for a reference
# manager records works, not the words a writer quotes from them.
_EXCHANGE_STYLES = ("BibTeX", "biblatex")


def passage_references(references: dict[str, Reference], url: str) -> dict[str, Reference]:
    """The citations of a section or message at `url`, made into a passage's: each prose
    style opens with the quoted words, and every style's address is the passage's."""
    made: dict[str, Reference] = {}
    for style, reference in references.items():
        if style in _EXCHANGE_STYLES:
            text = reference.text
            if text.count(bibtex_url(url)) != 1:
                raise ValueError(f"{style}: the citation does not name {url} once")
            made[style] = Reference((("text", text.replace(bibtex_url(url), ADDRESS_HOLE)),))
            continue
        addresses = [index for index, (kind, text) in enumerate(reference.runs) if kind == "url" and text == url]
        if len(addresses) != 1:
            raise ValueError(f"{style}: the citation does not end with {url}")
        runs = list(reference.runs)
        runs[addresses[0]] = ("url", ADDRESS_HOLE)
        made[style] = Reference((("text", f"\u201c{QUOTE_HOLE}\u201d "), *runs))
    return made


def passage_template(references: dict[str, Reference], url: str, number_hole: int | None = None) -> etree.Element:
    """The page's one panel of a passage's citation, as a template: the words quoted, the
    passage's address and its citation in each style. `references` are those of the
    section, or of a message numbered `number_hole` (which the script replaces with the
    number of the message quoted), whose address is `url`."""
    holes = {"data-quote": QUOTE_HOLE, "data-address": ADDRESS_HOLE,
             **({"data-number": str(number_hole)} if number_hole is not None else {})}
    template = etree.Element("template", {"id": TEMPLATE_ID, **holes, **NOT_SEARCHED})
    panel = etree.SubElement(template, "div", {"class": "passage-cite-panel", **NOT_SEARCHED})
    etree.SubElement(panel, "p", {"class": "passage-cite-panel__title"}).text = "Cite this passage"
    etree.SubElement(etree.SubElement(panel, "blockquote", {"class": "passage-cite-panel__quote"}), "p").text = (
        QUOTE_HOLE)
    line = etree.SubElement(panel, "p", {"class": "cite-address"})
    line.text = "Link to the passage: "
    etree.SubElement(line, "a", {"href": ADDRESS_HOLE}).text = ADDRESS_HOLE
    copy = {"type": "button", "class": "cite-copy", "data-copy": ADDRESS_HOLE, **NOT_SEARCHED}
    etree.SubElement(line, "button", copy).text = "Copy link"
    panel.append(citation_list(passage_references(references, url)))
    # A link checker reads a template's links as any others: until the script sets each
    # to the passage's address, it leads to the page the passage is on.
    for link in panel.iter("a"):
        if link.get("href") == ADDRESS_HOLE:
            link.set("href", url.partition("#")[0])
            link.set("data-passage-link", "")
    return template
