"""What a process keeps from one build to the next: the transcript it read last.

A development server (`mkdocs serve`) builds the site again at every edit, in one
process, reading its configuration and its hook again each time. An edit of an essay
page leaves the transcript as it was, and with it what the last build found in it: its
index, its sealed lines and the messages it redacted. The next build takes them from
here rather than read the file again. This module stays imported between builds.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from msgref.redact import RedactedTranscript, Redactor
from msgref.schema import MessageSource
from msgref.transcript import FileVersion, file_version, load_transcript


@dataclass(frozen=True)
class _Read:
    path: str
    display_path: str
    version: FileVersion
    rules: bytes | None  # the redactor's fingerprint; None without redaction


class LastTranscript:
    """The transcript read last, as the site shows it, for as long as the file and the
    redaction rules stay the same."""

    def __init__(self) -> None:
        self._kept: tuple[_Read, MessageSource] | None = None

    def read(self, path: str, display_path: str, redactor: Redactor | None,
             on_redact: Callable[[int, list[str]], None]) -> tuple[MessageSource, bool]:
        """The transcript at `path`, redacted by `redactor` if given (each redacted message
        told to `on_redact(n, kinds)` once), and whether it was kept from the last build.
        TranscriptError names the file, and the line where there is one."""
        rules = redactor.fingerprint if redactor else None
        key = _Read(path, display_path, file_version(path, display_path), rules)
        if self._kept is not None and self._kept[0] == key:
            return self._kept[1], True
        # Lines the importer sealed under the same rules are found as the file is read,
        # and not redacted again.
        transcript: MessageSource = load_transcript(path, display_path, seal_key=rules)
        if redactor is not None:
            transcript = RedactedTranscript(transcript, redactor, on_redact)
        self._kept = key, transcript
        return transcript, False


KEPT = LastTranscript()
