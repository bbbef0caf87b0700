"""Characters that change how the text around them reads without showing themselves:
the bidirectional controls, which can set a line's words in another order than they are
stored (U+202E, RIGHT-TO-LEFT OVERRIDE, makes "exe.txt" read "txt.exe"), and the HTML
character references that write them, or a control character, where text is HTML.

A message shows each as its code point (`shown`); a setting or a page's title holding
one is refused. The other characters a page must not hold are `snippets.displayable`'s.
"""

from __future__ import annotations

import html.entities
import re

# The embeddings, overrides and isolates, and the marks: LEFT-TO-RIGHT and RIGHT-TO-LEFT
# MARK, ARABIC LETTER MARK.
BIDI_CONTROLS = "\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069"
BIDI_RE = re.compile(f"[{BIDI_CONTROLS}]")
_EACH_BIDI_CONTROL = "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"

# A character reference as HTML reads it: numeric, its semicolon optional, with any
# number of digits; or by a name of HTML's list.
REFERENCE_RE = re.compile(r"&(?:#[xX]([0-9a-fA-F]+);?|#([0-9]+);?|([A-Za-z][A-Za-z0-9]{0,31});)")
# The characters that no page shows as they are: control characters but tab and line
# breaks, and the bidirectional controls.
_HIDDEN_RE = re.compile(f"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f{BIDI_CONTROLS}]")


def holds_bidi_control(text: str) -> bool:
    """Whether `text` holds a bidirectional control: looked for one by one, three times
    as fast as BIDI_RE's search over a long text."""
    return any(char in text for char in _EACH_BIDI_CONTROL)


def shown(char: str) -> str:
    """A bidirectional control as the reader sees it: its code point, between angle brackets."""
    return f"\u27e8U+{ord(char):04X}\u27e9"


def hidden_by(reference: re.Match[str]) -> str | None:
    """The control character or bidirectional control that a match of REFERENCE_RE
    writes; None if it writes another, or is no reference HTML knows."""
    hexadecimal, decimal, name = reference.groups()
    if name is not None:
        char = html.entities.html5.get(name + ";", "")
    else:
        digits = (hexadecimal or decimal).lstrip("0")
        code = int(digits, 16 if hexadecimal is not None else 10) if 0 < len(digits) <= 8 else 0
        char = chr(code) if 0 < code <= 0x10FFFF else ""  # 0, past the last, a surrogate: the browser shows U+FFFD
    return char if len(char) == 1 and _HIDDEN_RE.match(char) else None


def hidden_reference(text: str) -> str | None:
    """The first character reference in `text` that writes a control character or a
    bidirectional control, as written; None if none does."""
    return next((reference.group() for reference in REFERENCE_RE.finditer(text) if hidden_by(reference)), None)
