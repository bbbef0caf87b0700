"""What changed between two editions of the essay, paragraph by paragraph, and the page
that lists it. Paragraphs are matched by their ids, which stay as the text is revised,
and by their pages, as an id is unique within its page only."""

from __future__ import annotations

import difflib
import re
import xml.etree.ElementTree as etree
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

ChangeKind = Literal["added", "removed", "reworded", "moved"]
# A word, a run of punctuation or a run of spaces: a rewording is marked word by word,
# and the spaces between words stay where they were.
_TOKEN_RE = re.compile(r"\w+|[^\w\s]+|\s+")


@dataclass(frozen=True)
class Paragraph:
    anchor: str  # the paragraph's id, e.g. "p-the-user-demonstrating-deep"
    page: str  # its page's address relative to the site's root: "context/", "" for the home page
    page_title: str
    text: str  # its words as a reader sees them


@dataclass(frozen=True)
class Change:
    kind: ChangeKind
    old: Paragraph | None
    new: Paragraph | None


def compare(old: Sequence[Paragraph], new: Sequence[Paragraph]) -> list[Change]:
    """The paragraphs added, removed, reworded or moved to another page, in the new
    edition's reading order; a removed paragraph stands after the one it followed in
    the old edition (the nearest before it that is still there)."""
    earlier = _matched(old, new)
    later = {before: after for after, before in earlier.items()}
    removed_after: dict[Paragraph | None, list[Change]] = {}
    kept: Paragraph | None = None  # the last paragraph so far of the old edition that is kept, as the new one has it
    for paragraph in old:
        if paragraph in later:
            kept = later[paragraph]
        else:
            removed_after.setdefault(kept, []).append(Change("removed", paragraph, None))
    changes = list(removed_after.get(None, []))
    for paragraph in new:
        before = earlier.get(paragraph)
        if before is None:
            changes.append(Change("added", None, paragraph))
        elif _words(before.text) != _words(paragraph.text):
            changes.append(Change("reworded", before, paragraph))
        elif before.page != paragraph.page:
            changes.append(Change("moved", before, paragraph))
        changes.extend(removed_after.get(paragraph, []))
    return changes


def changes_html(changes: Sequence[Change], *, old_edition: int, new_edition: int, old_root: str,
                 new_root: str) -> str:
    """The body of the page "What changed in edition `new_edition`": a sentence of counts,
    then each change under its page's title, with links to the paragraph in each edition
    (`old_root` and `new_root` are the editions' addresses, ending in "/")."""
    editions = f"edition {old_edition} to edition {new_edition}"
    if not changes:
        return _html(_element("p", f"No paragraph changed from {editions}.", "changes-summary"))
    counts = {kind: sum(change.kind == kind for change in changes) for kind in ("added", "removed", "reworded")}
    moved = sum(change.kind == "moved" for change in changes)
    counted = [f"{counts['added']} paragraph{'' if counts['added'] == 1 else 's'} added",
               f"{counts['removed']} removed", f"{counts['reworded']} reworded"] + ([f"{moved} moved"] if moved else [])
    summary = f"From {editions}: {', '.join(counted[:-1])} and {counted[-1]}."
    parts = [_element("p", summary, "changes-summary")]
    lists: dict[str, etree.Element] = {}
    for change in changes:
        paragraph = change.new or change.old
        assert paragraph is not None  # a change has at least one side
        if paragraph.page_title not in lists:
            parts.append(_element("h2", paragraph.page_title, "changes-page"))
            lists[paragraph.page_title] = _element("ul", "", "changes-list")
            parts.append(lists[paragraph.page_title])
        lists[paragraph.page_title].append(_entry(change, old_edition, new_edition, old_root, new_root))
    return "\n".join(_html(part) for part in parts)


