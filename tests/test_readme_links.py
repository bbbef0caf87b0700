"""The README and the guides it links to: every relative link leads to a file that exists
and every `#anchor` to a heading of its target, as GitHub names headings; the README
stays short, and every section it once held is found from it in two clicks."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path
from urllib.parse import unquote, urlsplit

import markdown
import pytest
from bs4 import BeautifulSoup

from conftest import ROOT

README = ROOT / "README.md"
GUIDES = (README, ROOT / "scripts" / "README.md", ROOT / "hooks" / "README.md", ROOT / "scripts" / "perf" / "REPORT.md")
MOST_README_LINES = 350
# The README's sections before its reference moved beside what it describes.
SECTIONS_ONCE_IN_THE_README = (
    "Two commands", "Write your own essay", "Writing: citing a message", "Finding a message to cite",
    "The preview of a cited message", "Writing: paragraphs and their anchors",
    "Reading: search, keyboard, touch, a missing page", "How readers cite the essay", "Authors", "Editions",
    "The transcript file", "Importing a session log", "Images", "Formats", "Message numbers", "Redaction",
    "Settings", "How the build works", "Performance", "Browser tests, Lighthouse, and a copy to read from disk",
    "Lighthouse on its own", "Reading from disk", "Publishing",
)


def github_anchor(heading: str) -> str:
    """The anchor GitHub gives a heading: its text in lower case, punctuation dropped
    (letters, digits, `_`, `-` and spaces kept), each space a hyphen."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


@cache
def rendered(path: Path) -> BeautifulSoup:
    """The file as HTML, so that what looks like a link or a heading inside code is neither."""
    html = markdown.markdown(path.read_text(encoding="utf-8"), extensions=["tables", "fenced_code"])
    return BeautifulSoup(html, "html.parser")


@cache
def anchors(path: Path) -> dict[str, str]:
    """Each heading's anchor, to its text; a repeated anchor gets -1, -2, ... as on GitHub."""
    found: dict[str, str] = {}
    for heading in rendered(path).find_all(re.compile(r"^h[1-6]$")):
        text = heading.get_text()
        base = anchor = github_anchor(text)
        repeat = 0
        while anchor in found:
            repeat += 1
            anchor = f"{base}-{repeat}"
        found[anchor] = text
    return found


def relative_links(path: Path) -> list[str]:
    """The addresses of the file's links and images that lead into the repository."""
    soup = rendered(path)
    addresses = [str(a["href"]) for a in soup.find_all("a", href=True)]
    addresses += [str(img["src"]) for img in soup.find_all("img", src=True)]
    return [address for address in addresses if not urlsplit(address).scheme and not address.startswith("//")]


def target(path: Path, address: str) -> tuple[Path, str]:
    parts = urlsplit(address)
    return (path.parent / unquote(parts.path)).resolve() if parts.path else path, unquote(parts.fragment)


def test_github_anchor_drops_punctuation_and_hyphenates_spaces() -> None:
    assert github_anchor("Reading: search, keyboard, touch, a missing page") == \
        "reading-search-keyboard-touch-a-missing-page"
    assert github_anchor("The benchmark's report") == "the-benchmarks-report"
    assert github_anchor("Browser tests, Lighthouse, and a copy") == "browser-tests-lighthouse-and-a-copy"


def test_a_heading_inside_code_is_no_heading(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text("# Title\n\n```sh\n# a comment\n```\n\n## Title\n", encoding="utf-8")
    assert anchors(page) == {"title": "Title", "title-1": "Title"}


@pytest.mark.parametrize("path", GUIDES, ids=lambda path: str(path.relative_to(ROOT)))
def test_every_relative_link_leads_to_a_file_and_its_anchor(path: Path) -> None:
    links = relative_links(path)
    assert links, f"{path.relative_to(ROOT)} links to nothing in the repository"
    for address in links:
        file, fragment = target(path, address)
        assert file.exists(), f"{path.relative_to(ROOT)}: {address}: no such file"
        if fragment:
            assert file.suffix == ".md", f"{path.relative_to(ROOT)}: {address}: an anchor in a file that is no page"
            assert fragment in anchors(file), f"{path.relative_to(ROOT)}: {address}: no such heading"


def test_the_readme_is_short() -> None:
    lines = README.read_text(encoding="utf-8").count("\n")
    assert lines <= MOST_README_LINES, f"README.md has {lines} lines, more than {MOST_README_LINES}"


def test_the_readme_keeps_the_command_ci_runs() -> None:
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    command = "bash scripts/test.sh"
    assert f"exec {command}\n" in ci
    blocks = [code.get_text() for code in rendered(README).select("pre code")]
    assert any(line.startswith(command + " ") for block in blocks for line in block.splitlines())


@pytest.mark.parametrize("section", SECTIONS_ONCE_IN_THE_README)
def test_each_section_is_two_clicks_from_the_readme(section: str) -> None:
    """The section is a heading of the README, or of a file the README links to that a link
    of the README or of the file itself leads into."""
    anchor = github_anchor(section)
    pages = {README} | {target(README, address)[0] for address in relative_links(README)}
    holders = [page for page in pages if page.suffix == ".md" and anchors(page).get(anchor) == section]
    assert holders, f"no page linked from README.md has the section {section!r}"
    if README in holders:
        return
    for holder in holders:
        for page in (README, holder):
            if any(target(page, address) == (holder, anchor) for address in relative_links(page)):
                return
    pytest.fail(f"nothing links to the section {section!r}")


def test_the_scripts_guide_names_every_script() -> None:
    guide = (ROOT / "scripts" / "README.md").read_text(encoding="utf-8")
    scripts = sorted(path.name for pattern in ("*.py", "*.sh") for path in (ROOT / "scripts").glob(pattern))
    assert scripts
    for name in scripts:
        assert f"`{name}`" in guide, f"scripts/README.md does not name {name}"
