"""The build without MkDocs: `SiteBuild` driven by Python-Markdown alone, as another
site generator would drive it."""

import logging
from dataclasses import replace
from types import SimpleNamespace
from typing import cast

import markdown
from bs4 import BeautifulSoup

from conftest import ESSAY, attribute, copy_project, found, selected
from msgview.html import to_html
from sitebuild.build import SiteBuild
from sitebuild.citing import CitableEssay
from sitebuild.config_file import read_config
from sitebuild.generated import GeneratedFile
from sitebuild.records import PageRecords
from sitebuild.site_config import read_site_config
from sitebuild.urls import relative_url
from transcriptsite.layout import TranscriptLayout


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


def test_the_build_runs_with_python_markdown_alone(caplog, tmp_path):
    project = copy_project(tmp_path / "project")  # the build writes CITATION.cff beside its settings
    config = read_config(project / "mkdocs.yml")
    docs = project / "docs"
    pages = {str(path.relative_to(docs)): path.read_text(encoding="utf-8") for path in sorted(docs.rglob("*.md"))}
    made: dict[str, GeneratedFile] = {}

    def add(files):
        made.update((file.src, file) for file in files)
        return SimpleNamespace(url=lambda src: url_of(src) if src in pages or src in made else None)

    build = SiteBuild(read_site_config(config, str(project)), pages, add, logging.getLogger("test"))
    assert {"transcript/index.md", "print.md"} <= set(made)
    assert made["transcript/index.md"].in_nav and not made["print.md"].in_nav
    names, options = [], {}
    for item in config["markdown_extensions"]:  # a name, or {name: its options}
        name, settings = next(iter(item.items())) if isinstance(item, dict) else (item, {})
        names.append(name)
        options[name] = settings
    extensions = [*names, *build.markdown_extensions(names)]
    generated = {}
    for src, file in made.items():
        if src.endswith(".md"):
            assert isinstance(file.content, str), src  # a generated page is given as text
            generated[src] = file.content
    html = {}
    for src, text in [*pages.items(), *generated.items()]:
        build.begin_page(src, text if src in pages else None, text)
        html[src] = markdown.Markdown(extensions=extensions, extension_configs=options).convert(text)
    downloads = {file.src: file.content for file in build.finished_files()}
    finished = {src: build.page_written(src, build.finish_page(src, page)) for src, page in html.items()}
    build.finished()
    assert not [record for record in caplog.records if record.levelno >= logging.WARNING]

    transcript = BeautifulSoup(finished["transcript/index.md"], "html.parser")
    cited_in = found(selected(transcript, "#msg-5855").find_next(class_="msg-cited-in"), "where 5855 is cited")
    assert [a["href"] for a in cited_in.select("a")] == ["../empty-message/#cite-5855"]
    section = BeautifulSoup(finished["context.md"], "html.parser")
    assert selected(section, "details.cite-this summary").get_text() == "Cite this section"
    how_to_cite = BeautifulSoup(finished["how-to-cite.md"], "html.parser")
    assert how_to_cite.select("div.citation-slot") == [] and len(how_to_cite.select(".citations-shown")) == 4
    assert "Paragraph 2 of “The Context: A Model That Produces Garbage”" in how_to_cite.get_text()
    head = build.head("index.md")
    assert {"name": "citation_title", "content": config["extra"]["essay"]["title"]} in head["meta"]
    assert set(downloads) == {"cite/essay.bib", "cite/essay-biblatex.bib", "cite/essay.ris", "cite/essay.json"}
    ris = downloads["cite/essay.ris"]
    assert isinstance(ris, str) and ris.count("TY  - ELEC") == 8
    template = selected(transcript, "template#msg-cite-template")
    panel = BeautifulSoup(template.decode_contents().replace(attribute(template, "data-number"), "5852"), "html.parser")
    assert selected(panel, ".cite-address a")["href"] == "http://127.0.0.1:8000/transcript/#msg-5852"


def test_the_one_panel_of_a_page_made_out_for_a_message_is_the_panel_made_for_it_alone():
    essay = found(read_site_config(read_config(ESSAY / "mkdocs.yml"), str(ESSAY)).essay, "the essay's settings")
    # A stand-in that shows every number on the one page: the panel asks the layout nothing else.
    layout = cast(TranscriptLayout, SimpleNamespace(src_of=lambda n: "transcript/index.md"))

    def check(citing: CitableEssay, numbers: list[int]) -> str:
        made = citing.message_cite_template("transcript/index.md")
        hole = attribute(selected(BeautifulSoup(made, "html.parser"), "template#msg-cite-template"), "data-number")
        panel = made[made.index(">") + 1 : -len("</template>")]  # as written, not as a parser writes it again
        for n in numbers:
            made_out = panel.replace(hole, str(n))
            assert made_out == to_html(citing._message_panel(n, "transcript/")), n
        return hole

    citing = CitableEssay(essay, PageRecords({}), SimpleNamespace(url=url_of), layout)
    assert check(citing, [1, 10, 5852, 99999, 987654321987654321]) == "987654321987654321"
    # A title that holds the number the template is first made with: another is taken.
    titled = replace(essay, meta=replace(essay.meta, title="Essay 987654321987654321"))
    citing = CitableEssay(titled, PageRecords({}), SimpleNamespace(url=url_of), layout)
    assert check(citing, [7, 5852]) == "918273645546372819"