def _entry(change: Change, old_edition: int, new_edition: int, old_root: str, new_root: str) -> etree.Element:
    """One change: its kind in words, links to the paragraph in each edition that has it, and its words."""
    entry = _element("li", "", f"changes-entry changes-entry--{change.kind}")
    heading = etree.SubElement(entry, "p", {"class": "changes-kind"})
    kind = change.kind.capitalize()
    if change.old and change.new and change.old.page != change.new.page:
        kind += f" from “{change.old.page_title}”" if change.kind == "moved" else " and moved"
    etree.SubElement(heading, "strong").text = kind
    links = [(f"in edition {new_edition}", f"{new_root}{change.new.page}#{change.new.anchor}")] if change.new else []
    if change.old:
        links.append((f"in edition {old_edition}", f"{old_root}{change.old.page}#{change.old.anchor}"))
    for index, (label, href) in enumerate(links):
        heading[-1].tail = " · " if index else ": "
        etree.SubElement(heading, "a", {"href": href}).text = label
    quote = etree.SubElement(etree.SubElement(entry, "blockquote", {"class": "changes-text"}), "p")
    if change.old and change.new and change.kind == "reworded":
        _mark_rewording(quote, _words(change.old.text), _words(change.new.text))
    elif shown := change.new or change.old:
        quote.text = _words(shown.text)
    return entry


def _mark_rewording(parent: etree.Element, old_text: str, new_text: str) -> None:
    """The new words, with the words taken out in <del> and those put in in <ins>, each
    said to screen readers too, as these elements are not announced by all of them."""
    old_tokens, new_tokens = _TOKEN_RE.findall(old_text), _TOKEN_RE.findall(new_text)
    matcher = difflib.SequenceMatcher(None, old_tokens, new_tokens, autojunk=False)
    for operation, old_start, old_end, new_start, new_end in matcher.get_opcodes():
        if operation == "equal":
            _append_text(parent, "".join(new_tokens[new_start:new_end]))
            continue
        for tag, said, tokens in (("del", "deleted", old_tokens[old_start:old_end]),
                                  ("ins", "inserted", new_tokens[new_start:new_end])):
            if tokens:
                mark = etree.SubElement(parent, tag, {"class": f"changes-{tag}"})
                etree.SubElement(mark, "span", {"class": "visually-hidden"}).text = f"[{said}: "
                mark[0].tail = "".join(tokens)
                etree.SubElement(mark, "span", {"class": "visually-hidden"}).text = "]"


def _append_text(parent: etree.Element, text: str) -> None:
    if len(parent):
        parent[-1].tail = (parent[-1].tail or "") + text
    else:
        parent.text = (parent.text or "") + text


def _matched(old: Sequence[Paragraph], new: Sequence[Paragraph]) -> dict[Paragraph, Paragraph]:
    """Each paragraph of the new edition that the old one has, and its old self: the one
    with its id on its page or else, moved, the one with its id on another page, when
    that id is on one page only of the paragraphs left unmatched in each edition. (An
    id is unique within its page, not across the essay: two pages may open alike.)"""
    old_at, new_at = _by_place(old, "old"), _by_place(new, "new")
    earlier = {after: old_at[place] for place, after in new_at.items() if place in old_at}
    old_left = _by_unique_id(paragraph for place, paragraph in old_at.items() if place not in new_at)
    new_left = _by_unique_id(paragraph for place, paragraph in new_at.items() if place not in old_at)
    earlier.update({after: old_left[anchor] for anchor, after in new_left.items() if anchor in old_left})
    return earlier


def _by_place(paragraphs: Sequence[Paragraph], edition: str) -> dict[tuple[str, str], Paragraph]:
    found: dict[tuple[str, str], Paragraph] = {}
    for paragraph in paragraphs:
        place = (paragraph.page, paragraph.anchor)
        if place in found:
            raise ValueError(f"the {edition} edition has two paragraphs with the id {paragraph.anchor!r} "
                             f"on the page {paragraph.page!r}")
        found[place] = paragraph
    return found


def _by_unique_id(paragraphs: Iterable[Paragraph]) -> dict[str, Paragraph]:
    """The paragraphs by their ids, leaving out an id that more than one of them has."""
    by_id: dict[str, list[Paragraph]] = {}
    for paragraph in paragraphs:
        by_id.setdefault(paragraph.anchor, []).append(paragraph)
    return {anchor: alike[0] for anchor, alike in by_id.items() if len(alike) == 1}


def _words(text: str) -> str:
    """The text with each run of spaces and line breaks one space: a change of layout changes no word."""
    return " ".join(text.split())


def _element(tag: str, text: str, css_class: str) -> etree.Element:
    element = etree.Element(tag, {"class": css_class})
    element.text = text or None
    return element


def _html(element: etree.Element) -> str:
    return etree.tostring(element, encoding="unicode", method="html")
