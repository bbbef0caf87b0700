"""Links between the files of a built site, from their URLs relative to the site's root."""

from __future__ import annotations

import posixpath


def relative_url(target: str, base: str) -> str:
    """The link from the page at `base` to `target`, both URLs relative to the site's
    root as generators give them: "" (the home page), "context/", "context.html",
    "cite/essay.bib". A folder's URL ends in "/", and so does the link to it."""
    folder = base if base.endswith("/") or not base else posixpath.dirname(base)
    link = posixpath.relpath("/" + target, "/" + folder)
    return link + "/" if target.endswith("/") and not link.endswith("/") else link


def directory_url(src: str) -> str:
    """Where a generator with directory URLs (MkDocs' default) serves page `src`:
    "a/b.md" at "a/b/", "a/index.md" at "a/", "index.md" at ""."""
    stem = src.removesuffix(".md")
    return stem.removesuffix("index") if stem == "index" or stem.endswith("/index") else stem + "/"
