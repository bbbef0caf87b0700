"""What the agent showed, on a phone (375 px): a real session's slash command, a tool's
error labelled, and a call's link to its result on the next page, landing on it."""

from __future__ import annotations

import json
import re

import pytest

from browser.site_browser import PHONE, build_site, new_page, wait_for_material
from browser.test_conversation import whole_session_project
from session_pages import error_call_ids
from static_host import StaticHost

LOG = "claude-code-viewer_sidechain_todowrite_multiedit.jsonl"
PER_PAGE = 10  # message 8 calls a tool whose result is message 11, on the second page


@pytest.fixture(scope="module")
def session_site(output_dir):
    project = whole_session_project(output_dir / "agent-view-project")
    config = project / "mkdocs.yml"
    text, count = re.subn(r"^    messages_per_page: .*$", f"    messages_per_page: {PER_PAGE}",
                          config.read_text(encoding="utf-8"), flags=re.M)
    assert count == 1
    config.write_text(text, encoding="utf-8")
    # The errors the log marks, as an importer that keeps them writes them.
    transcript = project / "docs" / "transcript.jsonl"
    failed = error_call_ids(LOG)
    records = [json.loads(line) for line in transcript.read_text(encoding="utf-8").splitlines()]
    for record in records:
        record.pop("redaction_seal", None)
        if record["speaker"] == "tool" and record.get("source_id") in failed:
            record["is_error"] = True
    transcript.write_text("".join(json.dumps(record) + "\n" for record in records), encoding="utf-8")
    with StaticHost(build_site(output_dir / "agent-view-site", project)) as server:
        yield server


def shown_near_the_screen(page) -> None:
    """Two frames: an entry scrolled to is laid out in the next (content-visibility)."""
    page.evaluate("new Promise(requestAnimationFrame)")
    page.evaluate("new Promise(requestAnimationFrame)")


def test_a_slash_command_an_error_and_a_call_linked_to_its_result_on_a_phone(session_site, browser, output_dir):
    context, page, problems = new_page(browser, PHONE, origin=session_site.url)
    try:
        page.goto(session_site.url + "transcript/")
        wait_for_material(page)
        command = page.locator('.msg-item[data-msg="1"] .msg-slash code')
        assert command.is_visible() and command.inner_text() == "/orchestrator"
        link = page.locator('.msg-item[data-msg="8"] .msg-call-result a')
        link.scroll_into_view_if_needed()
        shown_near_the_screen(page)
        assert link.is_visible() and link.inner_text() == "message 11"
        link.click()
        page.wait_for_url(re.compile(r"/transcript/page-2/#msg-11$"))
        wait_for_material(page)
        landed = page.locator("#msg-11").bounding_box()
        assert landed is not None and 0 <= landed["y"] < PHONE["height"] / 2, landed
        error = page.locator('.msg-item[data-msg="15"] .msg-error')
        error.scroll_into_view_if_needed()
        shown_near_the_screen(page)
        assert error.is_visible() and error.inner_text() == "Error"
        back = page.locator('.msg-item[data-msg="15"] a.msg-call-link')
        assert back.is_visible() and back.get_attribute("href") == "#msg-12"
        assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")
        assert not problems.all(), problems.all()
        folder = output_dir / "screenshots"
        folder.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(folder / "agent-view-phone.png"))  # for a person to look at
    finally:
        context.close()
