"""What the site publishes from its docs/ folder, against files that should not be
published as they are, each through one real `mkdocs build --strict` of a copy of the
site: copies of the transcript, other transcripts and session logs stop the build; an
author's file that a file the build makes would replace stops it; images are published
without their text and location, their pixels byte for byte, and one too large in bytes
or pixels stops the build at once. Each stop is one line naming the file, no traceback."""

from __future__ import annotations

import re
import resource
import shutil
import time
from pathlib import Path

import pytest

from author_project import LOGS
from conftest import build, built_cleanly, entry_of, selected, soup
from image_bytes import (
    LATITUDE,
    SECRET,
    gif,
    gif_metadata,
    jpeg,
    jpeg_metadata,
    jpeg_segments,
    png,
    png_chunk,
    png_chunks,
    png_text_chunks,
    webp,
    webp_chunks,
)
from test_transcript_images import image_name, line_of, with_images


def sparse(path: Path) -> None:
    """A file of 2 GB that takes no disk: all holes."""
    with open(path, "wb") as file:
        file.truncate(2 * 1024**3)


@pytest.fixture
def site(tmp_path):
    """Where a build writes the site: removed after the test, so that a copy of a file of
    2 GB that a build should never have made does not stay on the disk."""
    yield tmp_path / "site"
    shutil.rmtree(tmp_path / "site", ignore_errors=True)


def assert_stops(result, expected: str) -> None:
    assert result.returncode == 1, result.stderr
    assert re.search(rf"ERROR\s+-\s+{re.escape(expected)}$", result.stderr, re.MULTILINE), result.stderr
    assert "Traceback" not in result.stderr


# --- Copies of the transcript, other transcripts, session logs --------------------------------

@pytest.mark.parametrize("name", ["transcript.old.jsonl", "transcript (copy).jsonl", "transcript copy.jsonl",
                                  "transcript.jsonl~", "transcript.jsonl.bak", "#transcript.jsonl#",
                                  "transcript.bak", "old/transcript.jsonl"])
def test_a_copy_of_the_transcript_stops_the_build(project, tmp_path, name):
    copy = project / "docs" / name
    copy.parent.mkdir(exist_ok=True)
    shutil.copy(project / "docs" / "transcript.jsonl", copy)
    site = tmp_path / "site"
    assert_stops(build(project, site, strict=False),
                 f"docs/{name}: a copy of the transcript, which would be published unredacted: move it out of docs/")
    assert not (site / name).exists()


def test_an_editors_hidden_swap_file_of_the_transcript_is_no_copy_to_stop_at(project, tmp_path):
    """MkDocs publishes no hidden file: an editor's swap file, there while the transcript
    is open, is left alone."""
    (project / "docs" / ".transcript.jsonl.swp").write_bytes(b"b0VIM 9.0\0" + b"\0" * 100)
    site = built_cleanly(project)
    assert not (site / ".transcript.jsonl.swp").exists()


@pytest.mark.parametrize("log, name, kind", [
    ("claude-code-log_representative_messages.jsonl", "session.jsonl", "a Claude Code session log"),
    ("claude-code-transcripts_sample_session.json", "session.json", "a Claude Code session log"),
    ("codex-rollout_synthetic.jsonl", "rollout.jsonl", "a Codex session log"),
    ("codemie-code_gemini_session_thoughts.json", "notes/gemini.json", "a Gemini CLI session log"),
    ("openai_chat_tools.json", "chat.json", "an OpenAI chat log"),
    ("sharegpt_tools.json", "data.json", "a ShareGPT log"),
])
def test_a_session_log_beside_the_pages_stops_the_build(project, tmp_path, log, name, kind):
    (project / "docs" / name).parent.mkdir(exist_ok=True)
    shutil.copy(LOGS / log, project / "docs" / name)
    assert_stops(build(project, tmp_path / "site", strict=False),
                 f"docs/{name}: {kind}, which would be published as it is, unredacted: "
                 "move it out of docs/, or import it with scripts/import_transcript.py")


def test_another_transcript_stops_the_build(project, tmp_path):
    lines = (project / "docs" / "transcript.jsonl").read_text(encoding="utf-8").splitlines()
    (project / "docs" / "earlier-draft.jsonl").write_text("\n".join(lines[3:10]) + "\n", encoding="utf-8")
    assert_stops(build(project, tmp_path / "site", strict=False),
                 "docs/earlier-draft.jsonl: a transcript, not the site's (extra.transcript.source), which would be "
                 "published unredacted: move it out of docs/")


def test_other_json_files_are_published_as_they_are(project):
    data = {"data.json": b'{"messages": [1, 2], "role": "a table of figures"}\n',
            "records.jsonl": b'{"n": 1, "speaker": "a"}\n{"type": "user"}\n'}
    for name, content in data.items():
        (project / "docs" / name).write_bytes(content)
    site = built_cleanly(project)
    assert {name: (site / name).read_bytes() for name in data} == data


# --- The author's files against the files the build makes -------------------------------------

