"""The `[msg N]` tag, its near misses, and the line markers that carry source lines.

Python-Markdown does not tell an inline pattern which source line it is on. Before any
other processing, `mark_lines` puts an invisible marker right after the number of every
tag and near miss, encoding the line it starts on; the inline patterns read it back, and
`strip_markers` removes whatever markers remain (those inside code, which the patterns
never see, and those of tags left as written where no link can stand). Inside the
brackets, the marker leaves Markdown's own syntax around a tag as it was: `[msg N](url)`
is still a link.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable

# A message number is written in ASCII digits, without a sign or a leading zero.
# At most 19 digits, as many as the largest message number has (2**63 - 1): a longer
# number is a near miss, named as such rather than converted (Python refuses to make an
# int of more than 4,300 digits).
_MESSAGE_NUMBER = "(?:0|[1-9][0-9]{0,18})"
# Consecutive messages are cited as one, `[msg 49-51]` or `[msg 49–51]`: the first and the
# last number joined by a hyphen or an en dash, without spaces. A range cites at most
# MAX_RANGE messages, every one of them in the transcript (see `range_problem`).
RANGE_DASHES = "-\u2013"
MAX_RANGE = 20


def _tag_pattern(before_closing: str = "") -> str:
    """The one definition of a tag: `[msg N]` or `[msg A-B]`, the numbers in groups
    `first` and `last` (None for one message); `before_closing` may stand before its `]`."""
    return (f"\\[msg (?P<first>{_MESSAGE_NUMBER})(?:[{RANGE_DASHES}](?P<last>{_MESSAGE_NUMBER}))?"
            f"{before_closing}\\]")


TAG_RE = re.compile(_tag_pattern())

# Private-use characters: an opening and closing mark, and one per decimal digit.
MARK_OPEN, MARK_CLOSE = "\ue000", "\ue001"
_DIGITS = "".join(chr(0xE010 + d) for d in range(10))
_TO_MARK_DIGITS = str.maketrans("0123456789", _DIGITS)
_FROM_MARK_DIGITS = str.maketrans(_DIGITS, "0123456789")
MARKER_RE = f"{MARK_OPEN}(?P<line>[{_DIGITS}]+){MARK_CLOSE}"
_ANY_MARKER_CHAR_RE = re.compile(f"[{MARK_OPEN}{MARK_CLOSE}{_DIGITS}]")

# A tag, or an attempt at one: `[msg N]` itself, and the near misses `<msg id=N]`,
# `[msg N` (unclosed), `[msgN]`, `[MSG N]`, `[message N]`, `[msg #N]`, `[msg:N]`, and any
# of these with a number that is no message number (`[msg 05852]`, `[msg ５８５２]`,
# `[msg ⁵⁸⁵²]`, `[msg 5,852]`, `[msg -1]`, `[msg 0x16DC]`), with spaces that are not plain
# ones, broken across two lines, or written with characters that look like its own: a
# full-width bracket or letter (`［msg 5852］`, `[ｍsg 5852]`), a Cyrillic one (`[мsg 5852]`).
_SPACE = "(?:[^\\S\\n]|[\u200b\u200c\u200d\u2060\ufeff])"  # white space but a line break, and zero-width spaces
_GAP = f"{_SPACE}*(?:\\n{_SPACE}*)?"
# Each letter of the tags' words, with the letters that look like it: full-width, Cyrillic, Latin.
LOOK_ALIKES = {"m": "\uff4d\u043c", "s": "\uff53\u0455", "g": "\uff47\u0261", "e": "\uff45\u0435",
               "a": "\uff41\u0430", "i": "\uff49\u0456", "d": "\uff44\u0501"}
_LOOKS_LIKE = {alike: letter for letter, alikes in LOOK_ALIKES.items() for alike in alikes + alikes.upper()}


def _word(word: str) -> str:
    return "".join(f"[{letter}{LOOK_ALIKES[letter]}]" for letter in word)


_OPEN_BRACKET, _CLOSE_BRACKET = "[\\[\uff3b]", "[\\]>\uff3d]"
# Written between the word and the number: `#`, `:`, `=`, `.`, `№`, and their full-width forms.
_SEPARATOR = f"(?:[#:=.\u2116\uff03\uff1a\uff1d]{_GAP})?"
_OPENING = (f"(?i:<{_GAP}{_word('msg')}{_SPACE}+{_word('id')}{_GAP}={_GAP}"
            f"|{_OPEN_BRACKET}{_GAP}(?:{_word('msg')}|{_word('message')}){_GAP}{_SEPARATOR})")
# Digits of every script (\d: full-width ones too), superscript and subscript digits.
_DIGIT = "[\\d\u00b2\u00b3\u00b9\u2070\u2074-\u2079\u2080-\u2089]"
# A thousands separator: a comma, a point, an apostrophe, a space of any width.
_THOUSANDS = "[,.'\u2019 \u00a0\u2009\u202f]"
_NUMBER = f"[-+]?{_DIGIT}\\w*(?:{_THOUSANDS}{_DIGIT}{{3}}(?!\\w))*"
_CLOSING = f"(?:{_GAP}{_CLOSE_BRACKET})?"
# What joins the numbers of a range or an attempt at one: any dash or hyphen, a tilde, two
# or three points, an ellipsis, with or without spaces around it (`[msg 3 - 5]`, `[msg 3—5]`).
_RANGE_JOIN = f"{_SPACE}*(?:[-\u2010-\u2015\u2212\ufe58\ufe63\uff0d~\u301c]|\\.{{2,3}}|\u2026){_SPACE}*"
_NUMBERS = f"{_NUMBER}(?:{_RANGE_JOIN}{_NUMBER})?"
CANDIDATE_RE = re.compile(f"{_OPENING}(?P<number>{_NUMBERS}){_CLOSING}")
# A tag or near miss as the inline patterns see it, with its marker after the number.
MARKED_TAG_RE = _tag_pattern(f"(?:{MARKER_RE})?")
MARKED_CANDIDATE_RE = f"(?P<written>{_OPENING}{_NUMBERS}){MARKER_RE}(?P<closing>{_CLOSING})"


def cited_range(tag: re.Match[str]) -> tuple[int, int]:
    """The first and last message a match of TAG_RE or MARKED_TAG_RE cites: the same
    number twice for `[msg N]`."""
    first = int(tag.group("first"))
    return first, first if tag.group("last") is None else int(tag.group("last"))


def tagged(text: str) -> list[tuple[int, int]]:
    """(first, last) of each tag in `text`, as written (a reversed range too)."""
    return [cited_range(tag) for tag in TAG_RE.finditer(text)]


def link_text(first: int, last: int) -> str:
    """What a reader sees of a tag: "msg 12", or "msg 49–51" for a range."""
    return f"msg {first}" if first == last else f"msg {first}\u2013{last}"


def range_problem(first: int, last: int, held: Callable[[int], bool]) -> str | None:
    """What is wrong with the range `[msg first-last]`, or None: it runs forwards, over
    two to MAX_RANGE numbers, each of a message that `held(n)` says the transcript holds."""
    written = f"[msg {first}-{last}]"
    if last < first:
        return f"{written} runs backwards: write [msg {last}-{first}]"
    if last == first:
        return f"{written} is one message: write [msg {first}]"
    if last - first + 1 > MAX_RANGE:
        return (f"{written} spans {last - first + 1:,} messages, and a range cites at most {MAX_RANGE}: "
                "cite fewer, or cite its parts")
    missing = next((n for n in range(first, last + 1) if not held(n)), None)
    if missing is not None:
        return (f"{written}: message {missing} is not in the transcript, and a range cites "
                "consecutive messages that it holds")
    return None


def marker(line_number: int) -> str:
    return MARK_OPEN + str(line_number).translate(_TO_MARK_DIGITS) + MARK_CLOSE


def line_of(marker_digits: str | None) -> int | None:
    return int(marker_digits.translate(_FROM_MARK_DIGITS)) if marker_digits else None


def mark_lines(lines: list[str], first_line: int = 1) -> list[str]:
    """Return the lines with a line marker after the number of each tag and near miss,
    for the line the tag starts on. An escaped tag (`\\[msg N]`) is no tag: it is left alone."""
    text = "\n".join(lines)
    pieces, done, line, counted = [], 0, first_line, 0
    for match in CANDIDATE_RE.finditer(text):
        if _escaped(text, match.start()):
            continue
        line += text.count("\n", counted, match.start())
        counted = match.start()
        pieces += [text[done : match.end("number")], marker(line)]
        done = match.end("number")
    if not pieces:
        return lines
    return "".join([*pieces, text[done:]]).split("\n")


def _escaped(text: str, index: int) -> bool:
    """True if the character at `index` follows an odd number of backslashes."""
    start = index
    while start > 0 and text[start - 1] == "\\":
        start -= 1
    return (index - start) % 2 == 1


_ATTRIBUTE_LIST_RE = re.compile(r":?[ ]*(?:[#.][\w-]|[\w-]+=)")


def in_attribute_list(text: str, start: int, end: int) -> bool:
    """True if `text[start:end]` lies inside an attribute list, where a link would be
    written into an attribute: braces on one line holding `title="…"`, `.class` or `#id`,
    that end the line (after a paragraph or a heading) or follow an inline element."""
    opening = text.rfind("{", 0, start)
    if opening == -1 or any(char in text[opening:start] for char in "}\n"):
        return False
    closing = text.find("}", end)
    if closing == -1 or any(char in text[end:closing] for char in "{\n"):
        return False
    ends_line = text[closing + 1 :].split("\n", 1)[0].strip(" ") == ""
    # After Python-Markdown's placeholder of an element (a link, code), or emphasis yet to be made.
    after_element = opening > 0 and text[opening - 1] in "\x03*_"
    return (ends_line or after_element) and _ATTRIBUTE_LIST_RE.match(text, opening + 1) is not None


def strip_markers(text: str) -> str:
    """Remove line markers, also where a highlighter split them into pieces."""
    return _ANY_MARKER_CHAR_RE.sub("", text)


def near_miss_problem(text: str) -> str:
    """What to tell the author of a near miss such as `[msg5852]`: how it differs from a
    tag, naming any character that cannot be seen by its code point, and the tag to write."""
    if (joined := _RANGE_RE.search(text)) is not None:
        return _range_near_miss(text, joined)
    written = _NUMBER_RE.search(text)
    assert written is not None  # every near miss holds one
    number = written.group()
    shown = "".join(_visible(char) for char in text)
    if len(shown) > 60:  # a number of thousands of digits: its start and end say enough
        shown = f"{shown[:40]}…{shown[-10:]}"
    found = _look_alikes(text[: written.start()])
    if "\uff3d" in text[written.end() :]:
        found.append(f"{_code_point(chr(0xFF3D))} is not ']'")
    n: int | None = None
    digits = number.lstrip("+-")
    if separator := _THOUSANDS_RE.search(digits):
        found.append(f"its number has a thousands separator ({_visible(separator.group())!r})")
        digits = _THOUSANDS_RE.sub("", digits)
    values = [unicodedata.digit(char, None) for char in digits]
    if len(digits) > 19:
        found.append("its number is longer than any message number")
    elif re.fullmatch(r"0[xX][0-9a-fA-F]+", digits):
        found.append(f"{number} is hexadecimal")
        n = int(digits, 16)
    elif all(value is not None for value in values):
        n = int("".join(str(value) for value in values))
        if not digits.isascii():
            odd = next(char for char in digits if not char.isascii())
            found.append(f"its digits are not ASCII digits ({_code_point(odd)})")
        elif len(digits) > 1 and digits.startswith("0"):
            found.append("its number has a leading zero")
    else:
        found.append(f"{number} is not a message number")
    if number[0] == "-":
        found.append("message numbers are 1 or more")
        n = None
    elif number[0] == "+":
        found.append("its number has a sign")
    if "\n" in text:
        found.append("it is broken across two lines")
    unusual = dict.fromkeys(char for char in text if _is_invisible(char) and char not in " \n")
    found += [f"{_code_point(char)} is not a plain space" for char in unusual]
    advice = f"; write [msg {n}]" if n else "" if number[0] == "-" else "; write the message number in ASCII digits"
    return f"'{shown}' looks like a message tag" + (f", but {' and '.join(found)}" if found else "") + advice


_NUMBER_RE = re.compile(_NUMBER)
_RANGE_RE = re.compile(f"(?P<first>{_NUMBER})(?P<join>{_RANGE_JOIN})(?P<last>{_NUMBER})")
_PLAIN_NUMBER_RE = re.compile(_MESSAGE_NUMBER)


def _range_near_miss(text: str, joined: re.Match[str]) -> str:
    """What to tell the author of an attempt at a range, such as `[msg 3 - 5]` or `[msg 3—5]`."""
    join, ends = joined.group("join"), (joined.group("first"), joined.group("last"))
    dash = "".join(char for char in join if not _is_invisible(char))
    found = _look_alikes(text[: joined.start()])
    if dash != join:
        found.append("its dash has spaces around it")
    if dash not in RANGE_DASHES:
        shown = _code_point(dash) if len(dash) == 1 else repr(dash)
        found.append(f"{shown} is not a hyphen or an en dash")
    found += [f"{end!r} is not a message number" for end in ends if not _PLAIN_NUMBER_RE.fullmatch(end)]
    if "\n" in text:
        found.append("it is broken across two lines")
    plain = all(_PLAIN_NUMBER_RE.fullmatch(end) for end in ends)
    first, last = sorted(int(end) for end in ends) if plain else (0, 0)
    advice = f"; write [msg {first}-{last}]" if 0 < first < last else ""
    shown_text = "".join(_visible(char) for char in text)
    return f"'{shown_text}' looks like a message tag" + (f", but {' and '.join(found)}" if found else "") + advice
_THOUSANDS_RE = re.compile(_THOUSANDS)


def _look_alikes(opening: str) -> list[str]:
    """What the opening of a near miss, up to its number, writes in characters that look
    like those of a tag: a letter of another alphabet or full-width, a full-width
    bracket; and a sign between the word and the number."""
    found: list[str] = []
    for char in dict.fromkeys(opening):
        if char in _LOOKS_LIKE:
            found.append(f"{_code_point(char)} is not the letter {_LOOKS_LIKE[char]}")
        elif char in "\uff3b":
            found.append(f"{_code_point(char)} is not '['")
    sign = re.search(f"[#:=.\u2116\uff03\uff1a\uff1d]{_GAP}$", opening)
    if sign and not opening.startswith("<"):  # `<msg id=N]`: its "=" is its own
        found.append(f"{sign.group()[0]!r} stands before its number")
    return found


def _is_invisible(char: str) -> bool:
    return char.isspace() or unicodedata.category(char) in ("Cf", "Cc")


def _visible(char: str) -> str:
    """A character as a one-line message shows it: one that cannot be seen, by its code point."""
    if char == "\n":
        return "<line break>"
    return f"<U+{ord(char):04X}>" if _is_invisible(char) and char != " " else char


def _code_point(char: str) -> str:
    return f"U+{ord(char):04X} {unicodedata.name(char, 'CONTROL CHARACTER')}"
