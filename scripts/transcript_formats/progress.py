"""A progress bar on the terminal, for logs large enough to take a while."""

from __future__ import annotations

import sys
import time

SHOW_FROM_BYTES = 4 * 1024 * 1024
_EVERY_SECONDS = 0.2
_WIDTH = 30


class Progress:
    """Shown only when `stream` is a terminal and the log is at least SHOW_FROM_BYTES."""

    def __init__(self, total_bytes: int, label: str, stream=None, show_from: int = SHOW_FROM_BYTES):
        self.stream = stream if stream is not None else sys.stderr
        self.total = max(total_bytes, 1)
        self.label = label
        isatty = getattr(self.stream, "isatty", None)
        self.enabled = bool(isatty and isatty()) and total_bytes >= show_from
        self._next = 0.0
        self._shown = False

    def due(self) -> bool:
        return self.enabled and time.monotonic() >= self._next

    def show(self, done_bytes: int, messages: int) -> None:
        self._next = time.monotonic() + _EVERY_SECONDS
        fraction = min(done_bytes / self.total, 1.0)
        filled = int(fraction * _WIDTH)
        bar = "#" * filled + "-" * (_WIDTH - filled)
        self.stream.write(
            f"\r{self.label} [{bar}] {fraction:4.0%} "
            f"{done_bytes / 1e6:.1f}/{self.total / 1e6:.1f} MB, {messages} messages"
        )
        self.stream.flush()
        self._shown = True

    def close(self, done_bytes: int, messages: int) -> None:
        if self._shown:
            self.show(done_bytes, messages)
            self.stream.write("\n")
            self.stream.flush()

    def abandon(self) -> None:
        """End the bar's line, so that an error message starts on a line of its own."""
        if self._shown:
            self.stream.write("\n")
            self.stream.flush()