@pytest.mark.parametrize("name, made", [
    ("print.md", "print.md (published as print/index.html)"),
    ("print/index.md", "print.md (published as print/index.html)"),
    ("cite/essay.bib", "cite/essay.bib"),
    ("cite/essay.ris", "cite/essay.ris"),
    ("how-to-cite/index.md", "how-to-cite.md (published as how-to-cite/index.html)"),
])
def test_a_file_of_the_authors_that_the_build_would_replace_stops_it(project, tmp_path, name, made):
    if name.startswith("how-to-cite/"):  # the build makes the page only when the author wrote none by its name
        (project / "docs" / "how-to-cite.md").unlink()
    theirs = project / "docs" / name
    theirs.parent.mkdir(exist_ok=True)
    theirs.write_text("# Their own\n" if name.endswith(".md") else "@misc{theirs}\n", encoding="utf-8")
    assert_stops(build(project, tmp_path / "site", strict=False),
                 f"docs/{name}: the build makes {made}, which would replace it: rename your file")


# --- Images: published without their text and location -----------------------------------------

def test_the_authors_images_are_published_without_their_text_and_location(project):
    images = {"shot.png": png(9, extra=png_text_chunks()), "photo.jpg": jpeg(extra=jpeg_metadata()),
              "loop.gif": gif(extra=gif_metadata()), "figures/chart.webp": webp(metadata=True)}
    (project / "docs" / "figures").mkdir()
    for name, data in images.items():
        (project / "docs" / name).write_bytes(data)
    page = project / "docs" / "context.md"
    page.write_text(page.read_text(encoding="utf-8") + "\n![A screenshot](shot.png)\n", encoding="utf-8")
    site = built_cleanly(project)
    published = {name: (site / name).read_bytes() for name in images}
    for data in published.values():
        assert SECRET not in data and LATITUDE not in data
    assert png_chunks(published["shot.png"]) == png_chunks(png(9))  # IHDR, IDAT, IEND as they were
    assert jpeg_segments(published["photo.jpg"]) == [  # its tables, frame and scan as they were
        segment for segment in jpeg_segments(images["photo.jpg"]) if segment[0] not in (0xE1, 0xED, 0xFE)]
    assert published["loop.gif"] == gif()
    assert webp_chunks(published["figures/chart.webp"])[1] == webp_chunks(images["figures/chart.webp"])[1]
    img = selected(soup(site / "context/index.html"), "article img[alt='A screenshot']")
    assert img["src"] == "../shot.png"


def test_a_messages_images_are_published_without_their_text_and_location(project, tmp_path):
    """Images imported before the importer left text out are published without it too,
    under the name the transcript gives them."""
    data = png(11, extra=png_text_chunks())
    name = image_name(data)
    with_images(project, {5852: [name]}, {name: data})
    site = built_cleanly(project)
    published = (site / "transcript/images" / name).read_bytes()
    assert SECRET not in published and LATITUDE not in published
    assert published == png(11)
    assert selected(entry_of(soup(site / "transcript/index.html"), 5852), "img")["src"] == f"images/{name}"


# --- Images too large, or not what their name says ---------------------------------------------

def test_a_sparse_file_of_2_gb_named_as_an_image_stops_the_build_at_once(project, site):
    sparse(project / "docs" / "big.png")
    started = time.monotonic()
    result = build(project, site, strict=False)
    seconds = time.monotonic() - started
    assert_stops(result, "docs/big.png: is 2,147,483,648 bytes, larger than 10 MB, the most an image may be")
    assert seconds < 30  # read, 2 GB would take far longer; a build of this site takes a second or two
    assert resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss < 1024**2  # KB: no child held 1 GB
    assert not (site / "big.png").exists()


HUGE_PNG = (b"\x89PNG\r\n\x1a\n" + png_chunk(b"IHDR", bytes.fromhex("0000c3500000c350") + b"\x08\x02\0\0\0")
            + png_chunk(b"IEND", b""))  # 50,000 x 50,000 pixels in 45 bytes
PIXELS_PROBLEM = "is 50,000 x 50,000 pixels, more than the 50,000,000 pixels an image may have"


@pytest.mark.parametrize("name, content, problem", [
    ("huge.png", HUGE_PNG, PIXELS_PROBLEM),
    ("page.jpeg", b"<html><script>alert(1)</script></html>", "is not a JPEG image, by its bytes"),
    ("half.gif", gif()[:20], "is cut short: its chunks run past its end"),
])
def test_an_image_too_large_in_pixels_or_not_an_image_stops_the_build(project, tmp_path, name, content, problem):
    (project / "docs" / name).write_bytes(content)
    assert_stops(build(project, tmp_path / "site", strict=False), f"docs/{name}: {problem}")


@pytest.mark.parametrize("make, problem", [
    (lambda path: path.write_bytes(HUGE_PNG), PIXELS_PROBLEM),
    (sparse, "is 2,147,483,648 bytes, larger than 10 MB, the most an image may be"),
], ids=["pixels", "bytes"])
def test_a_messages_image_too_large_stops_the_build_at_its_line(project, site, make, problem):
    name = image_name(b"large")
    with_images(project, {5854: [name]}, {})
    make(Path(project / "docs" / "transcript-images" / name))
    assert_stops(build(project, site, strict=False),
                 f"docs/transcript.jsonl:{line_of(project, 5854)}: message 5854's image "
                 f"docs/transcript-images/{name} {problem}")
