"""A transcript page's messages (msgview.conversation, message_markdown, tool_views) as a
careless or hostile session log gives them: what it holds renders as text, never as live
HTML; no input raises or stalls the build; and what would cost more than linear time is
not computed (these tests bound the work done, not the time: speed is benchmarked apart)."""

from __future__ import annotations

import json

import markdown.blockparser
import pytest
from bs4 import BeautifulSoup

from conftest import selected
from msgview import message_markdown, tool_views
from msgview.conversation import ConversationView
from msgview.highlight import lexer_for
from msgview.message_markdown import MessageMarkdown, plain_paragraphs, too_costly
from msgview.tool_views import DIFFED_LINES, TODO_ITEMS, tool_call_html
from transcript.schema import Message

MARKDOWN = MessageMarkdown()


def html_of(text: str) -> BeautifulSoup:
    return BeautifulSoup(MARKDOWN.html(text), "html.parser")


def message(n: int = 1, speaker: str = "assistant", text: str = "", **fields: object) -> Message:
    return Message(n=n, speaker=speaker, provenance="verbatim", text=text, **fields)  # type: ignore[arg-type]  # fields of any type, as a log has them


def view() -> ConversationView:
    return ConversationView(MessageMarkdown(), lambda name: f"images/{name}")


@pytest.mark.parametrize("fence", [
    '```{.python #a"><script>alert(1)</script>}\nx = 1\n```',
    "```{.python #x'><b>bold</b>}\nx = 1\n```",
    "```{.python .md-header .msg-thinking #dialogue-only}\nx = 1\n```",
    '```{.python onclick="alert(1)" data-x="y" style="color:red"}\nx = 1\n```',
    "> ```{#msg-3 .z}\n> x = 1\n> ```",
])
def test_a_fences_attributes_are_not_the_logs_to_give(fence):
    """superfences writes a fence's {#id .class} into the page, the id unescaped."""
    page = html_of(fence)
    assert not page.find_all(["script", "b"]), page
    block = selected(page, "div.highlight")
    assert block.attrs == {"class": ["highlight"]}, block.attrs
    assert not page.select("[id], [onclick], [style], [data-x]")
    assert selected(block, "samp").text == "x = 1\n"


def test_a_fences_title_and_line_options_still_work():
    page = html_of('```python title="<b>app.py</b>" hl_lines="1"\nx = 1\n```')
    assert selected(page, "span.filename").text == "<b>app.py</b>" and page.find("b") is None
    assert page.select("span.hll") and page.select("span.mi")


@pytest.mark.parametrize("address", [
    "&#106;avascript:alert(1)", "JaVa&#x09;script:alert(1)", "java&#x0A;script:alert(1)", "%6Aavascript:alert(1)",
    "javascript&colon;alert(1)", " javascript:alert(1)", "<javascript:alert(1)>",
    # No scheme: the rule is the scheme named, and a link without one would be the site's own.
    "//evil.example/x", "https:page", "https:/evil.example",
])
def test_tricky_addresses_go_nowhere(address):
    for text in (f"[the words]({address})", f"[the words][1]\n\n[1]: {address}", f"![the words]({address})"):
        page = html_of(text)
        assert page.find("a") is None and "the words" in page.get_text(), text


def test_a_mail_address_in_angle_brackets_is_a_mail_link():
    """Python-Markdown writes its address as character references, which the check of
    its scheme read as none."""
    for text in ("<someone@example.org>", "<mailto:someone@example.org>"):
        link = selected(html_of(text), "a")
        assert link["href"] == "mailto:someone@example.org" and link.text == "someone@example.org"
    assert selected(html_of('<a"onclick="x@b.c>'), "a").attrs.keys() == {"href", "rel"}


@pytest.mark.parametrize("text", [
    "| <b>x</b> | b |\n|---|---|\n| <script>1</script> | 2 |",
    "- <script>x</script>\n- <i>y</i>", "# <script>x</script>", "`<script>x</script>`", "> <b>quote</b>",
    "    <script>indented</script>", '```html\n<script>alert(1)</script>\n```', "Setext <b>\n===",
])
def test_raw_html_stays_text_in_every_construct(text):
    assert not html_of(text).find_all(["script", "b", "i"])


@pytest.fixture
def parses(monkeypatch) -> list[str]:
    """The texts whose blocks Python-Markdown went on to read."""
    read: list[str] = []
    original = markdown.blockparser.BlockParser.parseDocument

    def parse(parser, lines):
        read.append("\n".join(lines))
        return original(parser, lines)

    monkeypatch.setattr(markdown.blockparser.BlockParser, "parseDocument", parse)
    return read


@pytest.mark.parametrize("text", [
    "[" * 5_000, "![" * 2_500, "[a](" * 1_250,  # each bracket's end looked for to the end of the paragraph
    "- " * 1_000 + "a", "\n".join("    " * i + "- a" for i in range(300)), "> " * 200 + "- " * 200,  # recursion
    "#\n" * 10_000, "``a`" * 5_000, "a\n===\n" * 2_000,  # a block split again at each heading or code span
    "```\n" * 1_000, "a\n\n    b\n" * 500,  # a code block highlighted at a time
    "*emphasis* and [a link](https://example.org)\n\n" * 2_000,  # longer than the parser is given
])
def test_text_the_parser_would_stall_on_is_not_parsed(text, parses):
    assert MARKDOWN.html(text) == plain_paragraphs(text)
    assert parses == []


