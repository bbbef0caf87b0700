"""Secret redaction for transcript messages.

Each secret found in a string is replaced by `[REDACTED: kind]`; the text around it
(an assignment's name, a URL's user and host, the word `Bearer`) is kept. The same
redaction runs when a log is imported and again when the site is built, so it must
leave its own output unchanged: no pattern matches a `[REDACTED: ...]` marker.

The patterns are the project's own, written for what session logs hold (keys split
between fields, passwords on command lines, JSON escaped inside text); a maintained rule
set, Betterleaks', is asked after them (msgref.second_opinion). Plain Python: nothing here
imports MkDocs or Markdown.
"""

from __future__ import annotations

import base64
import binascii
import functools
import hashlib
import json
import operator
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, cast

import regex as regex_module

from . import disguise, second_opinion
from .schema import LOG_TEXT_FIELDS, MAX_NESTING, Message, MessageSource
from .transcript import IndexedTranscript, MessageFlags, TranscriptError

MARKER = "[REDACTED: {kind}]"
# The code that decides what is redacted, part of every redactor's fingerprint: any
# change to it, a pattern's or a function's, gives transcripts sealed under the old code
# a seal the build does not trust, and they are redacted again.
RULES_CODE = (Path(__file__), Path(disguise.__file__), Path(second_opinion.__file__), second_opinion.CONFIG)

# The end of an escape (`\n`, `\u0022`, `%0A`) or a `__` (`mcp__…`): JSON text, URLs and
# tool names put one right before a secret or its name, and its last character is a
# letter or digit that does not make the secret part of a longer word.
_ESCAPE_END = r"(?<=\\[nrtbf])|(?<=\\u[0-9A-Fa-f]{4})|(?<=%[0-9A-Fa-f]{2})|(?<=__)"
# Where a word that is a secret's prefix or name may start: after anything but a letter,
# digit, `_` or `-` (else the prefix is part of a longer word: "task-", "disk-"), or
# after an escape. Prefixes that no word holds (`ghp_`, `sk-ant-`) need no start at all.
_START = rf"(?:(?<![A-Za-z0-9_-])|{_ESCAPE_END})"
_NOT_MARKER = r"(?!\[REDACTED)"
_A_MARKER = r"\[REDACTED: [a-z0-9-]+\]"
# Not a value but a stand-in for one: a variable, a template, an ellipsis, a mask, the
# word of a placeholder (`curl -u user:password`).
_NOT_STAND_IN = (r"(?![$%{<*…]|\.\.\.|(?i:password|passwd|pass|pwd|secret|token|changeme|x+)"
                 r"(?![A-Za-z0-9_-]))")


@dataclass(frozen=True)
class Pattern:
    kind: str
    # The regular expression, compiled when first tried (see `regex`).
    source: str
    # The group holding the secret; 0 is the whole match. Text outside it is kept.
    group: int | str = 0
    # Strings of which one must be in the text (in case-folded text if `hints_lower`)
    # for the pattern to be tried: a substring test is far faster than a regex search.
    hints: tuple[str, ...] = ()
    hints_lower: bool = False
    # A simpler regular expression that must match the text, tested like the hints,
    # for a pattern whose hints are common words.
    hint_source: str | None = None
    # A test of a match in code, for what a regular expression says badly (the words
    # of a key's name); a match it refuses is left alone.
    accept: Callable[[re.Match[str]], bool] | None = None
    # The match is base64: it is redacted, as `<kind>-base64`, only if the text it
    # decodes to holds a secret of some kind.
    encoded: bool = False
    # The secret's span, read from the match and its group's span where a regular
    # expression cannot say it well: a key's body before its END line (a search cannot
    # look back over a span of any length), a password up to its real end. None: no secret.
    widen: Callable[[re.Match[str], int, int], tuple[int, int] | None] | None = None
    # A site's own pattern, searched with a time bound (see _TimedPattern).
    timed: bool = False

    # Compiling every pattern takes a build tens of milliseconds, and a build of a sealed
    # transcript, or of texts that hold no pattern's hints, tries none of them.
    @property
    def regex(self) -> re.Pattern[str]:
        if self.timed:
            # Its matches are the regex module's, which offer what a re.Match does.
            return cast("re.Pattern[str]", _TimedPattern(self.kind, _compiled_timed(self.source)))
        return _compiled(self.source)

    @property
    def hint_regex(self) -> re.Pattern[str] | None:
        return None if self.hint_source is None else _compiled(self.hint_source)


_compiled = functools.cache(re.compile)  # re's own cache holds fewer patterns than a site may use
_compiled_timed = functools.cache(regex_module.compile)
# How long a site's own pattern may search one string: a pattern that backtracks without
# end (`(a|aa)+$`) would hang the build on one message.
PATTERN_SECONDS = 1.0


class PatternTimeout(ValueError):
    """A site's own pattern searched one string for longer than PATTERN_SECONDS."""

    def __init__(self, kind: str):
        super().__init__(f"the pattern {kind!r} searched one text for more than {PATTERN_SECONDS:g} s, as one that "
                         f"backtracks without end does (nested repeats such as (a|aa)+); rewrite it")
        self.kind = kind


@dataclass(frozen=True)
class _TimedPattern:
    """A site's own pattern, whose searches stop after PATTERN_SECONDS with PatternTimeout.
    The standard library's `re` cannot stop a search; the regex module, which reads the
    same syntax, can."""

    kind: str
    compiled: regex_module.Pattern[str]

    def search(self, text: str) -> regex_module.Match[str] | None:
        try:
            return self.compiled.search(text, timeout=PATTERN_SECONDS)
        except TimeoutError:
            raise PatternTimeout(self.kind) from None

    def finditer(self, text: str) -> Iterator[regex_module.Match[str]]:
        try:
            # The time bound is the whole search's: the matches are found before any is used.
            return iter(list(self.compiled.finditer(text, timeout=PATTERN_SECONDS)))
        except TimeoutError:
            raise PatternTimeout(self.kind) from None


def _pattern(kind: str, regex: str, group: int | str = 0, hints: Iterable[str] = (), hints_lower: bool = False,
             hint_regex: str | None = None, accept: Callable[[re.Match[str]], bool] | None = None,
             encoded: bool = False,
             widen: Callable[[re.Match[str], int, int], tuple[int, int] | None] | None = None) -> Pattern:
    return Pattern(kind, regex, group, tuple(hints), hints_lower, hint_regex, accept, encoded, widen)


def compile_flags(source: str) -> int:
    """`re.compile(source).flags`, without compiling `source`: Unicode matching, unless
    the flags that the groups at its start set (`(?i)`, `(?a)`) say otherwise."""
    flags = re.NOFLAG
    while match := _GLOBAL_FLAGS.match(source):
        flags |= functools.reduce(operator.or_, (_FLAG_LETTERS[letter] for letter in match[1]))
        source = source[match.end():]
    return flags if flags & re.ASCII else flags | re.UNICODE


_GLOBAL_FLAGS = re.compile(r"\(\?([aiLmsux]+)\)")
_FLAG_LETTERS = {"a": re.ASCII, "i": re.IGNORECASE, "L": re.LOCALE, "m": re.MULTILINE, "s": re.DOTALL,
                 "u": re.UNICODE, "x": re.VERBOSE}


# --- Secrets in a JSON or YAML value, found by the name of their key ------------------

# The words of a name: `clientSecret`, `client_secret`, `CLIENT-SECRET` and `APIKey`
# are each two words.
_NAME_WORDS = re.compile(r"[A-Z]{2,}(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+")
_NAME_CHARS = re.compile(r"[A-Za-z0-9_$.-]*\Z")
# A key's last word that names a secret of any value, of a token-like value only, and
# the words before `key` that make it secret (`api_key`, not `sort_key`).
_SECRET_NAMES = frozenset({"password", "passwd", "passphrase", "secret", "apikey", "passwords", "secrets"})
# A name run together in capitals (`PGPASSWORD`, `DBPASSWORD`) is one word, ending so.
_SECRET_ENDINGS = ("password", "passwd", "secret")
# Words after a secret's name that name it again: `password_confirmation`, `passwordRepeat`.
_AFTER_SECRET_WORDS = frozenset({"confirmation", "confirm", "confirmed", "again", "repeat", "repeated", "retype",
                                 "verify", "verification", "old", "new", "current"})
_TOKEN_NAMES = frozenset({"token", "auth"})
_SECRET_KEY_WORDS = frozenset({"api", "access", "secret", "private", "signing", "encryption", "master", "account",
                               "auth", "client"})
# Tokens that are no secret: a page's, a cancellation's.
_PUBLIC_TOKEN_WORDS = frozenset({"page", "next", "continuation", "pagination", "cancellation", "sync", "resume",
                                 "max", "min", "num", "total", "count", "public"})
