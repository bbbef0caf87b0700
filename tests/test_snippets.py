"""Shortening and cleaning message text, checked against the plain definitions."""

import random
import xml.etree.ElementTree as etree

import pytest
from bs4 import BeautifulSoup

from conftest import selected
from msgview import text as text_module
from msgview.html import to_html
from msgview.text import displayable, displayable_utf8, displayable_value, shorten

# The bidirectional controls: embeddings, overrides, isolates, and the marks.
BIDI_CODES = frozenset({0x061C, 0x200E, 0x200F, *range(0x202A, 0x202F), *range(0x2066, 0x206A)})


def reference_shorten(text: str, limit: int) -> str:
    """The definition: collapse all the whitespace, then cut at a word boundary."""
    text = " ".join(displayable(text).split())
    if len(text) <= limit:
        return text
    cut = text[:limit].rsplit(" ", 1)[0] or text[:limit]
    return cut.rstrip(" ,;:.") + " …"


PIECES = ["word", "a", " ", "   ", "\n", "\t", ",", ".", "é", "\x02", "\ue001", "\ud800", " " * 300, "x" * 70]


@pytest.mark.parametrize("seed", range(5))
def test_shorten_reads_only_the_start_it_needs_and_agrees_with_the_definition(seed):
    rng = random.Random(seed)
    for _ in range(2000):
        text = "".join(rng.choice(PIECES) for _ in range(rng.randrange(0, 120)))
        limit = rng.randrange(1, 60)
        assert shorten(text, limit) == reference_shorten(text, limit), (text, limit)


def test_a_long_run_of_spaces_before_the_words_does_not_cut_them_short():
    text = " " * 100_000 + "first second third fourth"
    assert shorten(text, 13) == "first second …"


def test_characters_that_must_not_reach_a_page_are_replaced():
    assert displayable("a\x02b\x03c\ue000d\ue01fe\ud800f\ue020g") == "a\u2402b\u2403c\ufffdd\ufffde\ufffdf\ue020g"


def test_control_characters_show_as_control_pictures_and_noncharacters_as_replacements():
    text = "nul\x00 esc\x1b[31m del\x7f c1\x85\x9b ff\ufffe\uffff\U0001fffe\ufdd0 keep\t\n\r é 😀"
    assert displayable(text) == (
        "nul\u2400 esc\u241b[31m del\u2421 c1\ufffd\ufffd ff\ufffd\ufffd\ufffd\ufffd keep\t\n\r é 😀")


def test_displayable_treats_every_code_point_by_the_rule():
    def expected(code: int) -> str:
        if code < 0x20 and chr(code) not in "\t\n\r":
            return chr(0x2400 + code)
        if code == 0x7F:
            return "\u2421"
        noncharacter = 0xFDD0 <= code <= 0xFDEF or code & 0xFFFE == 0xFFFE
        if 0x80 <= code <= 0x9F or 0xE000 <= code <= 0xE01F or 0xD800 <= code <= 0xDFFF or noncharacter:
            return "\ufffd"
        if code in BIDI_CODES:  # shown by its code point
            return f"\u27e8U+{code:04X}\u27e9"
        return chr(code)

    every = "".join(chr(code) for code in range(0x110000))
    assert displayable(every) == "".join(expected(code) for code in range(0x110000))


def test_a_long_text_is_looked_at_in_utf8_first_and_that_look_misses_no_character():
    # Every character the rule replaces starts, in UTF-8, with a byte the quick look looks
    # for, but the bidirectional controls, looked for in a text that is not ASCII.
    for code in range(0x110000):
        char = chr(code)
        if displayable(char) != char and not 0xD800 <= code <= 0xDFFF and code not in BIDI_CODES:
            assert char.encode()[0] in text_module._STARTS_OF_UNDISPLAYABLE, hex(code)
    long = "a line of a long tool output — ✓\n" * 100
    assert displayable(long) is long
    for odd, shown in [("\x1b", "\u241b"), ("\x85", "\ufffd"), ("\ud800", "\ufffd"), ("\U0010ffff", "\ufffd"),
                       ("\u202e", "\u27e8U+202E\u27e9"), ("\u061c", "\u27e8U+061C\u27e9")]:
        assert displayable(long + odd) == long + shown
        assert displayable_utf8(long + odd) == (long + shown).encode()
    assert displayable_utf8(long) == long.encode() and displayable_utf8("\x1b") == "\u241b".encode()


def test_a_long_text_found_displayable_is_not_looked_at_again_and_no_other_text_passes_for_it():
    long = "a line — with a dash\n" * 200
    dirty = long + "\u202e" + long
    shown = displayable(dirty)
    assert shown == long + "\u27e8U+202E\u27e9" + long and displayable(shown) is shown
    assert displayable(long) is long and displayable(long) is long
    for _ in range(20):  # texts of the same words, each a new one: each looked at
        assert displayable("".join([long, "\u2066", long])) == long + "\u27e8U+2066\u27e9" + long


def test_every_text_of_a_value_is_made_displayable_at_any_depth_keys_too():
    value = {"description": "a\x00b\u202ec", "deep": [{"k\x1b": ["\u2066x", 1, None, 2.5, True]}]}
    assert displayable_value(value) == {"description": "a\u2400b\u27e8U+202E\u27e9c",
                                        "deep": [{"k\u241b": ["\u27e8U+2066\u27e9x", 1, None, 2.5, True]}]}


def test_elements_are_written_as_the_standard_serializer_writes_them():
    tricky = "a < b & c > d \"q\" 'a' &amp; \u2028 é 😀"
    root = etree.Element("div", {"class": tricky, "data-x": "&<>\""})
    etree.SubElement(root, "p").text = tricky
    etree.SubElement(root, "br").tail = tricky
    code = etree.SubElement(etree.SubElement(root, "pre"), "code")
    code.text = "  <script>\n\talert(1)\n</script>  "
    etree.SubElement(root, "img", {"alt": tricky, "src": "x.png"})
    root[-1].tail = "end"
    ours = BeautifulSoup(to_html(root), "html.parser")
    standard = BeautifulSoup(etree.tostring(root, encoding="unicode", method="html"), "html.parser")
    assert ours == standard and ours.find("script") is None
    assert selected(ours, "pre code").string == code.text
