"""The importer keeps a log's images: decoded one at a time, checked by their bytes (PNG,
JPEG, GIF or WebP, whatever the log says they are), at most 10 MB each and 100 a message,
written to the folder beside the transcript named by their hash; the others left out
and counted in the report, by reason and line, never by their data. The folder is
written as the transcript is: whole, or not at all, replacing the earlier one."""

from __future__ import annotations

import base64
import hashlib
import json
import os
import struct
import tracemalloc
from pathlib import Path

import pytest

import import_transcript
from image_bytes import jpeg, jpeg_metadata, png, png_chunk, png_chunks, png_text_chunks
from test_import_transcript import SAMPLES, import_sample, run_cli
from test_log_shapes import SESSION_HEAD, write_document, write_lines
from transcript.images import image_kind, image_problem
from transcript.reader import load_transcript
from transcript.redact import Redactor
from transcript.schema import IMAGE_NAME_RE, MAX_IMAGES
from transcript.seal import SealCheck
from transcript_formats import images as image_rules
from transcript_formats import jsonl
from transcript_formats.common import A_LINK, DATA_URL_NOT_BASE64, NO_IMAGE_DATA, ImageBlock

IMAGE_EDIT_BASH = SAMPLES / "claude-code-log_image_edit_bash.jsonl"


JPEG = jpeg()
GIF = b"GIF89a\x01\x00\x01\x00\x80\x00\x00\x00\x00\x00\xff\xff\xff!\xf9\x04\x01\x00\x00\x00\x00,\x00\x00\x00\x00" \
      b"\x01\x00\x01\x00\x00\x02\x02D\x01\x00;"
WEBP = b"RIFF\x1a\x00\x00\x00WEBPVP8L\x0d\x00\x00\x00\x2f\x00\x00\x00\x10\x07\x10\x11\x11\x88\x88\xfe\x07\x00"
SVG = b'<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><rect width="1" height="1"/></svg>'
HTML = b"<!DOCTYPE html><html><body><script>alert(document.cookie)</script></body></html>"


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def name_of(data: bytes, extension: str) -> str:
    return hashlib.sha256(data).hexdigest()[:32] + "." + extension


def claude_image(data: bytes | str, media_type: str = "image/png") -> dict:
    text = data if isinstance(data, str) else b64(data)
    return {"type": "image", "source": {"type": "base64", "media_type": media_type, "data": text}}


def claude_user(content, uuid: str = "u1") -> dict:
    return {"type": "user", "uuid": uuid, "message": {"role": "user", "content": content}}


def imported(tmp_path: Path, source: Path, capsys, *options: str) -> tuple[list[dict], str]:
    capsys.readouterr()
    records = import_sample(tmp_path, source, *options)
    return records, capsys.readouterr().err


def folder_of(tmp_path: Path) -> Path:
    return tmp_path / "transcript-images"


def files_in(folder: Path) -> list[str]:
    return sorted(path.name for path in folder.iterdir()) if folder.exists() else []


def hidden(tmp_path: Path) -> list[str]:
    """What an import leaves under a temporary name: nothing, once it is done."""
    return sorted(path.name for path in tmp_path.iterdir() if path.name.startswith("."))


# --- The real log -------------------------------------------------------------------------

def test_the_pasted_image_of_a_real_session_is_kept_named_by_its_hash(tmp_path, capsys):
    """Line 11 of the real session: a screenshot pasted before a question. The message
    keeps "[image]" where it stood and names the file, which holds the log's chunks but
    its EXIF and XMP (the screenshot's own text), named by its hash."""
    line = json.loads(IMAGE_EDIT_BASH.read_text(encoding="utf-8").splitlines()[10])
    data = base64.b64decode(line["message"]["content"][0]["source"]["data"])
    records, report = imported(tmp_path, IMAGE_EDIT_BASH, capsys)
    (turn,) = [record for record in records if record.get("images")]
    assert turn["n"] == 11 and turn["text"].startswith("[image]\n\n")
    (name,) = turn["images"]
    path = folder_of(tmp_path) / name
    kept = path.read_bytes()
    assert IMAGE_NAME_RE.fullmatch(name) and name == name_of(kept, "png")
    assert {b"eXIf", b"iTXt"} <= {kind for kind, _ in png_chunks(data)}  # the log's screenshot has both
    assert png_chunks(kept) == [chunk for chunk in png_chunks(data) if chunk[0] not in (b"eXIf", b"iTXt")]
    assert image_kind(kept) == "png"
    assert image_problem(str(path)) is None  # what the site build checks before it publishes it
    assert files_in(folder_of(tmp_path)) == [name] and hidden(tmp_path) == []
    assert f"kept 1 image (1 file) in {folder_of(tmp_path)}" in report
    assert "left out" not in report


