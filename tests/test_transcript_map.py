"""The transcript pages' map, the lines for numbers not in the transcript, the marks of
cited entries, provenance said once, and the pager: on the built site, and on a site with
a generated transcript of many pages."""

import json
import xml.etree.ElementTree as etree
from pathlib import Path

import pytest
import yaml
from bs4 import BeautifulSoup, Tag

from conftest import attribute, built_cleanly, found, selected
from msgview.html import to_html
from transcriptsite.message_map import MAX_BINS, MapTemplate, map_figure, marks, number_strip
from transcriptsite.nav import absent_note

HOOK = Path(__file__).resolve().parent.parent / "hooks" / "mkdocs_hook.py"


def soup(path: Path) -> BeautifulSoup:
    return BeautifulSoup(path.read_text(encoding="utf-8"), "html.parser")


def page_file(site: Path, page: Path, href: str) -> tuple[Path, str]:
    """The HTML file and the fragment a link of `page` (an index.html) leads to."""
    path, _, fragment = href.partition("#")
    target = (page.parent / path).resolve() if path else page
    return (target / "index.html" if target.is_dir() else target), fragment


def cited_on(page: BeautifulSoup) -> list[int]:
    items = page.select(".msg-item")
    return [int(attribute(item, "data-msg")) for item in items if item.select_one(".msg-cited-in ul")]


def headings_around(line: Tag) -> tuple[str, str]:
    """The ids of the message headings before and after `line`."""
    before = found(line.find_previous("h2"), "a heading before the line")
    after = found(line.find_next("h2"), "a heading after the line")
    return attribute(before, "id"), attribute(after, "id")


# --- the shipped site ----------------------------------------------------------------------


def test_the_map_links_each_cited_message_to_its_entry(built_site):
    page = soup(built_site / "transcript/index.html")
    svg = selected(selected(page, "article figure.msg-map"), "svg")
    assert svg["viewbox"] == "0 0 340 100" and svg["width"] == "100%"
    cited = cited_on(page)
    assert cited == [5843, 5844, 5852, 5853, 5854, 5855, 5856]
    links = svg.find_all("a")
    assert [a["href"] for a in links] == [f"#msg-{n}" for n in cited]
    for link in links:
        href = attribute(link, "href")
        assert found(page.find(id=href[1:]), f"the heading {href} leads to").name == "h2"
    named = {a["href"]: selected(a, "title").text for a in links}
    assert named["#msg-5856"] == ("Message 5856, cited in “The Empty Message: What Did the User Mean?” and "
                                  "“The Assistant's Interpretation: Documentation Mode”")
    assert all(selected(a, "text").text in selected(a, "title").text for a in links)  # the label is in the name


def test_the_map_has_a_text_alternative_and_draws_the_gap(built_site):
    page = soup(built_site / "transcript/index.html")
    svg = selected(page, "figure.msg-map svg")
    assert svg["role"] == "group"
    label = found(svg.find(id=attribute(svg, "aria-labelledby")), "the map's label")
    assert label.text == "Map of the session's messages 5843–5856"
    description = found(svg.find(id=attribute(svg, "aria-describedby")), "the map's description").text
    assert "holds 7 of these 14 numbers; not in it: 5845–5851 (7 messages)" in description
    assert selected(page, ".msg-map__summary").text == description
    absent = svg.select(".msg-map__absent")
    assert [selected(rect, "title").text for rect in absent] == ["Not in the transcript: messages 5845–5851"]
    assert absent[0]["fill"] == "none" and absent[0]["stroke-dasharray"]
    held = [selected(rect, "title").text for rect in svg.select(".msg-map__held")]
    assert held == ["In the transcript: messages 5843–5844", "In the transcript: messages 5852–5856"]
    listed = page.select(".msg-map__list li")
    assert [selected(li, "a")["href"] for li in listed] == [a["href"] for a in svg.find_all("a")]


