"""Inputs whose cost would grow past their size: a fence's line options repeated over
empty lines, a call of thousands of edits, YAML whose aliases make billions of values
of a few lines, numbers of thousands of digits. Each is bounded by the input's own size,
or refused in one line naming the file and line: these tests count the work done and
the length of what is written, not the time (the builds' timeouts only guard a hang)."""

from __future__ import annotations

import json
import re

import pymdownx.highlight  # type: ignore[import-untyped]  # pymdownx ships no type hints
import pytest
import yaml
from bs4 import BeautifulSoup

from conftest import build, entry_of, selected, soup
from essaycite.cff import what_differs
from msgview.fence_options import LINE_NUMBER_DIGITS, highlighted_ranges
from msgview.message_markdown import MessageMarkdown
from msgview.tool_views import DIFFED_CALL_LINES, DIFFED_EDITS, DIFFED_LINES, tool_call_html
from sitebuild.config_file import read_config
from sitebuild.settings import (
    PROBLEM_CHARS,
    SHOWN_CHARS,
    EssaySettings,
    SettingsError,
    problem_line,
    read_settings,
    shown,
)
from sitebuild.yaml_aliases import ALIASED_SIZE, alias_problem

LAUGHS = "lol"


def laughs(levels: int, indent: str = "") -> tuple[str, str]:
    """YAML lines whose last anchor names 9**levels values, and an alias of it."""
    lines = [f"{indent}l0: &l0 [{', '.join([LAUGHS] * 9)}]"]
    lines += [f"{indent}l{i}: &l{i} [{', '.join([f'*l{i - 1}'] * 9)}]" for i in range(1, levels)]
    return "\n".join(lines) + "\n", f"*l{levels - 1}"


@pytest.fixture
def highlighted_lines(monkeypatch) -> list[int]:
    """How many line numbers each fence gave pymdownx.highlight to highlight."""
    given: list[int] = []
    original = pymdownx.highlight.Highlight.highlight

    def highlight(self, src, language, *args, hl_lines=None, **options):
        given.append(len(hl_lines or []))
        return original(self, src, language, *args, hl_lines=hl_lines, **options)

    monkeypatch.setattr(pymdownx.highlight.Highlight, "highlight", highlight)
    return given


# --- a fence's line options -------------------------------------------------------------

def test_repeated_highlighted_ranges_list_each_line_once(highlighted_lines):
    code = "x = 1\n" * 500
    repeated = " ".join(["1-99999"] * 300)  # 300 ranges each to one past the code's end: 150,300 numbers
    page = BeautifulSoup(MessageMarkdown().html(f'```python hl_lines="{repeated}"\n{code}```'), "html.parser")
    assert highlighted_lines == [500]
    assert len(page.select("samp span.hll")) == 500


def test_line_numbers_of_thousands_of_digits_are_no_lines(highlighted_lines):
    huge = "9" * 5_000  # more digits than Python reads as a number
    html = MessageMarkdown().html(f'```python hl_lines="2 3-{huge}" linenums="{huge}"\na\nb\nc\n```')
    page = BeautifulSoup(html, "html.parser")
    assert highlighted_lines == [2] and len(page.select("span.hll")) == 2
    assert not page.select(".linenos, .linenodiv") and huge[:LINE_NUMBER_DIGITS + 1] not in html


def test_a_first_line_number_too_long_for_a_line_leaves_the_numbers_out():
    page = BeautifulSoup(MessageMarkdown().html('```python linenums="10000000000"\na\nb\n```'), "html.parser")
    assert not page.select(".linenos, .linenodiv") and selected(page, "samp").text == "a\nb\n"
    numbered = BeautifulSoup(MessageMarkdown().html('```python linenums="7 99999999"\na\nb\n```'), "html.parser")
    assert numbered.select(".linenos, .linenodiv") and "99999999" not in numbered.text


