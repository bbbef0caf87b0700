"""The images of a transcript's messages: files in a folder beside the transcript file,
each named by its content's hash and its kind (schema.IMAGE_NAME_RE), published with the
pages that show their messages.

An image is published only if its bytes are the kind its name says: a file of any other
kind (a page of HTML named `.png`) would be served as what it is not.
"""

from __future__ import annotations

import os
import posixpath
import stat

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


def image_problem(path: str) -> str | None:
    """What keeps the image file at `path` from being published, or None: it is missing,
    no regular file (a link, a folder), or not the kind its name says."""
    try:
        mode = os.lstat(path).st_mode
        if not stat.S_ISREG(mode):
            return "is not a regular file"
        with open(path, "rb") as file:
            start = file.read(16)
    except FileNotFoundError:
        return "is missing"
    except OSError as error:
        return f"cannot be read: {error.strerror}"
    extension = os.path.splitext(path)[1][1:]
    return None if image_kind(start) == extension else f"is not a {extension.upper()} image, by its bytes"
