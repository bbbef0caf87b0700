"""The images of a log, kept: each image block a reader found is decoded (one at a time),
checked by its bytes to be a PNG, JPEG, GIF or WebP image of at most MAX_IMAGE_BYTES and
MAX_IMAGE_PIXELS, and written, without its text and location (transcript.image_data), to the
folder of the transcript's images (transcript.images.images_folder), named by the hash of what
is written and its kind (schema.IMAGE_NAME_RE): the same picture pasted twice with other
metadata is one file, and the file the site publishes is the one its name hashes.

The folder is written as the transcript is: under a temporary name beside it, put in
place only when the import succeeds, replacing the folder of an earlier import (whose
images no message may refer to any more); a failed or interrupted import leaves the
earlier folder as it was and no partial one.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import os
import shutil
import stat
import tempfile

from transcript.image_data import MAX_IMAGE_BYTES, MAX_IMAGE_PIXELS, ImageDataError, pixels_problem, published_image
from transcript.images import image_kind, images_folder
from transcript.schema import IMAGE_NAME_RE, MAX_IMAGES

from .common import ImageBlock, LogError
from .jsonl import size_text

# The longest base64 text of an image that may be at most MAX_IMAGE_BYTES: a longer one
# is left out without being decoded.
MAX_BASE64_CHARS = -(-MAX_IMAGE_BYTES // 3) * 4
_HASH_DIGITS = 32

# Why an image is left out, as the report says it (with common.A_LINK, NO_IMAGE_DATA and
# DATA_URL_NOT_BASE64): never its data, nor any value of the log.
NOT_AN_IMAGE = "not a PNG, JPEG, GIF or WebP image, by its bytes"
NOT_BASE64 = "not valid base64"
TOO_LARGE = f"larger than {size_text(MAX_IMAGE_BYTES)} decoded, the most an image may be"
TOO_MANY_PIXELS = f"more than the {MAX_IMAGE_PIXELS:,} pixels an image may have"
DAMAGED = "a damaged image: its chunks cannot be read to the end"
TOO_MANY = f"past the {MAX_IMAGES} images one message may hold"
NO_IMAGES_OPTION = "--no-images was given"
NO_FOLDER = "the output is not a file, and no folder of images can be beside it (import with -o FILE to keep them)"
# Files a folder of images may hold that the importer did not write: they go with it.
_SYSTEM_FILES = frozenset({".DS_Store", "Thumbs.db", "desktop.ini"})


def decoded(block: ImageBlock) -> tuple[bytes, str] | str:
    """The bytes of an image block, without its text and location (transcript.image_data),
    and their kind (`png`, `jpg`, `gif`, `webp`), or why it is left out. Base64 too long
    for MAX_IMAGE_BYTES is not decoded at all."""
    if block.problem is not None:
        return block.problem
    if len(block.text) - block.start > MAX_BASE64_CHARS:
        return TOO_LARGE
    try:
        data = base64.b64decode(block.text[block.start:] if block.start else block.text, validate=True)
    except (binascii.Error, ValueError):  # a character out of the alphabet, or cut short
        return NOT_BASE64
    if len(data) > MAX_IMAGE_BYTES:
        return TOO_LARGE
    kind = image_kind(data[:16])
    if kind is None:
        return NOT_AN_IMAGE
    try:
        image = published_image(data, kind)
    except ImageDataError:
        return DAMAGED
    if pixels_problem(image.width, image.height):
        return TOO_MANY_PIXELS
    return image.data, kind


def image_name(data: bytes, kind: str) -> str:
    """The file name of an image: the first 32 hex digits of its SHA-256, then its kind."""
    return f"{hashlib.sha256(data).hexdigest()[:_HASH_DIGITS]}.{kind}"


class LeftOut:
    """The images left out, by reason: how many, and the first few log lines of each."""

    def __init__(self) -> None:
        self.reasons: dict[str, list] = {}  # reason -> [count, first lines, more lines than those]

    def add(self, reason: str, line: int, count: int = 1) -> None:
        entry = self.reasons.setdefault(reason, [0, [], False])
        entry[0] += count
        if line not in entry[1]:
            if len(entry[1]) < 5:
                entry[1].append(line)
            else:
                entry[2] = True

    @property
    def count(self) -> int:
        return sum(entry[0] for entry in self.reasons.values())


class ImageFolder:
    """The folder of a transcript's images, written under a temporary name beside it and
    put in place by `put_in_place`, then `finish`; `abandon` after any failure leaves the
    folder as it was before the import."""

    def __init__(self, output: str):
        # Beside the output as it was named, where the site build looks for the images;
        # a symbolic link to a folder leads to the folder replaced.
        self.name = images_folder(output)
        self.path = os.path.realpath(self.name)
        self.names: set[str] = set()
        self._temporary: str | None = None  # made when the first image is written
        self._aside: str | None = None  # the earlier folder, while the transcript is put in place
        self._placed = False
        self._check_earlier()

    def _check_earlier(self) -> None:
        """Refuse to replace anything but a folder of images as the importer writes them:
        a file, or a folder of files of someone else's, by the same name."""
        try:
            mode = os.stat(self.path).st_mode
        except FileNotFoundError:
            return
        except OSError as error:
            raise LogError(self.name, None, f"cannot write the images here: {_reason(error)}") from None
        if not stat.S_ISDIR(mode):
            raise LogError(self.name, None, "is not a folder, and the transcript's images go by this name: "
                           "move it away or choose another output")
        try:
            with os.scandir(self.path) as entries:
                for entry in entries:
                    if entry.name in _SYSTEM_FILES:
                        continue
                    if not (IMAGE_NAME_RE.fullmatch(entry.name) and entry.is_file(follow_symlinks=False)):
                        raise LogError(self.name, None, f"holds {entry.name!r}, which the importer did not write: "
                                       "the folder of the transcript's images is replaced at each import; "
                                       "move it away or choose another output")
        except OSError as error:
            raise LogError(self.name, None, f"cannot read the folder: {_reason(error)}") from None

    def write(self, data: bytes, kind: str) -> str:
        """Write an image into the temporary folder (once, however often the log holds it);
        its name."""
        name = image_name(data, kind)
        if name in self.names:
            return name
        try:
            if self._temporary is None:
                self._temporary = tempfile.mkdtemp(dir=os.path.dirname(self.path),
                                                   prefix=f".{os.path.basename(self.path)}.", suffix=".part")
            with open(os.path.join(self._temporary, name), "xb") as file:
                file.write(data)
        except OSError as error:
            raise LogError(self.name, None, f"cannot write the images: {_reason(error)}") from None
        self.names.add(name)
        return name

    def put_in_place(self) -> None:
        """Move the earlier folder aside and the new one (if any image was written) into its
        place: the last step before the transcript is renamed into place."""
        try:
            if os.path.lexists(self.path):
                aside = tempfile.mkdtemp(dir=os.path.dirname(self.path),
                                         prefix=f".{os.path.basename(self.path)}.", suffix=".old")
                os.rename(self.path, aside)  # over the empty folder just made
                self._aside = aside
            if self._temporary is not None:
                umask = os.umask(0)
                os.umask(umask)
                os.chmod(self._temporary, 0o777 & ~umask)  # mkdtemp's folder is its owner's only
                os.rename(self._temporary, self.path)
                self._temporary, self._placed = None, True
        except OSError as error:
            self.abandon()
            raise LogError(self.name, None, f"cannot put the images in place: {_reason(error)}") from None

    def finish(self) -> None:
        """The transcript is in place: the earlier images go, and the new ones stay
        (`abandon` does nothing from now on)."""
        self._placed = False
        if self._aside is not None:
            shutil.rmtree(self._aside, ignore_errors=True)
            self._aside = None

    def abandon(self) -> None:
        """The import failed: the images written are removed and the earlier folder put back."""
        if self._placed:
            shutil.rmtree(self.path, ignore_errors=True)
            self._placed = False
        if self._aside is not None:
            try:
                os.rename(self._aside, self.path)
            except OSError:
                pass  # left aside under its hidden name, whole: better than removed
            else:
                self._aside = None
        if self._temporary is not None:
            shutil.rmtree(self._temporary, ignore_errors=True)
            self._temporary = None


def _reason(error: OSError) -> str:
    if error.strerror:
        return error.strerror
    return os.strerror(error.errno) if error.errno else "an error of the operating system"


def kept_images(blocks: tuple[ImageBlock, ...], line: int, folder: ImageFolder | None, left_out: LeftOut,
                drop_reason: str = NO_IMAGES_OPTION) -> tuple[str, ...]:
    """The names of a message's images that are kept, in order, each written to `folder`
    as it is decoded; the others counted in `left_out` under the message's `line` of the
    log. With no folder, every image is left out for `drop_reason`."""
    if folder is None:
        if blocks:
            left_out.add(drop_reason, line, len(blocks))
        return ()
    names: list[str] = []
    for index, block in enumerate(blocks):
        if len(names) == MAX_IMAGES:
            left_out.add(TOO_MANY, line, len(blocks) - index)
            break
        found = decoded(block)
        if isinstance(found, str):
            left_out.add(found, line)
        else:
            names.append(folder.write(*found))
        del found  # the next image is decoded only once this one is gone
    return tuple(names)