# Values that stand for a secret rather than being one: variables and templates, masks,
# empty values, and the words of documentation.
_STAND_IN = re.compile(r"[$%<{]|\*+\Z|[xX]+\Z|\.\.\.|…|\[REDACTED|.*(?:\$\{|\{\{)", re.S)
_STAND_IN_WORDS = frozenset({"", "null", "none", "nil", "undefined", "true", "false", "~", "string", "str",
                             "password", "secret", "token", "changeme", "example", "redacted", "hidden", "required",
                             "optional", "your-password", "your_password", "your-token", "your_token", "your-api-key",
                             "your_api_key"})
# What makes an unquoted value code rather than a YAML literal: a type, a dotted name or
# a call, a trailing `,` or `;`, a CamelCase type name (of letters).
_CODE_VALUE = re.compile(
    r"(?:str|string|bytes|int|float|bool|boolean|number|any|Any|unknown|object|Optional|Union|SecretStr|"
    r"SecretBytes|list|dict|List|Dict)\b"
    r"|[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+\Z|[A-Za-z_$][\w$.]*[(\[]|.*[,;({]\Z"
    r"|(?:[A-Z][a-z]+){2,}\Z",  # letters alone: `Passw0rdSecure1`, `MyS3cret` are no type's name
    re.S,
)
# A token: a digit and 8 characters, or both cases and 16 (not a metric's dotted name).
_TOKEN_LIKE = re.compile(r"(?=\S*[0-9])\S{8,}|(?=\S*[a-z])(?=\S*[A-Z])\S{16,}")
# A type in a schema (`"passphrase": "string?"`), not a value.
_TYPE_NAME = re.compile(r"(?i:string|str|binary|bytes|number|integer|int|float|boolean|bool|any|object)(?:\?|\[\])?\Z")
_ALNUM = re.compile(r"[A-Za-z0-9]")


def secret_name(name: str) -> str | None:
    """How a key named `name` is treated: "secret" if its value is a secret whatever it
    looks like (`password`, `client_secret`, `api_key`), "token" if only a token-like
    value is (`access_token`, `auth`: a lexer's `"token": "IDENT"` is no secret), or None."""
    words = [word.lower() for word in _NAME_WORDS.findall(name)]
    if not words or name.startswith("[REDACTED"):  # a key that was a secret
        return None
    while len(words) > 1 and (words[-1].isdigit() or words[-1] in _AFTER_SECRET_WORDS):
        words.pop()  # `password2`, `password_confirmation` hold the password again
    if words[-2:] == ["pass", "word"]:  # `PassWord`
        words[-2:] = ["password"]
    last, before = words[-1], words[-2] if len(words) > 1 else ""
    if last in _SECRET_NAMES or last.endswith(_SECRET_ENDINGS) or (last == "key" and before in _SECRET_KEY_WORDS) \
            or (last == "pwd" and before == "mysql"):
        return "secret"
    if last in _TOKEN_NAMES and before not in _PUBLIC_TOKEN_WORDS:
        return "token"
    return None


def secret_literal(value: str, name_kind: str, plain: bool = False) -> bool:
    """Whether `value`, the value of a key whose name is of `name_kind` (see
    secret_name), is a literal secret rather than a variable, a template, a mask, a
    placeholder, a type, or shorter than 4 characters. A `plain` value, unquoted in
    YAML, must also not read as code (`str`, `config.password`, `get()`), nor be a word
    of fewer than 16 letters, which prose and type names are made of."""
    value = value.strip()
    if value.lower() in _STAND_IN_WORDS or _STAND_IN.match(value) or _TYPE_NAME.match(value):
        return False
    if len(value) < 4 or _ALNUM.search(value) is None:
        return False  # too short to keep anything, or an emoji's name for 🤫
    if plain and (_CODE_VALUE.match(value) or any(c.isspace() for c in value) or
                  (value.isalpha() and len(value) < 16)):
        return False
    return name_kind == "secret" or _TOKEN_LIKE.fullmatch(value) is not None


# How the names of secret-field's keys end, whatever their case: `key` only after `_`,
# `-` or the last letter of one of _SECRET_KEY_WORDS (`apiKey`), as `"key":` and
# `"sort_key":` fill JSON.
_SECRET_NAME_ENDS = ("password", "passwd", "passphrase", "secret", "token", "auth",
                     *(f"{c}key" for c in sorted({"_", "-", *(word[-1] for word in _SECRET_KEY_WORDS)})))


def _after_secret_name(case_insensitive: bool, separator: str = ":") -> str:
    """A regular expression for a colon (or another `separator`) right after a name
    ending as _SECRET_NAME_ENDS do, and its closing quote if any: plain, escaped once
    (`\\"`) or twice (`\\\\\\"`), as JSON inside a JSON string inside text is. After a
    tab, the name alone."""
    # A look-behind must be of one width: the ends are grouped by length. A first look
    # at the character before the colon turns most colons away at once.
    widths: dict[int, list[str]] = {}
    for end in _SECRET_NAME_ENDS:
        widths.setdefault(len(end), []).append(re.escape(end))
    closes, spaces = (("", '"', "'", '\\"', '\\\\\\"'), ("", " ")) if separator == ":" else (("",), ("",))
    sep = re.escape(separator)
    behind = "|".join(f"(?<=(?:{'|'.join(ends)}){re.escape(close + space)}{sep})" for ends in widths.values()
                      for close in closes for space in spaces)
    last = "".join(sorted({end[-1] for end in _SECRET_NAME_ENDS} | {close[-1:] for close in closes} | set(spaces)))
    pattern = f"{sep}(?<=[{re.escape(last)}]{sep})(?:{behind})"
    return f"(?i:{pattern})" if case_insensitive else pattern


# A look-behind for the end of a name ending as _SECRET_NAME_ENDS do, any case.
_SECRET_NAME_END = "(?i:" + "|".join(f"(?<={re.escape(end)})" for end in _SECRET_NAME_ENDS) + ")"
_KEY_END = re.compile(r"(?P<close>(?:\\(?:\\\\)?)?[\"']?) ?\Z")


def _key_before(match: re.Match[str]) -> tuple[str | None, str, str]:
    """The key whose name ends right before a match (at its colon or tab): how its name
    is treated (see secret_name), its closing quote if any, and the text before the name
    on its line."""
    before = match.string[max(0, match.start() - 120) : match.start()]
    end = _KEY_END.search(before)
    assert end is not None  # it matches the empty string
    name_end = before[: end.start()]
    name = _NAME_CHARS.search(name_end)
    assert name is not None
    return secret_name(name.group(0)), end.group("close"), name_end[: name.start()].rsplit("\n", 1)[-1]


# A name in code (`user_password`, `$pw`), which a value without quotes in braces is more
# often than a literal.
_IDENTIFIER = re.compile(r"[A-Za-z_$][A-Za-z_$]*\Z")


def _secret_field(match: re.Match[str]) -> bool:
    """Whether a match of the secret-field pattern (from the colon on) follows a key
    named like a secret and holds a literal value: the name is read back from the colon
    (`client_secret`, not `oauth`). A value without quotes must follow an unquoted key
    that starts its line (`- ` before it too, as a YAML list's item), or one in a YAML
    flow mapping, after `{` or `,` (`{user: ann, password: …}`); there, it must not be
    a name in code either, as an object literal's `{password: userPassword}` is."""
    name_kind, close, line_start = _key_before(match)
    if name_kind is None:
        return False
    plain, flow = match.group("plain"), match.group("flow")
    if plain is None and flow is None:
        value = match.group("escaped") or match.group("double") or match.group("single") or ""
        return secret_literal(value, name_kind)
    if close:
        if close not in "\"'" or not line_start.endswith(close):
            return False
        line_start = line_start[:-1]  # a quoted YAML key (`"password": …`) on a line of its own
        if flow is not None:
            return False
    if re.fullmatch(r"[ \t]*(?:-[ \t]+)?", line_start) is not None:
        # On a line of its own, a value before `}` is one (`password: abc}`); one before
        # `,` is code, a line of an object literal (`password: user_password,`).
        return (flow is None or not match.string.startswith(",", match.end())) \
            and secret_literal(plain or flow, name_kind, plain=True)
    return (flow is not None and re.search(r"[{,][ \t]*\Z", line_start) is not None
            and _IDENTIFIER.match(flow) is None and secret_literal(flow, name_kind, plain=True))


def _tab_field(match: re.Match[str]) -> bool:
    """Whether a match of the secret-field pattern for tables (from the tab on) ends a
    line of two columns, a name like a secret's and a literal value, as `mysql -e` and
    other tools print a table."""
    name_kind, close, line_start = _key_before(match)
    return (name_kind is not None and not close and re.fullmatch(r"[ \t]*", line_start) is not None
            and secret_literal(match.group("tab"), name_kind, plain=True))


