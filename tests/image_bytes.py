"""Small real images made in the tests, with the text and location a camera or a tool
writes into them, and the parts of an image read back: a PNG's chunks, a JPEG's
segments, a WebP's chunks, so that a test can say which were kept, byte for byte."""

from __future__ import annotations

import struct
import zlib

SECRET = b"export GITHUB_TOKEN=ghp_0123456789abcdefghijklmnopqrstuvwxyzAB"
LATITUDE = b"59/1 54/1 3/1"  # where the photograph was taken, as EXIF's GPS block holds it


def png_chunk(kind: bytes, body: bytes) -> bytes:
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))


def exif(orientation: int = 1) -> bytes:
    """A TIFF block as EXIF holds it: the orientation, and a GPS block with the latitude."""
    ifd0 = (struct.pack(">H", 2) + struct.pack(">HHIHH", 0x0112, 3, 1, orientation, 0)
            + struct.pack(">HHII", 0x8825, 4, 1, 38) + struct.pack(">I", 0))
    gps = struct.pack(">H", 1) + struct.pack(">HHII", 2, 2, len(LATITUDE), 56) + struct.pack(">I", 0)
    return b"MM\0*" + struct.pack(">I", 8) + ifd0 + gps + LATITUDE


def png(seed: int = 0, *, extra: tuple[bytes, ...] = (), size: int | None = None) -> bytes:
    """A 1 x 1 PNG of a colour of its own for each seed, with the chunks `extra` before its
    pixels; `size`: padded with a private chunk to that many bytes."""
    pixel = bytes([0, seed % 256, seed // 256 % 256, 7])
    head = b"\x89PNG\r\n\x1a\n" + png_chunk(b"IHDR", struct.pack(">IIBBBBB", 1, 1, 8, 2, 0, 0, 0)) + b"".join(extra)
    tail = png_chunk(b"IDAT", zlib.compress(pixel)) + png_chunk(b"IEND", b"")
    if size is not None:
        head += png_chunk(b"prVt", bytes([seed % 256]) * (size - len(head) - len(tail) - 12))
    return head + tail


def png_text_chunks() -> tuple[bytes, ...]:
    """A PNG's text chunks, each holding the secret, and an EXIF chunk with a GPS block."""
    return (png_chunk(b"tEXt", b"Comment\0" + SECRET),
            png_chunk(b"iTXt", b"XML:com.adobe.xmp\0\0\0\0\0" + SECRET),
            png_chunk(b"zTXt", b"Comment\0\0" + zlib.compress(SECRET)),
            png_chunk(b"eXIf", exif()))


def png_chunks(data: bytes) -> list[tuple[bytes, bytes]]:
    """A PNG's chunks, (type, the whole chunk)."""
    chunks, at = [], 8
    while at < len(data):
        (length,) = struct.unpack_from(">I", data, at)
        chunks.append((data[at + 4:at + 8], data[at:at + 12 + length]))
        at += 12 + length
    return chunks


def jpeg_segment(marker: int, body: bytes) -> bytes:
    return bytes([0xFF, marker]) + struct.pack(">H", len(body) + 2) + body


def jpeg(*, extra: tuple[bytes, ...] = ()) -> bytes:
    """An 8 x 8 grey JPEG (baseline: one block, whose only codes are "no difference" and
    "end of block"), with the segments `extra` after its JFIF header."""
    huffman_one_code = bytes([1] + [0] * 15) + b"\0"  # one code of one bit, for the symbol 0
    return (b"\xff\xd8" + jpeg_segment(0xE0, b"JFIF\0\x01\x01\0\0\x01\0\x01\0\0") + b"".join(extra)
            + jpeg_segment(0xDB, b"\0" + b"\x01" * 64)
            + jpeg_segment(0xC0, b"\x08\0\x08\0\x08\x01\x01\x11\0")
            + jpeg_segment(0xC4, b"\x00" + huffman_one_code) + jpeg_segment(0xC4, b"\x10" + huffman_one_code)
            + jpeg_segment(0xDA, b"\x01\x01\0\0\x3f\0") + b"\x3f" + b"\xff\xd9")


def jpeg_metadata() -> tuple[bytes, ...]:
    """EXIF with a GPS block, XMP, IPTC and a comment, each holding the latitude or the secret."""
    return (jpeg_segment(0xE1, b"Exif\0\0" + exif()),
            jpeg_segment(0xE1, b"http://ns.adobe.com/xap/1.0/\0<x:xmpmeta>" + SECRET + b"</x:xmpmeta>"),
            jpeg_segment(0xED, b"Photoshop 3.0\0" + SECRET),
            jpeg_segment(0xFE, SECRET))


def jpeg_segments(data: bytes) -> list[tuple[int, bytes]]:
    """A JPEG's segments up to its scan, (marker, the whole segment), then the scan's coded
    data and the end as one."""
    segments, at = [], 2
    while data[at + 1] != 0xDA:
        (length,) = struct.unpack_from(">H", data, at + 2)
        segments.append((data[at + 1], data[at:at + 2 + length]))
        at += 2 + length
    return [*segments, (0xDA, data[at:])]


GIF_PIXEL = (b",\0\0\0\0\x01\0\x01\0\0\x02\x02D\x01\0")  # an image descriptor and its coded pixel
GIF_HEAD = b"GIF89a\x01\0\x01\0\x80\0\0\0\0\0\xff\xff\xff"  # the screen and its two colours
GIF_LOOP = b"!\xff\x0bNETSCAPE2.0\x03\x01\0\0\0"  # loop for ever


def gif(*, extra: tuple[bytes, ...] = ()) -> bytes:
    return GIF_HEAD + b"".join(extra) + GIF_LOOP + b"!\xf9\x04\x01\0\0\0\0" + GIF_PIXEL + b";"


def gif_metadata() -> tuple[bytes, ...]:
    """A comment and an XMP application extension, each holding the secret."""
    return (b"!\xfe" + bytes([len(SECRET)]) + SECRET + b"\0",
            b"!\xff\x0bXMP DataXMP" + bytes([len(SECRET)]) + SECRET + b"\0")


WEBP_PIXEL = b"VP8L\x0d\0\0\0\x2f\0\0\0\x10\x07\x10\x11\x11\x88\x88\xfe\x07\0"  # 1 x 1, lossless


def webp_chunk(kind: bytes, body: bytes) -> bytes:
    return kind + struct.pack("<I", len(body)) + body + (b"\0" if len(body) % 2 else b"")


def webp(*, metadata: bool = False) -> bytes:
    """A 1 x 1 WebP; with `metadata`, extended: EXIF with a GPS block and XMP, flagged."""
    if not metadata:
        chunks = WEBP_PIXEL
    else:
        flags = bytes([0x08 | 0x04]) + b"\0\0\0"
        chunks = (webp_chunk(b"VP8X", flags + b"\0\0\0\0\0\0") + WEBP_PIXEL
                  + webp_chunk(b"EXIF", exif()) + webp_chunk(b"XMP ", SECRET))
    return b"RIFF" + struct.pack("<I", 4 + len(chunks)) + b"WEBP" + chunks


def webp_chunks(data: bytes) -> list[tuple[bytes, bytes]]:
    chunks, at = [], 12
    while at < len(data):
        kind, length = struct.unpack_from("<4sI", data, at)
        end = at + 8 + length + (length & 1)
        chunks.append((kind, data[at:end]))
        at = end
    return chunks