@pytest.mark.parametrize("hl_lines, expected", [
    ("1 3-5", [(1, 1), (3, 5)]), ("4-6 1-2 3", [(1, 6)]), ("0-2 9 8-99", [(1, 2), (8, 10)]),
    ("5-2 11 0", []), ("1-" + "9" * 50, [(1, 10)]), (" ".join(["1-99999"] * 1_000), [(1, 10)]),
])
def test_highlighted_ranges_are_merged_within_the_block(hl_lines, expected):
    assert highlighted_ranges(hl_lines, 10) == expected


# --- a call's edits ---------------------------------------------------------------------



def edits(count: int, lines: int) -> list[dict[str, str]]:
    return [{"old_string": "\n".join(f"old {i} {j}" for j in range(lines)),
             "new_string": "\n".join(f"new {i} {j}" for j in range(lines))} for i in range(count)]


def test_a_call_of_many_edits_is_diffed_up_to_its_lines_and_the_rest_shown_whole(diffed):
    made = edits(300, 100)  # each well under DIFFED_LINES, 60,000 lines in all
    page = BeautifulSoup(tool_call_html("MultiEdit", {"file_path": "a.py", "edits": made}), "html.parser")
    assert sum(diffed) <= DIFFED_CALL_LINES and len(diffed) == DIFFED_CALL_LINES // 200
    left = 300 - len(diffed)
    assert selected(page, "p.msg-tool__note").text.startswith(f"{left} more edits, past the {DIFFED_EDITS} edits")
    assert json.loads(selected(page, "details.msg-fold pre").text) == made[len(diffed):]
    assert len(page.select("pre.msg-diff del")) == 100 * len(diffed)


def test_a_call_of_many_small_edits_is_diffed_up_to_their_number(diffed):
    made = [{"old_string": f"a{i}", "new_string": f"b{i}"} for i in range(5_000)]
    page = BeautifulSoup(tool_call_html("MultiEdit", {"file_path": "a.py", "edits": made}), "html.parser")
    assert len(diffed) == DIFFED_EDITS
    assert selected(page, "p.msg-tool__note").text.startswith(f"{5_000 - DIFFED_EDITS:,} more edits")
    assert len(json.loads(selected(page, "details.msg-fold pre").text)) == 5_000 - DIFFED_EDITS


def test_a_call_within_the_bounds_is_diffed_whole(diffed):
    made = [*edits(3, 100), *edits(1, DIFFED_LINES)]  # the last too long to diff: its texts, folded
    page = BeautifulSoup(tool_call_html("MultiEdit", {"file_path": "a.py", "edits": made}), "html.parser")
    assert diffed == [200] * 3 and page.find("p", class_="msg-tool__note") is None
    assert [summary.text.split(" (")[0] for summary in page.select("summary")] == ["Old text", "New text"]


# --- YAML aliases -----------------------------------------------------------------------

def test_aliases_repeating_billions_of_values_are_found_on_their_line():
    lines, alias = laughs(10)
    found = alias_problem(f"{lines}title: {alias}\n")
    assert found is not None and found[0] == 5  # *l3 names 9**4 values: a few of them repeat past the bound
    assert "*l3" in found[1]
    assert f"more than {ALIASED_SIZE:,} values" in found[1]


@pytest.mark.parametrize("text, line", [
    ("a: &a [1, *a]\n", 1), ("a: &a\n  b: *a\n", 2),  # a value that would never end
    ("s: &s " + "x" * 1_000 + "\nt: [" + ", ".join(["*s"] * 200) + "]\n", 2),  # one long text, repeated
])
def test_aliases_within_their_value_or_of_long_texts_are_found(text, line):
    found = alias_problem(text)
    assert found is not None and found[0] == line


@pytest.mark.parametrize("text", [
    "base: &base {a: 1, b: 2}\none:\n  <<: *base\n  c: 3\ntwo:\n  <<: *base\n",
    "x: &x hello\ny: *x\n", "plain: [1, 2, 3]\n", "a: [unclosed\n", "",
    "---\n" + "\n".join(f"k{i}: &k{i} [1, 2, 3]" for i in range(5_000)) + "\n---\n",
])
def test_ordinary_yaml_passes(text):
    assert alias_problem(text) is None


