"""Bidirectional controls and the character references that write them or a control
character (msgview.hidden_characters): found wherever text is HTML, and shown by their
code points in a message's Markdown, but in code, which shows what was written."""

from __future__ import annotations

import pytest
from bs4 import BeautifulSoup

from conftest import selected
from msgview.hidden_characters import BIDI_RE, hidden_reference, holds_bidi_control
from msgview.message_markdown import MessageMarkdown
from msgview.text import displayable
from msgview.tool_views import tool_call_html


def test_the_quick_look_for_bidirectional_controls_finds_what_the_expression_finds():
    for code in range(0x110000):
        char = chr(code)
        assert holds_bidi_control(f"a{char}b") == bool(BIDI_RE.search(char)), hex(code)


@pytest.mark.parametrize(("text", "reference"), [
    ("a &#x202e; b", "&#x202e;"), ("&#X202E;", "&#X202E;"), ("&#8238;", "&#8238;"), ("&#x0000202e;", "&#x0000202e;"),
    ("&rlm;", "&rlm;"), ("x &lrm;", "&lrm;"), ("&#x2066;", "&#x2066;"), ("&#1564;", "&#1564;"),
    ("&#x1b;[31m", "&#x1b;"), ("&#0;", None), ("&#x85;", "&#x85;"),
    ("a &#x202e b", "&#x202e"), ("&#8238x", "&#8238"), ("&#x" + "0" * 30 + "202e;", "&#x" + "0" * 30 + "202e;"),
    ("&#" + "9" * 5000 + ";", None), ("&rlm x", None),
    ("&amp;#x202e;", None), ("&nbsp; &#x41; &eacute;", None), ("&rlo;", None), ("&#x110000;", None), ("&#xd800;", None),
])
def test_a_reference_writing_a_hidden_character_is_found(text, reference):
    assert hidden_reference(text) == reference


@pytest.mark.parametrize(("text", "shown"), [
    ("a &#x202e;txt.exe", "a \u27e8U+202E\u27e9txt.exe"),
    ("**b** &#8238; &rlm; &#x1B;", "b \u27e8U+202E\u27e9 \u27e8U+200F\u27e9 \u241b"),
    ("&amp; &nbsp;&eacute; &#x41;", "& \u00a0é A"),
    ("raw \u202e and \u2067x\u2069", "raw \u27e8U+202E\u27e9 and \u27e8U+2067\u27e9x\u27e8U+2069\u27e9"),
])
def test_a_messages_references_to_hidden_characters_show_as_they_would(text, shown):
    paragraph = selected(BeautifulSoup(MessageMarkdown().html(displayable(text)), "html.parser"), "p")
    assert paragraph.get_text() == shown


def test_references_in_code_stay_as_written():
    page = BeautifulSoup(MessageMarkdown().html("`&#x202e;` and\n\n```\n&rlm; &#x1b;\n```"), "html.parser")
    assert selected(page, "p code").get_text() == "&#x202e;"
    assert selected(page, "pre samp").get_text() == "&rlm; &#x1b;\n"


@pytest.mark.parametrize("tool", ["Bash", "exec_command", "Task", "SomeTool"])
def test_every_text_of_a_tool_input_shows_control_and_bidirectional_characters(tool):
    tool_input = {"command": "ls \x1b[1m", "cmd": "ls", "description": "nul\x00 \u202egpj.exe", "prompt": "p",
                  "nested": [{"key\u2066": "\x07\u200e"}]}
    html = tool_call_html(tool, tool_input)
    text = BeautifulSoup(html, "html.parser").get_text()
    assert not any(char in text for char in "\x00\x07\x1b\u202e\u2066\u200e"), text
    assert "nul\u2400 \u27e8U+202E\u27e9gpj.exe" in text and "key\u27e8U+2066\u27e9" in text