def test_the_seal_covers_the_images_field(tmp_path):
    """The line with `images` carries the redaction seal, which the build finds matching."""
    import_sample(tmp_path, IMAGE_EDIT_BASH)
    raw = [line for line in (tmp_path / "transcript.jsonl").read_bytes().splitlines(keepends=True)
           if b'"images"' in line]
    assert len(raw) == 1 and raw[0].index(b'"images"') < raw[0].index(b'"redaction_seal"')
    check = SealCheck(Redactor().fingerprint)
    assert check.matches(raw[0])
    assert not check.matches(raw[0].replace(b'"images": ["', b'"images": ["0'))  # a name changed by hand


# --- Each format's shape --------------------------------------------------------------------

def test_claude_code_images_in_a_turn_a_tool_result_and_a_reply(tmp_path, capsys):
    """The bytes decide the extension, whatever the media type claims; the same image
    twice is one file, named twice; an image in a tool result belongs to the result."""
    source = write_lines(tmp_path / "session.jsonl", [
        claude_user([claude_image(JPEG, "image/png"), {"type": "text", "text": "Two pictures:"},
                     claude_image(png(1)), claude_image(JPEG)]),
        {"type": "assistant", "uuid": "a1", "message": {"id": "m1", "role": "assistant", "content": [
            {"type": "text", "text": "Drawn:"}, claude_image(GIF, "image/jpeg"),
            {"type": "tool_use", "id": "t1", "name": "Screenshot", "input": {}}]}},
        claude_user([{"type": "tool_result", "tool_use_id": "t1", "content": [
            {"type": "text", "text": "Taken."}, claude_image(WEBP, "image/gif")]}], "u2"),
    ])
    records, report = imported(tmp_path, source, capsys)
    turn, reply, call, result = records
    assert turn["text"] == "[image]\n\nTwo pictures:\n\n[image]\n\n[image]"
    assert turn["images"] == [name_of(JPEG, "jpg"), name_of(png(1), "png"), name_of(JPEG, "jpg")]
    assert reply["text"] == "Drawn:\n\n[image]" and reply["images"] == [name_of(GIF, "gif")]
    assert "images" not in call
    assert result["text"] == "Taken.\n\n[image]" and result["images"] == [name_of(WEBP, "webp")]
    assert files_in(folder_of(tmp_path)) == sorted(
        [name_of(JPEG, "jpg"), name_of(png(1), "png"), name_of(GIF, "gif"), name_of(WEBP, "webp")])
    assert "kept 5 images (4 files)" in report


def test_codex_input_images_as_data_urls(tmp_path, capsys):
    source = write_lines(tmp_path / "rollout.jsonl", [
        {"timestamp": "t", "type": "session_meta", "payload": {"id": "s"}},
        {"timestamp": "t", "type": "response_item", "payload": {"type": "message", "role": "user", "content": [
            {"type": "input_text", "text": "Look:"},
            {"type": "input_image", "image_url": "data:image/png;base64," + b64(png(2))},
            {"type": "input_image", "image_url": "https://example.com/cat.png"}]}},
        {"timestamp": "t", "type": "response_item", "payload": {
            "type": "function_call", "name": "view_image", "arguments": "{}", "call_id": "c1"}},
        {"timestamp": "t", "type": "response_item", "payload": {"type": "function_call_output", "call_id": "c1",
         "output": [{"type": "input_image", "image_url": "data:image/jpeg;base64," + b64(JPEG)}]}},
    ])
    records, report = imported(tmp_path, source, capsys)
    turn, _, output = records
    assert turn["text"] == "Look:\n\n[image]\n\n[image]" and turn["images"] == [name_of(png(2), "png")]
    assert output["text"] == "[image]" and output["images"] == [name_of(JPEG, "jpg")]
    assert f"1 x {A_LINK} (line 2)" in report
    assert "example.com" not in report


