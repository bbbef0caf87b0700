"""The patterns of the secrets that transcript.redact replaces, most specific first.

Each `Pattern` is a regular expression, the group that holds the secret, the hints that
must be in a text for it to be tried, and, where a regular expression says it badly, a
test of a match in code (`accept`) or a reading of the secret's span (`widen`). A site's
own patterns are searched with a time bound. Plain Python: nothing here imports MkDocs
or Markdown.
"""

from __future__ import annotations

import base64
import binascii
import functools
import operator
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import cast

import regex as regex_module

from .secret_names import SECRET_NAME_END, after_secret_name, secret_field, tab_field, xml_field

MARKER = "[REDACTED: {kind}]"

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
            return cast("re.Pattern[str]", _TimedPattern(self.kind, compiled_timed(self.source)))
        return compiled(self.source)

    @property
    def hint_regex(self) -> re.Pattern[str] | None:
        return None if self.hint_source is None else compiled(self.hint_source)


compiled = functools.cache(re.compile)  # re's own cache holds fewer patterns than a site may use
compiled_timed = functools.cache(regex_module.compile)
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
_LINE_BREAK = re.compile(r"\r?\n|(?:\\r)?\\n")


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
    if (escaped_end := _LINE_BREAK.search(text, start, end)) is not None:
        end = escaped_end.start()  # JSON text's `\n` ends the line, as a line break does
    name_start = match.start()
    while name_start > 0 and (text[name_start - 1].isalnum() or text[name_start - 1] in "_.-"):
        name_start -= 1
    escaped_break = text.rfind("\\n", 0, name_start)
    line_start = max(text.rfind("\n", 0, name_start) + 1, escaped_break + 2 if escaped_break >= 0 else 0)
    if name_start > 0 and text[name_start - 1] in "?&":
        value = re.split(r"[&#]", text[start:end], maxsplit=1)[0]
    elif (line_end := _in_a_file_of_settings(match, line_start, name_start, end)) is not None:
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


def _in_a_file_of_settings(match: re.Match[str], line_start: int, name_start: int, value_end: int) -> int | None:
    """Where the line of an assignment ends, if it is a line of an env or INI file (see
    _assignment_value), else None."""
    text = match.string
    if text[line_start:name_start].strip(" \t") not in ("", "export"):
        return None
    breaks = _LINE_BREAK.search(text, value_end)
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
        # (`<password>…</password>`, `<ns:clientSecret>`). See xml_field. The name
        # must end as such a name does, so that an HTML page's `<code>…</code>` costs
        # no more; nothing matched is given back, since `<` ends each part.
        r"<(?P<tag>[A-Za-z_][\w.:-]{0,100}+)" + SECRET_NAME_END
        + r"(?:[ \t][^<>\n]{0,200}+)?>" + _NOT_MARKER
        + r"(?:<!\[CDATA\[(?P<cdata>[^\]]{1,500}+)\]\]>|(?P<element>[^<>]{1,500}+))</(?P=tag)>",
        "cdata|element",
        # Any closing tag: a hint for each name would cost a pass over the text each.
        hints=["</"],
        accept=xml_field,
    ),
    _pattern(
        "secret-field",
        # The value of a `key` or `name` attribute named like a secret, as XML settings
        # are (`<add key="DbPassword" value="…"/>`, `<property name="password"
        # value="…"/>`), quotes escaped or not. See xml_field.
        r"(?:key|name)(?<![\w-]key)(?<![\w-]name)=(?P<q>\\?[\"'])(?P<attr_name>[\w.:-]{1,100})(?P=q)[ \t]+value="
        r"\\?[\"']" + _NOT_MARKER + r"(?P<attr_value>[^\"'<>\\\n]{1,500})\\?[\"']",
        "attr_value",
        hints=["value="],
        accept=xml_field,
    ),
    _pattern(
        "secret-field",
        # The value of a JSON, YAML or object-literal key named like a secret:
        # `"password": "…"`, `client_secret: …`, `{\"api_key\": \"…\"}`. The search
        # starts at the colon, far quicker than at every word; secret_field reads the
        # key's name back from it and checks the value. A value without quotes is one
        # word (prose has spaces) at the line's end or before a comment, or in a YAML
        # flow mapping (`{user: ann, password: …}`) before `,` or `}`.
        # A YAML anchor or tag may stand before the value (`password: &db …`, `!!str`).
        after_secret_name(case_insensitive=True) + r"[ \t]*(?:[&!][!\w.-]{0,100}+[ \t]+)?" + _NOT_MARKER +
        r"(?:\\(?:\\\\)?\"(?P<escaped>[^\"\\\n]+)\\(?:\\\\)?\"|\"(?P<double>[^\"\n]+?)(?<!\\)\"|'(?P<single>[^'\n]+)'"
        r"|(?<=[ \t])(?P<plain>[^\s\"'#|>&*!{\[,`]\S{0,200}+)(?<![,}])(?=[ \t]+#|[ \t]*(?:\r?\n|\Z))"
        # In a YAML flow mapping, a value without quotes ends at `,` or `}`.
        r"|(?<=[ \t])(?P<flow>[^\s\"'#|>&*!{}\[\],`][^\s,{}\[\]]{0,200}+)(?=[ \t]*[,}]))",
        "escaped|double|single|plain|flow",
        hints=["pass", "secret", "token", "auth", "key"],
        hints_lower=True,
        hint_regex=after_secret_name(case_insensitive=False),
        accept=secret_field,
    ),
    _pattern(
        "secret-field",
        # A line of two columns split by tabs, a name like a secret's and one word, as
        # `mysql -e`'s output and other tables are. See tab_field.
        after_secret_name(case_insensitive=True, separator="\t") + r"[ \t]*" + _NOT_MARKER
        + r"(?P<tab>[^\s\"'#|>&*!{\[,`:]\S{0,200}+)(?=[ \t]*(?:\r?\n|\Z))",
        "tab",
        hints=["\t"],
        hint_regex=after_secret_name(case_insensitive=True, separator="\t"),
        accept=tab_field,
    ),
    _pattern(
        "netrc-password",
        # A `.netrc` entry's password: `machine HOST login USER password …`, on one line
        # or several; see _netrc_entry.
        r"(?<![\w-])password(?:[ \t]+|[ \t]*(?:\r?\n|(?:\\r)?\\n)[ \t]*)" + _NOT_MARKER + _NOT_STAND_IN
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


def hinted(pattern: Pattern, text: str, folded: Callable[[], str]) -> bool:
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
