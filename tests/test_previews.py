"""The previews of cited messages in the built pages, read back with an HTML parser."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import pytest
from bs4 import BeautifulSoup

from conftest import TRANSCRIPT, attribute, build, copy_project, found, message_in, selected, soup
from message_index_reader import BuiltIndex
from msgref.previews import CITATIONS_SHOWN, READ_MORE, SEE_IN_TRANSCRIPT, preview
from msgview.html import to_html
from msgview.labels import EMPTY_LABEL
from msgview.render import BOUNDS, MessageRenderer, Size
from test_build import html_pages, resolve
from transcripts import MemoryTranscript

MESSAGES = {m["n"]: m for m in map(json.loads, TRANSCRIPT.read_text(encoding="utf-8").splitlines())}


def citing_pages(site: Path) -> list[Path]:
    return [page for page in html_pages(site) if soup(page).select("a.msg-ref")]


def number_of(link) -> int:
    leads_to = re.search(r"#(?:appendix-)?msg-(\d+)$", link["href"])  # the transcript, or the appendix
    return int(found(leads_to, f"the message a link leads to: {link}").group(1))


def preview_of(document, n: int):
    box = document.find(id=f"msg-preview-{n}")
    assert box is not None, f"no preview of message {n}"
    return box


def test_every_citation_link_has_a_preview_on_its_page_and_no_title(built_site):
    pages = citing_pages(built_site)
    assert {p.relative_to(built_site).as_posix() for p in pages} >= {"context/index.html", "print/index.html"}
    for page in pages:
        document = soup(page)
        container = document.select("section.msg-previews")
        assert len(container) == 1 and container[0].has_attr("data-search-exclude"), page
        assert container[0].find_parent("article") is not None, page  # inside the page's content
        for link in document.select("article a.msg-ref"):
            assert not link.has_attr("title"), (page, link)
            box = preview_of(document, number_of(link))
            assert box.parent is container[0]
            assert box["popover"] == "manual" and box["role"] == "dialog"
            title = found(document.find(id=box["aria-labelledby"]), f"the title of {box['id']}")
            assert title.get_text().startswith(f"Message {number_of(link)} ")
            assert document.find(id=f"{box['id']}-text") is not None  # what the script describes the link by


def test_a_preview_shows_the_message_as_the_transcript_does(built_site):
    document = soup(built_site / "empty-message/index.html")
    for n in {number_of(link) for link in document.select("article a.msg-ref")}:
        message, box = MESSAGES[n], preview_of(document, n)
        speaker = {"unknown": "sender not stated"}.get(message["speaker"], message["speaker"])
        provenance = "described by the essay, not quoted" if message["provenance"] == "described" else "quoted verbatim"
        assert box.select_one(".msg-preview__head").get_text() == f"Message {n} · {speaker} · {provenance}"
        if message["text"]:
            assert box.select_one(".msg-body__text").get_text() == message["text"]
        else:
            assert box.select_one(".msg-body--empty").get_text() == EMPTY_LABEL
    assert preview_of(document, 5855).select_one(".msg-body--empty") is not None  # the essay's empty message


def test_the_links_of_a_preview_lead_to_the_message_and_to_each_citation(built_site):
    transcript = soup(built_site / "transcript/index.html")
    checked = 0
    for page in citing_pages(built_site):
        for box in soup(page).select(".msg-preview"):
            n = int(attribute(box, "id").removeprefix("msg-preview-"))
            more = selected(box, ".msg-preview__more a")
            assert more.get_text() == SEE_IN_TRANSCRIPT
            in_transcript = ((built_site / "transcript/index.html").resolve(), f"msg-{n}")
            assert resolve(built_site, page, attribute(more, "href")) == in_transcript
            # The same citations, in the same order, as the transcript's "Cited in" list.
            cited_in = found(selected(transcript, f"#msg-{n}").find_next(class_="msg-cited-in"), f"where {n} is cited")
            listed = cited_in.select("li a")
            cited = box.select(".msg-preview__cited li a")
            assert [a.get_text().split(" (")[0] for a in cited] == [a.get_text() for a in listed]
            for link, expected in zip(cited, listed, strict=True):
                target, anchor = found(resolve(built_site, page, attribute(link, "href")), "an internal link")
                listed_at = resolve(built_site, built_site / "transcript/index.html", attribute(expected, "href"))
                assert (target, anchor) == listed_at
                assert found(soup(target).find(id=anchor), f"#{anchor} in {target}").name in ("a", "figure"), link
                checked += 1
    assert checked > 10


def test_no_page_repeats_an_id(built_site):
    for page in html_pages(built_site):
        ids = Counter(element["id"] for element in soup(page).find_all(id=True))
        assert [i for i, count in ids.items() if count > 1] == [], page


def test_the_search_index_leaves_the_previews_out(built_site):
    index = json.loads((built_site / "search" / "search_index.json").read_text(encoding="utf-8"))
    texts = [doc["text"] for doc in index["docs"]]
    assert not any(SEE_IN_TRANSCRIPT in text or READ_MORE in text for text in texts)
    transcript = BuiltIndex(built_site).messages()  # the messages are searched, on their own
    assert 5852 in transcript and not any(SEE_IN_TRANSCRIPT in text or READ_MORE in text
                                          for _, title, text in transcript.values())
    essay_docs = [doc for doc in index["docs"] if doc["location"].startswith("context/")]
    assert essay_docs and not any("Cited in:" in doc["text"] for doc in essay_docs)


@pytest.fixture(scope="module")
def hostile_site(tmp_path_factory) -> Path:
    """The site with a long message made of markup, cited on the conclusion page, and
    messages shortened past 100 characters."""
    project = copy_project(tmp_path_factory.mktemp("hostile") / "project")
    text = '<script>alert(1)</script> <img src=x onerror="alert(2)"> &amp; ' * 20
    record = {"n": 9001, "speaker": "user", "provenance": "verbatim", "text": text}
    with (project / "docs" / "transcript.jsonl").open("a", encoding="utf-8") as transcript:
        transcript.write(json.dumps(record) + "\n")
    with (project / "docs" / "conclusion.md").open("a", encoding="utf-8") as page:
        page.write("\nMarkup as text ([msg 9001]).\n")
    config = project / "mkdocs.yml"
    config.write_text(config.read_text().replace("message_chars: 5000", "message_chars: 100"))
    result = build(project, project / "site")
    assert result.returncode == 0 and "WARNING" not in result.stderr, result.stderr
    return project / "site"


def test_a_preview_holds_markup_as_text_shortened_with_a_link_to_the_whole(hostile_site):
    box = preview_of(soup(hostile_site / "conclusion/index.html"), 9001)
    assert box.find_all(["script", "img"]) == [] and not box.select("[onerror]")
    shown = box.select_one(".msg-body p").get_text()
    assert shown.startswith("<script>alert(1)</script> <img src=x") and shown.endswith(" …")
    assert len(shown) <= BOUNDS[Size.PREVIEW].chars + 2
    assert "more characters" in box.select_one(".msg-body .msg-cut").get_text()
    more = box.select_one(".msg-preview__more a")
    assert more.get_text() == READ_MORE and more["href"] == "../transcript/#msg-9001"


@pytest.mark.parametrize("citations", [3, CITATIONS_SHOWN, CITATIONS_SHOWN + 1, 5000])
def test_a_preview_lists_a_few_citations_and_sends_to_the_transcript_for_more(citations: int) -> None:
    message = message_in(MemoryTranscript([{"n": 7, "speaker": "user", "provenance": "verbatim", "text": "Hi"}]), 7)
    cited_in = [(f"Page {i % 3}", f"page-{i % 3}/#cite-7-{i}") for i in range(citations)]
    body = MessageRenderer().quotation(message, Size.PREVIEW)
    box = BeautifulSoup(to_html(preview(message, body, "../transcript/#msg-7", cited_in)), "html.parser")
    links = [(a.get_text(), a["href"]) for a in box.select(".msg-preview__cited li a")]
    listed = min(citations, CITATIONS_SHOWN)
    assert links[:listed] == [(title if i < 3 else f"{title} ({i // 3 + 1})", link)
                              for i, (title, link) in enumerate(cited_in[:listed])]
    if citations > CITATIONS_SHOWN:
        more = f"and {citations - listed:,} more, listed in the transcript"
        assert links[listed:] == [(more, "../transcript/#msg-7")]
    else:
        assert len(links) == citations