def test_openai_image_url_parts(tmp_path, capsys):
    source = write_document(tmp_path / "chat.json", '{"messages": ', [
        {"role": "user", "content": [
            {"type": "text", "text": "Compare"},
            {"type": "image_url", "image_url": {"url": "data:image/gif;base64," + b64(GIF), "detail": "low"}},
            {"type": "image_url", "image_url": {"url": "data:image/png," + "%89PNG"}},
            {"type": "image_url", "image_url": {}}]},
        {"role": "assistant", "content": "Alike."},
    ], "}")
    records, report = imported(tmp_path, source, capsys)
    assert records[0]["text"] == "Compare\n\n[image]\n\n[image]\n\n[image]"
    assert records[0]["images"] == [name_of(GIF, "gif")]
    assert f"1 x {DATA_URL_NOT_BASE64} (line 2)" in report and f"1 x {NO_IMAGE_DATA} (line 2)" in report


def test_gemini_inline_data(tmp_path, capsys):
    source = write_document(tmp_path / "session.json", SESSION_HEAD, [
        {"id": "u1", "timestamp": "t", "type": "user", "content": [
            {"text": "What is this?"}, {"inlineData": {"mimeType": "image/webp", "data": b64(WEBP)}},
            {"fileData": {"mimeType": "image/png", "fileUri": "gs://bucket/a.png"}},
            {"inlineData": {"mimeType": "application/pdf", "data": b64(b"%PDF-1.4")}}]},
    ], "}")
    records, report = imported(tmp_path, source, capsys)
    assert records[0]["text"] == "What is this?\n\n[image]\n\n[image]\n\n[file]"
    assert records[0]["images"] == [name_of(WEBP, "webp")]
    assert f"1 x {A_LINK} (line 2)" in report


# --- Hostile images ------------------------------------------------------------------------

@pytest.mark.parametrize("data", [SVG, HTML, b"", b"\x89PNG"[:3] + b"not quite"], ids=["svg", "html", "empty", "near"])
def test_what_is_no_image_by_its_bytes_is_left_out(tmp_path, capsys, data):
    """An SVG (which may hold script) or a page of HTML claiming image/png: left out, the
    text keeps "[image]", the report names the reason and the line, never the data."""
    source = write_lines(tmp_path / "session.jsonl", [
        claude_user("hello"), claude_user([claude_image(data), {"type": "text", "text": "see?"}], "u2")])
    records, report = imported(tmp_path, source, capsys)
    assert records[1]["text"] == "[image]\n\nsee?" and "images" not in records[1]
    assert f'left out 1 image (the text keeps "[image]" where each was):\n  1 x {image_rules.NOT_AN_IMAGE} (line 2)' \
        in report
    assert not folder_of(tmp_path).exists() and hidden(tmp_path) == []
    if data:
        assert b64(data)[:16] not in report and "svg" not in report.lower()


def test_an_images_text_and_location_are_not_kept(tmp_path, capsys):
    """A PNG with text chunks holding a token and EXIF with a GPS block, a JPEG with EXIF,
    XMP, IPTC and a comment: each is written without them, its pixels byte for byte, named
    by the hash of what is written; the same picture pasted bare is the same file."""
    source = write_lines(tmp_path / "session.jsonl", [
        claude_user([claude_image(png(4, extra=png_text_chunks())), claude_image(png(4)),
                     claude_image(jpeg(extra=jpeg_metadata()), "image/jpeg")])])
    records, report = imported(tmp_path, source, capsys)
    assert records[0]["images"] == [name_of(png(4), "png"), name_of(png(4), "png"), name_of(JPEG, "jpg")]
    assert (folder_of(tmp_path) / name_of(png(4), "png")).read_bytes() == png(4)
    assert (folder_of(tmp_path) / name_of(JPEG, "jpg")).read_bytes() == JPEG
    assert files_in(folder_of(tmp_path)) == sorted([name_of(png(4), "png"), name_of(JPEG, "jpg")])
    assert "kept 3 images (2 files)" in report


