"""Secret redaction for transcript messages.

Each secret found in a string is replaced by `[REDACTED: kind]`; the text around it
(an assignment's name, a URL's user and host, the word `Bearer`) is kept. The same
redaction runs when a log is imported and again when the site is built, so it must
leave its own output unchanged: no pattern matches a `[REDACTED: ...]` marker.

The patterns are the project's own (transcript.secret_patterns), written for what session
logs hold (keys split between fields, passwords on command lines, JSON escaped inside
text); a maintained rule set, Betterleaks', is asked after them (transcript.second_opinion).
Plain Python: nothing here imports MkDocs or Markdown.
"""

from __future__ import annotations

import functools
import hashlib
import json
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any

import regex as regex_module

from . import disguise, second_opinion, secret_names, secret_patterns
from .reader import IndexedTranscript, MessageFlags, TranscriptError
from .schema import LOG_TEXT_FIELDS, MAX_NESTING, Message, MessageSource
from .secret_names import secret_literal, secret_name
from .secret_patterns import (
    BUILTIN_PATTERNS,
    MARKER,
    Pattern,
    PatternTimeout,
    base64_texts,
    compile_flags,
    compiled,
    compiled_timed,
    hinted,
)

# The code that decides what is redacted, part of every redactor's fingerprint: any
# change to it, a pattern's or a function's, gives transcripts sealed under the old code
# a seal the build does not trust, and they are redacted again.
_RULES_MODULES = (secret_names, secret_patterns, disguise, second_opinion)
RULES_CODE = (Path(__file__), *(Path(module.__file__ or "") for module in _RULES_MODULES), second_opinion.CONFIG)

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
            checked = compiled(regex)  # re.error tells the caller what is wrong
            try:
                compiled_timed(regex)
            except regex_module.error as error:
                raise re.error(str(error)) from None
            group = "secret" if "secret" in checked.groupindex else 0
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
            if not hinted(pattern, text, folded):
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
        return any(hinted(pattern, text, folded) for pattern in self.patterns) \
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
        """`text` with each secret that its plain view (see transcript.disguise) shows replaced,
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
            if not hinted(pattern, window, folded):
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
    checked as its line is read (see transcript.seal), is clean without a look: the importer
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

    @property
    def unredacted(self) -> MessageSource:
        """The messages as the file holds them: for what compares their fields and shows
        none of them (which message is a call's, by its id), at a tenth of the cost."""
        return self._transcript

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
