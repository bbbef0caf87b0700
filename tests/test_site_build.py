"""The build without MkDocs: `SiteBuild` driven by Python-Markdown alone, as another
site generator would drive it."""

import logging
from types import SimpleNamespace

import markdown
from bs4 import BeautifulSoup

from conftest import ROOT
from msgref.snippets import to_html
from sitebuild import citing
from sitebuild.build import SiteBuild
from sitebuild.config_file import read_config
from sitebuild.urls import relative_url


def url_of(src: str) -> str:
    """Directory URLs, as MkDocs makes them: context.md -> context/, transcript/index.md -> transcript/."""
    if not src.endswith(".md"):
        return src
    stem = src.removesuffix(".md")
    return "" if stem == "index" else (stem.removesuffix("index") if stem.endswith("/index") else stem + "/")


def test_relative_urls_between_pages_and_files():
    assert relative_url("transcript/", "context/") == "../transcript/"
    assert relative_url("context/", "context/") == "./"
    assert relative_url("", "transcript/page-2/") == "../.."
    assert relative_url("cite/essay.bib", "") == "cite/essay.bib"
    assert relative_url("context.html", "transcript/index.html") == "../context.html"


def test_the_build_runs_with_python_markdown_alone(caplog):
    config = read_config(ROOT / "mkdocs.yml")
    build = SiteBuild(config, str(ROOT), logging.getLogger("test"))
    docs = ROOT / "docs"
    pages = {str(path.relative_to(docs)): path.read_text(encoding="utf-8") for path in sorted(docs.rglob("*.md"))}
    made = {file.src: file for file in build.generated_files(pages)}
    assert {"transcript/index.md", "print.md"} <= set(made)
    assert made["transcript/index.md"].in_nav and not made["print.md"].in_nav

    site = SimpleNamespace(url=lambda src: url_of(src) if src in pages or src in made else None)
    build.files_listed(site)
    names, options = [], {}
    for item in config["markdown_extensions"]:  # a name, or {name: its options}
        name, settings = next(iter(item.items())) if isinstance(item, dict) else (item, {})
        names.append(name)
        options[name] = settings
    extensions = [*names, *build.markdown_extensions(names)]
    html = {}
    for src, text in [*pages.items(), *((src, f.content) for src, f in made.items() if src.endswith(".md"))]:
        build.begin_page(src, text if src in pages else None, text)
        html[src] = markdown.Markdown(extensions=extensions, extension_configs=options).convert(text)
    downloads = {file.src: file.content for file in build.finished_files()}
    finished = {src: build.page_written(src, build.finish_page(src, page)) for src, page in html.items()}
    assert not [record for record in caplog.records if record.levelno >= logging.WARNING]

    transcript = BeautifulSoup(finished["transcript/index.md"], "html.parser")
    cited_in = transcript.find(id="msg-5855").find_next(class_="msg-cited-in")
    assert [a["href"] for a in cited_in.select("a")] == ["../empty-message/#cite-5855"]
    section = BeautifulSoup(finished["context.md"], "html.parser")
    assert section.select_one("details.cite-this summary").get_text() == "Cite this section"
    how_to_cite = BeautifulSoup(finished["how-to-cite.md"], "html.parser")
    assert how_to_cite.select("div.citation-slot") == [] and len(how_to_cite.select(".citations-shown")) == 4
    assert "Paragraph 2 of “The Context: A Model That Produces Garbage”" in how_to_cite.get_text()
    head = build.head("index.md")
    assert {"name": "citation_title", "content": config["extra"]["essay"]["title"]} in head["meta"]
    assert set(downloads) == {"cite/essay.bib", "cite/essay-biblatex.bib", "cite/essay.ris", "cite/essay.json"}
    assert downloads["cite/essay.ris"].count("TY  - ELEC") == 8
    # Each message's "Cite this message" box, made from one template a page, is the box made for it alone.
    boxes = citing.message_boxes(build, "transcript/index.md", site)
    for n in [*build.transcript.numbers, 1, 10, 99999]:
        assert boxes(n) == to_html(citing.message_box(build, n, site, "transcript/index.md")), n
    shown = transcript.find(id="msg-5852").find_next("details", class_="cite-this")
    assert str(shown) == str(BeautifulSoup(boxes(5852), "html.parser"))
