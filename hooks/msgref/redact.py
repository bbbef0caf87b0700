"""Secret redaction for transcript messages.

Each secret found in a string is replaced by `[REDACTED: kind]`; the text around it
(an assignment's name, a URL's user and host, the word `Bearer`) is kept. The same
redaction runs when a log is imported and again when the site is built, so it must
leave its own output unchanged: no pattern matches a `[REDACTED: ...]` marker.

The patterns are written here rather than taken from a secret-scanning library:
detect-secrets, the widely used Python scanner, reports secret values line by line
without their positions, has no pattern for Anthropic, Hugging Face or Google keys,
Bearer tokens or `github_pat_` tokens, matches only the first line of a private key,
and only the older form of OpenAI keys; what it would cover is a handful of one-line
patterns. Plain Python only: nothing here imports MkDocs or Markdown.
"""

from __future__ import annotations

import functools
import hashlib
import json
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, replace
from typing import Any

from .schema import LOG_TEXT_FIELDS, MAX_NESTING, Message, MessageSource
from .transcript import IndexedTranscript

MARKER = "[REDACTED: {kind}]"
# Part of every redactor's fingerprint: raise it whenever a change to the code below
# (not to a pattern or the allow list, which the fingerprint covers) changes what is
# redacted, so that transcripts sealed by an older importer are redacted again.
RULES_VERSION = 1

# Characters that may stand right before a key's prefix; a letter, digit, `_` or `-`
# there means the prefix is part of a longer word ("task-", "disk-").
_START = r"(?<![A-Za-z0-9_-])"
_NOT_MARKER = r"(?!\[REDACTED)"


@dataclass(frozen=True)
class Pattern:
    kind: str
    regex: re.Pattern[str]
    # The group holding the secret; 0 is the whole match. Text outside it is kept.
    group: int | str = 0
    # Strings of which one must be in the text (in case-folded text if `hints_lower`)
    # for the pattern to be tried: a substring test is far faster than a regex search.
    hints: tuple[str, ...] = ()
    hints_lower: bool = False
    # A simpler regular expression that must match the text, tested like the hints,
    # for a pattern whose hints are common words.
    hint_regex: re.Pattern[str] | None = None


def _pattern(kind: str, regex: str, group: int | str = 0, hints: Iterable[str] = (), hints_lower: bool = False,
             hint_regex: str | None = None) -> Pattern:
    return Pattern(kind, re.compile(regex), group, tuple(hints), hints_lower,
                   re.compile(hint_regex) if hint_regex else None)


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
    _pattern("anthropic-key", _START + r"sk-ant-[A-Za-z0-9_-]{20,}", hints=["sk-ant-"]),
    _pattern(
        "openai-key",
        # Project, service-account and admin keys carry `-` and `_`; a bare `sk-` key
        # must start with 20 characters without `-`, which kebab-case words rarely do.
        _START + r"sk-(?:(?:proj|svcacct|admin)-[A-Za-z0-9_-]{20,}|[A-Za-z0-9_]{20,}[A-Za-z0-9_-]*)",
        hints=["sk-"],
    ),
    _pattern("huggingface-token", r"(?<![A-Za-z0-9_])hf_[A-Za-z0-9]{30,}", hints=["hf_"]),
    _pattern(
        "github-token",
        r"(?<![A-Za-z0-9_])(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{22,})",
        hints=["ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"],
    ),
    _pattern(
        "aws-access-key",
        r"(?<![A-Za-z0-9])(?:AKIA|ASIA|ABIA|ACCA|A3T[A-Z0-9])[A-Z0-9]{16}(?![A-Za-z0-9])",
        hints=["AKIA", "ASIA", "ABIA", "ACCA", "A3T"],
    ),
    _pattern("slack-token", r"(?<![A-Za-z0-9])xox[abposr]-[A-Za-z0-9-]{10,}", hints=["xox"]),
    _pattern("google-api-key", _START + r"AIza[A-Za-z0-9_-]{30,}", hints=["AIza"]),
    _pattern("jwt", _START + r"eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*", hints=["eyJ"]),
    _pattern(
        "url-password",
        # scheme://user:password@host keeps the user and the host.
        r"://[^\s:/?#@\[\]\"'<>]*:" + _NOT_MARKER + r"(?P<secret>[^\s/?#@\"'<>]+)@",
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
        "secret-assignment",
        # NAME_KEY=, NAME_TOKEN=, NAME_SECRET=, PASSWORD= (any case, `-` or `_`), in
        # shell, env files, code and command-line flags: the word starts the name or
        # follows `_` or `-`. The value is left alone when it is code rather than a
        # literal: a variable, a template, a call, an index or None.
        r"(?:(?<=[_-])|(?<![A-Za-z0-9]))(?i:key|token|secret|password|passwd|passphrase)"
        r"\s*=(?!=)\s*"
        r"(?:\"" + _NOT_MARKER + r"(?P<double>[^\"\n]+)\"|'" + _NOT_MARKER + r"(?P<single>[^'\n]+)'"
        r"|" + _NOT_MARKER + r"(?![$%{<]|(?:None|null|true|false|True|False)\b)"
        # The look-ahead takes the whole bare word at once, so that backtracking
        # cannot shorten `os.environ[...]` until the call or index check passes.
        r"(?=(?P<bare>[^\s\"'&;,()\[\]{}<>`]+))(?P=bare)(?![(\[]))",
        "double|single|bare",
        hints=["key", "token", "secret", "pass"],
        hints_lower=True,
        # Words such as "token" fill logs; an assignment to one is much rarer. A
        # case-insensitive search is several times slower than this one in folded text.
        hint_regex=r"(?:key|token|secret|password|passwd|passphrase)\s*=",
    ),
)