def _xml_field(match: re.Match[str]) -> bool:
    """Whether a match of a secret-field pattern for XML is the literal value of an
    element or a `key`/`name` attribute named like a secret: `<password>…</password>`,
    `<add key="DbPassword" value="…"/>`, `<property name="password" value="…"/>`."""
    groups = match.groupdict()
    name = groups.get("tag") or groups.get("attr_name") or ""
    name_kind = secret_name(name.rsplit(":", 1)[-1])
    value = groups.get("cdata") or groups.get("element") or groups.get("attr_value") or ""
    return name_kind is not None and secret_literal(value, name_kind)


# The commands whose flags the command-password pattern for flags finds, by the flag's
# group: words of which one must be in the text before the flag, and the command's name.
_FLAG_COMMANDS = {
    "redis": (("redis-cli",), re.compile(r"(?<![\w.-])redis-cli(?![\w-])")),
    "mongo": (("mongo",), re.compile(r"(?<![\w.-])mongo(?:sh|dump|restore|export|import|stat|top|files)?(?![\w.:-])")),
    "smb": (("smb", "rpcclient", "net"),
            re.compile(r"(?<![\w.-])(?:smbclient|rpcclient|smbcacls|smbget|smbmap|smbtree|smbcquotas|net)(?![\w-])")),
}


def _command_start(before: str) -> int:
    """Where the last command in `before` starts: after its last `;`, `|`, `&` or line
    break not escaped by `\\`."""
    line = before.rfind("\n")
    while line > 0 and before[line - 1] == "\\":
        line = before.rfind("\n", 0, line - 1)
    return max(line, before.rfind(";"), before.rfind("|"), before.rfind("&")) + 1


def _command_flag(match: re.Match[str]) -> bool:
    """Whether a flag found by the command-password pattern for flags belongs to its
    command: the command is named in the 500 characters before the flag, since the last
    break between commands (`docker exec db mongosh -u admin -p …` counts). openssl's
    `pass:` tells its own."""
    for group, (words, command) in _FLAG_COMMANDS.items():
        if match.group(group) is not None:
            before = match.string[max(0, match.start() - 500) : match.start()]
            if not any(map(before.__contains__, words)):
                return False  # quickly
            return command.search(before, _command_start(before)) is not None
    return match.group("openssl") is not None


def _htpasswd(match: re.Match[str]) -> bool:
    """Whether a match of the htpasswd pattern has the password on its command line
    (`-b`) as the last of its arguments: the file, the user and the password, or the
    user and the password with `-n` (no file)."""
    flags = "".join(match.group("htflags").split())
    arguments = 2 if "n" in flags else 3
    return "b" in flags and len(match.group("htargs").split()) + 1 == arguments


# --- Secrets in base64 -------------------------------------------------------------

_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
_BASE64_BREAK = re.compile(r"\r?\n|\\n")


def decode_base64(run: str) -> str | None:
    """The text that a run of base64 (standard or URL-safe, padded or not, its lines
    broken by real or escaped line breaks) decodes to, or None if it is not base64 of
    text: without capitals (the base64 of text all but always has some), invalid, not
    UTF-8, or holding control characters. Lines that decode only without the last (a
    word on the line after a blob) decode without it."""
    if run.islower():
        return None  # a path, a hex digest: quickly
    lines = _BASE64_BREAK.split(run)
    for parts in (lines, lines[:-1]) if len(lines) > 1 else (lines,):
        compact = "".join(parts).rstrip("=")
        if "-" in compact or "_" in compact:
            if "+" in compact or "/" in compact:
                return None
            compact = compact.replace("-", "+").replace("_", "/")
        try:
            text = base64.b64decode(compact + "=" * (-len(compact) % 4), validate=True).decode("utf-8")
        except (binascii.Error, UnicodeDecodeError):
            continue
        if _CONTROL.search(text) is None:
            return text
    return None


# Where base64 may start inside a longer run: after a path's `/`, a name's `-` or `_`,
# a `+` (`org/<base64>`, `key-<base64>`). A run is one match (see _B64_START); if the
# whole run is not base64 of text, the rest of it after one of the separators within
# its first 200 characters is tried, where 24 characters follow that may be base64 of
# ASCII text: each group of four encodes three bytes below 0x80, which leaves its first
# character 32 values, its second 32 and its third 32. Random letters (a path's, a
# name's) pass this test one time in some 50,000, and one regular expression makes it.
_TEXT_AFTER_SEPARATOR = re.compile(
    r"[/+_-](?=(?:[A-Za-f][A-HQ-Xg-nw-z0-3][ABEFIJMNQRUVYZcdghklopstwx014589][A-Za-z0-9+/_-]){6})")
_SEPARATOR_REACH, _SEPARATORS_TRIED = 200, 8


def base64_texts(run: str) -> Iterator[tuple[int, str]]:
    """Where in a run of base64 the base64 of text starts, and the text: the whole run
    (see decode_base64), or, if it is not base64 of text, the rest of it after one of
    the separators near its start (the base64 of a token at the end of a path)."""
    decoded = decode_base64(run)
    if decoded is not None:
        yield 0, decoded
        return
    for n, head in enumerate(_TEXT_AFTER_SEPARATOR.finditer(run, 0, _SEPARATOR_REACH + 25)):
        if n == _SEPARATORS_TRIED:
            return
        if (decoded := decode_base64(run[head.end() :])) is not None:
            yield head.end(), decoded


_B64 = "[A-Za-z0-9+/]"
_B64_EDGE = "[A-Za-z0-9+/=_-]"
_BASE64_BYTES = bytes.maketrans(
    bytes(range(256)),
    bytes(ord("a") if re.fullmatch(r"[A-Za-z0-9+/_-]", chr(c)) else ord(" ") for c in range(256)),
)
_BASE64_RUN_BYTES = b"a" * 24
# A run may follow an `=` (`value=…`): padding ends a blob, it does not come before one.
# It may follow an escape (`\\nZ2hw…`), but not start inside one (`nZ2hw…`, `0AZ2hw…`).
_B64_START = r"(?:(?<![A-Za-z0-9+/_%\\-])(?<!%[0-9A-Fa-f])|" + _ESCAPE_END + ")"
_BASE64_RUN = re.compile(rf"{_B64_START}[A-Za-z0-9+/_-]{{24,}}={{0,2}}(?!{_B64_EDGE})")
# A line of `base64` (76 characters) or PEM and openssl (64) output, the first of a blob.
_WRAPPED = "|".join(f"(?<={_B64}{{{n}}})(?<!{_B64_EDGE}{_B64}{{{n}}})" for n in (64, 76))


_NETRC_START = re.compile(r"(?<![\w-])(?:machine[ \t\r\n]+\S+|default)(?![\w-])")


def _netrc_entry(match: re.Match[str]) -> bool:
    """Whether a `password` and its value are part of a `.netrc` entry: a `machine HOST`
    or `default` in the 300 characters before, and a `login` between it and the password."""
    before = match.string[max(0, match.start() - 300) : match.start()]
    starts = list(_NETRC_START.finditer(before))
    return bool(starts) and re.search(r"(?<![\w-])login\s", before[starts[-1].end():]) is not None


# A call or an index in code (`get_key()`, `os.environ["KEY"]`, `cfg.keys[0].value`): a
# name, then brackets that close at the value's end, or open there (before a quote).
_CALL_OR_INDEX = re.compile(r"[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*[(\[](?:.*[)\]])?\Z", re.S)
# What makes the rest of a line code rather than a value: an operator between spaces.
_OPERATOR = re.compile(r"\s(?:if|else|or|and|not|in|is|[-+*/%?:|&<>=!]{1,3})\s")
_CLOSERS = {")": "(", "]": "[", "}": "{", ">": "<"}
# A line of assignments, or an INI section: what a line is among in an env or INI file.
_ASSIGNMENT_LINE = re.compile(r"[ \t]*(?:export[ \t]+)?[A-Za-z_][\w.-]*[ \t]*=|[ \t]*\[[^\]\n]+\][ \t]*\Z")
_LINE_BREAK = re.compile(r"\r?\n|\\r?\\n")


