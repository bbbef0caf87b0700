"""The images of the author's pages, as the site publishes them: each checked by its
bytes and its size, and written into the built site by the build itself, without its
text and location (transcript.image_data), rather than copied as it is by the generator."""

from __future__ import annotations

import os
from collections.abc import Iterable

from transcript.images import IMAGE_EXTENSIONS, image_for_site

from .generated import WrittenFile
from .site_pages import PageError


def is_image(path: str) -> bool:
    """Whether the file at `path` is named as an image the build checks and publishes."""
    return os.path.splitext(path)[1][1:].lower() in IMAGE_EXTENSIONS


def write_images(images: Iterable[tuple[str, str]], site_dir: str, project_dir: str) -> list[WrittenFile]:
    """Each image of `images` (its source path in the site, its file) written into the
    site in `site_dir`, one at a time; PageError naming the first that cannot be
    published, and why. Its size is checked before it is read: a file of gigabytes named
    as an image stops the build at once."""
    written = []
    for src, path in images:
        image = image_for_site(path, follow_links=True)  # links within the project: checked already
        if isinstance(image, str):
            raise PageError(f"{os.path.relpath(path, project_dir)}: {image}")
        target = os.path.join(site_dir, *src.split("/"))
        os.makedirs(os.path.dirname(target), exist_ok=True)
        with open(target, "wb") as file:
            file.write(image.data)
        written.append(WrittenFile(src, target))
    return written
