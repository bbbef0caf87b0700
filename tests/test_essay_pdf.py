"""scripts/essay_pdf.py: a built page printed to PDF by headless Chromium, read back
with pdftotext; and its one-line errors, checked with stand-in Chromium programs."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from pypdf import PdfReader

from conftest import ROOT, found
from essay_pdf import PdfError, page_in_site

SCRIPT = ROOT / "scripts" / "essay_pdf.py"
CHROMIUM = Path("/usr/bin/chromium")
TITLE = "The Silence That Speaks: An Empty Message in an AI-Assisted Coding Session"
CITATION = (f"{TITLE}. 1st ed., 2 Dec. 2026, http://127.0.0.1:8000/.")
OPENING = ("In the middle of a complex, multi-hour coding session deploying large language models on a "
           "cluster of 8× NVIDIA RTX PRO 6000 Blackwell GPUs, a curious artifact appears: a completely "
           "empty message from the user. At index 5855 in the conversation, the user simply sends "
           "nothing — a blank line, a message with zero content.")
UNSTYLED = "Shown only when the stylesheet fails to load"

needs_chromium = pytest.mark.skipif(
    not (CHROMIUM.is_file() and shutil.which("pdftotext")),
    reason="needs /usr/bin/chromium and pdftotext: apt-get install chromium poppler-utils",
)


@pytest.fixture
def site(tmp_path) -> Path:
    """A one-page print view with a citation block, a paragraph, and a relative stylesheet."""
    folder = tmp_path / "site"
    (folder / "assets").mkdir(parents=True)
    (folder / "print").mkdir()
    (folder / "assets" / "print.css").write_text(".needs-css { display: none; }\n", encoding="utf-8")
    (folder / "print" / "index.html").write_text(f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{TITLE}</title>
<link rel="stylesheet" href="../assets/print.css"></head>
<body>
<h1>{TITLE}</h1>
<aside class="citation"><p>Cite as: {CITATION}</p></aside>
<p class="needs-css">{UNSTYLED}</p>
<h2>Introduction</h2>
<p>{OPENING}</p>
<p style="break-before: page">The second page.</p>
</body></html>
""", encoding="utf-8")
    return folder


def run(*args: str | Path, env: dict | None = None, timeout: int = 180) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(SCRIPT), *map(str, args)], capture_output=True, text=True,
                          timeout=timeout, env={**os.environ, **(env or {})})


def pdf_text(pdf: Path, *pages: str) -> str:
    result = subprocess.run(["pdftotext", *pages, str(pdf), "-"], capture_output=True, text=True, check=True)
    return " ".join(result.stdout.split())


def assert_one_line_error(result: subprocess.CompletedProcess, *phrases: str) -> None:
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    for phrase in phrases:
        assert phrase in result.stderr


def leftovers(folder: Path) -> list[str]:
    return [path.name for path in folder.iterdir() if path.name.endswith(".part")]


@needs_chromium
def test_prints_the_title_citation_and_opening_paragraph(site, tmp_path):
    output = tmp_path / "out" / "essay.pdf"
    output.parent.mkdir()
    result = run(site, "-o", output, "--page", "print/index.html")
    assert result.returncode == 0, result.stderr
    assert f"wrote {output}" in result.stdout
    assert output.read_bytes().startswith(b"%PDF-")
    first_page = pdf_text(output, "-f", "1", "-l", "1")
    assert TITLE in first_page
    assert CITATION in first_page
    assert OPENING in first_page
    everything = pdf_text(output)
    assert "The second page." in everything and "The second page." not in first_page
    assert UNSTYLED not in everything  # the stylesheet loaded over HTTP
    assert "127.0.0.1:" not in everything.replace("http://127.0.0.1:8000/", "")  # no URL in the margins
    assert leftovers(output.parent) == []


@needs_chromium
def test_the_default_page_and_output(site, tmp_path):
    result = subprocess.run([sys.executable, str(SCRIPT), str(site)], cwd=tmp_path, capture_output=True,
                            text=True, timeout=180)
    assert result.returncode == 0, result.stderr
    assert TITLE in pdf_text(tmp_path / "essay.pdf")


def test_help():
    result = run("--help")
    assert result.returncode == 0
    assert "SITE_DIR" in result.stdout and "--page" in result.stdout


def test_missing_site_folder(tmp_path):
    assert_one_line_error(run(tmp_path / "nowhere", "-o", tmp_path / "essay.pdf"), "site folder not found")
    assert not (tmp_path / "essay.pdf").exists()