def test_a_line_names_the_numbers_not_in_the_transcript(built_site):
    page = soup(built_site / "transcript/index.html")
    lines = page.select(".msg-absent")
    assert [line.text for line in lines] == ["Not in the transcript: messages 5845–5851 (7 messages)."]
    assert headings_around(lines[0]) == ("msg-5844", "msg-5852")
    assert page.select(".msg-gap") == []  # every message of the transcript is shown: none left out


def test_provenance_is_said_once_by_a_description_and_once_a_page_for_quotations(built_site):
    page = soup(built_site / "transcript/index.html")
    entries = page.select(".msg-item .msg-entry")
    assert len(entries) == 7
    number: dict[int, Tag] = {}
    for entry in entries:
        item = found(entry.find_parent(class_="msg-item"), "the message of an entry")
        number[int(attribute(item, "data-msg"))] = entry
    for entry in number.values():
        text = " ".join(entry.get_text(" ").split())
        described = "msg-body--described" in str(entry)
        assert text.count("not quoted") == described and "verbatim" not in text.lower(), text
    assert selected(number[5853], ".msg-body__label").text.startswith("Described, not quoted.")
    assert page.select(".msg-provenance") == []
    # The introduction says it for every quotation.
    intro = found(selected(page, "h1").find_next("p"), "the introduction").get_text()
    assert "A message the essay quotes is shown word for word" in intro


def test_cited_entries_are_marked(built_site):
    page = soup(built_site / "transcript/index.html")
    for item in page.select(".msg-item"):
        cited = item.select_one(".msg-cited-in ul") is not None
        assert ("msg-item--cited" in item["class"]) == cited
        badge = selected(item, "h2").select_one(".msg-badge")
        assert (badge is not None and badge.get_text().endswith("Cited")) == cited
    assert page.select(".msg-badge-slot, .msg-map-slot") == []
    toc = [a.text.strip() for a in page.select(".md-nav--secondary a")]
    assert "Message 5855 — user" in toc  # the badge stays out of the table of contents


def test_one_page_has_no_pager(built_site):
    page = soup(built_site / "transcript/index.html")
    assert page.select(".msg-pager") == [] and page.select(".msg-map__here") == []


# --- a generated transcript of many pages --------------------------------------------------

# Messages 1–400 but every multiple of 7; the essay cites a few, every message is shown.
NUMBERS = [n for n in range(1, 401) if n % 7]
CITED = (3, 150, 151, 398)


