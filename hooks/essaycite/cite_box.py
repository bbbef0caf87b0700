"""The "Cite this" blocks of the pages: each style's citation, ready to copy."""

from __future__ import annotations

import xml.etree.ElementTree as etree

from .formats import Reference

# Left out of the site's search (Material's search skips such an element): the buttons'
# labels, and the boxes that repeat the page's title and address in every style.
NOT_SEARCHED = {"data-search-exclude": ""}


def citation_list(references: dict[str, Reference]) -> etree.Element:
    """A definition list: each style's name, its citation and a button that copies it."""
    styles = etree.Element("dl", {"class": "citations"})
    for style, reference in references.items():
        # Named, so that a page shows only the style its reader chose (assets/cite-style.js).
        etree.SubElement(styles, "dt", {"data-style": style}).text = style
        entry = etree.SubElement(styles, "dd", {"data-style": style})
        if style in ("BibTeX", "biblatex"):
            etree.SubElement(etree.SubElement(entry, "pre"), "code").text = reference.text.rstrip()
        else:
            _append_runs(etree.SubElement(entry, "p", {"class": "citation"}), reference)
        button = etree.SubElement(
            entry, "button",
            {"type": "button", "class": "cite-copy", "data-copy": reference.text.rstrip(), **NOT_SEARCHED},
        )
        button.text = f"Copy {style}"
    return styles


def cite_box(summary: str, references: dict[str, Reference], links: list[tuple[str, str]],
             address: str | None = None, searched: bool = False, box_id: str | None = None) -> etree.Element:
    """A disclosure block: closed, it reads `summary`; open, it shows the work's permanent
    `address` (if given) and its citations, each with a button that copies it, and links.
    The site's search finds its text only if `searched`; `box_id`, if given, is its id."""
    box = etree.Element("details", {"class": "cite-this", **({} if searched else NOT_SEARCHED),
                                    **({"id": box_id} if box_id else {})})
    etree.SubElement(box, "summary").text = summary
    if address:
        line = etree.SubElement(box, "p", {"class": "cite-address"})
        line.text = "Permanent address: "
        etree.SubElement(line, "a", {"href": address}).text = address
        copy = {"type": "button", "class": "cite-copy", "data-copy": address, **NOT_SEARCHED}
        etree.SubElement(line, "button", copy).text = "Copy address"
    box.append(citation_list(references))
    if links:
        box.append(link_line(links))
    return box


def link_line(links: list[tuple[str, str]]) -> etree.Element:
    line = etree.Element("p", {"class": "cite-links"})
    for index, (label, href) in enumerate(links):
        link = etree.SubElement(line, "a", {"href": href})
        link.text = label
        link.tail = " · " if index < len(links) - 1 else ""
    return line


def _append_runs(parent: etree.Element, reference: Reference) -> None:
    """Text, italics and links of a reference, as elements, so every part is escaped."""
    last = None
    for kind, text in reference.runs:
        if kind == "text":
            if last is None:
                parent.text = (parent.text or "") + text
            else:
                last.tail = (last.tail or "") + text
            continue
        last = etree.SubElement(parent, "i" if kind == "italic" else "a", {"href": text} if kind == "url" else {})
        last.text = text