def test_missing_page(site, tmp_path):
    result = run(site, "-o", tmp_path / "essay.pdf", "--page", "print/missing.html")
    assert_one_line_error(result, "page not found", "print/missing.html")


def test_missing_chromium(site, tmp_path):
    result = run(site, "-o", tmp_path / "essay.pdf", "--chromium", tmp_path / "no-chromium")
    assert_one_line_error(result, "Chromium not found", "install it with apt-get install chromium")


def test_missing_output_folder(site, tmp_path):
    assert_one_line_error(run(site, "-o", tmp_path / "no" / "essay.pdf"), "output folder not found")


def stand_in(tmp_path: Path, body: str) -> Path:
    program = tmp_path / "fake-chromium"
    program.write_text(f"#!/bin/sh\n{body}\n", encoding="utf-8")
    program.chmod(0o755)
    return program


def test_chromium_that_fails_keeps_the_old_pdf(site, tmp_path):
    output = tmp_path / "essay.pdf"
    output.write_bytes(b"%PDF- the previous one")
    result = run(site, "-o", output, "--chromium", stand_in(tmp_path, "exit 3"))
    assert_one_line_error(result, "exit status 3", "--verbose")
    assert output.read_bytes() == b"%PDF- the previous one"
    assert leftovers(tmp_path) == []


def test_chromium_that_writes_no_pdf(site, tmp_path):
    result = run(site, "-o", tmp_path / "essay.pdf", "--chromium", stand_in(tmp_path, "exit 0"))
    assert_one_line_error(result, "without writing a PDF")
    assert not (tmp_path / "essay.pdf").exists() and leftovers(tmp_path) == []


def test_chromium_that_hangs_is_ended(site, tmp_path):
    pid_file = tmp_path / "child.pid"
    program = stand_in(tmp_path, 'sleep 60 & echo $! > "$CHILD_PID_FILE"; wait')
    started = time.monotonic()
    result = run(site, "-o", tmp_path / "essay.pdf", "--chromium", program, "--timeout", "2",
                 env={"CHILD_PID_FILE": str(pid_file)})
    assert_one_line_error(result, "did not finish within 2 s")
    assert time.monotonic() - started < 30
    assert not (tmp_path / "essay.pdf").exists() and leftovers(tmp_path) == []
    # The stand-in's own child, in the same process group, was ended with it.
    child = pid_file.read_text().strip()
    status = Path(f"/proc/{child}/stat")
    assert not status.exists() or status.read_text().split(") ")[1].startswith("Z")


def test_chromium_receives_the_served_page(site, tmp_path):
    # The stand-in fetches its last argument, as Chromium would, and writes a PDF that
    # carries what it received as its subject.
    fetch = (f'"{sys.executable}" -c "import sys, urllib.request; from pypdf import PdfWriter; '
             'out = [a for a in sys.argv if a.startswith(\'--print-to-pdf=\')][0].split(\'=\', 1)[1]; '
             'pdf = PdfWriter(); pdf.add_blank_page(100, 100); '
             'pdf.add_metadata({\'/Subject\': urllib.request.urlopen(sys.argv[-1]).read().decode()}); '
             'pdf.write(out)" "$@"')
    output = tmp_path / "essay.pdf"
    result = run(site, "-o", output, "--chromium", stand_in(tmp_path, fetch))
    assert result.returncode == 0, result.stderr
    metadata = found(PdfReader(output).metadata, "the PDF's metadata")
    assert metadata.subject == (site / "print" / "index.html").read_text(encoding="utf-8")


def test_a_pdf_that_cannot_be_read_is_reported(site, tmp_path):
    broken = (f'"{sys.executable}" -c "import sys; '
              'open([a for a in sys.argv if a.startswith(\'--print-to-pdf=\')][0].split(\'=\', 1)[1], \'wb\')'
              '.write(b\'%PDF-1.4 broken\')" "$@"')
    output = tmp_path / "essay.pdf"
    assert_one_line_error(run(site, "-o", output, "--chromium", stand_in(tmp_path, broken)), "cannot be read")
    assert not output.exists() and leftovers(tmp_path) == []


@pytest.mark.parametrize("page, expected", [
    ("print/index.html", "print/index.html"),
    ("print/", "print/index.html"),
    ("print", "print/index.html"),
])
def test_page_in_site(site, page, expected):
    assert page_in_site(site, page) == expected


@pytest.mark.parametrize("page", ["/etc/passwd", "../site/print/index.html", "print/../../x.html"])
def test_pages_outside_the_site_are_refused(site, page):
    with pytest.raises(PdfError, match="inside the site folder"):
        page_in_site(site, page)
