"""Machine-readable metadata for a page's <head>: Highwire Press, Dublin Core, schema.org.

Every page describes the whole essay, so that indexers and reference managers see one
work however a reader arrives; a section is cited through the "Cite this" text instead.
The functions return data; the caller writes the <meta> and <script> elements.

Where these formats require an author (Google Scholar requires `citation_author`) and
the essay names none, they carry the label "Anonymous".
"""

from __future__ import annotations

import json
from collections.abc import Iterable

from .metadata import EssayMetadata, Part

# The <link rel="schema.DC" href="..."> that declares the DC.* prefix.
DUBLIN_CORE_SCHEMA = ("schema.DC", "http://purl.org/dc/elements/1.1/")


def highwire_tags(meta: EssayMetadata, *, pdf_url: str | None = None,
                  fulltext_url: str | None = None) -> list[tuple[str, str]]:
    """`citation_*` (name, content) pairs, in the order Google Scholar documents them.

    fulltext_url: the page holding the whole text (such as the one-page print view);
    the essay's home page by default. pdf_url: the essay's PDF, absolute or site-relative.
    Highwire has no edition tag; the edition is in the JSON-LD `version`.
    """
    date = meta.published.strftime("%Y/%m/%d")  # Scholar's preferred form; digits only
    tags = [
        ("citation_title", meta.title),
        ("citation_author", meta.author_label),
        ("citation_publication_date", date),
        ("citation_online_date", date),
        ("citation_fulltext_html_url", meta.url_for(fulltext_url or "")),
        ("citation_language", meta.language),
    ]
    if pdf_url:
        tags.append(("citation_pdf_url", meta.url_for(pdf_url)))
    return tags


def dublin_core_tags(meta: EssayMetadata) -> list[tuple[str, str]]:
    """`DC.*` (name, content) pairs; declare the prefix with DUBLIN_CORE_SCHEMA."""
    tags = [
        ("DC.title", meta.title),
        ("DC.creator", meta.author_label),
        ("DC.date", meta.published.isoformat()),  # W3C-DTF, as DCMI recommends
        ("DC.type", "Text"),
        ("DC.format", "text/html"),
        ("DC.identifier", meta.url),
        ("DC.language", meta.language),
    ]
    if meta.description:
        tags.append(("DC.description", meta.description))
    return tags


def json_ld(meta: EssayMetadata, parts: Iterable[Part] = (), *, pdf_url: str | None = None) -> dict:
    """A schema.org ScholarlyArticle, with each section under hasPart in reading order."""
    data = {
        "@context": "https://schema.org",
        "@type": "ScholarlyArticle",
        "@id": meta.url,
        "url": meta.url,
        "headline": meta.title,
        "name": meta.title,
        "author": {"@type": "Person", "name": meta.author_label},
        "datePublished": meta.published.isoformat(),
        "version": str(meta.edition),
        "inLanguage": meta.language,
    }
    if meta.description:
        data["description"] = meta.description
    sections = [
        {"@type": "CreativeWork", "position": position, "name": part.title, "url": part.url}
        for position, part in enumerate(parts, start=1)
    ]
    if sections:
        data["hasPart"] = sections
    if pdf_url:
        data["encoding"] = {
            "@type": "MediaObject",
            "contentUrl": meta.url_for(pdf_url),
            "encodingFormat": "application/pdf",
        }
    return data


def json_ld_script_text(data: dict) -> str:
    """JSON for a <script type="application/ld+json"> element: "<", ">" and "&" are
    written as \\u escapes, so no title can close the element or open a comment."""
    text = json.dumps(data, ensure_ascii=False, indent=2)
    return text.replace("&", "\\u0026").replace("<", "\\u003c").replace(">", "\\u003e")