# --- values named in problems -----------------------------------------------------------

def test_a_value_named_in_a_problem_is_cut():
    value: object = [LAUGHS] * 9
    for _ in range(40):  # 9**41 values, shared
        value = [value] * 9
    assert len(shown(value)) <= SHOWN_CHARS and len(shown("x" * 10**6)) <= SHOWN_CHARS
    assert shown("short") == "'short'" and shown(-1) == "-1"


@pytest.mark.parametrize("edition", ["1" * 5_000, int("1" * 4_000), 10**15],
                         ids=["quoted", "4,000 digits", "16 digits"])
def test_an_edition_of_thousands_of_digits_is_refused_in_a_short_line(edition):
    values = {"title": "T", "published": "2026-01-01", "edition": edition, "sections": ["a.md"]}
    with pytest.raises(SettingsError) as refused:
        read_settings(EssaySettings, values, "extra.essay")
    assert str(refused.value).startswith("mkdocs.yml: extra.essay.edition: expected a whole number of at most 15 "
                                         "digits, found ")
    assert len(str(refused.value)) < 2 * SHOWN_CHARS


def test_a_problem_is_cut_to_one_line_to_read():
    problem = "mkdocs.yml: site_author: " + "Ann Smith and Bob Jones " * 5_000 + "reads as more than one author"
    cut = problem_line(problem)
    assert len(cut) <= PROBLEM_CHARS and cut.startswith("mkdocs.yml: site_author: Ann Smith")
    assert cut.endswith("reads as more than one author") and problem_line("short") == "short"


def test_a_citation_file_holding_a_number_of_thousands_of_digits_is_written_anew():
    assert what_differs(f"cff-version: {'1' * 5_000}\n", "cff-version: 1.2.0\n") == "it was not valid YAML"


def test_mkdocs_yml_read_by_the_scripts_names_the_line_of_a_long_number_or_of_an_alias(tmp_path):
    config = tmp_path / "mkdocs.yml"
    config.write_text(f"site_name: x\nextra:\n  essay:\n    edition: {'1' * 5_000}\n")
    with pytest.raises(yaml.YAMLError, match=r"more digits than can be read\n.*line 4"):
        read_config(config)
    lines, alias = laughs(6)
    config.write_text(f"site_name: x\n{lines}extra: {alias}\n")
    with pytest.raises(SettingsError, match=r"^mkdocs\.yml:6: the aliases up to \*l3 repeat"):
        read_config(config)


# --- in real builds ---------------------------------------------------------------------

def one_error_line(result) -> str:
    """The one line of the error that stopped the build, with no traceback."""
    assert result.returncode == 1, result.stderr
    assert "Traceback" not in result.stderr, result.stderr[-3_000:]
    errors = [line for line in result.stderr.splitlines() if line.startswith("ERROR")]
    assert errors, result.stderr[-3_000:]
    return errors[-1]


def test_front_matter_of_billions_of_values_stops_the_build_naming_its_line(project, tmp_path):
    page = project / "docs" / "context.md"
    lines, alias = laughs(7)  # 9**7 values: the theme writes the title of every page into each
    page.write_text(f"---\n{lines}title: {alias}\n---\n" + page.read_text())
    line = one_error_line(build(project, tmp_path / "site", timeout=180))
    assert re.search(r"ERROR\s+-\s+docs/context\.md:6: front matter: the aliases up to \*l3 repeat more than", line)


