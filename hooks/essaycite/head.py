"""Machine-readable metadata for a page's <head>, true to what the page is.

Three kinds of page:

- `ESSAY`, the essay's home page, describes the essay: Highwire Press `citation_*` tags
  (as Google Scholar reads them), Dublin Core `DC.*`, and a schema.org ScholarlyArticle
  with each section under `hasPart`.
- `SECTION`, a page of the essay, describes itself as a part of it: its own Dublin Core
  tags and a schema.org node `isPartOf` the essay. No Highwire tags: Google Scholar
  takes each page that carries them for an article of its own, so tags on every
  section would index the essay once per section, or as seven articles.
- `PAGE`, any other page (transcript, how to cite, note on the text, the whole essay
  on one page), claims to be no article: a schema.org WebPage of the site.

Every page has Open Graph and Twitter card tags, for a shared link's preview. The
authors appear only when the settings name them (`site_author` or
`extra.essay.authors`), each in its own `citation_author` and `DC.creator`, an
organisation by its name; an unsigned essay has no `citation_author`, `DC.creator` or
JSON-LD author. The essay's DOI, when set, is in `citation_doi` and in a second
`DC.identifier` (`doi:10.…`) of the essay's home page alone, and in a `cite-as` link
of the pages that hold the whole essay. The functions return data;
the caller writes the elements.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from .doi import doi_url
from .metadata import EssayMetadata, Part, Person

ESSAY, SECTION, PAGE = "essay", "section", "page"
JsonObject = dict[str, Any]  # a JSON object, as json.dumps writes it

# The <link rel="schema.DC" href="..."> that declares the DC.* prefix.
DUBLIN_CORE_SCHEMA = ("schema.DC", "http://purl.org/dc/elements/1.1/")


@dataclass(frozen=True)
class Head:
    """What a page's <head> gets: attributes of <meta> and of <link> elements, in order,
    and the JSON-LD for a <script type="application/ld+json"> (see json_ld_script_text)."""

    meta: list[dict[str, str]] = field(default_factory=list)
    links: list[dict[str, str]] = field(default_factory=list)
    json_ld: JsonObject = field(default_factory=dict)


def page_head(meta: EssayMetadata, kind: str, page: Part | None = None, parts: Iterable[Part] = (), *,
              pdf_url: str | None = None, fulltext_url: str | None = None,
              description: str | None = None) -> Head:
    """The <head> metadata of one page.

    kind: ESSAY, SECTION or PAGE. page: the page as a Part (its title and absolute URL);
    for ESSAY, the essay's home by default. parts: the essay's sections in reading order.
    pdf_url, fulltext_url: the essay's PDF and its whole text on one page (absolute or
    site-relative). description: the page's summary for link previews; the site's
    description by default.
    """
    if kind not in (ESSAY, SECTION, PAGE):
        raise ValueError(f"page kind: expected {ESSAY!r}, {SECTION!r} or {PAGE!r}, got {kind!r}")
    if page is None:
        if kind != ESSAY:
            raise ValueError(f"a {kind} page needs its title and URL")
        page = Part(meta.title, meta.url)
    parts = list(parts)
    pairs: list[tuple[str, str]] = []
    links = []
    if kind == ESSAY:
        pairs += highwire_tags(meta, pdf_url=pdf_url, fulltext_url=fulltext_url)
    if kind in (ESSAY, SECTION):
        pairs += dublin_core_tags(meta, None if kind == ESSAY else page)
        links.append({"rel": DUBLIN_CORE_SCHEMA[0], "href": DUBLIN_CORE_SCHEMA[1]})
    if kind == ESSAY:
        links += cite_as_links(meta)
    tags = [{"name": name, "content": content} for name, content in pairs]
    tags += open_graph_tags(meta, kind, page, description)
    if kind == ESSAY:
        data = json_ld(meta, parts, pdf_url=pdf_url)
    elif kind == SECTION:
        data = section_json_ld(meta, page, parts)
    else:
        data = page_json_ld(meta, page)
    return Head(tags, links, data)


def highwire_tags(meta: EssayMetadata, *, pdf_url: str | None = None,
                  fulltext_url: str | None = None) -> list[tuple[str, str]]:
    """The essay's `citation_*` (name, content) pairs, in the order Google Scholar
    documents them; a `citation_author` for each author the settings name, in order.

    fulltext_url: the page holding the whole text (such as the one-page print view);
    the essay's home page by default. pdf_url: the essay's PDF, absolute or site-relative.
    Highwire has no edition tag; the edition is in the JSON-LD `version`.
    """
    date = meta.published.strftime("%Y/%m/%d")  # Scholar's preferred form; digits only
    tags = [("citation_title", meta.title)]
    tags += [("citation_author", author.display) for author in meta.authors]
    tags += [
        ("citation_publication_date", date),
        ("citation_online_date", date),
        ("citation_fulltext_html_url", meta.url_for(fulltext_url or "")),
        ("citation_language", meta.language),
    ]
    if pdf_url:
        tags.append(("citation_pdf_url", meta.url_for(pdf_url)))
    if meta.doi:
        tags.append(("citation_doi", meta.doi))  # bare, as Scholar documents it
    return tags


def cite_as_links(meta: EssayMetadata) -> list[dict[str, str]]:
    """For a page that holds the whole essay: `<link rel="cite-as">` (RFC 8574) to its
    DOI's address, when it has a DOI; how the PDF printed from the page learns it."""
    return [{"rel": "cite-as", "href": doi_url(meta.doi)}] if meta.doi else []


