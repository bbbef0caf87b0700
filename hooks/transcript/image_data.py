"""An image's bytes as the site publishes them: its size in pixels, read from its headers,
and its text and location left out.

A photograph or a screenshot carries more than its pixels: a camera's EXIF block (where
and when it was taken, the device's serial number), XMP and IPTC records, comments, a
PNG's text chunks (which tools fill with their settings, or anything pasted). These are
removed a chunk at a time, the bytes of the pixels kept as they were, never decoded and
encoded again: PNG `tEXt`, `iTXt`, `zTXt` and `eXIf`; JPEG APP1 (EXIF, XMP), APP13
(IPTC) and comments; GIF comments and application extensions (but the one that makes an
animation loop); WebP `EXIF` and `XMP ` chunks. What follows an image's end is left out
too (a JPEG's further pictures, and its index of them). Of EXIF only the orientation is
kept, in a block of its own, so that a photograph is shown upright as before.
"""

from __future__ import annotations

import re
import struct
import zlib
from typing import NamedTuple

# The most bytes an image may hold: a screenshot of a large screen is a few MB.
MAX_IMAGE_BYTES = 10_000_000
# The most pixels an image may have: a browser holds 4 bytes a pixel, 200 MB at most.
MAX_IMAGE_PIXELS = 50_000_000


class ImageDataError(ValueError):
    """An image whose chunks cannot be walked: cut short or not what its start says."""


class PublishedImage(NamedTuple):
    """An image as published: the chunks kept, the pixels' among them as they were."""

    data: bytes  # without its text and location
    width: int
    height: int


def published_image(data: bytes, kind: str) -> PublishedImage:
    """The image `data` of `kind` (`png`, `jpg`, `gif`, `webp`, as transcript.images.image_kind
    names them) without its text and location, and its size in pixels; ImageDataError
    if its chunks cannot be walked."""
    walk = {"png": _png, "jpg": _jpeg, "gif": _gif, "webp": _webp}[kind]
    try:
        return walk(data)
    except (IndexError, struct.error):
        raise ImageDataError("is cut short: its chunks run past its end") from None


def pixels_problem(width: int, height: int) -> str | None:
    """Why an image of `width` x `height` pixels is not published, or None."""
    if width * height > MAX_IMAGE_PIXELS:
        return (f"is {width:,} x {height:,} pixels, more than the {MAX_IMAGE_PIXELS:,} pixels "
                "an image may have")
    return None


def size_problem(size: int) -> str | None:
    """Why an image of `size` bytes is not published, or None."""
    if size > MAX_IMAGE_BYTES:
        return f"is {size:,} bytes, larger than {MAX_IMAGE_BYTES // 1_000_000} MB, the most an image may be"
    return None


# --- PNG: a signature, then chunks (length, type, data, CRC) up to IEND -----------------

_PNG_TEXT = frozenset({b"tEXt", b"iTXt", b"zTXt"})


def _png(data: bytes) -> PublishedImage:
    view = memoryview(data)  # the chunks kept are joined once, not copied one by one
    kept: list[bytes | memoryview] = [view[:8]]
    at = 8
    width = height = None
    while True:
        length, kind = struct.unpack_from(">I4s", data, at)
        end = at + 12 + length
        if end > len(data):
            raise IndexError(end)
        if kind == b"IHDR":
            width, height = struct.unpack_from(">II", data, at + 8)
        if kind == b"eXIf":
            if (orientation := _orientation(data[at + 8:end - 4])) is not None:
                kept.append(_png_chunk(b"eXIf", _orientation_tiff(orientation)))
        elif kind not in _PNG_TEXT:
            kept.append(view[at:end])
        at = end
        if kind == b"IEND":
            break
    if width is None or height is None:
        raise ImageDataError("is no PNG image: it has no header chunk (IHDR)")
    return PublishedImage(b"".join(kept), width, height)


def _png_chunk(kind: bytes, body: bytes) -> bytes:
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))


