"""The images of a transcript's messages: files in a folder beside the transcript file,
each named by its content's hash and its kind (schema.IMAGE_NAME_RE), published with the
pages that show their messages.

An image is published only if its bytes are the kind its name says: a file of any other
kind (a page of HTML named `.png`) would be served as what it is not. It is published
without its text and location (transcript.image_data), within the limits of its size.
"""

from __future__ import annotations

import os
import posixpath
import stat

from .image_data import MAX_IMAGE_BYTES, ImageDataError, PublishedImage, pixels_problem, published_image, size_problem
from .schema import IMAGES_FOLDER

# The first bytes of each kind of image a page may show, by the extension it is named with.
_SIGNATURES = {"png": (b"\x89PNG\r\n\x1a\n",), "jpg": (b"\xff\xd8\xff",), "gif": (b"GIF87a", b"GIF89a")}


def image_kind(data: bytes) -> str | None:
    """The extension of the image kind `data` is, by its first bytes; None for any other."""
    for kind, signatures in _SIGNATURES.items():
        if data.startswith(signatures):
            return kind
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "webp"
    return None


def images_folder(source_path: str) -> str:
    """The folder of the images of the transcript file at `source_path`."""
    stem = os.path.splitext(os.path.basename(source_path))[0]
    return os.path.join(os.path.dirname(source_path), IMAGES_FOLDER.format(stem=stem))


def image_src(folder: str, name: str) -> str:
    """Where image `name` is published in the site: beside the transcript's pages in `folder`."""
    return posixpath.join(folder.strip("/"), "images", name)


# The kinds of image by the extensions a file may be named with.
IMAGE_EXTENSIONS = {"png": "png", "jpg": "jpg", "jpeg": "jpg", "gif": "gif", "webp": "webp"}


def image_for_site(path: str, follow_links: bool = False) -> PublishedImage | str:
    """The image file at `path` as the site publishes it (transcript.image_data: without its
    text and location), or what keeps it from being published: it is missing, no regular
    file (a folder, or a link unless `follow_links`), larger than the limits in bytes or
    pixels, not the kind its name says, or cut short. Its size is checked before a byte
    is read: a file of gigabytes named as an image is never read."""
    extension = os.path.splitext(path)[1][1:]
    kind = IMAGE_EXTENSIONS.get(extension.lower())
    try:
        status = os.stat(path) if follow_links else os.lstat(path)
        if not stat.S_ISREG(status.st_mode):
            return "is not a regular file"
        if problem := size_problem(status.st_size):
            return problem
        with open(path, "rb") as file:
            data = file.read(MAX_IMAGE_BYTES + 1)
    except FileNotFoundError:
        return "is missing"
    except OSError as error:
        return f"cannot be read: {error.strerror}"
    if kind is None or image_kind(data[:16]) != kind:
        return f"is not a {extension.upper()} image, by its bytes"
    if problem := size_problem(len(data)):  # grown since it was looked at
        return problem
    try:
        image = published_image(data, kind)
    except ImageDataError as error:
        return str(error)
    return pixels_problem(image.width, image.height) or image


def image_problem(path: str) -> str | None:
    """What keeps the image file at `path` from being published (see image_for_site), or None."""
    found = image_for_site(path)
    return found if isinstance(found, str) else None
