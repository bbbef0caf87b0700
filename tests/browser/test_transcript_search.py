"""The transcript's own search box (assets/message-search.js) in a real browser, on a
whole session over several pages: what it lists is what the index holds, every result
leads to its message's heading, the log's markup stays text, and the keyboard gets there."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page

from browser.site_browser import DESKTOP, PHONE, build_site, new_page, wait_for_material
from conftest import copy_project
from message_index_reader import BuiltIndex
from static_host import StaticHost

MARKUP = '<img src=x onerror="document.title=1"> <b>zebrafish</b> & co'
RESULTS = "form.msg-search .msg-search__results li"


@pytest.fixture(scope="module")
def whole_session_project(tmp_path_factory) -> Path:
    """The shipped essay's transcript, every message shown, two a page, with one message
    of markup added."""
    project = copy_project(tmp_path_factory.mktemp("search") / "project")
    transcript = project / "docs" / "transcript.jsonl"
    last = max(json.loads(line)["n"] for line in transcript.read_text(encoding="utf-8").splitlines() if line)
    with transcript.open("a", encoding="utf-8") as file:
        file.write(json.dumps({"n": last + 1, "speaker": "tool", "provenance": "verbatim", "text": MARKUP}) + "\n")
    config = project / "mkdocs.yml"
    settings = config.read_text(encoding="utf-8")
    assert "    messages_per_page: 500\n    context: 0" in settings
    config.write_text(settings.replace("    messages_per_page: 500\n    context: 0",
                                       "    messages_per_page: 2\n    context: all"), encoding="utf-8")
    assert "\n    search: true" in settings
    return project


@pytest.fixture(scope="module")
def whole_session(output_dir, whole_session_project) -> Path:
    return build_site(output_dir / "search-site", whole_session_project)


@pytest.fixture(scope="module")
def whole_host(whole_session) -> Iterator[StaticHost]:
    with StaticHost(whole_session) as server:
        yield server


@pytest.fixture(scope="module")
def two_character_keys(output_dir, whole_session_project, tmp_path_factory) -> Path:
    """The same site, its index's shards named by two characters, as a large index's are:
    a module loaded as the build's Python starts sets the threshold of a small index to 0."""
    startup = tmp_path_factory.mktemp("startup")
    (startup / "sitecustomize.py").write_text(
        f"import sys\nsys.path.insert(0, {str(whole_session_project / 'hooks')!r})\n"
        "from transcriptsite import message_index\nmessage_index.SMALL_INDEX_CHARS = 0\n", encoding="utf-8")
    return build_site(output_dir / "search-site-two-characters", whole_session_project, PYTHONPATH=str(startup))


def searched(page: Page, query: str) -> list[tuple[str, str]]:
    """(link, title) of each result listed for `query`, once the search has answered."""
    field = page.locator("#transcript-search")
    field.fill(query)
    page.wait_for_function("q => document.querySelector('form.msg-search').dataset.answered === q", arg=query)
    return [(item.locator("a").get_attribute("href") or "", item.locator("a").inner_text())
            for item in page.locator(RESULTS).all()]


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["375px", "1280px"])
def test_every_result_is_the_index_answer_and_lands_on_its_message(browser, whole_host, whole_session, viewport):
    index = BuiltIndex(whole_session)
    expected = index.search("the")
    pages = {address.split("#")[0] for n in expected for address in [index.messages()[n][0]]}
    assert len(expected) > 1 and len(pages) > 1  # results on several pages
    context, page, problems = new_page(browser, viewport, origin=whole_host.url)
    page.goto(whole_host.url + "transcript/page-2/")
    wait_for_material(page)
    assert page.locator("form.msg-search").is_visible()
    results = searched(page, "THE")
    assert [title for _, title in results] == [index.messages()[n][1] for n in expected[:50]]
    status = page.locator(".msg-search__status").inner_text()
    assert status.startswith(f"{len(expected)} messages found")
    for href, _ in results:  # each followed: its page and heading are there
        anchor = href.split("#")[1]
        page.goto(href)
        heading = page.locator(f"#{anchor}")
        assert heading.count() == 1 and heading.evaluate("h => h.tagName") == "H2", href
    context.close()
    assert not problems.all(), problems.all()


def test_shards_named_by_two_characters_are_found_as_well(browser, whole_session, two_character_keys):
    one, two = BuiltIndex(whole_session), BuiltIndex(two_character_keys)
    assert one.index["key"] == 1 and two.index["key"] == 2 and len(two.index["shards"]) > len(one.index["shards"])
    with StaticHost(two_character_keys) as server:
        context, page, problems = new_page(browser, DESKTOP, origin=server.url)
        page.goto(server.url + "transcript/")
        wait_for_material(page)
        for query in ["the", "th", "a", "the an"]:
            expected = two.search(query)
            assert expected == one.search(query) and expected, query
            assert [title for _, title in searched(page, query)] == [two.messages()[n][1] for n in expected[:50]]
        context.close()
    assert not problems.all(), problems.all()


