"""A text as the eye reads it: secrets disguised by look-alike or invisible characters.

A token typed in full-width letters (`ｇｈｐ＿…`) or with a zero-width space inside it
(`ghp_abc\u200bdef…`) reads as the token, and a reader can copy it back, but no pattern
written in ASCII finds it. `plain_view` gives the text with every character in its
compatibility form (NFKC: full-width and other styled letters as ASCII) and the invisible
ones left out, with where each of its characters came from, so that a secret found in
the view is redacted in the text itself. Plain Python: nothing here imports MkDocs.
"""

from __future__ import annotations

import re
import unicodedata

# Characters that show nothing, which a token may hide inside.
_INVISIBLE = frozenset("\u00ad\u180e\u200b\u200c\u200d\u2060\u2061\u2062\u2063\u2064\ufeff")
_HAS_INVISIBLE = re.compile("[" + "".join(sorted(_INVISIBLE)) + "]")


def is_disguised(text: str) -> bool:
    """Whether `text` reads otherwise than its characters spell: it holds an invisible
    character, or one with a compatibility form. ASCII text, most text, never does."""
    if text.isascii():
        return False
    return _HAS_INVISIBLE.search(text) is not None or not unicodedata.is_normalized("NFKC", text)


def plain_view(text: str) -> tuple[str, list[int]]:
    """`text` as it reads (see the module's docstring), and for each of its characters,
    and one past its end, the index in `text` of the character it came from."""
    parts: list[str] = []
    origin: list[int] = []
    for at, char in enumerate(text):
        if char in _INVISIBLE:
            continue
        plain = char if char.isascii() else unicodedata.normalize("NFKC", char)
        parts.append(plain)
        origin += [at] * len(plain)
    origin.append(len(text))
    return "".join(parts), origin
