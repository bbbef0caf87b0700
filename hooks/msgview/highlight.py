"""Code highlighted by Pygments, within what a log may make costly: only the lexers of
common languages, and only within a time.

The lexer is the log's to choose, by a file's name or a fence's language, and many of
Pygments' take time by the square of a text made for them (C on blank lines: 15 s for
20,000), some exponential time (mcschema on "<!--": minutes for 100 characters). Only
the lexers of HIGHLIGHTED_LANGUAGES, which sessions most write, are used (by their first
names, none of them handing code to a lexer it names), and code not lexed within
HIGHLIGHT_SECONDS is shown without highlighting: only code made to stall a lexer is.
"""

from __future__ import annotations

import functools
import posixpath
import re
import time

from pygments.lexer import Lexer
from pygments.lexers import get_lexer_by_name, get_lexer_for_filename
from pygments.token import _TokenType
from pygments.util import ClassNotFound

HIGHLIGHTED_LANGUAGES = frozenset({
    "bash", "c", "console", "cpp", "csharp", "css", "diff", "docker", "go", "graphql", "haskell", "html", "ini",
    "java", "javascript", "json", "jsx", "kotlin", "lua", "make", "perl", "php", "powershell", "pycon", "pytb",
    "python", "ruby", "rust", "scala", "scss", "sql", "swift", "text", "toml", "tsx", "typescript", "xml", "yaml"})
HIGHLIGHT_SECONDS = 0.2
# Longer files are shown without highlighting: Pygments takes a second for a few
# hundred kilobytes, and a session writes and reads many files.
HIGHLIGHTED_CHARS = 20_000
# The longest file name most file systems allow: a longer "name" is no file's, and
# matching it against every lexer's patterns took a second for a megabyte.
_NAME_CHARS = 255
# A block of code as Pygments, pymdownx.highlight and Python-Markdown write it; the code
# inside is escaped, so no text of the log closes it.
_CODE_BLOCK_RE = re.compile(r"(<pre[^>]*>(?:<span></span>)?)<code([^>]*)>(.*?)</code></pre>", re.DOTALL)


@functools.lru_cache(maxsize=256)  # finding a lexer takes longer than lexing most code; a lexer is reusable
def lexer_for(*, language: str | None = None, path: str | None = None) -> Lexer | None:
    """The lexer of a language, by one of its names, or of a file, by its path: None if
    there is none, or none of HIGHLIGHTED_LANGUAGES."""
    try:
        if language is not None:
            lexer = get_lexer_by_name(language, stripnl=False)
        elif path is not None and len(posixpath.basename(path)) <= _NAME_CHARS:
            lexer = get_lexer_for_filename(path, stripnl=False)
        else:
            return None
    except ClassNotFound:
        return None
    return lexer if lexer.aliases and lexer.aliases[0] in HIGHLIGHTED_LANGUAGES else None


def tokens_in_time(lexer: Lexer, text: str, until: float) -> list[tuple[_TokenType, str]] | None:
    """The tokens of `text`, or None if they are not all lexed by the time.monotonic() `until`."""
    tokens = []
    for token in lexer.get_tokens(text):
        tokens.append(token)
        if time.monotonic() > until:
            return None
    return tokens


def as_sample(html: str) -> str:
    """The blocks of code in `html` with their text in <samp>, not <code>: a transcript
    quotes what the session's log holds. Material's script measures each `pre > code` of
    a page, one after another, which on a whole session's page took a second of layout
    before it could answer a tap."""
    return _CODE_BLOCK_RE.sub(r"\1<samp\2>\3</samp></pre>", html)
