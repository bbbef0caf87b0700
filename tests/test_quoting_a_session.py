"""An essay on a real session the code was not written against (tests/projects/reviewhelper,
a Claude Code 2.0.37 log with IDE wrappers, a refused plan, failed builds and edits), built
strictly: each quote shows what its message was. And the slash command that opens the
orchestrator essay's session, quoted beside its paragraph."""

from __future__ import annotations

from pathlib import Path

import pytest
from bs4 import BeautifulSoup

from author_project import author_project
from conftest import attribute, built_cleanly, selected


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    return built_cleanly(author_project("reviewhelper", tmp_path_factory.mktemp("quoting") / "project"))


def page(site, name):
    return BeautifulSoup((site / name / "index.html").read_text(encoding="utf-8"), "html.parser")


def figure_of(soup, n):
    """The figure that quotes message n beside its paragraph, or whole on its own line."""
    for figure in soup.select("article figure.msg-snippet"):
        if figure.figcaption.a.get_text() == f"Message {n}":
            return figure
    raise AssertionError(f"no quote of message {n}")


def test_a_command_is_quoted_by_the_command_it_ran(site):
    figure = figure_of(page(site, "building"), 36)
    assert selected(figure, ".msg-tool-line code").get_text() == "$ uv tool install ."


def test_a_failed_command_is_quoted_as_an_error_under_its_call(site):
    figure = figure_of(page(site, "building"), 37)
    assert selected(figure, ".msg-error").get_text() == "Error"
    assert selected(figure, ".msg-output__label").get_text().startswith("Output of Bash (called in message 36)")
    assert selected(figure, "pre").get_text().startswith("Exit code 1\nResolved 4 packages")
    assert selected(figure, ".msg-cut--link a")["href"] == "../transcript/#msg-37"


def test_an_edit_on_its_own_line_is_quoted_whole_as_its_diff(site):
    figure = figure_of(page(site, "building"), 24)
    assert "msg-snippet--full" in figure["class"]
    assert selected(figure, ".msg-tool__path").get_text().endswith("pyproject.toml")
    assert [line.get_text() for line in figure.select(".msg-diff del, .msg-diff ins")] == [
        '-requires = ["setuptools>=45", "wheel"]\n', '-build-backend = "setuptools.build_meta"\n',
        '+requires = ["hatchling"]\n', '+build-backend = "hatchling.build"\n']


def test_a_markdown_reply_is_rendered_and_cut_at_a_block(site):
    figure = figure_of(page(site, "ending"), 230)
    body = selected(figure, "blockquote.msg-body")
    assert [strong.get_text() for strong in body.select("strong")][:1] == ["Auto-detect PR Feature"]
    assert "get_current_branch_pr()" in [code.get_text() for code in body.select("code")]
    assert "**" not in body.get_text() and "##" not in body.get_text()
    assert selected(body, ".msg-cut").get_text().startswith("Shortened here:")


def test_a_refused_call_is_quoted_as_an_error(site):
    figure = figure_of(page(site, ""), 10)
    assert selected(figure, ".msg-error").get_text() == "Error"
    assert "The user doesn't want to proceed with this tool use." in figure.get_text()


def test_an_interruption_is_an_event_not_speech(site):
    figure = figure_of(page(site, "building"), 216)
    assert selected(figure, ".msg-event").get_text() == "Request interrupted by user for tool use"


def test_an_ide_selection_is_a_note(site):
    figure = figure_of(page(site, "ending"), 68)
    assert selected(figure, ".msg-ide__label").get_text().strip() != ""
    assert "<ide_selection>" not in figure.get_text()


def test_a_range_of_three_is_one_quote_of_the_exchange(site):
    soup = page(site, "building")
    quote = selected(soup, "article figure.msg-range")
    figures = quote.select("figure.msg-snippet")
    captions = [selected(figure, "figcaption").get_text(" ", strip=True) for figure in figures]
    assert captions == ["Message 36 · assistant · quoted verbatim", "Message 37 · tool · quoted verbatim",
                        "Message 38 · assistant · quoted verbatim"]
    assert selected(quote, ".msg-range__caption").get_text(" ", strip=True).startswith("Messages 36–38")
    assert attribute(selected(quote, ".msg-range__caption a"), "href").endswith("#msg-36-38")


def test_the_slash_command_that_opens_a_session_is_quoted_as_one(tmp_path):
    site = built_cleanly(author_project("orchestrator", tmp_path / "project"))
    figure = figure_of(page(site, ""), 1)
    assert selected(figure, ".msg-slash__name").get_text() == "/orchestrator"
    assert "<command-name>" not in figure.get_text()
