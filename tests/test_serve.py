"""`mkdocs serve` rebuilds when the transcript changes, and only then parses it again."""

import json
import os
import queue
import socket
import subprocess
import sys
import threading
import time
import urllib.request

import pytest


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    def __init__(self, project):
        self.port = free_port()
        self.process = subprocess.Popen(
            [sys.executable, "-m", "mkdocs", "serve", "--verbose", "-a", f"127.0.0.1:{self.port}"],
            cwd=project, env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
        )
        self.lines = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.process.stderr:
            self.lines.put(line)

    def wait_for_log(self, text: str, timeout: float = 60) -> list[str]:
        """Log lines up to the first that contains `text`."""
        seen, deadline = [], time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                seen.append(self.lines.get(timeout=0.5))
            except queue.Empty:
                continue
            if text in seen[-1]:
                return seen
        raise AssertionError(f"no {text!r} in the log:\n" + "".join(seen))

    def get(self, path: str) -> str:
        with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/{path}", timeout=10) as response:
            return response.read().decode()

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=20)


@pytest.fixture
def server(project):
    running = Server(project)
    yield running
    running.stop()


def test_serve_rebuilds_when_the_transcript_changes(project, server):
    server.wait_for_log("Serving on")
    assert "sm120 instructions." in server.get("transcript/")

    page = project / "docs" / "conclusion.md"
    page.write_text(page.read_text() + "\n")
    log = server.wait_for_log("unchanged since the last build; not parsed again")
    assert not any("Parsed transcript" in line for line in log)

    transcript = project / "docs" / "transcript.jsonl"
    records = [json.loads(line) for line in transcript.read_text().splitlines()]
    records[2]["text"] = "an edited gist link"
    transcript.write_text("".join(json.dumps(r) + "\n" for r in records))
    server.wait_for_log("Parsed transcript docs/transcript.jsonl: 7 messages")
    server.wait_for_log("Reloading browsers")
    assert "an edited gist link" in server.get("transcript/")


def test_serve_watches_a_transcript_outside_the_docs_folder(project):
    (project / "data").mkdir()
    transcript = project / "data" / "transcript.jsonl"
    (project / "docs" / "transcript.jsonl").rename(transcript)
    config = project / "mkdocs.yml"
    config.write_text(config.read_text().replace("source: docs/transcript.jsonl", "source: data/transcript.jsonl"))
    server = Server(project)
    try:
        server.wait_for_log("Serving on")
        records = [json.loads(line) for line in transcript.read_text().splitlines()]
        records[2]["text"] = "an edited gist link"
        transcript.write_text("".join(json.dumps(r) + "\n" for r in records))
        server.wait_for_log("Parsed transcript data/transcript.jsonl: 7 messages")
        server.wait_for_log("Reloading browsers")
        assert "an edited gist link" in server.get("transcript/")
        # Replaced as the importer writes it: a new file renamed over the old one.
        records[2]["text"] = "a replaced gist link"
        replacement = project / "data" / ".transcript.jsonl.part"
        replacement.write_text("".join(json.dumps(r) + "\n" for r in records))
        os.replace(replacement, transcript)
        server.wait_for_log("Parsed transcript data/transcript.jsonl: 7 messages")
        server.wait_for_log("Reloading browsers")
        assert "a replaced gist link" in server.get("transcript/")
    finally:
        server.stop()
