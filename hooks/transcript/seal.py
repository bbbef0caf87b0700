"""The redaction seal: a transcript line's proof that it was redacted when it was imported.

The importer ends each line it redacted with `,"redaction_seal":"<hex>"}`, where the hex
is a digest of the redactor's fingerprint (its rules, see `Redactor.fingerprint`) and of
the line's bytes without that field. A build whose redactor has the same fingerprint
finds, from the line's bytes alone, that it holds nothing to redact: the line is what
the importer wrote under the same rules. A line edited since, or sealed under other
rules, does not match and is redacted as any other.

The seal is no signature: anyone who can edit the transcript can seal a line. It keeps
a build from trusting a line changed by hand or redacted under other rules, not from
trusting the person who writes the transcript.
"""

from __future__ import annotations

import hashlib
import hmac

FIELD = "redaction_seal"
_DIGEST_BYTES = 16
_OPENING = b',"' + FIELD.encode() + b'":"'
_CLOSING = b'"}'
_TAIL = len(_OPENING) + 2 * _DIGEST_BYTES + len(_CLOSING)


def seal_of(fingerprint: bytes, body: bytes) -> str:
    """The seal of a line whose JSON object, without the seal, is `body` (no newline)."""
    return hashlib.blake2b(fingerprint + b"\0" + body, digest_size=_DIGEST_BYTES).hexdigest()


def sealed(fingerprint: bytes, line: str) -> str:
    """A line (one JSON object, no newline) with its seal added as its last field."""
    body = line.encode("utf-8")
    return line[:-1] + _OPENING.decode() + seal_of(fingerprint, body) + _CLOSING.decode()


class SealCheck:
    """Tells whether raw transcript lines carry a seal made with one fingerprint."""

    def __init__(self, fingerprint: bytes):
        self._start = hashlib.blake2b(fingerprint + b"\0", digest_size=_DIGEST_BYTES)

    def matches(self, raw: bytes) -> bool:
        end = len(raw)
        if raw.endswith(b"\n"):
            end -= 2 if raw.endswith(b"\r\n") else 1
        start = end - _TAIL
        if start < 1 or raw[start : start + len(_OPENING)] != _OPENING or raw[end - 2 : end] != _CLOSING:
            return False
        digest = self._start.copy()
        view = memoryview(raw)
        digest.update(view[:start])
        digest.update(b"}")
        return hmac.compare_digest(digest.hexdigest().encode(), raw[start + len(_OPENING) : end - 2])