def dublin_core_tags(meta: EssayMetadata, part: Part | None = None) -> list[tuple[str, str]]:
    """`DC.*` (name, content) pairs of the essay, or of one section (related to the essay
    by DC.relation); declare the prefix with DUBLIN_CORE_SCHEMA."""
    tags = [("DC.title", part.title if part else meta.title)]
    tags += [("DC.creator", author.display) for author in meta.authors]
    tags += [
        ("DC.date", meta.published.isoformat()),  # W3C-DTF, as DCMI recommends
        ("DC.type", "Text"),
        ("DC.format", "text/html"),
        ("DC.identifier", part.url if part else meta.url),
    ]
    if meta.doi and not part:  # the DOI names the whole essay, not a section
        tags.append(("DC.identifier", f"doi:{meta.doi}"))
    tags.append(("DC.language", meta.language))
    if part:
        tags.append(("DC.relation", meta.url))
    elif meta.description:
        tags.append(("DC.description", meta.description))
    return tags


def open_graph_tags(meta: EssayMetadata, kind: str, page: Part, description: str | None = None) -> list[dict[str, str]]:
    """Open Graph `og:*` (and, on the essay's pages, `article:*`) and Twitter card tags.
    No image: the site makes none."""
    text = description if description is not None else meta.description
    tags = [
        {"property": "og:title", "content": page.title},
        {"property": "og:type", "content": "website" if kind == PAGE else "article"},
        {"property": "og:url", "content": page.url},
        {"property": "og:site_name", "content": meta.site_name},
    ]
    if text:
        tags.append({"property": "og:description", "content": text})
    if kind != PAGE:
        tags.append({"property": "article:published_time", "content": meta.published.isoformat()})
    tags += [{"name": "twitter:card", "content": "summary"}, {"name": "twitter:title", "content": page.title}]
    if text:
        tags.append({"name": "twitter:description", "content": text})
    return tags


def _common(meta: EssayMetadata) -> JsonObject:
    data: JsonObject = {}
    authors = [{"@type": "Person" if isinstance(author, Person) else "Organization", "name": author.display}
               for author in meta.authors]
    if authors:
        data["author"] = authors[0] if len(authors) == 1 else authors
    data.update({"datePublished": meta.published.isoformat(), "version": str(meta.edition),
                 "inLanguage": meta.language})
    return data


def _essay_node(meta: EssayMetadata) -> JsonObject:
    return {"@type": "ScholarlyArticle", "@id": meta.url, "url": meta.url, "name": meta.title}


def json_ld(meta: EssayMetadata, parts: Iterable[Part] = (), *, pdf_url: str | None = None) -> JsonObject:
    """The essay: a schema.org ScholarlyArticle, with each section under hasPart in
    reading order, each with the @id its own page gives itself."""
    data: JsonObject = {"@context": "https://schema.org", **_essay_node(meta), "headline": meta.title, **_common(meta)}
    if meta.description:
        data["description"] = meta.description
    sections = [
        {"@type": "CreativeWork", "@id": part.url, "position": position, "name": part.title, "url": part.url}
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


def section_json_ld(meta: EssayMetadata, part: Part, parts: Iterable[Part] = ()) -> JsonObject:
    """A section: a CreativeWork of its own (name, address, position among `parts`)
    that isPartOf the essay."""
    data: JsonObject = {"@context": "https://schema.org", "@type": "CreativeWork", "@id": part.url, "url": part.url,
                        "name": part.title}
    urls = [p.url for p in parts]
    if part.url in urls:
        data["position"] = urls.index(part.url) + 1
    data.update(_common(meta))
    data["isPartOf"] = _essay_node(meta)
    return data


def page_json_ld(meta: EssayMetadata, page: Part) -> JsonObject:
    """Another page of the site: a WebPage, part of the site, not of the article."""
    return {
        "@context": "https://schema.org", "@type": "WebPage", "@id": page.url, "url": page.url,
        "name": page.title, "inLanguage": meta.language,
        "isPartOf": {"@type": "WebSite", "@id": meta.url + "#website", "url": meta.url, "name": meta.site_name},
    }


def json_ld_script_text(data: JsonObject) -> str:
    """JSON for a <script type="application/ld+json"> element: "<", ">" and "&" are
    written as \\u escapes, so no title can close the element or open a comment."""
    text = json.dumps(data, ensure_ascii=False, indent=2)
    return text.replace("&", "\\u0026").replace("<", "\\u003c").replace(">", "\\u003e")
