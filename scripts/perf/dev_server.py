"""A real `mkdocs serve --verbose` on a free local port, its log read line by line: for
the benchmark's serve rebuilds and the tests of the development server."""

from __future__ import annotations

import os
import queue
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import IO

ENV = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}  # without Material's banner about MkDocs 2


class ServerError(Exception):
    """A server that did not log what was waited for."""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """`mkdocs serve` of the project in `project`, started at once, with the environment
    `env` (by default ENV); `stop` ends it."""

    def __init__(self, project: Path, env: dict[str, str] | None = None):
        self.port = free_port()
        self.process = subprocess.Popen(
            [sys.executable, "-m", "mkdocs", "serve", "--verbose", "-a", f"127.0.0.1:{self.port}"],
            cwd=project, env=env or ENV, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
        )
        log = self.process.stderr
        assert log is not None  # stderr=PIPE
        self.lines: queue.Queue[str] = queue.Queue()
        threading.Thread(target=self._read, args=(log,), daemon=True).start()

    def _read(self, log: IO[str]) -> None:
        for line in log:
            self.lines.put(line)

    def wait_for(self, text: str, timeout: float = 60) -> list[str]:
        """The lines logged, up to the first that contains `text`; ServerError if none
        does within `timeout` seconds or the server ends first."""
        seen: list[str] = []
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                seen.append(self.lines.get(timeout=0.2))
            except queue.Empty:
                if self.process.poll() is not None:
                    break
                continue
            if text in seen[-1]:
                return seen
        ended = "" if self.process.poll() is None else f" (it ended with status {self.process.returncode})"
        raise ServerError(f"mkdocs serve logged no {text!r}{ended}:\n" + "".join(seen[-40:]))

    def drain(self) -> list[str]:
        """The lines logged so far and not yet read."""
        lines = []
        while not self.lines.empty():
            lines.append(self.lines.get())
        return lines

    def stop(self) -> None:
        """End the server as a person does, with Ctrl-C: MkDocs then removes the temporary
        folder it built the site in, which it leaves behind when terminated."""
        self.process.send_signal(signal.SIGINT)
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