def test_what_the_cost_guard_lets_through_is_parsed(parses, monkeypatch):
    # Time enough to highlight the long code on a busy machine: the time bound is not what is tested here.
    monkeypatch.setattr(message_markdown, "HIGHLIGHT_SECONDS", 60.0)
    words = "Some **bold**, [a link](https://example.org) and `code`.\n\n" * 50
    text = words + "```python\n" + "x = [1]\n" * 2_000 + "```"
    assert not too_costly(words)
    page = html_of(text)
    assert page.find("strong") and page.find("a") and page.select("div.highlight span.mi")
    assert len(parses) == 1  # its fenced code, however long, does not count


def test_code_in_a_language_whose_lexer_may_stall_is_not_highlighted(monkeypatch):
    """mcschema's lexer takes minutes over 100 characters of "<!--"."""
    page = html_of("```mcschema\n" + "<!--" * 25 + "\n```")
    assert selected(page, "samp").text == "<!--" * 25 + "\n" and not page.select("samp span")
    assert lexer_for(language="mcschema") is None and lexer_for(language="python") is not None
    # Code not lexed in time is shown as text.
    monkeypatch.setattr(message_markdown, "HIGHLIGHT_SECONDS", -1.0)
    assert not html_of("```python\nx = 1\n```").select("samp span")


def test_a_file_written_with_a_lexer_that_may_stall_is_not_highlighted(monkeypatch):
    page = BeautifulSoup(tool_call_html("Write", {"file_path": "a.mcschema", "content": "<!--" * 25}), "html.parser")
    assert selected(page, "pre samp").text == "<!--" * 25 and page.find("div", class_="highlight") is None
    # A name longer than any file's is not matched against every lexer's patterns.
    assert lexer_for(path="a" * 1_000_000 + ".py") is None
    monkeypatch.setattr(tool_views, "HIGHLIGHT_SECONDS", -1.0)
    page = BeautifulSoup(tool_call_html("Write", {"file_path": "a.py", "content": "x = 1\n"}), "html.parser")
    assert page.find("div", class_="highlight") is None and selected(page, "pre samp").text == "x = 1\n"


def test_a_huge_edit_is_not_diffed(diffed):
    old = "\n".join(f"line {i}" for i in range(20_000))
    new = "\n".join(f"line {i * 7 % 20_000}" for i in range(20_000))
    compared = diffed
    page = BeautifulSoup(tool_call_html("MultiEdit", {"file_path": "a", "edits": [
        {"old_string": "x", "new_string": "y"}, {"old_string": old, "new_string": new}]}), "html.parser")
    assert compared == [2]  # only the small edit, however many lines the other has
    assert [d.text for d in selected(page, "pre.msg-diff").find_all("del")] == ["-x\n"]
    folds = page.select("details.msg-fold")
    assert [selected(fold, "summary").text.split(" (")[0] for fold in folds] == ["Old text", "New text"]
    assert [selected(fold, "pre").text for fold in folds] == [old, new]
    assert max(compared) <= DIFFED_LINES


def test_a_huge_patch_is_shown_as_text_folded():
    patch = "+added\n" * (DIFFED_LINES + 1)
    page = BeautifulSoup(tool_call_html("apply_patch", {"input": patch}), "html.parser")
    assert page.find("ins") is None and selected(page, "details.msg-fold pre").text == patch


@pytest.mark.parametrize("status", [["completed"], {"a": 1}, 3, None, True, "<b>done</b>"])
def test_a_todo_status_of_any_shape_is_shown(status):
    page = BeautifulSoup(tool_call_html("TodoWrite", {"todos": [{"content": "x", "status": status}]}), "html.parser")
    item = selected(page, "li")
    assert item["class"] == ["msg-todo"] and item.text.startswith("☐ x") and page.find("b") is None


@pytest.mark.parametrize("tool_input", [
    {"file_path": "a", "offset": int("9" * 4_300), "limit": int("9" * 4_300)},  # their sum has too many digits to write
    {"file_path": "a", "offset": 1.5}, {"file_path": "a", "limit": True},
])
def test_a_read_with_lines_that_are_no_lines_is_shown_whole(tool_input):
    page = BeautifulSoup(tool_call_html("Read", tool_input), "html.parser")
    assert page.select("details.msg-fold pre") and page.find(class_="msg-tool__path") is None


@pytest.mark.parametrize("name, tool_input", [
    ("Write", {"file_path": "<script>a</script>.py", "content": "<script>"}),
    ("Read", {"file_path": "<img src=x onerror=alert(1)>"}),
    ("Edit", {"file_path": "<b>a</b>", "old_string": "<i>", "new_string": "<script>"}),
    ("<script>alert(1)</script>", {"<b>key</b>": "<i>value</i>"}),
    ("Bash", {"command": "echo '<script>'", "description": "<b>list</b>"}),
    ("Task", {"description": "<b>x</b>", "subagent_type": "<i>y</i>", "prompt": "<script>"}),
])
def test_tool_names_paths_and_inputs_stay_text(name, tool_input):
    page = BeautifulSoup(tool_call_html(name, tool_input), "html.parser")
    assert not page.find_all(["script", "b", "i", "img"]), page