def test_the_logs_markup_is_shown_as_text_and_a_query_may_find_nothing(browser, whole_host):
    context, page, problems = new_page(browser, DESKTOP, origin=whole_host.url)
    page.goto(whole_host.url + "transcript/")
    wait_for_material(page)
    [_] = searched(page, "zebrafish")
    excerpt = page.locator(RESULTS).first.locator("p").inner_text()
    assert excerpt == MARKUP and page.locator("form.msg-search img, form.msg-search b").count() == 0
    assert page.title() != "1"  # the handler never ran
    assert searched(page, "zebrafish nowhere-to-be-found") == []
    assert page.locator(".msg-search__status").inner_text() == "No message holds all these words."
    context.close()
    assert not problems.all(), problems.all()


def test_the_keyboard_reaches_the_box_and_follows_a_result(browser, whole_host):
    context, page, problems = new_page(browser, PHONE, origin=whole_host.url)
    page.goto(whole_host.url + "transcript/")
    wait_for_material(page)
    page.locator("#transcript-search").focus()
    page.keyboard.type("zebrafish")
    page.keyboard.press("Enter")
    page.wait_for_selector(RESULTS)
    page.keyboard.press("Tab")
    focused = page.evaluate("document.activeElement.closest('.msg-search__results') !== null")
    assert focused
    href = page.evaluate("document.activeElement.href")
    page.keyboard.press("Enter")
    page.wait_for_url(href)
    assert page.locator(f"#{href.split('#')[1]}").is_visible()
    context.close()
    assert not problems.all(), problems.all()


def test_the_copy_read_from_disk_searches_the_transcript_too(browser, whole_session_project, output_dir):
    site = build_site(output_dir / "search-site-offline", whole_session_project, OFFLINE="true")
    context, page, problems = new_page(browser, DESKTOP, origin="file://")
    page.goto((site / "transcript" / "index.html").as_uri())
    wait_for_material(page)
    [(href, title)] = searched(page, "zebrafish")
    n = title.split()[1]  # "Message N — speaker"
    assert href.startswith("file://") and href.endswith(f".html#msg-{n}"), href
    page.goto(href)
    assert page.locator(f"#{href.split('#')[1]}").is_visible()
    context.close()
    assert not problems.all(), problems.all()


@pytest.mark.parametrize("typed", ["{n}", "msg {n}", "#{n}"])
def test_a_number_typed_goes_to_its_message_on_its_page(browser, whole_host, whole_session, typed):
    messages = BuiltIndex(whole_session).messages()
    n = max(messages)  # on the last page, typed on the first
    context, page, problems = new_page(browser, DESKTOP, origin=whole_host.url)
    page.goto(whole_host.url + "transcript/")
    wait_for_material(page)
    results = searched(page, typed.format(n=n))
    assert results[0][1] == f"Go to message {n}: {messages[n][1]}"
    assert page.locator(".msg-search__status").inner_text().startswith(f"Message {n} is in the transcript.")
    page.locator(RESULTS).first.locator("a").click()
    page.wait_for_url(f"**/{messages[n][0]}")
    assert page.locator(f"#msg-{n}").is_visible()
    assert not [title for _, title in searched(page, str(n + 10_000)) if title.startswith("Go to")]  # not shown
    context.close()
    assert not problems.all(), problems.all()


def test_enter_goes_to_the_number_typed_or_says_there_is_no_such_message(browser, whole_host, whole_session):
    messages = BuiltIndex(whole_session).messages()
    first, n = min(messages), max(messages)  # on the last page, typed on the first
    context, page, problems = new_page(browser, DESKTOP, origin=whole_host.url)
    page.goto(whole_host.url + "transcript/")
    wait_for_material(page)
    absent = n + 10_000
    page.locator("#transcript-search").fill(f"#{absent}")
    page.keyboard.press("Enter")
    page.wait_for_function("q => document.querySelector('form.msg-search').dataset.answered === q", arg=f"#{absent}")
    status = page.locator(".msg-search__status")
    assert status.is_visible() and status.inner_text().startswith(
        f"There is no message {absent} on the transcript's pages. "
        f"The transcript's pages run from message {first} to message {n}.")
    assert page.url == whole_host.url + "transcript/"  # stayed
    page.locator("#transcript-search").fill(str(n))
    page.keyboard.press("Enter")
    page.wait_for_url(whole_host.url + messages[n][0])
    assert page.locator(f"#msg-{n}").is_visible()
    context.close()
    assert not problems.all(), problems.all()