def _assignment_value(match: re.Match[str], start: int, end: int) -> tuple[int, int] | None:
    """The span of an assignment's value without quotes, found at `start`, or None if it
    is code. In an env or INI file (the name starts its line, and the line has a
    neighbour of its kind or `=` has spaces around it, as INI and `git config` write it),
    the value runs to the line's end (`password = two words`, `DB_PASSWORD=a&b(c`), before
    a ` #` comment; after `?` or `&` (a URL's query), to the next `&` or `#`; elsewhere to
    the next space, less the `,`, `;` and closing brackets that end it in code
    (`f(password=abc)`). A call or an index is code (`get_key()`, `os.environ[`)."""
    text = match.string
    if match.group("bare") is None:
        return start, end
    name_start = match.start()
    while name_start > 0 and (text[name_start - 1].isalnum() or text[name_start - 1] in "_.-"):
        name_start -= 1
    escaped_break = text.rfind("\\n", 0, name_start)
    line_start = max(text.rfind("\n", 0, name_start) + 1, escaped_break + 2 if escaped_break >= 0 else 0)
    if name_start > 0 and text[name_start - 1] in "?&":
        value = re.split(r"[&#]", text[start:end], maxsplit=1)[0]
    elif (line_end := _in_a_file_of_settings(match, line_start, name_start)) is not None:
        value = re.split(r"[ \t]#", text[start:line_end], maxsplit=1)[0].rstrip()
        if _OPERATOR.search(f" {value} ") is not None:
            return None  # `password = user_password if remember else None`
        if _CALL_OR_INDEX.match(value) is None:
            return start, start + len(value)
        value = text[start:end]
    else:
        value = text[start:end]
    value = _without_closers(value)
    if not value or _CALL_OR_INDEX.match(value) is not None:
        return None
    return start, start + len(value)


def _in_a_file_of_settings(match: re.Match[str], line_start: int, name_start: int) -> int | None:
    """Where the line of an assignment ends, if it is a line of an env or INI file (see
    _assignment_value), else None."""
    text = match.string
    if text[line_start:name_start].strip(" \t") not in ("", "export"):
        return None
    breaks = _LINE_BREAK.search(text, match.end())
    line_end = breaks.start() if breaks else len(text)
    equals = text[match.start() : match.start("bare")]
    if re.search(r"[ \t]=[ \t]", equals) is not None:
        return line_end
    before = _LINE_BREAK.split(text[max(0, line_start - 300) : line_start])[-2:-1]
    after = _LINE_BREAK.split(text[line_end : line_end + 300], maxsplit=2)[1:2] if breaks else []
    if any(_ASSIGNMENT_LINE.match(line) for line in (*before, *after)):
        return line_end
    return None


def _without_closers(value: str) -> str:
    """`value` less the `,` and `;` and the brackets opened before it that end it."""
    while value and (value[-1] in ",;" or (value[-1] in _CLOSERS and value.count(_CLOSERS[value[-1]]) <
                                               value.count(value[-1]))):
        value = value[:-1]
    return value


# The lines of a key's body before its END line, read backwards (see _key_body):
# each a line break (real or escaped, reversed: `n\`) and up to 100 base64 characters,
# not the `n` of the escaped break before it.
_KEY_BODY_REVERSED = re.compile(r"(?:[ \t]*(?:\n\r?|n\\(?:r\\)?)[ \t]*(?:[A-Za-z0-9+/=](?!\\)){16,100}){1,200}")
_KEY_BODY_REACH = 200 * 110


def _key_body(match: re.Match[str], start: int, end: int) -> tuple[int, int] | None:
    """A private key's END line, from `start` to `end`, and the body before it, when its
    BEGIN line is not in the text (its first part was in another message, or cut off);
    None if no base64 line stands right before the END line."""
    before = match.string[max(0, start - _KEY_BODY_REACH) : start][::-1]
    body = _KEY_BODY_REVERSED.match(before)
    return None if body is None else (start - body.end(), end)


