"""The images of a transcript's messages: files beside the transcript, published with the
pages that show their messages and no others, each checked by its bytes; a message's
image that cannot be published stops the build with the message's line."""

import base64
import hashlib
import json
import re
from pathlib import Path

import pytest

from conftest import build, copy_project, entry_of, found, selected, soup
from transcript.images import image_kind

TRANSCRIPT = "docs/transcript.jsonl"  # in a project
# A PNG of one pixel.
PIXEL = base64.b64decode("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQ"
                         "AAAABJRU5ErkJggg==")


def image_name(data: bytes, extension: str = "png") -> str:
    return f"{hashlib.sha256(data).hexdigest()[:32]}.{extension}"


def with_images(project: Path, images: dict[int, list[str]], files: dict[str, bytes]) -> Path:
    """The project with message n given the images `images[n]`, and `files` in the images' folder."""
    path = project / TRANSCRIPT
    lines = []
    for line in path.read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        record.pop("redaction_seal", None)
        if record["n"] in images:
            record["images"] = images[record["n"]]
        lines.append(json.dumps(record, ensure_ascii=False))
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    folder = path.parent / f"{path.stem}-images"
    folder.mkdir(exist_ok=True)
    for name, data in files.items():
        (folder / name).write_bytes(data)
    return project


def line_of(project: Path, n: int) -> int:
    lines = (project / TRANSCRIPT).read_text(encoding="utf-8").splitlines()
    return next(i for i, line in enumerate(lines, start=1) if json.loads(line)["n"] == n)


def test_a_shown_messages_images_are_published_with_its_page_and_no_others(tmp_path):
    shown, hidden = image_name(PIXEL), image_name(PIXEL + b"\x00")
    project = with_images(copy_project(tmp_path / "project"), {5852: [shown, shown], 5850: []},
                          {shown: PIXEL, hidden: PIXEL + b"\x00"})
    result = build(project, tmp_path / "site")
    assert result.returncode == 0 and "WARNING" not in result.stderr, result.stderr
    site = tmp_path / "site"
    images = entry_of(soup(site / "transcript/index.html"), 5852).select("img")
    assert [(img["src"], img["loading"], img["alt"]) for img in images] == [
        (f"images/{shown}", "lazy", f"Image {k} of 2 of message 5852, as the session's log holds it") for k in (1, 2)]
    assert (site / "transcript/images" / shown).read_bytes() == PIXEL
    # The folder beside the transcript is not published as it is: an image no page shows stays out.
    assert sorted(p.name for p in (site / "transcript/images").iterdir()) == [shown]
    assert not list(site.rglob(hidden)) and not (site / "transcript-images").exists()


@pytest.mark.parametrize("content, problem", [
    (None, "is missing"),
    (b"<html><script>alert(1)</script></html>", "is not a PNG image, by its bytes"),
])
def test_an_image_that_cannot_be_published_stops_the_build_at_its_message(tmp_path, content, problem):
    name = image_name(b"x")
    project = with_images(copy_project(tmp_path / "project"), {5854: [name]},
                          {} if content is None else {name: content})
    result = build(project, tmp_path / "site")
    assert result.returncode == 1 and "Traceback" not in result.stderr
    expected = (f"{TRANSCRIPT}:{line_of(project, 5854)}: message 5854's image "
                f"docs/transcript-images/{name} {problem}")
    assert re.search(rf"ERROR\s+-\s+{re.escape(expected)}$", result.stderr, re.MULTILINE), result.stderr


@pytest.mark.parametrize("images", [["../../etc/passwd"], ["A" * 32 + ".png"], [image_name(b"x", "svg")],
                                    [image_name(b"x")] * 101, "not a list", [7]])
def test_an_image_name_the_importer_would_not_write_is_refused_with_its_line(tmp_path, images):
    project = with_images(copy_project(tmp_path / "project"), {5852: images}, {})
    result = build(project, tmp_path / "site")
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert f"{TRANSCRIPT}:{line_of(project, 5852)}: field 'images' must be a list" in result.stderr


@pytest.mark.parametrize("data, kind", [(PIXEL, "png"), (b"\xff\xd8\xff\xe0rest", "jpg"), (b"GIF89a...", "gif"),
                                        (b"RIFF\x00\x00\x00\x00WEBPVP8 ", "webp"), (b"<svg/>", None),
                                        (b"RIFF\x00\x00\x00\x00WAVE", None), (b"", None)])
def test_an_images_kind_is_told_by_its_bytes(data, kind):
    assert image_kind(data) == kind


def test_the_built_page_shows_the_image_to_a_reader(tmp_path):
    name = image_name(PIXEL)
    project = with_images(copy_project(tmp_path / "project"), {5855: [name]}, {name: PIXEL})
    assert build(project, tmp_path / "site").returncode == 0
    entry = entry_of(soup(tmp_path / "site/transcript/index.html"), 5855)
    # The empty message keeps its mark, and shows what it held.
    assert found(entry.find(string="Empty message: no content"), "the mark") and selected(entry, "img")
