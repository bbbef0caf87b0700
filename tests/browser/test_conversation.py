"""A whole session (`context: all`) read as the conversation it was, in a real browser: a
real Claude Code log with Bash, MultiEdit, TodoWrite, subagents and their sidechain, a
generated session of 6,000 messages, and a real log's screenshot. Each tool by what it
did, Markdown rendered, the work between the people's words folded or hidden on request,
no WCAG violation light or dark at either width, nothing wider than the screen;
screenshots in test-output/screenshots."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Literal

import pytest

from author_project import ROOT, author_project
from browser.site_browser import DESKTOP, PHONE, build_site, new_page, wait_for_material
from browser.test_accessibility import axe_violations
from perf.claude_log import write_log
from static_host import StaticHost

SESSION_MESSAGES = 6_000
VIEWPORTS = {"desktop": DESKTOP, "phone": PHONE}


def whole_session_project(destination: Path, log: Path | None = None) -> Path:
    """The orchestrator essay, showing every message: of its own log, or of `log`."""
    shutil.rmtree(destination, ignore_errors=True)
    project = author_project("orchestrator", destination)
    config = project / "mkdocs.yml"
    text, count = re.subn(r"^    context: .*$", "    context: all", config.read_text(encoding="utf-8"), flags=re.M)
    assert count == 1
    config.write_text(text, encoding="utf-8")
    if log is not None:
        imported = subprocess.run([sys.executable, str(ROOT / "scripts/import_transcript.py"), str(log), "-o",
                                   str(project / "docs/transcript.jsonl")], capture_output=True, text=True, timeout=120)
        assert imported.returncode == 0, imported.stderr
    return project


@pytest.fixture(scope="module")
def real_session(output_dir):
    project = whole_session_project(output_dir / "conversation-project")
    with StaticHost(build_site(output_dir / "conversation-site", project)) as server:
        yield server


@pytest.fixture(scope="module")
def long_session(output_dir):
    log = output_dir / "session-6000.jsonl"
    write_log(log, SESSION_MESSAGES)
    project = whole_session_project(output_dir / "session-project", log)
    with StaticHost(build_site(output_dir / "session-site", project)) as server:
        yield server


@pytest.fixture
def phone_and_desktop(browser, request):
    opened = []

    def open_page(url: str, viewport, scheme: Literal["light", "dark"] = "light"):
        context, page, problems = new_page(browser, viewport, color_scheme=scheme, origin=url)
        opened.append((context, problems))
        return page

    yield open_page
    for context, problems in opened:
        context.close()
        assert not problems.all(), problems.all()


def test_each_tool_is_shown_by_what_it_did(real_session, phone_and_desktop):
    page = phone_and_desktop(real_session.url, DESKTOP)
    page.goto(real_session.url + "transcript/")
    wait_for_material(page)
    # The text the page holds, entries far from the screen too (laid out only near it).
    todos = page.locator(".msg-todos").first.locator("li").all_text_contents()
    assert todos and all(text[0] in "☑◐☐" for text in todos), todos
    assert page.locator("pre.msg-command").first.evaluate("e => e.textContent").startswith("$ ")
    diff = page.locator(".msg-tool:has(.msg-tool__name:text-is('MultiEdit')) pre.msg-diff").first
    assert diff.locator("del").count() and diff.locator("ins").count()
    assert "Output of Bash" in page.locator(".msg-output__label, .msg-fold > summary").all_text_contents()
    assert page.locator(".msg-tool:has(.msg-tool__name:text-is('Task')) .msg-tool__note").count() >= 2
    assert page.locator(".msg-origin").first.evaluate("e => e.textContent").startswith(("sidechain", "subagent"))
    # The subagent's prompt, written as a list under a line of text, reads as a list.
    assert page.locator(".msg-entry--dialogue ol > li").count() >= 4
    assert page.locator(".msg-time").first.evaluate("e => e.textContent").endswith("UTC")


def test_a_fold_opens_and_shows_what_it_holds(real_session, phone_and_desktop):
    page = phone_and_desktop(real_session.url, PHONE)
    page.goto(real_session.url + "transcript/")
    wait_for_material(page)
    fold = page.locator("details.msg-fold:has(pre)").first
    assert not fold.locator("> pre, > .highlight pre").first.is_visible()
    fold.locator("> summary").click()
    assert fold.locator("> pre, > .highlight pre").first.is_visible()


def test_dialogue_only_hides_the_work_and_shows_it_again(real_session, phone_and_desktop):
    page = phone_and_desktop(real_session.url, DESKTOP)
    page.goto(real_session.url + "transcript/")
    wait_for_material(page)
    visible = "() => [...document.querySelectorAll('.msg-item')].filter(e => e.offsetParent !== null).length"
    every = page.evaluate(visible)
    work = page.locator(".msg-item:has(> .msg-entry--work)").count()
    assert 0 < work < every
    page.get_by_label("Dialogue only", exact=False).check()
    assert page.evaluate(visible) == every - work
    page.get_by_label("Dialogue only", exact=False).uncheck()
    assert page.evaluate(visible) == every


@pytest.mark.parametrize("viewport_name", VIEWPORTS)
def test_a_long_sessions_page_lands_on_a_message_and_fits_the_screen(long_session, phone_and_desktop, output_dir,
                                                                      viewport_name):
    page = phone_and_desktop(long_session.url, VIEWPORTS[viewport_name])
    page.goto(long_session.url + "transcript/page-12/#msg-5855")
    wait_for_material(page)
    assert page.locator(".msg-item").count() == 500
    landed = page.locator("#msg-5855").bounding_box()
    assert landed is not None and 0 < landed["y"] < 200, landed  # below the header, at the top
    assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")
    timing = page.evaluate("performance.getEntriesByType('navigation')[0].domContentLoadedEventEnd")
    print(f"page-12 at {viewport_name}: DOMContentLoaded after {timing:.0f} ms")  # measured, not judged here
    folder = output_dir / "screenshots"
    folder.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(folder / f"conversation-long-{viewport_name}.png"))


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("viewport_name", VIEWPORTS)
def test_no_wcag_violation_and_nothing_wider_than_the_screen(real_session, long_session, phone_and_desktop,
                                                             output_dir, scheme, viewport_name):
    for name, site, path in (("real", real_session, "transcript/"), ("long", long_session, "transcript/page-12/")):
        page = phone_and_desktop(site.url, VIEWPORTS[viewport_name], scheme)
        page.goto(site.url + path)
        wait_for_material(page)
        for fold in page.locator("details.msg-fold, details.msg-thinking").all()[:20]:
            fold.evaluate("d => { d.open = true; }")  # what the folds hold, checked too
        assert not axe_violations(page), (name, path)
        assert page.evaluate("document.documentElement.scrollWidth <= innerWidth"), (name, path)
        if name == "real":
            folder = output_dir / "screenshots"
            folder.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(folder / f"conversation-{viewport_name}-{scheme}.png"), full_page=True)


def test_an_essay_page_loads_little_whatever_the_sessions_size(long_session, phone_and_desktop):
    page = phone_and_desktop(long_session.url, PHONE)
    loaded: list[int] = []

    def count(request) -> None:
        sizes = request.sizes()
        loaded.append(sizes["responseBodySize"] + sizes["responseHeadersSize"])

    page.on("requestfinished", count)
    page.goto(long_session.url + "subagents/", wait_until="networkidle")
    page.wait_for_timeout(1000)  # anything loaded once the page is idle counts too
    assert len(loaded) > 10 and sum(loaded) <= 150_000, (len(loaded), sum(loaded))  # as sent: compressed


@pytest.fixture(scope="module")
def image_session(output_dir):
    """The essay of the tests, its message 5852 given the screenshot of a real log, as the importer keeps it."""
    imported = output_dir / "image-import"
    shutil.rmtree(imported, ignore_errors=True)
    imported.mkdir()
    result = subprocess.run([sys.executable, str(ROOT / "scripts/import_transcript.py"),
                             str(ROOT / "tests/data/transcripts/claude-code-log_image_edit_bash.jsonl"), "-o",
                             str(imported / "transcript.jsonl")], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    [image] = (imported / "transcript-images").iterdir()
    project = output_dir / "image-project"
    shutil.rmtree(project, ignore_errors=True)
    project = author_project("silence", project)
    transcript = project / "docs/transcript.jsonl"
    lines = []
    for line in transcript.read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        record.pop("redaction_seal", None)
        if record["n"] == 5852:
            record["images"] = [image.name]
        lines.append(json.dumps(record, ensure_ascii=False))
    transcript.write_text("\n".join(lines) + "\n", encoding="utf-8")
    shutil.copytree(imported / "transcript-images", project / "docs/transcript-images")
    with StaticHost(build_site(output_dir / "image-site", project)) as server:
        yield server


@pytest.mark.parametrize("viewport_name", VIEWPORTS)
def test_an_image_of_a_message_loads_lazily_within_the_column(image_session, phone_and_desktop, viewport_name):
    page = phone_and_desktop(image_session.url, VIEWPORTS[viewport_name])
    page.goto(image_session.url + "transcript/#msg-5852")
    wait_for_material(page)
    image = page.locator('.msg-item[data-msg="5852"] img')
    assert image.get_attribute("loading") == "lazy" and "message 5852" in (image.get_attribute("alt") or "")
    image.scroll_into_view_if_needed()
    page.wait_for_function("document.querySelector('.msg-item[data-msg=\"5852\"] img').naturalWidth > 0")
    fits = image.evaluate("img => img.getBoundingClientRect().right"
                          " <= img.closest('article').getBoundingClientRect().right")
    assert fits and page.evaluate("document.documentElement.scrollWidth <= innerWidth")
    assert not axe_violations(page)
