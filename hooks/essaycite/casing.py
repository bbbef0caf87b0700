"""APA's sentence case, and hints for the words it would lower in the essay's title.

Sentence case cannot tell a proper noun from a capitalised common word: "Claude Code"
becomes "claude code" unless its words are listed in `extra.essay.proper_nouns`. The
hints name each such run of words once, so that the author can decide.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

from .authors import in_prose
from .metadata import EssayMetadata

_WORD = re.compile(r"[^\W\d_]+")
# What may stand between two words of one run of lowered words: spaces and hyphens.
_WITHIN_RUN = re.compile(r"[\s-]*")


def _words(title: str, keep: Iterable[str]) -> Iterator[tuple[re.Match[str], bool]]:
    """Each word of `title`, and whether sentence case lowers it: capitals stay only for
    the first word, the first after a colon (or ? or !), proper nouns listed in `keep`,
    the pronoun "I", and words with capitals inside (AI, NaN, GPUs)."""
    kept, position, start = set(keep), 0, True
    for word in _WORD.finditer(title):
        if re.search(r"[:?!]", title[position:word.start()]):
            start = True
        text = word.group()
        keeps = start or text in kept or text == "I" or any(c.isupper() for c in text[1:])
        yield word, not keeps and text != text.lower()
        position, start = word.end(), False


def sentence_case(title: str, keep: Iterable[str] = ()) -> str:
    """APA's sentence case. Words in hyphenated compounds are treated alike (AI-assisted)."""
    out, position = [], 0
    for word, lowered in _words(title, keep):
        out += [title[position:word.start()], word.group().lower() if lowered else word.group()]
        position = word.end()
    return "".join(out) + title[position:]


def _lowered_runs(title: str, keep: Iterable[str]) -> list[list[re.Match[str]]]:
    """The runs of neighbouring words that sentence case lowers ("Claude Code")."""
    runs: list[list[re.Match[str]]] = []
    previous: re.Match[str] | None = None
    for word, lowered in _words(title, keep):
        if lowered and runs and runs[-1][-1] is previous and previous is not None \
                and _WITHIN_RUN.fullmatch(title[previous.end():word.start()]):
            runs[-1].append(word)
        elif lowered:
            runs.append([word])
        previous = word
    return runs


def sentence_case_hints(meta: EssayMetadata, config_name: str = "mkdocs.yml") -> list[str]:
    """One hint for each run of capitalised words in the title that APA's sentence case
    lowers: a proper noun among them must be listed in extra.essay.proper_nouns."""
    hints = []
    for run in _lowered_runs(meta.title, meta.proper_nouns):
        text = meta.title[run[0].start():run[-1].end()]
        words = in_prose(list(dict.fromkeys(word.group() for word in run)))
        hints.append(f"{config_name}: extra.essay.title: APA's sentence case writes {text!r} as {text.lower()!r}; "
                     f"if it is a proper noun, list {words} under extra.essay.proper_nouns to keep its capitals")
    return hints
