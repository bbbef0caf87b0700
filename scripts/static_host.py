"""Serve a built site the way a static host does: files only, gzip for text types.

Used by the browser tests and the Lighthouse script, and runnable on its own:

    python scripts/static_host.py site/ --port 8000

A request for a folder serves its index.html; a missing file gets the site's 404.html
with status 404. Text responses are gzip-compressed when the client accepts gzip.
"""

from __future__ import annotations

import argparse
import contextlib
import email.utils
import gzip
import http.server
import mimetypes
import os
import posixpath
import threading
import urllib.parse
from pathlib import Path

COMPRESSED_TYPES = {
    "text/html", "text/css", "text/plain", "text/javascript", "application/javascript",
    "application/json", "application/xml", "text/xml", "image/svg+xml", "application/manifest+json",
}
TYPES = {
    ".html": "text/html", ".css": "text/css", ".js": "text/javascript", ".mjs": "text/javascript",
    ".json": "application/json", ".xml": "application/xml", ".svg": "image/svg+xml",
    ".txt": "text/plain", ".png": "image/png", ".ico": "image/x-icon", ".woff2": "font/woff2",
    ".webmanifest": "application/manifest+json", ".gz": "application/gzip",
}


class StaticHandler(http.server.BaseHTTPRequestHandler):
    server_version = "StaticHost"
    protocol_version = "HTTP/1.1"
    # Set on the subclass that StaticHost makes.
    root: Path
    extra_headers: dict  # sent with every response
    _gzip_cache: dict  # (path, mtime) -> compressed bytes

    def do_GET(self) -> None:
        self._respond(head_only=False)

    def do_HEAD(self) -> None:
        self._respond(head_only=True)

    def _respond(self, head_only: bool) -> None:
        path, status = self._resolve(urllib.parse.urlsplit(self.path).path)
        if path is None:
            if self._redirect_to_folder():
                return
            body = b"Not found"
            self._send(404, "text/plain", body, head_only, modified=None)
            return
        suffix = path.suffix.lower()
        content_type = TYPES.get(suffix) or mimetypes.guess_type(path.name)[0] or "application/octet-stream"
        if content_type.startswith("text/") or content_type.endswith(("javascript", "json", "xml")):
            content_type += "; charset=utf-8"
        stat = path.stat()
        body = path.read_bytes()
        encoding = None
        if content_type.split(";")[0] in COMPRESSED_TYPES and self._accepts_gzip():
            key = (str(path), stat.st_mtime_ns)
            if key not in self._gzip_cache:
                self._gzip_cache[key] = gzip.compress(body, compresslevel=6, mtime=0)
            body, encoding = self._gzip_cache[key], "gzip"
        self._send(status, content_type, body, head_only, modified=stat.st_mtime, encoding=encoding)

    def _resolve(self, url_path: str) -> tuple[Path | None, int]:
        """The file a URL path names (a folder's index.html), else the site's 404 page."""
        parts = [p for p in posixpath.normpath(urllib.parse.unquote(url_path)).split("/") if p not in ("", ".", "..")]
        candidate = self.root.joinpath(*parts)
        if url_path.endswith("/") and candidate.is_dir():
            candidate = candidate / "index.html"
        if candidate.is_file():
            return candidate, 200
        not_found = self.root / "404.html"
        if not (candidate.is_dir() and not url_path.endswith("/")) and not_found.is_file():
            return not_found, 404
        return None, 404

    def _redirect_to_folder(self) -> bool:
        """`/context` -> `/context/`, as static hosts do for a folder."""
        split = urllib.parse.urlsplit(self.path)
        parts = [p for p in urllib.parse.unquote(split.path).split("/") if p not in ("", ".", "..")]
        if not self.root.joinpath(*parts).is_dir():
            return False
        self.send_response(301)
        self.send_header("Location", urllib.parse.urlunsplit(("", "", split.path + "/", split.query, "")))
        self.send_header("Content-Length", "0")
        self.end_headers()
        return True

    def _accepts_gzip(self) -> bool:
        accepted = self.headers.get("Accept-Encoding", "")
        return any(part.split(";")[0].strip() == "gzip" and "q=0" not in part.replace(" ", "")
                   for part in accepted.split(","))

    def _send(self, status, content_type, body, head_only, modified, encoding=None) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Vary", "Accept-Encoding")
        self.send_header("Cache-Control", "no-cache")  # revalidate: tests always see the latest build
        if encoding:
            self.send_header("Content-Encoding", encoding)
        if modified is not None:
            self.send_header("Last-Modified", email.utils.formatdate(modified, usegmt=True))
        for name, value in self.extra_headers.items():
            self.send_header(name, value)
        self.end_headers()
        if not head_only:
            self.wfile.write(body)

    def log_message(self, format: str, *args) -> None:
        if isinstance(self.server, _Server) and self.server.verbose:
            super().log_message(format, *args)


class _Server(http.server.ThreadingHTTPServer):
    daemon_threads = True
    verbose = False  # whether each request is logged


class StaticHost:
    """A server on 127.0.0.1 (port 0: any free port); `url` ends with a slash. Use as a context manager."""

    def __init__(self, root: str | os.PathLike, port: int = 0, verbose: bool = False,
                 extra_headers: dict[str, str] | None = None):
        handler = type("Handler", (StaticHandler,), {
            "root": Path(root).resolve(), "extra_headers": dict(extra_headers or {}), "_gzip_cache": {}})
        self.httpd = _Server(("127.0.0.1", port), handler)
        self.httpd.verbose = verbose
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/"
        self._thread = threading.Thread(target=self.httpd.serve_forever, name="static-host", daemon=True)

    def start(self) -> StaticHost:
        self._thread.start()
        return self

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
        self._thread.join(timeout=5)

    def __enter__(self) -> StaticHost:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("root", help="the built site's folder")
    parser.add_argument("--port", type=int, default=8000)
    args = parser.parse_args()
    with StaticHost(args.root, args.port, verbose=True) as host:
        print(f"Serving {args.root} at {host.url} (Ctrl-C stops)", flush=True)
        with contextlib.suppress(KeyboardInterrupt):
            threading.Event().wait()


if __name__ == "__main__":
    main()