def test_deep_and_big_tool_inputs_are_shown_whole():
    nested: object = "x"
    for _ in range(99):
        nested = {"k": [nested]} if isinstance(nested, str) else {"k": nested}
    assert "msg-fold" in tool_call_html("mcp__tool", nested)
    todos = [{"content": f"item {i}", "status": "pending"} for i in range(10_000)]
    checklist = BeautifulSoup(tool_call_html("TodoWrite", {"todos": todos}), "html.parser")
    assert len(checklist.select("li")) == TODO_ITEMS  # the rest as the call gives them, folded
    assert json.loads(selected(checklist, "details.msg-fold pre").text) == todos[TODO_ITEMS:]
    assert selected(checklist, "p.msg-tool__note").text.startswith(f"{10_000 - TODO_ITEMS:,} more items")
    for name, tool_input, items in [("read_many_files", {"paths": [f"{i}.py" for i in range(10_000)]}, "ul li"),
                                    ("mcp__server__tool", {f"field {i}": i for i in range(10_000)}, "dl dt"),
                                    ("AskUserQuestion", {"questions": [{"question": "Which?", "options": [
                                        {"label": str(i)} for i in range(10_000)]}]}, "ul li")]:
        page = BeautifulSoup(tool_call_html(name, tool_input), "html.parser")
        assert len(page.select(items)) == TODO_ITEMS, name
        assert selected(page, ".msg-more").text.startswith(f"… {10_000 - TODO_ITEMS:,} more"), name
    written = "x = 1\n" * 800_000  # 5 MB: not highlighted, folded
    page = BeautifulSoup(tool_call_html("Write", {"file_path": "a.py", "content": written}), "html.parser")
    assert page.find("div", class_="highlight") is None and selected(page, "details pre").text == written


@pytest.mark.parametrize("timestamp", ["0001-01-01T00:00:00+14:00", "9999-12-31T23:59:59-14:00"])
def test_a_time_whose_utc_is_out_of_range_is_shown_as_the_log_has_it(timestamp):
    shown = view().time_html(message(timestamp=timestamp))
    assert BeautifulSoup(shown, "html.parser").text == timestamp


def test_placeholders_in_a_log_do_not_bring_back_stashed_html():
    shown = view().body_html(message(text="```\n<b>code</b>\n```\n\n\x02wzxhzdk:0\x03 and \x02klzzwxh:0\x03"))
    page = BeautifulSoup(shown, "html.parser")
    assert len(page.select("div.highlight")) == 1 and page.find("b") is None
    assert "␂wzxhzdk:0␃" in page.text


def test_blank_thinking_is_no_thinking():
    conversation = view()
    shown = message(text=" \n", thinking=" \n\t")
    assert "msg-thinking" not in conversation.body_html(shown) and conversation.kind(shown) == "dialogue"
    thought = message(text="  ", thinking="Let me **see**.")
    page = BeautifulSoup(conversation.body_html(thought), "html.parser")
    assert selected(page, "details.msg-thinking strong").text == "see" and conversation.kind(thought) == "work"


def test_a_thinking_of_a_megabyte_is_shown_whole_as_text(parses):
    thinking = "Thinking about *this* [and](https://example.org) that.\n\n" * 18_000
    page = BeautifulSoup(view().body_html(message(text="ok", thinking=thinking)), "html.parser")
    assert selected(page, "details.msg-thinking").text.count("Thinking about") == 18_000 and parses == []


def test_crlf_text_reads_as_lf_text():
    assert MARKDOWN.html("a **b**\r\n\r\n- c\r\n- d\r\n") == MARKDOWN.html("a **b**\n\n- c\n- d\n")


def test_a_call_with_words_and_an_output_of_a_call_on_another_page():
    conversation = view()
    call = message(1, text="Let me look.", tool_name="Read", tool_input={"file_path": "<a>.py"}, source_id="c1")
    page = BeautifulSoup(conversation.body_html(call), "html.parser")
    assert selected(page, "p").text == "Let me look." and selected(page, ".msg-tool__path code").text == "<a>.py"
    assert "Output of Read" in conversation.body_html(message(2, "tool", "x", source_id="c1"))
    # The next page's view has not seen the call.
    assert "Tool output" in view().body_html(message(3, "tool", "x", source_id="c1"))
    # A tool's name is text in its output's label too.
    conversation.body_html(message(4, tool_name="<b>tool</b>", tool_input=None, source_id="c2"))
    output = BeautifulSoup(conversation.body_html(message(5, "tool", "<i>x</i>", source_id="c2")), "html.parser")
    assert selected(output, ".msg-output__label").text == "Output of <b>tool</b>" and not output.find_all(["b", "i"])