@pytest.mark.parametrize("data, reason", [
    (b"\x89PNG\r\n\x1a\n" + png_chunk(b"IHDR", struct.pack(">IIBBBBB", 10_000, 10_000, 8, 2, 0, 0, 0))
     + png_chunk(b"IEND", b""), image_rules.TOO_MANY_PIXELS),
    (png(3)[:40], image_rules.DAMAGED),
], ids=["too-many-pixels", "cut-short"])
def test_an_image_too_large_in_pixels_or_cut_short_is_left_out(tmp_path, capsys, data, reason):
    source = write_lines(tmp_path / "session.jsonl", [claude_user([claude_image(data)])])
    records, report = imported(tmp_path, source, capsys)
    assert "images" not in records[0] and f"1 x {reason} (line 1)" in report
    assert not folder_of(tmp_path).exists()


@pytest.mark.parametrize("text", [b64(png(3))[:-3], b64(png(3)) + "!", "é" + b64(png(3)), b64(png(3))[:-1] + "\n"])
def test_base64_that_is_cut_short_or_not_base64_is_left_out(tmp_path, capsys, text):
    source = write_lines(tmp_path / "session.jsonl", [claude_user([claude_image(text)])])
    records, report = imported(tmp_path, source, capsys)
    assert records[0]["text"] == "[image]" and "images" not in records[0]
    assert f"1 x {image_rules.NOT_BASE64} (line 1)" in report
    assert not folder_of(tmp_path).exists()


def test_an_image_larger_than_the_limit_is_left_out_without_being_decoded(tmp_path, capsys, monkeypatch):
    """20 MB of PNG, twice the limit; one just at the limit is kept."""
    big = b"\x89PNG\r\n\x1a\n" + b"\0" * (20_000_000 - 8)
    at_limit = png(1, size=image_rules.MAX_IMAGE_BYTES)
    source = write_lines(tmp_path / "session.jsonl", [claude_user([claude_image(big)]),
                                                      claude_user([claude_image(at_limit)], "u2")])
    decoded_sizes: list[int] = []
    real_decode = base64.b64decode

    def counted_decode(text, **options):
        decoded_sizes.append(len(text))
        return real_decode(text, **options)

    monkeypatch.setattr(image_rules.base64, "b64decode", counted_decode)
    records, report = imported(tmp_path, source, capsys)
    assert "images" not in records[0] and records[1]["images"] == [name_of(at_limit, "png")]
    assert decoded_sizes == [len(b64(at_limit))]  # the 20 MB one never decoded
    assert "1 x larger than 10 MB decoded, the most an image may be (line 1)" in report
    assert image_rules.MAX_IMAGE_BYTES == 10_000_000


def test_at_most_100_images_a_message(tmp_path, capsys):
    """101 different images in one message: the first 100 kept, the last left out."""
    count = MAX_IMAGES + 1
    source = write_lines(tmp_path / "session.jsonl", [
        claude_user("hi"), claude_user([claude_image(png(seed)) for seed in range(count)], "u2")])
    records, report = imported(tmp_path, source, capsys)
    assert records[1]["text"] == "\n\n".join(["[image]"] * count)
    assert records[1]["images"] == [name_of(png(seed), "png") for seed in range(MAX_IMAGES)]
    assert len(files_in(folder_of(tmp_path))) == MAX_IMAGES
    assert f"1 x past the {MAX_IMAGES} images one message may hold (line 2)" in report


def test_the_report_counts_the_lines_of_each_reason(tmp_path, capsys):
    source = write_lines(tmp_path / "session.jsonl", [
        claude_user([claude_image(SVG)], f"u{line}") for line in range(1, 8)])
    _, report = imported(tmp_path, source, capsys)
    assert f"7 x {image_rules.NOT_AN_IMAGE} (lines 1, 2, 3, 4, 5, ...)" in report


# --- --no-images, and outputs with no folder beside them --------------------------------------

