"""What a process keeps from one build to the next: the transcript it read last, the
entries of the transcript pages it made from it, and the whole texts of long messages
it wrote.

A development server (`mkdocs serve`) builds the site again at every edit, in one
process, reading its configuration and its hook again each time. An edit of an essay
page leaves the transcript as it was, and with it what the last build found in it: its
index, its sealed lines and the messages it redacted; and, unless the edit changed which
messages are shown or where, the entries of its pages, which for a whole session are
most of a build's work, and the files of the whole texts, which the generator deletes
with the rest of the site before each build. The next build takes them from here rather
than make them again. This module stays imported between builds.
"""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from transcript.reader import FileVersion, file_version, load_transcript
from transcript.redact import RedactedTranscript, Redaction, Redactor
from transcript.schema import MessageSource
from transcriptsite.entries import PageEntries


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


Made = TypeVar("Made")


class LastMade(Generic[Made]):
    """What the last build made from a transcript, for as long as the build reads the same
    transcript (the very object `LastTranscript` kept) and makes it from the same `key`."""

    def __init__(self) -> None:
        self._kept: tuple[MessageSource, Hashable, Sequence[Made]] | None = None
        # Whether a later build of this process may take it: under a development server.
        # A single build lets go of what it has written instead, page by page.
        self.wanted = True

    def get(self, transcript: MessageSource, key: Hashable) -> Sequence[Made] | None:
        kept = self._kept
        return kept[2] if kept is not None and kept[0] is transcript and kept[1] == key else None

    def keep(self, transcript: MessageSource, key: Hashable, made: Sequence[Made]) -> None:
        self._kept = transcript, key, made

    def holds_any(self) -> bool:
        return self._kept is not None

    def forget(self) -> None:
        self._kept = None


class SetAside:
    """A folder of the built site that a build may take as the last one left it: moved
    out of the generator's way before it empties the site's folder (`set_aside`), and
    moved back (`take_back`) or removed (`drop`) once the build knows whether it can."""

    def __init__(self) -> None:
        self._holder: str | None = None  # a hidden folder in the site's, holding the one set aside

    def set_aside(self, folder: str, site_dir: str) -> None:
        """Move `folder`, if it is there, into a new hidden folder of `site_dir`, which
        MkDocs leaves alone when it empties the site's folder, as it never writes one."""
        self.drop()
        if not os.path.isdir(folder):
            return
        holder = None
        try:
            holder = tempfile.mkdtemp(prefix=".essay-site-set-aside-", dir=site_dir)
            os.rename(folder, os.path.join(holder, "folder"))
        except OSError:  # nothing is lost: the build makes the folder again
            if holder is not None:
                shutil.rmtree(holder, ignore_errors=True)
            return
        self._holder = holder

    def take_back(self, folder: str) -> bool:
        """Whether the folder set aside is `folder` again."""
        holder, self._holder = self._holder, None
        if holder is None:
            return False
        try:
            if os.path.lexists(folder):
                return False
            os.makedirs(os.path.dirname(folder), exist_ok=True)
            os.rename(os.path.join(holder, "folder"), folder)
            return True
        except OSError:
            return False
        finally:
            shutil.rmtree(holder, ignore_errors=True)

    def drop(self) -> None:
        holder, self._holder = self._holder, None
        if holder is not None:
            shutil.rmtree(holder, ignore_errors=True)


KEPT = LastTranscript()
# Each transcript page's entries, with what was redacted to make them.
KEPT_PAGES: LastMade[tuple[PageEntries, list[Redaction]]] = LastMade()
# The whole texts of long messages that the kept pages link to.
KEPT_TEXTS = SetAside()
atexit.register(KEPT_TEXTS.drop)
# The transcript's search index (transcriptsite.message_index), as the last build wrote it.
KEPT_INDEX = SetAside()
atexit.register(KEPT_INDEX.drop)