# Most specific first: a token found by an earlier pattern is already a marker when a
# later, broader one (an assignment, a Bearer header) looks at the same text.
BUILTIN_PATTERNS: tuple[Pattern, ...] = (
    _pattern(
        "private-key",
        # A PEM or OpenSSH block; without its END line (a cut-off output), the base64
        # body after the BEGIN line, written with real or escaped line breaks.
        r"-----BEGIN[A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----"
        r"(?:[\s\S]*?-----END[A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|(?:[A-Za-z0-9+/=:,\s-]|\\[nr])*)",
        hints=["PRIVATE KEY"],
    ),
    _pattern(
        "private-key",
        # The END line of a key whose BEGIN line is elsewhere (a file read in two parts),
        # and the body's lines before it (see _key_body).
        r"-----END[A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----",
        hints=["PRIVATE KEY"],
        widen=_key_body,
    ),
    _pattern(
        "private-key",
        # A PuTTY key file (.ppk, versions 1 to 3): its first line, its headers and the
        # base64 lines of its public and private parts, to its MAC; without the MAC (a
        # cut-off output), as far as it goes. Lines broken by real or escaped line
        # breaks, indented or not. A header holds a colon, a base64 line none: each
        # line is read one way only.
        r"PuTTY-User-Key-File-[0-9]+:[ \t]*[\w.@-]+"
        r"(?:(?:\r?\n|(?:\\r)?\\n)[ \t]*(?:(?:Encryption|Comment|Public-Lines|Private-Lines|Key-Derivation"
        r"|Argon2-[A-Za-z]+):(?:[^\n\\]|\\[^nr])*|[A-Za-z0-9+/=]+(?![A-Za-z0-9+/=:-])))*"
        r"(?:(?:\r?\n|(?:\\r)?\\n)[ \t]*Private-(?:MAC|Hash):[ \t]*[0-9a-fA-F]*)?",
        hints=["PuTTY-User-Key-File-"],
    ),
    _pattern("anthropic-key", r"sk-ant-[A-Za-z0-9_-]{20,}", hints=["sk-ant-"]),
    _pattern(
        "openai-key",
        # Project, service-account and admin keys carry `-` and `_`; a bare `sk-` key
        # must start with 20 characters without `-`, which kebab-case words rarely do,
        # and where a word runs on into it ("task-"), hold a digit and both cases too.
        r"sk-(?:proj|svcacct|admin)-[A-Za-z0-9_-]{20,}"
        r"|" + _START + r"sk-[A-Za-z0-9_]{20,}[A-Za-z0-9_-]*"
        r"|sk-(?=[A-Za-z_]*[0-9])(?=[a-z0-9_]*[A-Z])(?=[A-Z0-9_]*[a-z])[A-Za-z0-9_]{20,}[A-Za-z0-9_-]*",
        hints=["sk-"],
    ),
    _pattern("huggingface-token", r"hf_[A-Za-z0-9]{30,}", hints=["hf_"]),
    _pattern(
        "github-token",
        r"(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{22,})",
        hints=["ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"],
    ),
    _pattern(
        "aws-access-key",
        r"(?:AKIA|ASIA|ABIA|ACCA|A3T[A-Z0-9])[A-Z0-9]{16}(?![A-Za-z0-9])",
        hints=["AKIA", "ASIA", "ABIA", "ACCA", "A3T"],
    ),
    _pattern("slack-token", r"xox[abposr]-[A-Za-z0-9-]{10,}", hints=["xox"]),
    _pattern(
        "slack-webhook",
        # An incoming webhook's address, or a workflow's: anyone holding it may post to
        # the channel. The host and the kind are kept; a placeholder of X's is no secret.
        r"hooks\.slack\.com/(?:services|workflows|triggers)/(?P<secret>T[A-Z0-9]{6,}/[A-Z0-9]{6,}/"
        r"(?:[0-9]+/)?(?!X+(?![A-Za-z0-9]))[A-Za-z0-9]{16,})",
        "secret",
        hints=["hooks.slack.com/"],
    ),
    _pattern("google-api-key", r"AIza[A-Za-z0-9_-]{30,}", hints=["AIza"]),
    _pattern(
        "stripe-key",
        # Secret and restricted keys, live and test: a test key still opens the
        # account's test data. Publishable keys (pk_) are public by design.
        r"[sr]k_(?:live|test)_[A-Za-z0-9]{16,}",
        hints=["k_live_", "k_test_"],
    ),
    _pattern("stripe-webhook-secret", r"whsec_[A-Za-z0-9+/]{24,}={0,2}", hints=["whsec_"]),
    _pattern("npm-token", r"npm_[A-Za-z0-9]{36}(?![A-Za-z0-9])", hints=["npm_"]),
    _pattern(
        "npm-token",
        # .npmrc: `//registry.example.org/:_authToken=…` (or `_auth`, `_password`), or
        # the same setting at a line's start (`_` after `:` or a line break); never
        # `self._auth = …` in code.
        r"_(?<![^\n:]_)(?:authToken|auth|password)=" + _NOT_MARKER + _NOT_STAND_IN + r"(?P<secret>[^\s\"'`]+)",
        "secret",
        hints=["_auth", "_password"],
        hint_regex=r"_(?:authToken|auth|password)=",
    ),
    _pattern("jwt", r"eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*", hints=["eyJ"]),
    _pattern(
        "base64",
        # A run of 24 base64 characters or more, or a blob broken into lines of 64 or
        # 76. It is redacted only if it decodes to text that holds a secret, as
        # `<kind>-base64`: a GitHub token in a Kubernetes secret's data, a private key,
        # the user:token of a Basic header. Not hinted: see _hinted.
        rf"{_B64_START}[A-Za-z0-9+/_-]{{24,}}={{0,2}}"
        rf"(?:(?:{_WRAPPED})(?:(?:\r?\n|\\n)(?:{_B64}{{76}}|{_B64}{{64}})(?!{_B64_EDGE}))*"
        rf"(?:\r?\n|\\n){_B64}+={{0,2}})?(?!{_B64_EDGE})",
        encoded=True,
    ),
    _pattern(
        "url-password",
        # scheme://user:password@host keeps the user and the host.
        # The user may be a token redacted already (`s3://AKIA…:secret@bucket`). The
        # password runs to the `@`, a `/`, `?` or `#` in it too, unless it starts as a
        # port and a path do (`https://host:8080/@user`).
        r"://(?:" + _A_MARKER + r"|[^\s:/?#@\[\]\"'<>])*:" + _NOT_MARKER
        + r"(?![0-9]*[/?#])(?P<secret>[^\s@\"'<>]+)@",
        "secret",
        hints=["://"],
    ),
    _pattern(
        "bearer-token",
        # After an Authorization header any value but a variable ($TOKEN, ${TOKEN},
        # <token>) is a secret; elsewhere the word Bearer must be followed by something
        # token-like (long, or with a digit), so that prose such as "Bearer
        # authentication" is left alone.
        r"(?i:authorization)[\"']?\s*[:=]\s*[\"']?(?i:bearer)\s+"
        + _NOT_MARKER + r"(?![$%{<])(?P<secret>[^\s\"',;]+)"
        r"|(?i:\bbearer)\s+" + _NOT_MARKER
        + r"(?P<token>(?=[A-Za-z0-9._~+/-]{20})[A-Za-z0-9._~+/-]+=*"
        r"|(?=[A-Za-z0-9._~+/-]*[0-9])[A-Za-z0-9._~+/-]{8,}=*)",
        "secret|token",
        hints=["bearer"],
        hints_lower=True,
    ),
    _pattern(
        "basic-auth",
        # `Authorization: Basic <base64 of user:password>`, any value but a variable.
        r"(?i:\b(?:proxy-)?authorization)[\"']?\s*[:=]\s*[\"']?(?i:basic)[ \t]+" + _NOT_MARKER
        + _NOT_STAND_IN + r"(?P<secret>[A-Za-z0-9+/_-]{4,}={0,2})",
        "secret",
        hints=["basic"],
        hints_lower=True,
        hint_regex=r"authorization[\"']?\s*[:=]\s*[\"']?basic",
    ),
    _pattern(
        "api-key-header",
        # X-Api-Key:, Api-Key:, X-Auth-Token:, Private-Token:, X-Vault-Token: … and
        # `Authorization: Token …`. The value must look like a token (with a digit, or
        # long), so that "the X-Api-Key: header" in prose is left alone.
        r"(?<![A-Za-z0-9_-])(?:(?i:x-(?:[a-z0-9]+-)*?(?:api-?key|key|token|secret)|api-?key|private-token"
        r"|(?:api|auth|access)-token)[\"']?[ \t]*:|(?i:authorization)[\"']?\s*[:=]\s*[\"']?(?i:token)(?=[ \t]))"
        r"[ \t]*" + _NOT_MARKER + _NOT_STAND_IN
        + r"(?P<secret>(?=[A-Za-z0-9._~+/=-]*[0-9])[A-Za-z0-9._~+/=-]{6,}|[A-Za-z0-9._~+/=-]{16,})",
        "secret",
        hints=["-key", "apikey", "-token", "-secret", "authorization"],
        hints_lower=True,
        hint_regex=r"(?:-key|apikey|-token|-secret)[\"']?[ \t]*:|authorization[\"']?\s*[:=]\s*[\"']?token[ \t]",
    ),
    _pattern(
        "command-password",
        # The password in `curl -u user:password` (the user is kept), `mysql -pPASSWORD`
        # (`-p` alone prompts, and `-p 3306` is not mysql's), `sshpass -p PASSWORD` and
        # `docker login -p PASSWORD` (`podman login` too). `--password=…` is a
        # secret-assignment. The flag is looked for at most 500 characters on, so that
        # a long line with many commands costs no more than a few passes.
        r"\bcurl\b(?:[^\n;|&]|\\\n){0,500}?[ \t](?:-u[ \t]*|--user[= \t][ \t]*)[\"']?(?:" + _A_MARKER
        + r"|[^\s:\"'])*:"
        + _NOT_MARKER + _NOT_STAND_IN + r"(?P<curl>[^\s\"']+)"
        r"|\b(?:mysql|mysqldump|mysqladmin|mysqlimport|mysqlcheck|mysqlshow|mariadb|mariadb-dump|mariadb-admin)"
        r"(?![\w-])(?:[^\n;|&]|\\\n){0,500}?[ \t]-p[\"']?" + _NOT_MARKER + _NOT_STAND_IN + r"(?P<mysql>[^\s\"']+)"
        r"|\bsshpass[ \t]+(?:-[a-oq-zA-Z]\S*[ \t]+)*-p[ \t]*[\"']?" + _NOT_MARKER
        + _NOT_STAND_IN + r"(?P<sshpass>[^\s\"']+)"
        r"|\b(?:docker|podman)[ \t]+login\b(?:[^\n;|&]|\\\n){0,500}?"
        r"[ \t](?:-p|--password)[ \t]+[\"']?" + _NOT_MARKER
        + _NOT_STAND_IN + r"(?P<docker>[^\s\"']+)"
        # `--password VALUE`, `--token VALUE` (`--password=VALUE` is a secret-assignment):
        # a value with a digit, or long, so that "the --token flag" in prose is left alone.
        r"|(?<![\w-])--(?:password|passwd|api-?key|token|secret|client-secret|auth-token|access-token)[ \t]+[\"']?"
        + _NOT_MARKER + _NOT_STAND_IN
        + r"(?P<flag>(?=[^\s\"']*[0-9])[^\s\"'-][^\s\"']{5,}|[^\s\"'-][^\s\"']{15,})",
        "curl|mysql|sshpass|docker|flag",
        hints=["curl", "mysql", "mariadb", "sshpass", "docker", "podman", "--passw", "--api", "--token", "--secret",
               "--client-secret", "--auth-token", "--access-token"],
        hint_regex=r"[ \t](?:-[up]|--user|--password)|--(?:passw|api-?key|token|secret|client-secret|auth-token"
        r"|access-token)[ \t]",
    ),
    _pattern(
        "command-password",
        # `redis-cli -a PASSWORD` (`--pass`), the `-p PASSWORD` of mongo's tools (their
        # port is `--port`; a value of digits and colons is a port all the same, as
        # `docker run -p 27017:27017 mongo` maps it), `smbclient -U user%PASSWORD` and
        # the other Samba clients, and openssl's `-pass pass:PASSWORD` (`-passin`,
        # `-passout`, `-password`; its `env:` and `file:` forms name no secret). A value
        # starting with `-` is the next flag: the tool prompts. The search is for the
        # flag, and _command_flag looks back for the command: a search from each command
        # for its flag would cost a pass over the rest of the line for each. The `-`
        # comes first, alone: a search for a literal skips ahead far quicker.
        r"-(?<![\w-]-)(?:"
        r"(?:a|-pass)[ \t]+[\"']?" + _NOT_MARKER + _NOT_STAND_IN + r"(?P<redis>[^\s\"'-][^\s\"']*)"
        r"|p[ \t]+[\"']?" + _NOT_MARKER + _NOT_STAND_IN
        + r"(?![0-9.:/-]*(?:/(?:tcp|udp))?(?![^\s\"']))(?P<mongo>[^\s\"'-][^\s\"']*)"
        r"|(?:U[ \t]*|-user(?:name)?[= \t][ \t]*)[\"']?[^\s%\"'-][^\s%\"']*%" + _NOT_MARKER
        + _NOT_STAND_IN + r"(?P<smb>[^\s\"']+)"
        r"|pass(?:in|out|word)?[ \t]+[\"']?pass:" + _NOT_MARKER + _NOT_STAND_IN + r"(?P<openssl>[^\s\"']+))",
        "redis|mongo|smb|openssl",
        hints=["redis-cli", "mongo", "smb", "rpcclient", "net ", "pass:"],
        hint_regex=r"-(?:[apU][ \t]|-pass|-user|pass(?:in|out|word)?[ \t])",
        accept=_command_flag,
    ),
    _pattern(
        "command-password",
        # `htpasswd -b FILE USER PASSWORD` (`-nb USER PASSWORD`): the last argument, if
        # the flags hold `b` (see _htpasswd). `-C 12` takes a number.
        r"\bhtpasswd(?P<htflags>(?:[ \t]+-[A-Za-z]+(?:[ \t]+[0-9]+)?)+)(?P<htargs>(?:[ \t]+(?![-\"'])[^\s;|&<>()\"']+)"
        r"{1,2})[ \t]+[\"']?" + _NOT_MARKER + _NOT_STAND_IN + r"(?P<htpasswd>[^\s;|&<>()\"']+)[\"']?"
        r"(?=[ \t]*(?:[;|&<>)`\n]|\\n|\Z))",
        "htpasswd",
        hints=["htpasswd"],
        accept=_htpasswd,
    ),
    _pattern(
        "secret-field",
        # A password as XML: the text of an element named like a secret
        # (`<password>…</password>`, `<ns:clientSecret>`). See _xml_field. The name
        # must end as such a name does, so that an HTML page's `<code>…</code>` costs
        # no more; nothing matched is given back, since `<` ends each part.
        r"<(?P<tag>[A-Za-z_][\w.:-]{0,100}+)" + _SECRET_NAME_END
        + r"(?:[ \t][^<>\n]{0,200}+)?>" + _NOT_MARKER
        + r"(?:<!\[CDATA\[(?P<cdata>[^\]]{1,500}+)\]\]>|(?P<element>[^<>]{1,500}+))</(?P=tag)>",
        "cdata|element",
        # Any closing tag: a hint for each name would cost a pass over the text each.
        hints=["</"],
        accept=_xml_field,
    ),
    _pattern(
        "secret-field",
        # The value of a `key` or `name` attribute named like a secret, as XML settings
        # are (`<add key="DbPassword" value="…"/>`, `<property name="password"
        # value="…"/>`), quotes escaped or not. See _xml_field.
        r"(?:key|name)(?<![\w-]key)(?<![\w-]name)=(?P<q>\\?[\"'])(?P<attr_name>[\w.:-]{1,100})(?P=q)[ \t]+value="
        r"\\?[\"']" + _NOT_MARKER + r"(?P<attr_value>[^\"'<>\\\n]{1,500})\\?[\"']",
        "attr_value",
        hints=["value="],
        accept=_xml_field,
    ),
    _pattern(
        "secret-field",
        # The value of a JSON, YAML or object-literal key named like a secret:
        # `"password": "…"`, `client_secret: …`, `{\"api_key\": \"…\"}`. The search
        # starts at the colon, far quicker than at every word; _secret_field reads the
        # key's name back from it and checks the value. A value without quotes is one
        # word (prose has spaces) at the line's end or before a comment, or in a YAML
        # flow mapping (`{user: ann, password: …}`) before `,` or `}`.
        # A YAML anchor or tag may stand before the value (`password: &db …`, `!!str`).
        _after_secret_name(case_insensitive=True) + r"[ \t]*(?:[&!][!\w.-]{0,100}+[ \t]+)?" + _NOT_MARKER +
        r"(?:\\(?:\\\\)?\"(?P<escaped>[^\"\\\n]+)\\(?:\\\\)?\"|\"(?P<double>[^\"\n]+?)(?<!\\)\"|'(?P<single>[^'\n]+)'"
        r"|(?<=[ \t])(?P<plain>[^\s\"'#|>&*!{\[,`]\S{0,200}+)(?<![,}])(?=[ \t]+#|[ \t]*(?:\r?\n|\Z))"
        # In a YAML flow mapping, a value without quotes ends at `,` or `}`.
        r"|(?<=[ \t])(?P<flow>[^\s\"'#|>&*!{}\[\],`][^\s,{}\[\]]{0,200}+)(?=[ \t]*[,}]))",
        "escaped|double|single|plain|flow",
        hints=["pass", "secret", "token", "auth", "key"],
        hints_lower=True,
        hint_regex=_after_secret_name(case_insensitive=False),
        accept=_secret_field,
    ),
    _pattern(
        "secret-field",
        # A line of two columns split by tabs, a name like a secret's and one word, as
        # `mysql -e`'s output and other tables are. See _tab_field.
        _after_secret_name(case_insensitive=True, separator="\t") + r"[ \t]*" + _NOT_MARKER
        + r"(?P<tab>[^\s\"'#|>&*!{\[,`:]\S{0,200}+)(?=[ \t]*(?:\r?\n|\Z))",
        "tab",
        hints=["\t"],
        hint_regex=_after_secret_name(case_insensitive=True, separator="\t"),
        accept=_tab_field,
    ),
    _pattern(
        "netrc-password",
        # A `.netrc` entry's password: `machine HOST login USER password …`, on one line
        # or several; see _netrc_entry.
        r"(?<![\w-])password(?:[ \t]+|[ \t]*(?:\r?\n|\\r?\\n)[ \t]*)" + _NOT_MARKER + _NOT_STAND_IN
        + r"(?P<secret>[^\s\"'\\]+)",
        "secret",
        hints=["machine", "default"],
        hint_regex=r"(?<![\w-])(?:machine|default)\s",
        accept=lambda match: _netrc_entry(match),
    ),
    _pattern(
        "cookie",
        # The value of a `Cookie:` or `Set-Cookie:` header (`name=value; …`), or of curl's
        # `--cookie`: a session's cookie opens the session. The header's name is kept.
        r"(?:(?i:(?<![\w-])(?:set-)?cookie)[\"']?[ \t]*:|(?<![\w-])--cookie(?:[ \t]+|=))[ \t]*[\"']?" + _NOT_MARKER
        + r"(?P<secret>[^\s=;,\"'\\]+=[^\r\n\"'\\]*[^\s\"'\\;])",
        "secret",
        hints=["cookie"],
        hints_lower=True,
        hint_regex=r"cookie[\"']?[ \t]*:|--cookie",
    ),
    _pattern(
        "secret-assignment",
        # NAME_KEY=, NAME_TOKEN=, NAME_SECRET=, PASSWORD= (any case, `-` or `_`), in
        # shell, env files, code and command-line flags: the word starts the name or
        # follows `_` or `-`. The value is left alone when it is code rather than a
        # literal: a variable, a template, a call, an index or None.
        r"(?:(?:(?<=[_-])|(?<![A-Za-z0-9])|" + _ESCAPE_END + r")(?i:key|token|secret|password|passwd|passphrase)"
        r"|(?:(?<![A-Za-z0-9])|" + _ESCAPE_END + r")(?i:pgpassword|mysql_pwd)"
        # Azure: a connection string's AccountKey= and SharedAccessKey=, a SAS's sig=.
        r"|(?<![A-Za-z0-9])(?:AccountKey|SharedAccessKey)|(?<=[?&;])sig)"
        r"\s*=(?!=)\s*"
        # An attribute followed by `value=` names a value (`<add key="Timeout" value="30"/>`).
        r"(?:\"" + _NOT_MARKER + r"(?P<double>[^\"\n]+)\"(?![ \t]+value=)|'" + _NOT_MARKER
        + r"(?P<single>[^'\n]+)'(?![ \t]+value=)"
        # Quotes escaped once or twice, as in JSON inside a string: `PASSWORD=\"…\"`.
        r"|\\(?:\\\\)?\"" + _NOT_MARKER + r"(?P<escaped>[^\"\\\n]+)\\(?:\\\\)?\"(?![ \t]+value=)"
        # A value without quotes: up to its real end, which _assignment_value finds.
        r"|" + _NOT_MARKER + r"(?![$%{<\\]|(?:None|null|true|false|True|False)\b)(?P<bare>[^\s\"'`]++))",
        "double|single|escaped|bare",
        hints=["key", "token", "secret", "pass", "mysql_pwd", "sig="],
        hints_lower=True,
        # Words such as "token" fill logs; an assignment to one is much rarer. A
        # case-insensitive search is several times slower than this one in folded text.
        hint_regex=r"(?:key|token|secret|password|passwd|passphrase|mysql_pwd)\s*=|[?&;]sig=",
        widen=_assignment_value,
    ),
)