@pytest.fixture(scope="module")
def paged_site(tmp_path_factory) -> Path:
    project = tmp_path_factory.mktemp("paged")
    records = [{"n": n, "speaker": "tool", "provenance": "verbatim", "text": f"text {n}"} for n in NUMBERS]
    (project / "transcript.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    (project / "docs").mkdir()
    citing = " ".join(f"[msg {n}]" for n in CITED)
    (project / "docs" / "index.md").write_text(f"# Essay\n\nIt cites {citing}.\n")
    (project / "docs" / "note-on-the-text.md").write_text("# Note on the text\n")
    config = {
        "site_name": "Paged", "site_url": "http://127.0.0.1:8000/",
        "nav": ["index.md", "note-on-the-text.md", "transcript/index.md"], "hooks": [str(HOOK)],
        "markdown_extensions": ["attr_list", {"toc": {"permalink": True}}],
        "validation": {"omitted_files": "warn", "unrecognized_links": "warn", "anchors": "warn"},
        "extra": {"transcript": {"source": "transcript.jsonl", "messages_per_page": 10, "context": "all",
                                 "search": False, "redact": False}},
    }
    (project / "mkdocs.yml").write_text(yaml.safe_dump(config))
    return built_cleanly(project, timeout=300)


def test_the_pager_links_first_previous_next_and_last(paged_site):
    pages = -(-len(NUMBERS) // 10)
    assert pages == 35 and (paged_site / f"transcript/page-{pages}/index.html").exists()
    path = paged_site / "transcript/page-10/index.html"
    page = soup(path)
    steps = selected(page, "nav.msg-pager--top .msg-pager__steps")
    links = {a.text: attribute(a, "href") for a in steps.find_all("a")}
    assert links == {"« First": "../", "‹ Previous": "../page-9/", "Next ›": "../page-11/", "Last »": "../page-35/"}
    assert selected(steps, ".msg-pager__here").text == "Page 10 of 35"
    for href in links.values():
        assert page_file(paged_site, path, href)[0].exists(), href
    # The compact list: the first two, the neighbours, the last two; the whole list folds away.
    near = page.select("nav.msg-pager--top .msg-pager__pages li")
    labels = [li.text for li in near]
    assert labels[2] == "…" and labels[-3] == "…" and len(labels) == 9
    assert selected(page, ".msg-pager__pages [aria-current=page]").text == f"{NUMBERS[90]}–{NUMBERS[99]}"
    every = page.select("nav.msg-pager--top details.msg-pager__index li")
    assert len(every) == 35
    for li in every:
        link = li.a
        if link is not None:
            assert page_file(paged_site, path, attribute(link, "href"))[0].exists(), link["href"]
    assert selected(page, "details.msg-pager__index summary").text == "All 35 pages, by message number"
    first = selected(soup(paged_site / "transcript/index.html"), ".msg-pager__steps")
    assert [s.text for s in first.select(".msg-pager__step--off")] == ["« First", "‹ Previous"]
    assert soup(paged_site / "transcript/page-35/index.html").select_one("nav.msg-pager--bottom")


def test_the_map_links_across_pages(paged_site):
    path = paged_site / "transcript/page-10/index.html"
    page = soup(path)
    links = page.select("figure.msg-map svg a")
    page_of_150 = NUMBERS.index(150) // 10 + 1
    assert [a["href"] for a in links] == ["../#msg-3", f"../page-{page_of_150}/#msg-150", "../page-35/#msg-398"]
    assert selected(links[1], "title").text.startswith("Messages 150–151 (2 cited)")  # too close to tell apart
    for link in links:
        target, fragment = page_file(paged_site, path, attribute(link, "href"))
        assert soup(target).find(id=fragment) is not None, link["href"]
    here = selected(page, ".msg-map__here title").text
    assert here == f"This page: messages {NUMBERS[90]}–{NUMBERS[99]}"
    # 400 numbers in at most MAX_BINS stretches: a gap of one number is drawn as a stretch partly held.
    stretches = page.select(".msg-map__strip rect")
    assert len(stretches) <= MAX_BINS and page.select(".msg-map__mixed")
    assert selected(page, ".msg-map__mixed title").text.startswith("Partly in the transcript: messages ")


def test_the_list_has_an_item_for_each_cited_message_the_map_draws_as_one(paged_site):
    path = paged_site / "transcript/page-10/index.html"
    page = soup(path)
    assert len(page.select("figure.msg-map svg a")) == 3  # 150 and 151 drawn as one mark
    listed = selected(page, "figure.msg-map details.msg-map__list")
    assert selected(listed, "summary").text == "The cited messages as a list"
    items = listed.select("li")
    page_of_150 = NUMBERS.index(150) // 10 + 1
    assert [(selected(li, "a").text, li.text) for li in items] == [
        (f"Message {n}", f"Message {n}: cited in “Essay”") for n in CITED]
    assert [selected(li, "a")["href"] for li in items] == [
        "../#msg-3", f"../page-{page_of_150}/#msg-150", f"../page-{page_of_150}/#msg-151", "../page-35/#msg-398"]
    for li in items:
        target, fragment = page_file(paged_site, path, attribute(selected(li, "a"), "href"))
        assert found(soup(target).find(id=fragment), fragment).name == "h2"


def test_numbers_not_in_the_transcript_between_entries(paged_site):
    page = soup(paged_site / "transcript/index.html")
    lines = page.select(".msg-absent")
    assert lines[0].text == "Not in the transcript: message 7."
    assert headings_around(lines[0]) == ("msg-6", "msg-8")


# --- the map's size does not grow with the transcript --------------------------------------


def test_the_map_of_a_hundred_thousand_messages_stays_small():
    numbers = [n for n in range(1, 100_001) if n % 3]
    strip = found(number_strip(numbers), "the numbers' strip")
    assert len(strip.stretches) <= MAX_BINS
    cited = [(n, ["A section"]) for n in range(1, 100_001, 50)]
    cited_marks = marks(strip, cited)
    assert 10 < len(cited_marks) <= 40 and sum(len(mark.cited) for mark in cited_marks) == len(cited)
    figure = map_figure(strip, cited_marks, lambda n: f"#msg-{n}", (1, 500))
    svg = found(figure.find("svg"), "the map's drawing")
    assert sum(1 for _ in svg.iter()) < 600
    assert len(etree.tostring(svg)) < 60_000
    # The list, folded away, grows with what the essay cites alone: an item, and its link, for each.
    listed = found(figure.find("figcaption/details"), "the list of cited messages")
    assert len(listed.findall("ul/li")) == len(cited) and sum(1 for _ in listed.iter()) == 3 + 2 * len(cited)


def test_the_list_names_each_cited_message_and_the_pages_citing_it():
    strip = found(number_strip(list(range(1, 10_001))), "the numbers' strip")
    cited = [(5843, ["A", "B"]), (5844, ["B", "B"]), (5852, []), *((n, ["C"]) for n in range(5853, 5857)),
             (9000, ["A", "B", "C", "D", "E", "F"])]
    cited_marks = marks(strip, cited)
    assert [(mark.first, mark.last) for mark in cited_marks] == [(5843, 5856), (9000, 9000)]
    page = BeautifulSoup(to_html(map_figure(strip, cited_marks, lambda n: f"p{n // 1000}/#msg-{n}")), "html.parser")
    assert [a["href"] for a in page.select("svg a")] == ["p5/#msg-5843", "p9/#msg-9000"]
    items = page.select("details.msg-map__list > ul > li")
    assert [attribute(selected(li, "a"), "href") for li in items] == [f"p{n // 1000}/#msg-{n}" for n, _ in cited]
    assert [li.text for li in items] == [
        "Message 5843: cited in “A” and “B”", "Message 5844: cited in “B”", "Message 5852",
        *(f"Message {n}: cited in “C”" for n in range(5853, 5857)),
        "Message 9000: cited in “A”, “B”, “C”, “D” and 2 more pages"]


@pytest.mark.parametrize("paged", [True, False])
def test_the_map_drawn_once_is_each_page_s_map(paged):
    strip = found(number_strip([n for n in range(1, 2_001) if n % 7]), "the numbers' strip")
    cited_marks = marks(strip, [(n, [f"Section {n % 3}"]) for n in range(5, 2_000, 90)])
    template = MapTemplate(strip, cited_marks, paged)
    for page, first, last in [(1, 1, 500), (3, 1001, 1500)]:

        def href_of(n: int, page: int = page) -> str:
            return f"#msg-{n}" if (n - 1) // 500 + 1 == page else f"../page-{page}/#msg-{n}&x"

        this_page = (first, last) if paged else None
        assert template.page_map(href_of, this_page) == to_html(map_figure(strip, cited_marks, href_of, this_page))


def test_the_absent_line_names_a_few_runs_and_counts_the_rest():
    numbers = [1, 3, 4, 8, 10, 12, 14, 15, 30]
    note = found(absent_note(numbers, 0, len(numbers) - 1), "the line for the absent numbers")
    assert note.text == ("Not in the transcript: 21 messages between message 1 and message 30, in 6 runs: "
                         "2, 5–7, 9, 11, and 2 more runs.")
    assert absent_note([4, 5, 6], 0, 2) is None