@pytest.mark.parametrize("section, setting", [("essay", "title"), ("transcript", "redact_allow")])
def test_settings_of_millions_of_values_stop_the_build_in_a_short_line(project, tmp_path, section, setting):
    """Smaller than the front matter's: MkDocs writes every setting out itself first, before any hook runs."""
    config = project / "mkdocs.yml"
    lines, alias = laughs(7, indent="    ")  # 9**7 values, written out as the setting's: tens of megabytes
    text = re.sub(rf"^    {setting}: .*\n", "", config.read_text(), flags=re.MULTILINE)
    text = text.replace("extra:\n", f"extra:\n  laughs:\n{lines}", 1)  # extra's own keys are the author's
    text = text.replace(f"  {section}:\n", f"  {section}:\n    {setting}: {alias}\n", 1)
    config.write_text(text)
    at = next(number for number, line in enumerate(text.splitlines(), start=1) if line.startswith("    l4:"))
    line = one_error_line(build(project, tmp_path / "site", timeout=180))
    assert re.search(rf"ERROR\s+-\s+mkdocs\.yml:{at}: the aliases up to \*l3 repeat more than", line), line
    assert len(line) < PROBLEM_CHARS


def test_a_long_author_named_in_a_problem_stops_the_build_in_a_short_line(project, tmp_path):
    config = project / "mkdocs.yml"
    names = "Ann Smith and Bob Jones " * 5_000
    config.write_text(config.read_text().replace("site_name:", f'site_author: "{names}"\nsite_name:', 1))
    line = one_error_line(build(project, tmp_path / "site"))
    assert re.search(r"ERROR\s+-\s+mkdocs\.yml: site_author: 'Ann Smith and Bob Jones Ann", line), line
    assert line.endswith("reads as more than one author: list each on its own line under extra.essay.authors")
    assert len(line) < PROBLEM_CHARS + 20


def test_a_quoted_edition_of_thousands_of_digits_stops_the_build_in_a_short_line(project, tmp_path):
    config = project / "mkdocs.yml"
    config.write_text(config.read_text().replace("    edition: 1\n", f'    edition: "{"1" * 5_000}"\n'))
    line = one_error_line(build(project, tmp_path / "site"))
    assert re.search(r"ERROR\s+-\s+mkdocs\.yml: extra\.essay\.edition: expected a whole number of at most 15 digits,"
                     r" found '1{20,}", line), line
    assert len(line) < 2 * SHOWN_CHARS


def test_a_transcript_of_cost_bombs_is_built_in_bounded_work(project, tmp_path):
    """A thinking of a fence whose highlighted ranges repeat over empty lines, and a call of
    many edits, each under the diff's own limit."""
    ranges = " ".join(["1-99999"] * 3_000)
    thinking = f'```python hl_lines="{ranges}"\n' + "\n" * 22_000 + "```\n"
    many = edits(1_500, 10)
    records = [
        {"n": 9001, "speaker": "assistant", "provenance": "verbatim", "text": "Done.", "thinking": thinking},
        {"n": 9002, "speaker": "assistant", "provenance": "verbatim", "text": "", "tool_name": "MultiEdit",
         "tool_input": {"file_path": "a.py", "edits": many}},
    ]
    transcript = project / "docs" / "transcript.jsonl"
    transcript.write_text(transcript.read_text() + "".join(json.dumps(record) + "\n" for record in records))
    with (project / "docs" / "conclusion.md").open("a") as page:
        page.write("\nThought [msg 9001] and edited [msg 9002].\n")
    result = build(project, tmp_path / "site", timeout=300)
    assert result.returncode == 0, result.stderr[-3_000:]
    transcript_page = soup(tmp_path / "site" / "transcript" / "index.html")
    thought = entry_of(transcript_page, 9001)
    assert len(selected(thought, "details.msg-thinking").select("span.hll")) <= 22_001
    edited = entry_of(transcript_page, 9002)
    diffed = min(DIFFED_EDITS, DIFFED_CALL_LINES // 20)  # edits of 20 lines, old and new
    assert len(selected(edited, "pre.msg-diff").find_all("del")) == 10 * diffed
    assert selected(edited, "p.msg-tool__note").text.startswith(f"{1_500 - diffed:,} more edits")
    assert json.loads(selected(edited, "details.msg-fold pre").text) == many[diffed:]