def test_no_images_keeps_the_marks_and_writes_no_image(tmp_path, capsys):
    import_sample(tmp_path, IMAGE_EDIT_BASH)
    assert folder_of(tmp_path).exists()
    records, report = imported(tmp_path, IMAGE_EDIT_BASH, capsys, "--no-images")
    assert all("images" not in record for record in records)
    assert records[10]["text"].startswith("[image]\n\n")
    # The folder of the earlier import went with it: no message refers to its images.
    assert not folder_of(tmp_path).exists() and hidden(tmp_path) == []
    assert "1 x --no-images was given (line 11)" in report


def test_a_device_as_output_leaves_the_images_out_with_a_note(tmp_path):
    result = run_cli(IMAGE_EDIT_BASH, "-o", "/dev/null")
    assert result.returncode == 0, result.stderr
    assert f"1 x {image_rules.NO_FOLDER} (line 11)" in result.stderr
    assert not os.path.exists("/dev/null-images")


# --- The folder: whole or not at all ---------------------------------------------------------

def test_a_new_import_replaces_the_folder(tmp_path, capsys):
    first = write_lines(tmp_path / "first.jsonl", [claude_user([claude_image(png(10))])])
    second = write_lines(tmp_path / "second.jsonl", [claude_user([claude_image(png(11)), claude_image(png(12))])])
    import_sample(tmp_path, first)
    assert files_in(folder_of(tmp_path)) == [name_of(png(10), "png")]
    (folder_of(tmp_path) / ".DS_Store").write_bytes(b"finder")
    records = import_sample(tmp_path, second)
    assert files_in(folder_of(tmp_path)) == sorted(records[0]["images"])
    assert name_of(png(10), "png") not in files_in(folder_of(tmp_path))
    assert hidden(tmp_path) == []
    # A log with no image leaves no folder.
    import_sample(tmp_path, write_lines(tmp_path / "third.jsonl", [claude_user("no pictures")]))
    assert not folder_of(tmp_path).exists() and hidden(tmp_path) == []


def _earlier(tmp_path: Path) -> tuple[bytes, list[str]]:
    import_sample(tmp_path, write_lines(tmp_path / "first.jsonl", [claude_user([claude_image(png(20))])]))
    return (tmp_path / "transcript.jsonl").read_bytes(), files_in(folder_of(tmp_path))


def test_a_failed_import_leaves_the_earlier_folder_and_no_partial_one(tmp_path):
    transcript, images = _earlier(tmp_path)
    source = tmp_path / "broken.jsonl"
    source.write_text(json.dumps(claude_user([claude_image(png(21))])) + "\n{not json\n", encoding="utf-8")
    result = run_cli(source, "-o", tmp_path / "transcript.jsonl")
    assert result.returncode == 1 and result.stderr.startswith(f"{source}:2: ")
    assert (tmp_path / "transcript.jsonl").read_bytes() == transcript
    assert files_in(folder_of(tmp_path)) == images and hidden(tmp_path) == []


def test_an_interrupted_import_leaves_the_earlier_folder(tmp_path, monkeypatch):
    transcript, images = _earlier(tmp_path)
    source = write_lines(tmp_path / "second.jsonl", [claude_user([claude_image(png(seed))], f"u{seed}")
                                                     for seed in range(30, 33)])
    real_write = image_rules.ImageFolder.write
    written: list[str] = []

    def write_then_stop(self, data, kind):
        if written:
            raise KeyboardInterrupt  # Ctrl-C, or SIGTERM, once one image is in the temporary folder
        written.append(real_write(self, data, kind))
        return written[-1]

    monkeypatch.setattr(image_rules.ImageFolder, "write", write_then_stop)
    assert import_transcript.main([str(source), "-o", str(tmp_path / "transcript.jsonl")]) == 130
    assert written and (tmp_path / "transcript.jsonl").read_bytes() == transcript
    assert files_in(folder_of(tmp_path)) == images and hidden(tmp_path) == []