KINDS = tuple(pattern.kind for pattern in BUILTIN_PATTERNS)


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
            compiled = re.compile(regex)  # re.error tells the caller what is wrong
            group = "secret" if "secret" in compiled.groupindex else 0
            extra.append(Pattern(kind, compiled, group))
        self.patterns: tuple[Pattern, ...] = (*BUILTIN_PATTERNS, *extra)
        self.allow = frozenset(allow)
        # Two redactors with the same rules redact alike, and have the same fingerprint.
        self.fingerprint = _fingerprint(self.patterns, self.allow)

    def redact_text(self, text: str) -> tuple[str, list[str]]:
        """The text with each secret replaced, and one kind for each replacement."""
        kinds: list[str] = []
        folded = functools.cache(text.casefold)
        for pattern in self.patterns:
            if not _hinted(pattern, text, folded) or pattern.regex.search(text) is None:
                continue
            text = pattern.regex.sub(functools.partial(self._replace, pattern=pattern, kinds=kinds), text)
            folded = functools.cache(text.casefold)
        return text, kinds

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
        folded = functools.cache(text.casefold)
        return any(_hinted(pattern, text, folded) for pattern in self.patterns)

    def redact_value(self, value: Any) -> tuple[Any, list[str]]:
        """Redact every string inside a JSON-like value, the keys of its objects too.
        A value nested deeper than MAX_NESTING levels is refused with NestingError."""
        kinds: list[str] = []
        return self._redact(value, kinds, 0), kinds

    def _redact(self, value: Any, kinds: list[str], depth: int) -> Any:
        if isinstance(value, str):
            text, found = self.redact_text(value)
            kinds.extend(found)
            return text
        if isinstance(value, (dict, list, tuple)) and depth >= MAX_NESTING:
            raise NestingError(f"nests deeper than {MAX_NESTING} levels, the most a message may hold")
        if isinstance(value, dict):
            redacted: dict[Any, Any] = {}
            for key, item in value.items():
                key = marked = self._redact(key, kinds, depth)
                copy = 1
                while key in redacted:  # two secrets redacted to the same marker stay two keys
                    copy += 1
                    key = f"{marked} #{copy}"
                redacted[key] = self._redact(item, kinds, depth + 1)
            return redacted
        if isinstance(value, (list, tuple)):
            return [self._redact(item, kinds, depth + 1) for item in value]
        return value

    def _replace(self, match: re.Match[str], pattern: Pattern, kinds: list[str]) -> str:
        start, end = _secret_span(match, pattern.group)
        secret = match.string[start:end]
        if not secret or secret in self.allow:
            return match.group(0)
        kinds.append(pattern.kind)
        whole_start = match.start()
        return (
            match.string[whole_start:start]
            + MARKER.format(kind=pattern.kind)
            + match.string[end : match.end()]
        )


def _fingerprint(patterns: tuple[Pattern, ...], allow: frozenset[str]) -> bytes:
    """A digest of everything that decides what is redacted: equal for equal rules, and
    changed by any change to a pattern (its hints too), its order or the allow list."""
    rules = [RULES_VERSION, [
        [p.kind, p.regex.pattern, p.regex.flags, p.group, list(p.hints), p.hints_lower,
         p.hint_regex.pattern if p.hint_regex else None]
        for p in patterns
    ], sorted(allow)]
    # JSON with every string escaped to ASCII: one unambiguous text for any rules.
    return hashlib.blake2b(json.dumps(rules).encode("ascii"), digest_size=32).digest()


def _hinted(pattern: Pattern, text: str, folded: Callable[[], str]) -> bool:
    """Whether `text` holds what `pattern` needs to match (its hints), as far as a test
    far quicker than its search can tell; `folded()` is the text case-folded. casefold,
    unlike lower, maps every letter that the patterns' (?i) matches as one of their
    hints' letters, such as the Kelvin sign."""
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
            strings.extend(key for key in value if isinstance(key, str))
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
    found clean is remembered by its number alone, and a redacted one is kept: memory
    grows with the number of messages that hold secrets, not with the transcript.
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
        self._clean: set[int] = set()
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
        if not self._redactor.may_hold_secret(*(getattr(message, name) for name in LOG_TEXT_FIELDS)):
            self._clean.add(n)
            return message
        redacted, kinds = {}, []
        for name in LOG_TEXT_FIELDS:
            redacted[name], found = self._redactor.redact_value(getattr(message, name))
            kinds += found
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