# Each kind once, in the patterns' order; `base64` stands for the `<kind>-base64` kinds.
KINDS = tuple(dict.fromkeys(pattern.kind for pattern in BUILTIN_PATTERNS))
# A secret split between two fields of a message, the first's end and the second's
# start, as a message's thinking runs on into its text (see Redactor.redact_fields).
SEAMS: tuple[tuple[str, str], ...] = (("thinking", "text"),)
# How much of each side of a seam fields_may_hold_secret looks at: far more than a hint.
_SEAM_WINDOW = 256


class NestingError(ValueError):
    """A value nested too deeply to be searched for secrets."""


class Redactor:
    """Replaces secrets in strings, and in every string of a JSON-like value."""

    def __init__(self, extra_patterns: Mapping[str, str] | None = None, allow: Iterable[str] = ()):
        """`extra_patterns` maps a kind to a regular expression: the named group
        `secret`, if any, or else the whole match is redacted. `allow` lists literal
        strings that are never redacted, such as a documented example key."""
        extra = []
        for kind, regex in (extra_patterns or {}).items():
            compiled = _compiled(regex)  # re.error tells the caller what is wrong
            try:
                _compiled_timed(regex)
            except regex_module.error as error:
                raise re.error(str(error)) from None
            group = "secret" if "secret" in compiled.groupindex else 0
            extra.append(Pattern(kind, regex, group, timed=True))
        self.patterns: tuple[Pattern, ...] = (*BUILTIN_PATTERNS, *extra)
        self.allow = frozenset(allow)
        # Two redactors with the same rules redact alike, and have the same fingerprint.
        self.fingerprint = _fingerprint(self.patterns, self.allow)

    def redact_text(self, text: str) -> tuple[str, list[str]]:
        """The text with each secret replaced, and one kind for each replacement."""
        redacted, kinds = self._redact_own(text)
        return self._second_opinion(redacted, kinds), kinds

    def _redact_own(self, text: str) -> tuple[str, list[str]]:
        """redact_text by the patterns alone, without the second opinion."""
        kinds: list[str] = []
        if disguise.is_disguised(text):
            text = self._redact_disguised(text, kinds)
        folded = functools.cache(text.casefold)
        for pattern in self.patterns:
            if not _hinted(pattern, text, folded):
                continue
            found = [span for match in pattern.regex.finditer(text) if (span := self._found(match, pattern))]
            if found:
                text = _replaced(text, found, kinds)
                folded = functools.cache(text.casefold)
        return text, kinds

    def _second_opinion(self, value: Any, kinds: list[str]) -> Any:
        """`value` (JSON-like) with each secret that the second opinion finds in any of its
        strings replaced wherever it stands, one kind in `kinds` for each replacement."""
        found = self._second_opinion_finds(value)
        return _replaced_secrets(value, found, kinds) if found else value

    def _second_opinion_finds(self, value: Any) -> list[tuple[str, str]]:
        """The kind and the value of each secret that the second opinion finds in the
        strings of `value`, asked once about all of them; none that is allowed."""
        strings: list[str] = []
        _collect_strings(value, strings, 0)
        return [(kind, secret) for kind, secret in second_opinion.secrets_in("\n".join(strings))
                if secret not in self.allow]

    def may_hold_secret(self, *values: object) -> bool:
        """False if no string in `values` (JSON-like, keys too) can hold a secret: none
        holds a hint of any pattern. Most messages hold none, and looking for the hints
        in all their strings joined is far quicker than trying each pattern on each
        string. A hint found across two strings only sends them to `redact_value`.
        A value nested deeper than MAX_NESTING levels is refused with NestingError."""
        strings: list[str] = []
        for value in values:
            _collect_strings(value, strings, 0)
        text = "\n".join(strings)
        if disguise.is_disguised(text):
            text += "\n" + disguise.plain_view(text)[0]
        folded = functools.cache(text.casefold)
        return any(_hinted(pattern, text, folded) for pattern in self.patterns) \
            or bool(second_opinion.secrets_in(text))

    def fields_may_hold_secret(self, fields: Mapping[str, object]) -> bool:
        """may_hold_secret for a message's fields (name -> value), the seams between the
        fields of SEAMS too: False only if `redact_fields` would find nothing."""
        seams = []
        for before, after in SEAMS:
            tail, head = fields.get(before), fields.get(after)
            if isinstance(tail, str) and isinstance(head, str):
                seams.append(tail[-_SEAM_WINDOW:] + head[:_SEAM_WINDOW])
        return self.may_hold_secret(*fields.values(), *seams)

    def redact_value(self, value: Any) -> tuple[Any, list[str]]:
        """Redact every string inside a JSON-like value, the keys of its objects too,
        and a string whose key is named like a secret (`{"password": "…"}`) whole.
        A value nested deeper than MAX_NESTING levels is refused with NestingError."""
        kinds: list[str] = []
        return self._second_opinion(self._redact(value, kinds, 0), kinds), kinds

    def redact_fields(self, fields: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, list[str]]]:
        """Redact each of a message's fields (name -> value) as `redact_value` does, and
        a secret split between two of them, the end of the first of a pair of SEAMS and
        the start of the second (a token begun in the thinking and ended in the text):
        each part is replaced by a marker of the secret's kind. Returns the fields
        redacted and, for each, the kinds found in it."""
        values = dict(fields)
        found: dict[str, list[str]] = {name: [] for name in values}
        for before, after in SEAMS:
            tail, head = values.get(before), values.get(after)
            if isinstance(tail, str) and isinstance(head, str) and tail and head:
                values[before], values[after] = self._redact_seam(tail, head, found[before], found[after])
        redacted: dict[str, Any] = {}
        for name, value in values.items():
            redacted[name] = self._redact(value, found[name], 0)
        if secrets := self._second_opinion_finds(redacted):  # asked once about all the fields
            for name, value in redacted.items():
                redacted[name] = _replaced_secrets(value, secrets, found[name])
        return redacted, found

    def _redact_seam(self, tail: str, head: str, tail_kinds: list[str], head_kinds: list[str]) -> tuple[str, str]:
        """`tail` and `head` with each secret that runs from one into the other replaced,
        on each side, by a marker. A secret wholly on one side is left to that side's
        own redaction, unless what shows it a secret is on the other (the `@host` after
        a URL's password). The two are searched whole, joined: a private key's BEGIN
        line may be far from the seam. Only a message that may hold a secret (see
        fields_may_hold_secret) comes here, so the cost is rarely paid."""
        window, seam = tail + head, len(tail)
        for secret_start, secret_end, kind in sorted(self._spans(window, seam), reverse=True):
            marker = MARKER.format(kind=kind)
            if secret_start < seam:
                tail = tail[:secret_start] + marker + tail[min(secret_end, seam):]
                tail_kinds.append(kind)
            if secret_end > seam:
                head = head[: max(secret_start, seam) - seam] + marker + head[secret_end - seam :]
                head_kinds.append(kind)
        return tail, head

    def _redact_disguised(self, text: str, kinds: list[str]) -> str:
        """`text` with each secret that its plain view (see msgref.disguise) shows replaced,
        from the first character it came from to the last."""
        plain, origin = disguise.plain_view(text)
        spans = [(origin[start], origin[end - 1] + 1, kind) for start, end, kind in self._spans(plain)]
        return _replaced(text, sorted(spans), kinds) if spans else text

    def _spans(self, window: str, seam: int | None = None) -> list[tuple[int, int, str]]:
        """The secrets in `window` (of the matches that run across `seam`, if given): the
        start and end of each secret, and its kind. The patterns take their turns as in
        redact_text: a match overlapping an earlier pattern's secret is not one."""
        taken: list[tuple[int, int]] = []
        spans = []
        folded = functools.cache(window.casefold)
        for pattern in self.patterns:
            if not _hinted(pattern, window, folded):
                continue
            for match in pattern.regex.finditer(window):
                found = self._found(match, pattern)
                if found is None:
                    continue
                start, end, kind = found
                if any(start < other_end and other_start < end for other_start, other_end in taken):
                    continue
                taken.append((start, end))
                if seam is None or match.start() < seam < match.end():
                    spans.append((start, end, kind))
        return spans

    def _redact(self, value: Any, kinds: list[str], depth: int) -> Any:
        if isinstance(value, str):
            text, found = self._redact_own(value)
            kinds.extend(found)
            return text
        if isinstance(value, (dict, list, tuple)) and depth >= MAX_NESTING:
            raise NestingError(f"nests deeper than {MAX_NESTING} levels, the most a message may hold")
        if isinstance(value, dict):
            redacted: dict[Any, Any] = {}
            for key, item in value.items():
                name = key
                key = marked = self._redact(key, kinds, depth)
                copy = 1
                while key in redacted:  # two secrets redacted to the same marker stay two keys
                    copy += 1
                    key = f"{marked} #{copy}"
                redacted[key] = self._redact(item, kinds, depth + 1)
                if isinstance(name, str) and (name_kind := secret_name(name)) is not None:
                    redacted[key] = self._named_secret(item, redacted[key], name_kind, kinds)
            if isinstance(pair_name := value.get("name"), str) and isinstance(value.get("value"), str) \
                    and (pair_kind := secret_name(pair_name)) is not None:
                # {"name": "DB_PASSWORD", "value": "…"}, as a container's environment lists it
                redacted["value"] = self._named_secret(value["value"], redacted["value"], pair_kind, kinds)
            return redacted
        if isinstance(value, (list, tuple)):
            return [self._redact(item, kinds, depth + 1) for item in value]
        return value

    def _named_secret(self, item: Any, redacted: Any, name_kind: str, kinds: list[str]) -> Any:
        """The value `item` of a key named like a secret (of `name_kind`, see
        secret_name), as `redacted` already: a literal string, a number of four digits or
        more (a PIN) and each literal string of a list are a secret field."""
        marker = MARKER.format(kind="secret-field")
        if isinstance(item, str) and redacted == item and item not in self.allow and secret_literal(item, name_kind):
            kinds.append("secret-field")
            return marker
        if isinstance(item, int) and not isinstance(item, bool) and name_kind == "secret" and abs(item) >= 1000:
            kinds.append("secret-field")
            return marker
        if isinstance(item, list) and isinstance(redacted, list):
            return [self._named_secret(one, done, name_kind, kinds) if isinstance(one, str) else done
                    for one, done in zip(item, redacted, strict=True)]
        return redacted

    def _found(self, match: re.Match[str], pattern: Pattern) -> tuple[int, int, str] | None:
        """The span of a match's secret and the kind it is redacted as, or None if it is
        to be kept: allowed, refused by the pattern's `accept`, or base64 of nothing
        secret. Base64 after a separator is redacted from the separator on."""
        start, end = _secret_span(match, pattern.group)
        secret = match.string[start:end]
        if not secret or secret in self.allow or (pattern.accept is not None and not pattern.accept(match)):
            return None
        if pattern.widen is not None:
            widened = pattern.widen(match, start, end)
            if widened is None:
                return None
            start, end = widened
        if not pattern.encoded:
            return start, end, pattern.kind
        for offset, decoded in base64_texts(secret):
            inner = self._redact_own(decoded)[1]
            if inner:
                return start + offset, end, inner[0] if inner[0].endswith("-base64") else f"{inner[0]}-base64"
        return None


