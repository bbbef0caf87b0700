"""The essay's PDF as a reader keeps and cites it: read back with pypdf and pdftotext."""

import os
import re
import subprocess
from pathlib import Path

import pytest
from pypdf import PdfReader

from conftest import PUBLIC_URL, TRANSCRIPT, attribute, selected, soup

OUTPUT = Path(os.environ.get("BROWSER_TEST_OUTPUT", Path(__file__).resolve().parent.parent / "test-output"))
TITLE = "The Silence That Speaks: An Empty Message in an AI-Assisted Coding Session"


@pytest.fixture(scope="module")
def pdf(public_site) -> PdfReader:
    return PdfReader(public_site / "essay.pdf")


def page_texts(public_site) -> list[str]:
    text = subprocess.run(["pdftotext", "-layout", str(public_site / "essay.pdf"), "-"], capture_output=True,
                          text=True, check=True).stdout
    return text.split("\f")[:-1]


def links(pdf: PdfReader) -> tuple[list[str], int]:
    """The addresses of the PDF's links to the web, and how many links jump within it."""
    addresses, jumps = [], 0
    for page in pdf.pages:
        for annotation in page.get("/Annots") or []:
            action = annotation.get_object().get("/A")
            if action is not None and "/URI" in action:
                addresses.append(str(action["/URI"]))
            else:
                jumps += 1
    return addresses, jumps


def test_every_link_is_absolute_against_the_public_address(pdf):
    addresses, jumps = links(pdf)
    assert addresses and all(address.startswith(PUBLIC_URL) for address in addresses), addresses
    cited = {int(found.group(1)) for address in addresses if (found := re.search(r"/transcript/#msg-(\d+)$", address))}
    assert cited == {5843, 5844, 5852, 5853, 5854, 5855, 5856}
    assert f"{PUBLIC_URL}note-on-the-text/#ed-1" in addresses
    assert jumps > 0  # the ¶ marks and headings jump within the PDF


def test_the_metadata_come_from_the_settings(pdf, public_site):
    assert pdf.metadata.title == TITLE
    creators = [attribute(m, "content") for m in soup(public_site / "print/index.html").select('meta[name="author"]')]
    assert pdf.metadata.author == ("; ".join(creators) if creators else None)


def test_each_page_has_a_running_header_and_its_number(public_site, pdf):
    texts = page_texts(public_site)
    assert len(texts) == len(pdf.pages) >= 5
    for number, text in enumerate(texts, start=1):
        lines = [line.strip() for line in text.splitlines() if line.strip()]
        assert lines[0] == "The Silence That Speaks", number
        assert re.fullmatch(rf"{number}\s*/\s*{len(texts)}", lines[-1]), (number, lines[-1])


def test_paragraph_numbers_are_printed_as_on_the_sections_pages(public_site):
    text = " ".join(" ".join(page_texts(public_site)).split())
    # The second paragraph of "The Context", as the "How to cite" page cites it.
    assert re.search(r"The initial deployment attempt failed catastrophically\..*?¶ 2 ", text)
    section = soup(public_site / "context/index.html")
    paragraph = selected(section, "#p-the-initial-deployment-attempt")
    assert selected(paragraph, ".paragraph-link").get_text() == "¶\xa02"


def test_no_paragraph_mark_stands_alone_on_a_line(public_site):
    lines = [line.strip() for page in page_texts(public_site) for line in page.splitlines()]
    assert sum(bool(re.search(r"¶\s*\d+$", line)) for line in lines) > 10  # the marks end their paragraphs
    assert [line for line in lines if re.fullmatch(r"¶\s*\d+", line)] == []


def test_the_cited_messages_are_in_an_appendix_with_their_addresses(public_site):
    text = " ".join(" ".join(page_texts(public_site)).split())
    appendix = text[text.index("Appendix: the messages the essay cites"):]
    numbers = [int(line.split('"n": ')[1].split(",")[0]) for line in TRANSCRIPT.read_text().splitlines()]
    for n in numbers:
        assert f"Message {n} — " in appendix and f"Address: {PUBLIC_URL}transcript/#msg-{n}" in appendix
    assert "Empty message: no content" in appendix and "Described, not quoted." in appendix
    assert "Quoted verbatim." in appendix
    assert "Described by the essay, not quoted." not in appendix  # said once, by the description's label


def outline_titles(outline: list) -> list[str]:
    return [title for item in outline
            for title in (outline_titles(item) if isinstance(item, list) else [item.title])]


def test_the_pdf_has_bookmarks_for_the_sections_the_appendix_and_its_messages(pdf):
    titles = outline_titles(pdf.outline)
    # Written out for a person to look at, beside the browser tests' screenshots.
    OUTPUT.mkdir(parents=True, exist_ok=True)
    (OUTPUT / "pdf-bookmarks.txt").write_text("".join(f"{title}\n" for title in titles), encoding="utf-8")
    assert titles[0] == TITLE
    assert "The Context: A Model That Produces Garbage" in titles and "Conclusion" in titles
    appendix = titles.index("Appendix: the messages the essay cites")
    assert titles[appendix + 1:appendix + 3] == ["Message 5843 — sender not stated", "Message 5844 — sender not stated"]


def test_a_citation_jumps_to_its_message_in_the_appendix(public_site, pdf):
    page = soup(public_site / "print/index.html")
    citations = page.select("a.msg-ref")
    assert citations and all(re.fullmatch(r"#appendix-msg-\d+", attribute(a, "href")) for a in citations)
    assert all(page.find(id=attribute(a, "href")[1:]) is not None for a in citations)
    # In the PDF: jumps to a named destination, each one of the appendix's entries.
    jumps = [str(annotation.get_object()["/Dest"]) for sheet in pdf.pages for annotation in sheet.get("/Annots") or []
             if "/Dest" in annotation.get_object()]
    to_appendix = [jump for jump in jumps if jump.startswith("/appendix-msg-")]
    assert len(to_appendix) >= len(citations) - len(page.select(".cited-message a.msg-ref"))
    assert set(to_appendix) <= set(pdf.named_destinations)  # each a destination the PDF has
