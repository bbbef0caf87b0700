"""An image as the site publishes it (`transcript.image_data`): its text and location left
out a chunk at a time, every chunk of its pixels byte for byte as it was, its size in
pixels read from its headers; an image whose chunks run past its end is refused."""

from __future__ import annotations

import struct

import pytest

from image_bytes import (
    LATITUDE,
    SECRET,
    exif,
    gif,
    gif_metadata,
    jpeg,
    jpeg_metadata,
    jpeg_segment,
    jpeg_segments,
    png,
    png_chunk,
    png_chunks,
    png_text_chunks,
    webp,
    webp_chunks,
)
from transcript.image_data import ImageDataError, pixels_problem, published_image, size_problem


def assert_clean(data: bytes) -> None:
    assert SECRET not in data and LATITUDE not in data


def test_a_pngs_text_and_exif_chunks_are_left_out_and_its_pixels_kept():
    data = png(5, extra=png_text_chunks())
    image = published_image(data, "png")
    assert_clean(image.data)
    assert png_chunks(image.data) == [chunk for chunk in png_chunks(data)
                                      if chunk[0] not in (b"tEXt", b"iTXt", b"zTXt", b"eXIf")]
    assert image.data == png(5) and (image.width, image.height) == (1, 1)


def test_a_jpegs_exif_xmp_iptc_and_comments_are_left_out_and_its_frame_and_scan_kept():
    data = jpeg(extra=jpeg_metadata())
    image = published_image(data, "jpg")
    assert_clean(image.data)
    assert jpeg_segments(image.data) == [segment for segment in jpeg_segments(data)
                                         if segment[0] not in (0xE1, 0xED, 0xFE)]
    assert image.data == jpeg() and (image.width, image.height) == (8, 8)


def test_a_photographs_orientation_is_kept_alone():
    """A photograph taken upright on its side is shown upright: of EXIF, only the
    orientation stays, in a block of its own."""
    turned = published_image(jpeg(extra=(jpeg_segment(0xE1, b"Exif\0\0" + exif(orientation=6)),)), "jpg").data
    assert_clean(turned)
    (app1,) = [segment for marker, segment in jpeg_segments(turned) if marker == 0xE1]
    assert app1[4:] == b"Exif\0\0MM\0*" + struct.pack(">IHHHIHHI", 8, 1, 0x0112, 3, 1, 6, 0, 0)
    png_turned = published_image(png(extra=(png_chunk(b"eXIf", exif(orientation=8)),)), "png").data
    assert [kind for kind, _ in png_chunks(png_turned)] == [b"IHDR", b"eXIf", b"IDAT", b"IEND"]
    assert LATITUDE not in png_turned


def test_a_gifs_comment_and_xmp_are_left_out_and_its_loop_kept():
    data = gif(extra=gif_metadata())
    image = published_image(data, "gif")
    assert_clean(image.data)
    assert image.data == gif() and (image.width, image.height) == (1, 1)


def test_a_webps_exif_and_xmp_chunks_are_left_out_and_unflagged():
    data = webp(metadata=True)
    image = published_image(data, "webp")
    assert_clean(image.data)
    chunks = webp_chunks(image.data)
    assert [kind for kind, _ in chunks] == [b"VP8X", b"VP8L"]
    assert chunks[1] == webp_chunks(data)[1]  # the pixels, byte for byte
    assert chunks[0][1][8] == 0  # the flags no longer say EXIF and XMP follow
    assert struct.unpack_from("<I", image.data, 4)[0] == len(image.data) - 8
    assert (image.width, image.height) == (1, 1)
    assert published_image(webp(), "webp").data == webp()


@pytest.mark.parametrize("data, kind", [(png(), "png"), (jpeg(), "jpg"), (gif(), "gif"), (webp(), "webp")])
def test_what_follows_an_images_end_is_left_out(data, kind):
    assert published_image(data + SECRET, kind).data == data


@pytest.mark.parametrize("data, kind", [(png(), "png"), (jpeg(), "jpg"), (gif(), "gif")])
def test_an_image_cut_short_is_refused(data, kind):
    with pytest.raises(ImageDataError, match="is cut short: its chunks run past its end"):
        published_image(data[: len(data) // 2], kind)


def test_the_size_in_pixels_is_read_from_the_header_and_held_to_the_limit():
    header = png_chunk(b"IHDR", struct.pack(">IIBBBBB", 10_000, 10_000, 8, 2, 0, 0, 0))
    huge = b"\x89PNG\r\n\x1a\n" + header + png_chunk(b"IEND", b"")
    image = published_image(huge, "png")
    assert (image.width, image.height) == (10_000, 10_000)
    assert pixels_problem(image.width, image.height) == (
        "is 10,000 x 10,000 pixels, more than the 50,000,000 pixels an image may have")
    assert pixels_problem(5_000, 10_000) is None
    assert size_problem(10_000_001) == "is 10,000,001 bytes, larger than 10 MB, the most an image may be"
    assert size_problem(10_000_000) is None