def test_a_transcript_that_cannot_be_put_in_place_puts_the_earlier_folder_back(tmp_path, monkeypatch, capsys):
    """The folder goes in place just before the transcript; if the transcript's rename
    fails, the new folder goes and the earlier one comes back."""
    transcript, images = _earlier(tmp_path)
    source = write_lines(tmp_path / "second.jsonl", [claude_user([claude_image(png(40))])])
    real_replace = os.replace

    def failing_replace(source_path, target, *args, **kwargs):
        if str(target).endswith("transcript.jsonl"):
            raise OSError(28, "No space left on device")
        return real_replace(source_path, target, *args, **kwargs)

    monkeypatch.setattr(os, "replace", failing_replace)
    assert import_transcript.main([str(source), "-o", str(tmp_path / "transcript.jsonl")]) == 1
    assert "No space left on device" in capsys.readouterr().err
    assert (tmp_path / "transcript.jsonl").read_bytes() == transcript
    assert files_in(folder_of(tmp_path)) == images and hidden(tmp_path) == []


def test_a_folder_the_importer_did_not_write_is_never_replaced(tmp_path):
    folder = folder_of(tmp_path)
    folder.mkdir()
    (folder / "holiday.jpg").write_bytes(JPEG)
    result = run_cli(IMAGE_EDIT_BASH, "-o", tmp_path / "transcript.jsonl")
    assert result.returncode == 1
    assert result.stderr == (f"{folder}: holds 'holiday.jpg', which the importer did not write: the folder of the "
                             "transcript's images is replaced at each import; move it away or choose another output\n")
    assert files_in(folder) == ["holiday.jpg"] and not (tmp_path / "transcript.jsonl").exists()
    folder.rename(tmp_path / "mine")
    folder.write_text("a file by the folder's name")
    result = run_cli(IMAGE_EDIT_BASH, "-o", tmp_path / "transcript.jsonl", "--no-images")
    assert result.returncode == 1 and result.stderr.startswith(f"{folder}: is not a folder")
    assert folder.read_text() == "a file by the folder's name"


def test_a_report_in_the_folder_of_images_is_refused(tmp_path):
    _earlier(tmp_path)
    result = run_cli(IMAGE_EDIT_BASH, "-o", tmp_path / "transcript.jsonl",
                     "--report", folder_of(tmp_path) / "report.txt")
    assert result.returncode == 1 and "--report must name a file elsewhere" in result.stderr


def test_the_site_loader_reads_the_images_field(tmp_path):
    import_sample(tmp_path, IMAGE_EDIT_BASH)
    transcript = load_transcript(str(tmp_path / "transcript.jsonl"))
    (message,) = [message for message in transcript if message.images]
    assert message.n == 11 and len(message.images) == 1


# --- Memory --------------------------------------------------------------------------------

def test_images_are_decoded_one_at_a_time(tmp_path):
    """The 12 images of 1.5 MB of one message: keeping them takes the memory of about one
    (its base64 text as bytes, and its bytes), not of all twelve (18 MB)."""
    size = 1_500_000
    blocks = tuple(ImageBlock.from_url("data:image/png;base64," + b64(png(seed, size=size))) for seed in range(12))
    folder = image_rules.ImageFolder(str(tmp_path / "transcript.jsonl"))
    left_out = image_rules.LeftOut()
    tracemalloc.start()
    try:
        names = image_rules.kept_images(blocks, 1, folder, left_out)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
        folder.abandon()
    assert len(set(names)) == 12 and left_out.count == 0
    assert peak < 4 * size, peak


def test_a_reply_of_endless_lines_of_images_stops_the_import(tmp_path, monkeypatch, capsys):
    """A reply's lines sharing a message.id are held until its last: the data of their
    images counts toward the most a message may hold, as their text does."""
    monkeypatch.setattr(jsonl, "MAX_LINE_BYTES", 1000)
    source = write_lines(tmp_path / "session.jsonl", [claude_user("hello")] + [
        {"type": "assistant", "uuid": f"a{n}", "message": {"id": "msg_1", "role": "assistant",
                                                           "content": [claude_image(png(n))]}} for n in range(40)])
    assert import_transcript.main([str(source), "-o", str(tmp_path / "t.jsonl")]) == 1
    assert "one assistant reply, its lines sharing a message.id up to line" in capsys.readouterr().err
    assert not (tmp_path / "t-images").exists() and hidden(tmp_path) == []
