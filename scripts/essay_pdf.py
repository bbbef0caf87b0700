#!/usr/bin/env python3
"""Print the essay to PDF with headless Chromium, from a built site.

The site is served over HTTP on 127.0.0.1 while Chromium prints (by scripts/static_host.py),
so that the page's relative links to styles and images load as they do on the web. Its
links to the server are then pointed at the site's public address (the page's canonical
link) and its Title, Author and DOI set from the page's metadata. The PDF is written to a
temporary file beside the output and renamed into place only when complete.

    python scripts/essay_pdf.py site -o essay.pdf [--page print/index.html]
"""

from __future__ import annotations

import argparse
import contextlib
import logging
import os
import shutil
import signal
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path, PurePosixPath
from urllib.parse import quote

from pypdf import PdfWriter
from pypdf.errors import PyPdfError
from pypdf.generic import NameObject, TextStringObject

from sitebuild.files import replaced_when_done
from static_host import StaticHost

# pypdf logs what it repairs in a damaged PDF; a PDF it cannot read is reported as one line instead.
logging.getLogger("pypdf").setLevel(logging.CRITICAL)

CHROMIUM = "/usr/bin/chromium"
DEFAULT_PAGE = "print/index.html"
DEFAULT_TIMEOUT = 120.0
DOI_URL = "https://doi.org/"  # the address of a DOI at its resolver, as the site links it


class PdfError(Exception):
    """A failure to report as one line, without a traceback."""


def page_in_site(site: Path, page: str) -> str:
    """The page's path in the site, as a URL path; a folder stands for its index.html."""
    path = PurePosixPath(page.replace(os.sep, "/"))
    if path.is_absolute() or ".." in path.parts:
        raise PdfError(f"--page must be a path inside the site folder, such as {DEFAULT_PAGE}: {page}")
    if page.endswith("/") or (site / path).is_dir():
        path = path / "index.html"
    if not (site / path).is_file():
        raise PdfError(f"page not found: {site / path} (is the site built, and does it have this page?)")
    return str(path)


def chromium_command(chromium: str, profile: str, pdf: str, url: str) -> list[str]:
    return [
        chromium,
        "--headless",
        "--no-sandbox",  # Chromium refuses to start its sandbox as root, as in CI
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        f"--user-data-dir={profile}",
        # Leave out the date, title, URL and page numbers that Chromium prints in the
        # margins. (The older name, --print-to-pdf-no-header, is ignored by current versions.)
        "--no-pdf-header-footer",
        # Bookmarks: the PDF's outline, from the page's headings (the sections, the
        # appendix and each message in it).
        "--generate-pdf-document-outline",
        f"--print-to-pdf={pdf}",
        url,
    ]


def run_chromium(command: list[str], timeout: float, verbose: bool) -> None:
    # Its own process group, so that a timeout ends the renderer processes too.
    output = None if verbose else subprocess.DEVNULL
    process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=output, stderr=output,
                               start_new_session=True)
    try:
        status = process.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        raise PdfError(f"Chromium did not finish within {timeout:g} s; try a longer --timeout") from None
    finally:
        _end_group(process)
    if status != 0:
        how = f"was ended by signal {-status}" if status < 0 else f"failed with exit status {status}"
        raise PdfError(f"Chromium {how}; run again with --verbose to see its output")


def _end_group(process: subprocess.Popen) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):  # the group has already ended
        os.killpg(process.pid, signal.SIGKILL)
    process.wait()


def print_to_pdf(site: Path, output: Path, page: str = DEFAULT_PAGE, chromium: str = CHROMIUM,
                 timeout: float = DEFAULT_TIMEOUT, verbose: bool = False) -> int:
    """Print one page of the built site to `output`; return the PDF's size in bytes."""
    if not site.is_dir():
        raise PdfError(f"site folder not found: {site} (build it first: mkdocs build)")
    page = page_in_site(site, page)
    program = shutil.which(chromium)
    if not program:
        raise PdfError(f"Chromium not found at {chromium}: install it with apt-get install chromium")
    if not output.parent.is_dir():
        raise PdfError(f"output folder not found: {output.parent}")

    try:
        with replaced_when_done(output) as partial:
            with tempfile.TemporaryDirectory(prefix="essay-pdf-profile-") as profile, StaticHost(site) as server:
                run_chromium(chromium_command(program, profile, partial, server.url + quote(page)), timeout, verbose)
            with open(partial, "rb") as pdf:
                if pdf.read(5) != b"%PDF-":
                    raise PdfError("Chromium finished without writing a PDF; "
                                   "run again with --verbose to see its output")
            try:
                finish_pdf(partial, server.url, PrintedPage.read(site / page, page))
            except PyPdfError as error:
                raise PdfError(f"Chromium wrote a PDF that cannot be read ({error}); "
                               "run again with --verbose") from None
            size = os.path.getsize(partial)
    except OSError as error:
        raise PdfError(f"cannot write {output}: {error.strerror}") from None
    return size


