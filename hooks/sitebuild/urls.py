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