def _replaced(text: str, spans: list[tuple[int, int, str]], kinds: list[str]) -> str:
    """`text` with each span (start, end, kind), in order, replaced by its kind's marker.
    A span that starts inside the one before it (a key's body reached back into it) is
    taken into that one's marker."""
    parts, at = [], 0
    for start, end, kind in spans:
        if start < at:
            at = max(at, end)
            continue
        parts += [text[at:start], MARKER.format(kind=kind)]
        kinds.append(kind)
        at = end
    parts.append(text[at:])
    return "".join(parts)


def _replaced_secrets(value: Any, secrets: list[tuple[str, str]], kinds: list[str]) -> Any:
    """`value` (JSON-like: keys too) with each of `secrets` (its kind, its value) replaced
    by its kind's marker in every string, one kind in `kinds` for each replacement."""
    if isinstance(value, str):
        for kind, secret in secrets:
            if count := value.count(secret):
                value = value.replace(secret, MARKER.format(kind=kind))
                kinds += [kind] * count
        return value
    if isinstance(value, dict):
        return {_replaced_secrets(key, secrets, kinds): _replaced_secrets(item, secrets, kinds)
                for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_replaced_secrets(item, secrets, kinds) for item in value]
    return value


def _fingerprint(patterns: tuple[Pattern, ...], allow: frozenset[str]) -> bytes:
    """A digest of everything that decides what is redacted: equal for equal rules, and
    changed by any change to the code (RULES_CODE), a pattern (its hints too), its order,
    the allow list or the second opinion's rules."""
    code = hashlib.blake2b(b"".join(path.read_bytes() for path in RULES_CODE), digest_size=32).hexdigest()
    rules = [code, second_opinion.IDENTITY, [
        [p.kind, p.source, compile_flags(p.source), p.group, list(p.hints), p.hints_lower,
         p.hint_source, p.accept.__qualname__ if p.accept else None, p.encoded]
        for p in patterns
    ], sorted(allow)]
    # JSON with every string escaped to ASCII: one unambiguous text for any rules.
    return hashlib.blake2b(json.dumps(rules).encode("ascii"), digest_size=32).digest()