@dataclass
class PrintedPage:
    """What the printed page says of itself: the site's public address (from its
    canonical link), its title (Open Graph's), its authors (`<meta name="author">`,
    which the theme writes from the page's `author`, or else from site_author) and the
    essay's DOI (from `<link rel="cite-as">` to the DOI's address)."""

    site_url: str | None = None
    title: str | None = None
    authors: list[str] = field(default_factory=list)
    doi: str | None = None

    @classmethod
    def read(cls, path: Path, page: str) -> PrintedPage:
        found = cls()
        reader = _HeadReader(found)
        reader.feed(path.read_text(encoding="utf-8"))
        # The canonical address of print/index.html is the site's address followed by print/.
        own_path = page.removesuffix("index.html")
        if found.site_url and not found.site_url.endswith(own_path):
            found.site_url = None
        elif found.site_url:
            found.site_url = found.site_url[: len(found.site_url) - len(own_path)]
        return found


class _HeadReader(HTMLParser):
    def __init__(self, page: PrintedPage):
        super().__init__()
        self.page = page

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        if tag == "link" and attributes.get("rel") == "canonical":
            self.page.site_url = attributes.get("href")
        elif tag == "link" and attributes.get("rel") == "cite-as":
            href = attributes.get("href") or ""
            if href.startswith(DOI_URL):
                self.page.doi = href[len(DOI_URL):]
        elif tag == "meta" and attributes.get("property") == "og:title":
            self.page.title = attributes.get("content")
        elif tag == "meta" and attributes.get("name") == "author" and attributes.get("content"):
            self.page.authors.append(attributes["content"])


def finish_pdf(path: str, served_at: str, page: PrintedPage) -> None:
    """Make the PDF fit to keep: every link to the temporary server that printed it
    points at the site's public address instead, and its Title and Author are the
    essay's. Links within the page stay jumps within the PDF."""
    writer = PdfWriter(clone_from=path)
    if page.site_url:
        for sheet in writer.pages:
            for annotation in sheet.get("/Annots") or []:
                action = annotation.get_object().get("/A")
                uri = str(action.get("/URI", "")) if action else ""
                if uri.startswith(served_at):
                    action[NameObject("/URI")] = TextStringObject(page.site_url + uri[len(served_at):])
    metadata = {"/Title": page.title} if page.title else {}
    if page.authors:
        metadata["/Author"] = "; ".join(page.authors)
    if page.doi:  # a key of its own, and in the keywords that readers show
        metadata["/DOI"] = page.doi
        metadata["/Keywords"] = f"doi:{page.doi}"
    writer.add_metadata(metadata)
    writer.write(path)


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = 0.0
    if not value > 0:  # also refuses nan
        raise argparse.ArgumentTypeError(f"expected a number of seconds above 0, got {text!r}")
    return value


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="Print the essay's one-page view from a built site to PDF with headless Chromium.")
    parser.add_argument("site", metavar="SITE_DIR", type=Path, help="the built site folder (mkdocs build)")
    parser.add_argument("-o", "--output", type=Path, default=Path("essay.pdf"),
                        help="the PDF to write (default: essay.pdf)")
    parser.add_argument("--page", default=DEFAULT_PAGE,
                        help=f"the page to print, relative to SITE_DIR (default: {DEFAULT_PAGE})")
    parser.add_argument("--chromium", default=CHROMIUM, help=f"the Chromium program (default: {CHROMIUM})")
    parser.add_argument("--timeout", type=_seconds, default=DEFAULT_TIMEOUT,
                        help=f"seconds to wait for Chromium (default: {DEFAULT_TIMEOUT:g})")
    parser.add_argument("--verbose", action="store_true", help="show Chromium's own output")
    args = parser.parse_args(argv)
    try:
        size = print_to_pdf(args.site, args.output, args.page, args.chromium, args.timeout, args.verbose)
    except PdfError as error:
        print(f"essay_pdf: {error}", file=sys.stderr)
        return 1
    except OSError as error:  # such as an output folder that cannot be written to
        print(f"essay_pdf: {error}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("essay_pdf: interrupted", file=sys.stderr)
        return 130
    print(f"wrote {args.output} ({size:,} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
