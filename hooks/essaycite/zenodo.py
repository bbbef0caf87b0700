""".zenodo.json: what Zenodo records for an archive of a tagged release of the repository.

Zenodo's GitHub integration archives each release and registers a DOI for it, reading
its metadata from this file when the repository holds one: the essay's title, authors,
description, date and edition. The archive is recorded as a publication of type
"other": the essay is a finished, published work (not a "workingpaper", a draft
awaiting publication), and an essay on the web is none of Zenodo's other types.

Left out when the settings have none: the creators of an unsigned essay (Zenodo then
names the repository's owner), the description, and the site's address when the build
has a local one (the local server's), which would be no address for a reader.
"""

from __future__ import annotations

import ipaddress
import json
from typing import Any
from urllib.parse import urlsplit

from .metadata import EssayMetadata


def _is_local(url: str) -> bool:
    host = urlsplit(url).hostname or ""
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def zenodo_metadata(meta: EssayMetadata) -> dict[str, Any]:
    """The metadata Zenodo reads from .zenodo.json, for the essay described by `meta`."""
    data: dict[str, Any] = {"title": meta.title, "upload_type": "publication", "publication_type": "other"}
    if meta.authors:  # a person as "Family, Given", as Zenodo lists creators
        data["creators"] = [{"name": author.inverted} for author in meta.authors]
    if meta.description:
        data["description"] = meta.description
    data.update({"publication_date": meta.published.isoformat(), "version": str(meta.edition)})
    if not _is_local(meta.url):
        data["related_identifiers"] = [{"identifier": meta.url, "relation": "isSourceOf", "scheme": "url"}]
    return data


def zenodo_json_text(meta: EssayMetadata) -> str:
    return json.dumps(zenodo_metadata(meta), ensure_ascii=False, indent=2) + "\n"