def _hinted(pattern: Pattern, text: str, folded: Callable[[], str]) -> bool:
    """Whether `text` holds what `pattern` needs to match (its hints), as far as a test
    far quicker than its search can tell; `folded()` is the text case-folded. casefold,
    unlike lower, maps every letter that the patterns' (?i) matches as one of their
    hints' letters, such as the Kelvin sign."""
    if pattern.encoded:
        # Base64 hides every hint; a run that decodes to text is rare, and finding the
        # runs and decoding them (in C) costs less than looking for the base64 of each
        # hint at each of its three offsets. Most texts have no run at all, which their
        # bytes, each base64 character made `a` and any other a space, tell five times
        # quicker than a regular expression. The first line of a blob is a run of its
        # own, and decodes as well.
        if _BASE64_RUN_BYTES not in text.encode("utf-8", "surrogatepass").translate(_BASE64_BYTES):
            return False
        return any(decode_base64(run) is not None
                   or (_TEXT_AFTER_SEPARATOR.search(run, 0, _SEPARATOR_REACH + 25) is not None
                       and next(base64_texts(run), None) is not None)
                   for run in _BASE64_RUN.findall(text))
    if not pattern.hints:
        return True  # a pattern of the site's own: tried on every string
    haystack = folded() if pattern.hints_lower else text
    if not any(map(haystack.__contains__, pattern.hints)):
        return False
    return pattern.hint_regex is None or pattern.hint_regex.search(haystack) is not None


def _collect_strings(value: object, strings: list[str], depth: int) -> None:
    if isinstance(value, str):
        strings.append(value)
    elif isinstance(value, (dict, list, tuple)):
        if depth >= MAX_NESTING:
            raise NestingError(f"nests deeper than {MAX_NESTING} levels, the most a message may hold")
        if isinstance(value, dict):
            # `key:` so that a key named like a secret is seen as one (redact_value).
            strings.extend(f"{key}:" for key in value if isinstance(key, str))
        for item in value.values() if isinstance(value, dict) else value:
            _collect_strings(item, strings, depth + 1)


def _secret_span(match: re.Match[str], group: int | str) -> tuple[int, int]:
    """The span of the first group named in `group` ("a|b") that took part in the match."""
    if group == 0:
        return match.span()
    for name in str(group).split("|"):
        if match.group(name) is not None:
            return match.span(name)
    return match.span()


Redaction = tuple[int, list[str]]  # a message's number, and the kinds of secret found in it


class RedactedTranscript:
    """A transcript whose messages are redacted as they are read.

    Only the messages the site shows are ever read, so only they are redacted. A message
    found clean is remembered by a byte (MessageFlags), and a redacted one is kept: memory
    grows with the number of messages that hold secrets, and a byte a message.
    `on_redact(n, kinds)` is told once of each message found to hold secrets, for the
    report, unless the finding is held (see `held`).
    A message whose line carries a redaction seal made under this redactor's rules,
    checked as its line is read (see msgref.seal), is clean without a look: the importer
    redacted it under the same rules.
    """

    def __init__(self, transcript: MessageSource, redactor: Redactor,
                 on_redact: Callable[[int, list[str]], None] = lambda n, kinds: None):
        self._transcript = transcript
        self._redactor = redactor
        self._on_redact = on_redact
        self._clean = MessageFlags(transcript.numbers)
        # The transcript, if it tells which lines carry a seal made under this redactor's rules.
        self._seals = transcript if isinstance(transcript, IndexedTranscript) and \
            transcript.seal_key == redactor.fingerprint else None
        self._redacted: dict[int, Message] = {}
        self._told: set[int] = set()
        self._holding: list[Redaction] | None = None
        self.path = transcript.path
        self.numbers, self.described = transcript.numbers, transcript.described

    def __len__(self) -> int:
        return len(self.numbers)

    def __contains__(self, n: int) -> bool:
        return n in self._transcript

    def size_hint(self, n: int) -> int:
        return self._transcript.size_hint(n)

    def get(self, n: int) -> Message | None:
        if n in self._redacted:
            return self._redacted[n]
        message = self._transcript.get(n)
        if message is None or n in self._clean:
            return message
        if self._seals is not None and self._seals.seal_verified(n):
            self._clean.add(n)  # the importer redacted it under the same rules
            return message
        fields = {name: getattr(message, name) for name in LOG_TEXT_FIELDS}
        if not self._redactor.fields_may_hold_secret(fields):
            self._clean.add(n)
            return message
        try:
            redacted, found = self._redactor.redact_fields(fields)
        except PatternTimeout as error:
            raise TranscriptError(f"{self.path}:{message.line}: redact_patterns: {error}") from None
        kinds = [kind for name in LOG_TEXT_FIELDS for kind in found[name]]
        if not kinds:
            self._clean.add(n)
            return message
        if self._holding is None:
            self.tell(n, kinds)
        else:
            self._holding.append((n, kinds))
        self._redacted[n] = replace(message, **redacted)
        return self._redacted[n]

    @contextmanager
    def held(self) -> Iterator[list[Redaction]]:
        """While open, what is found is put in the list given rather than told: for work
        done in a worker process, whose telling would be lost with it, and would repeat
        what this process tells. The process that keeps the transcript then `tell`s it."""
        found: list[Redaction] = []
        self._holding = found
        try:
            yield found
        finally:
            self._holding = None

    def tell(self, n: int, kinds: list[str]) -> None:
        """Tell `on_redact` that message n was redacted, unless it was told already."""
        if n not in self._told:
            self._told.add(n)
            self._on_redact(n, kinds)
