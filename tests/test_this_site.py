"""The site in this repository, whatever essay docs/ holds: what these tests expect is
derived from its own settings and pages, so that they hold for any author's essay."""

from __future__ import annotations

import posixpath
import re
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest
from bs4 import BeautifulSoup

from conftest import ROOT, soup
from essaycite.source import lines_outside_code
from msgref.tags import TAG_RE
from sitebuild.config_file import read_config
from sitebuild.site_config import SiteConfig, read_site_config
from sitebuild.urls import directory_url
from transcript.reader import load_transcript

SITE = read_site_config(read_config(ROOT / "mkdocs.yml"), str(ROOT))
DOCS = ROOT / SITE.docs_dir
INLINE_CODE_RE = re.compile(r"`[^`\n]*`")
ESCAPED_TAG_RE = re.compile(r"\\\[msg \d+\]")  # `\[msg N]` shows the text, with no link


def essay_pages(site: SiteConfig) -> list[str]:
    return list(site.essay.sections) if site.essay else sorted(str(p.relative_to(DOCS)) for p in DOCS.rglob("*.md"))


def html_of(built: Path, src: str) -> Path:
    return built / directory_url(src) / "index.html"


def cited_in_source(src: str) -> set[int]:
    """The messages a page's Markdown cites, outside fenced and inline code."""
    prose = "\n".join(lines_outside_code((DOCS / src).read_text(encoding="utf-8")))
    return {int(n) for n in TAG_RE.findall(ESCAPED_TAG_RE.sub("", INLINE_CODE_RE.sub("", prose)))}


def outside_code(page: BeautifulSoup) -> str:
    article = page.select_one("article") or page
    for code in article.select("code, pre"):
        code.decompose()
    return article.get_text(" ")


@pytest.mark.parametrize("src", essay_pages(SITE))
def test_every_tag_became_a_link_to_its_message_with_its_preview(this_site: Path, src: str) -> None:
    page = soup(html_of(this_site, src))
    linked = {int(str(a["href"]).rsplit("#msg-", 1)[1]) for a in page.select("a.msg-ref")}
    # A tag alone on its line: the whole message, set as a quotation where the tag was.
    whole = {int(str(figure["id"]).split("-")[1]) for figure in page.select("figure.msg-snippet--full[id^=cite-]")}
    assert linked | whole == cited_in_source(src)
    previews = {str(preview["id"]).removeprefix("msg-preview-") for preview in page.select(".msg-preview")}
    assert {str(n) for n in linked} <= previews <= {str(n) for n in linked | whole}
    assert not TAG_RE.search(outside_code(soup(html_of(this_site, src)))), "a tag left as written"


def test_every_cited_message_links_back_to_each_page_that_cites_it(this_site: Path) -> None:
    transcript = load_transcript(SITE.source_path, SITE.transcript.source)
    cited = {n for src in essay_pages(SITE) for n in cited_in_source(src)}
    assert set(cited) <= set(transcript.numbers)
    entries = {}
    for html in (this_site / SITE.transcript.folder).rglob("*.html"):
        for entry in soup(html).select("[id^=msg-]"):
            entries[str(entry["id"])] = entry
    for n in sorted(cited):
        assert f"msg-{n}" in entries, f"message {n} has no entry"
        back = entries[f"msg-{n}"].find_next(class_="msg-cited-in")
        assert back is not None and any(f"#cite-{n}" in str(a["href"]) for a in back.select("a")), n


def test_every_link_between_pages_reaches_its_page_and_anchor(this_site: Path) -> None:
    ids: dict[Path, set[str]] = {}

    def ids_of(path: Path) -> set[str]:
        if path not in ids:
            ids[path] = {str(element["id"]) for element in soup(path).select("[id]")}
        return ids[path]

    broken = []
    for html in sorted(this_site.rglob("*.html")):
        if html.name == "404.html":
            continue  # its links are absolute, made for any depth
        for link in soup(html).select("a[href]"):
            href = str(link["href"])
            parts = urlsplit(href)
            if parts.scheme or parts.netloc or href.startswith(("mailto:", "javascript:")):
                continue
            target = html if not parts.path else Path(posixpath.normpath(html.parent / unquote(parts.path)))
            if target.is_dir():
                target = target / "index.html"
            if not target.exists():
                broken.append(f"{html.relative_to(this_site)}: {href}")
            elif parts.fragment and target.suffix == ".html" and unquote(parts.fragment) not in ids_of(target):
                broken.append(f"{html.relative_to(this_site)}: {href} (no such anchor)")
    assert not broken, broken[:20]


def test_how_to_cite_fills_every_slot(this_site: Path) -> None:
    page = soup(this_site / "how-to-cite" / "index.html")
    assert not page.select("div.citation-slot")
    assert page.select(".citations-shown")


def test_the_source_text_is_published_only_where_there_is_one(this_site: Path) -> None:
    assert (this_site / "source-text.txt").exists() == (DOCS / "source-text.txt").exists()