# --- JPEG: markers, each but a few with a length, and the scans' coded data -------------

_EXIF = b"Exif\0\0"
_JPEG_DROPPED = frozenset({0xE1, 0xED, 0xFE})  # APP1 (EXIF, XMP), APP13 (IPTC), COM
# An APP2 index of the further pictures (previews) that follow the image's end, which go.
_MPF = b"MPF\0"
_JPEG_STANDALONE = frozenset({0x01, *range(0xD0, 0xD8)})  # TEM, RST0-7: no length
# A marker within a scan's coded data (fill bytes before it): not a coded 0xFF, not a restart.
_MARKER = re.compile(rb"\xff+[^\x00\xd0-\xd7\xff]")
# The start of a frame, which gives the size: SOF0-15 but DHT, JPG and DAC.
_JPEG_FRAMES = frozenset(range(0xC0, 0xD0)) - {0xC4, 0xC8, 0xCC}


def _jpeg(data: bytes) -> PublishedImage:
    view = memoryview(data)
    kept: list[bytes | memoryview] = [view[:2]]
    at = 2
    width = height = None
    while at < len(data):
        if data[at] != 0xFF:
            raise ImageDataError(f"is a damaged JPEG image: no marker at byte {at:,}")
        while data[at + 1] == 0xFF:  # fill bytes before a marker
            at += 1
        marker = data[at + 1]
        if marker == 0xD9:  # EOI: what follows is no part of the image
            kept.append(b"\xff\xd9")
            break
        if marker in _JPEG_STANDALONE:
            kept.append(view[at:at + 2])
            at += 2
            continue
        (length,) = struct.unpack_from(">H", data, at + 2)
        end = at + 2 + length
        if length < 2 or end > len(data):
            raise IndexError(end)
        if marker in _JPEG_FRAMES:
            height, width = struct.unpack_from(">HH", data, at + 5)
        if marker == 0xE1:
            body = data[at + 4:end]
            if body.startswith(_EXIF) and (orientation := _orientation(body[len(_EXIF):])) is not None:
                segment = _EXIF + _orientation_tiff(orientation)
                kept.append(b"\xff\xe1" + struct.pack(">H", len(segment) + 2) + segment)
        elif marker not in _JPEG_DROPPED and not (marker == 0xE2 and data.startswith(_MPF, at + 4)):
            kept.append(view[at:end])
        at = end
        if marker == 0xDA:  # a scan's coded data, up to the next marker but a restart
            end = _scan_end(data, at)
            kept.append(view[at:end])
            at = end
    if width is None or height is None:
        raise ImageDataError("is no JPEG image: it has no frame header (SOF)")
    return PublishedImage(b"".join(kept), width, height)


def _scan_end(data: bytes, at: int) -> int:
    """Where the coded data of a scan starting at `at` ends: at a marker, which is 0xFF
    followed by neither 0 (a coded 0xFF) nor a restart marker; or at the end."""
    found = _MARKER.search(data, at)
    return found.start() if found else len(data)


# --- EXIF: a TIFF structure; only the orientation (tag 0x0112 of the first IFD) is kept --

def _orientation(tiff: bytes) -> int | None:
    """The orientation an EXIF block gives, when it turns or mirrors the image; None
    otherwise, or when the block cannot be read."""
    try:
        order = {b"II": "<", b"MM": ">"}[tiff[:2]]
        (ifd,) = struct.unpack_from(order + "I", tiff, 4)
        (count,) = struct.unpack_from(order + "H", tiff, ifd)
        for entry in range(ifd + 2, ifd + 2 + 12 * count, 12):
            tag, kind, _, value = struct.unpack_from(order + "HHIH", tiff, entry)
            if tag == 0x0112 and kind == 3:
                return value if 2 <= value <= 8 else None
    except (KeyError, struct.error):
        pass
    return None


def _orientation_tiff(orientation: int) -> bytes:
    """An EXIF block that holds nothing but `orientation`."""
    return b"MM\0*" + struct.pack(">IHHHIHHI", 8, 1, 0x0112, 3, 1, orientation, 0, 0)


# --- GIF: a header, then blocks of sub-blocks up to the trailer -------------------------

# Application extensions kept: those that make an animation loop, and a colour profile.
_GIF_APPLICATIONS_KEPT = (b"NETSCAPE2.0", b"ANIMEXTS1.0", b"ICCRGBG1012")


def _gif(data: bytes) -> PublishedImage:
    width, height, flags = struct.unpack_from("<HHB", data, 6)
    at = 13 + (3 << ((flags & 7) + 1) if flags & 0x80 else 0)  # past the global colour table
    view = memoryview(data)
    kept: list[bytes | memoryview] = [view[:at]]
    while True:
        block = data[at]
        if block == 0x3B:  # the trailer
            kept.append(b";")
            break
        if block == 0x2C:  # an image: its descriptor, a colour table, then its coded data
            frame_width, frame_height, frame_flags = struct.unpack_from("<HHB", data, at + 5)
            width, height = max(width, frame_width), max(height, frame_height)
            start = at
            at += 10 + (3 << ((frame_flags & 7) + 1) if frame_flags & 0x80 else 0) + 1  # and LZW's code size
            at = _sub_blocks_end(data, at)
            kept.append(view[start:at])
        elif block == 0x21:  # an extension: its label, then sub-blocks
            label, start = data[at + 1], at
            at = _sub_blocks_end(data, at + 2)
            application = data[start + 3:start + 14] if label == 0xFF and data[start + 2] == 11 else b""
            if label != 0xFE and (label != 0xFF or application in _GIF_APPLICATIONS_KEPT):
                kept.append(view[start:at])
        else:
            raise ImageDataError(f"is a damaged GIF image: no block at byte {at:,}")
    return PublishedImage(b"".join(kept), width, height)


def _sub_blocks_end(data: bytes, at: int) -> int:
    while (size := data[at]) != 0:
        at += 1 + size
    return at + 1


# --- WebP: a RIFF file of chunks (fourcc, length, data padded to an even length) --------

_WEBP_DROPPED = frozenset({b"EXIF", b"XMP "})
_VP8X_EXIF_AND_XMP = 0x08 | 0x04  # the flags that say the chunks are there


def _webp(data: bytes) -> PublishedImage:
    (riff_size,) = struct.unpack_from("<I", data, 4)
    end_of_file = min(len(data), 8 + riff_size)
    view = memoryview(data)
    kept: list[bytes | memoryview] = []
    at = 12
    width = height = None
    while at + 8 <= end_of_file:
        kind, length = struct.unpack_from("<4sI", data, at)
        end = at + 8 + length + (length & 1)
        if at + 8 + length > end_of_file:
            raise IndexError(end)
        body = data[at + 8:at + 8 + length]
        if kind == b"VP8X":
            width = 1 + int.from_bytes(body[4:7], "little")
            height = 1 + int.from_bytes(body[7:10], "little")
            kept.append(data[at:at + 8] + bytes([body[0] & ~_VP8X_EXIF_AND_XMP & 0xFF]) + data[at + 9:end])
        elif kind not in _WEBP_DROPPED:
            kept.append(view[at:end])
        if width is None and kind == b"VP8 ":
            width, height = (struct.unpack_from("<H", body, offset)[0] & 0x3FFF for offset in (6, 8))
        elif width is None and kind == b"VP8L":
            (bits,) = struct.unpack_from("<I", body, 1)
            width, height = (bits & 0x3FFF) + 1, (bits >> 14 & 0x3FFF) + 1
        at = end
    if width is None or height is None:
        raise ImageDataError("is no WebP image: it has no frame (VP8, VP8L or VP8X)")
    chunks = b"".join(kept)
    return PublishedImage(b"RIFF" + struct.pack("<I", 4 + len(chunks)) + b"WEBP" + chunks, width, height)
