"""One renderer of a message, at every size a place asks for: a table of message shapes
by size, the cut at a block, and every message of the real sample logs."""

from __future__ import annotations

from pathlib import Path

import pytest
from bs4 import BeautifulSoup

from conftest import ROOT
from msgview.cut import ELLIPSIS, cut_at_block
from msgview.labels import BLANK_LABEL, EMPTY_LABEL
from msgview.render import BOUNDS, LINE_CHARS, MessageRenderer, Size, line
from msgview.tool_views import tool_call_line
from transcript.calls import LOOK_BACK, CallsBefore
from transcript.schema import FIELD_TYPES, Message
from transcript_formats import ReadStats, detect, read_messages
from transcripts import MemoryTranscript

SIZES = list(Size)
SAMPLES = sorted(path for path in (ROOT / "tests" / "data" / "transcripts").iterdir()
                 if path.suffix in (".jsonl", ".json"))
IMAGE = "0123456789abcdef0123456789abcdef.png"


def message(n: int = 1, **fields: object) -> Message:
    record = {"n": n, "speaker": "assistant", "provenance": "verbatim", "text": "", **fields}
    transcript = MemoryTranscript([record])
    found = transcript.get(n)
    assert found is not None
    return found


def rendered(shown, size, renderer=None):
    made = (renderer or MessageRenderer()).quotation(shown, size, whole_href="t/#msg-1")
    return BeautifulSoup(made.html, "html.parser")


@pytest.mark.parametrize("size", SIZES)
def test_markup_in_a_message_is_text_at_every_size(size):
    shown = rendered(message(text='<script>alert(1)</script> <img src=x onerror="alert(2)">'), size)
    assert shown.find_all(["script", "img"]) == [] and not shown.select("[onerror]")
    assert "<script>alert(1)</script>" in shown.get_text()


@pytest.mark.parametrize("size", SIZES)
def test_markdown_is_rendered_at_every_size(size):
    shown = rendered(message(text="**Done.** Ran `make test`:\n\n- one\n- two"), size)
    assert shown.strong.get_text() == "Done." and shown.code.get_text() == "make test"
    assert "**" not in shown.get_text() and "`" not in shown.get_text()


@pytest.mark.parametrize("size", SIZES)
def test_single_line_breaks_are_kept_apart_from_markdown_words(size):
    shown = rendered(message(text="✅ one\n\n✅ two"), size)
    assert [p.get_text() for p in shown.find_all("p")] == ["✅ one", "✅ two"]


@pytest.mark.parametrize("size", SIZES)
def test_a_message_of_thinking_alone_shows_its_thinking(size):
    shown = rendered(message(thinking="Maybe the cache is stale."), size)
    assert "Maybe the cache is stale." in shown.get_text() and EMPTY_LABEL not in shown.get_text()


@pytest.mark.parametrize("size", SIZES)
def test_a_message_of_an_image_alone_says_so(size):
    shown = rendered(message(images=[IMAGE]), size)
    assert shown.get_text() == "An image, shown in the transcript" and shown.img is None
    two = MessageRenderer(image_href=lambda name: f"../images/{name}").quotation(message(images=[IMAGE, IMAGE]), size)
    shown = BeautifulSoup(two.html, "html.parser")
    if size in (Size.WHOLE, Size.PRINT):  # where the place gives images an address, they are shown
        assert [img["src"] for img in shown.find_all("img")] == [f"../images/{IMAGE}"] * 2
    else:
        assert shown.get_text() == "2 images, shown in the transcript"


@pytest.mark.parametrize("size", SIZES)
def test_a_command_is_quoted_by_what_it_ran(size):
    call = message(tool_name="Bash", tool_input={"command": "sleep 2 && pnpm test", "description": "Run tests"})
    assert "sleep 2 && pnpm test" in rendered(call, size).get_text()
    assert "Tool call" not in rendered(call, size).get_text()


@pytest.mark.parametrize("size", SIZES)
def test_words_and_a_call_of_one_message_are_both_shown(size):
    both = message(text="Let me run the tests.", tool_name="Bash", tool_input={"command": "pytest -q"})
    text = rendered(both, size).get_text()
    assert "Let me run the tests." in text and "pytest -q" in text


def test_the_snippet_of_a_call_is_one_line_and_the_preview_its_view():
    edit = message(tool_name="Edit", tool_input={"file_path": "src/app.py", "old_string": "a = 1\n",
                                                  "new_string": "a = 2\n"})
    snippet = rendered(edit, Size.SNIPPET)
    assert [code.get_text() for code in snippet.select(".msg-tool-line code")] == ["Edit src/app.py"]
    preview = rendered(edit, Size.PREVIEW)
    assert [line.get_text() for line in preview.select(".msg-diff del, .msg-diff ins")] == ["-a = 1\n", "+a = 2\n"]


@pytest.mark.parametrize("size", SIZES)
def test_an_output_is_labelled_by_its_call_wherever_it_is_shown(size):
    transcript = MemoryTranscript([
        {"n": 1, "speaker": "assistant", "provenance": "verbatim", "text": "", "tool_name": "Bash",
         "tool_input": {"command": "ls"}, "source_id": "call-1"},
        {"n": 3, "speaker": "tool", "provenance": "verbatim", "text": "a.txt\nb.txt", "source_id": "call-1"},
    ])
    output = transcript.get(3)
    assert output is not None
    shown = rendered(output, size, MessageRenderer(call_of=CallsBefore(transcript)))
    assert shown.select_one(".msg-output__label").get_text().startswith("Output of Bash (called in message 1)")
    assert "a.txt\nb.txt" in shown.pre.get_text()


def test_a_long_output_is_shortened_to_its_first_lines():
    output = message(speaker="tool", text="\n".join(f"line {i}" for i in range(100)))
    shown = rendered(output, Size.SNIPPET)
    assert shown.pre.get_text().splitlines() == [f"line {i}" for i in range(BOUNDS[Size.SNIPPET].lines)]
    assert shown.select_one(".msg-cut").a["href"] == "t/#msg-1"


@pytest.mark.parametrize("size", SIZES)
def test_an_empty_message_is_marked_and_not_quoted(size):
    for text, label in (("", EMPTY_LABEL), ("  \n", BLANK_LABEL)):
        shown = rendered(message(text=text), size)
        assert shown.get_text() == label and shown.blockquote is None


@pytest.mark.parametrize("size", SIZES)
def test_a_description_is_labelled_and_never_a_quotation(size):
    shown = rendered(message(text="The user asked for a fix.", provenance="described"), size)
    assert shown.blockquote is None
    assert shown.select_one(".msg-body__label").get_text().startswith("Described, not quoted.")


def test_a_long_reply_is_cut_at_a_block_and_says_what_it_leaves_out():
    paragraphs = [f"Paragraph {i} " + "word " * 30 for i in range(20)]
    text = "\n\n".join(paragraphs)
    shown = rendered(message(text=text), Size.SNIPPET)
    kept = [p.get_text() for p in shown.blockquote.find_all("p") if "msg-cut" not in p.get("class", [])]
    assert kept and all(p.strip() == source.strip() for p, source in zip(kept, paragraphs, strict=False))
    left_out = len(text) - len("\n\n".join(paragraphs[: len(kept)]))
    assert shown.select_one(".msg-cut").get_text().startswith(f"Shortened here: {left_out:,} more characters.")


def test_print_opens_every_fold():
    long_output = message(speaker="tool", text="x\n" * 100)
    assert rendered(long_output, Size.WHOLE).details.get("open") is None
    assert rendered(long_output, Size.PRINT).details.get("open") == ""


def test_a_fence_too_long_is_cut_and_closed():
    code = "```python\n" + "\n".join(f"x{i} = {i}" for i in range(50)) + "\n```\n\nAfter."
    cut = cut_at_block(code, 100, 8)
    assert cut.text.startswith("```python\nx0 = 0\n") and cut.text.endswith("\n```")
    assert len(cut.text.splitlines()) <= 10 and cut.left_out > 0
    shown = rendered(message(text=code), Size.SNIPPET)
    assert shown.find("samp").get_text().startswith("x0 = 0\n")


def test_a_block_too_long_is_cut_at_a_word():
    cut = cut_at_block("alpha beta gamma delta epsilon", 14, 5)
    assert cut.text == "alpha beta" + ELLIPSIS and cut.left_out == len(" gamma delta epsilon")


def test_a_heading_alone_is_followed_by_the_start_of_the_next_block():
    text = "## Summary\n\n" + "The analysis found three problems in the build. " * 20
    cut = cut_at_block(text, 280, 6)
    assert cut.text.startswith("## Summary\n\nThe analysis found three problems") and cut.text.endswith(ELLIPSIS)
    assert len(cut.text) <= 280 + len(ELLIPSIS)


def test_a_short_text_is_not_cut():
    assert cut_at_block("one\n\ntwo\n", 100, 10).left_out == 0


def sample_messages(path: Path) -> list[Message]:
    with path.open("rb") as file:
        shape = detect(file, str(path))
        assert shape.format is not None
        return list(read_messages(file, str(path), shape.format, shape, ReadStats()))


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.name)
def test_every_message_of_a_real_log_renders_at_every_size(path):
    messages = sample_messages(path)
    transcript = MemoryTranscript([{**{key: value for key, value in vars(m).items()
                                       if value not in (None, ()) and key in FIELD_TYPES}, "n": n}
                                   for n, m in enumerate(messages, start=1)])
    renderer = MessageRenderer(call_of=CallsBefore(transcript))
    calls = 0
    for n in transcript.numbers:
        shown = transcript.get(n)
        assert shown is not None
        for size in SIZES:
            page = rendered(shown, size, renderer)
            assert page.find_all(["script", "iframe"]) == []
            if shown.tool_name and size is Size.SNIPPET:
                assert tool_call_line(shown.tool_name, shown.tool_input) in page.get_text(), (n, size)
                calls += 1
        one = line(shown)
        assert "\n" not in one and len(one) <= LINE_CHARS + 2
    if any(m.tool_name for m in messages):
        assert calls > 0


@pytest.mark.parametrize("fields", [{"thinking": "why " * 100}, {"text": "words " * 100},
                                    {"tool_name": "Bash", "tool_input": {"command": "echo " * 100}}])
def test_a_line_is_one_line_of_at_most_its_width(fields):
    one = line(message(**fields))
    assert "\n" not in one and len(one) <= LINE_CHARS + len(ELLIPSIS) and one.endswith("…")


def test_an_output_is_labelled_by_a_call_only_a_few_messages_before_it():
    far = LOOK_BACK + 1
    records = [{"n": 1, "speaker": "assistant", "provenance": "verbatim", "text": "", "tool_name": "Bash",
                "tool_input": {"command": "ls"}, "source_id": "call-1"}]
    records += [{"n": n, "speaker": "assistant", "provenance": "verbatim", "text": f"step {n}"}
                for n in range(2, far + 1)]
    records += [{"n": far + 1, "speaker": "tool", "provenance": "verbatim", "text": "a.txt", "source_id": "call-1"}]
    transcript = MemoryTranscript(records)
    reads: list[int] = []

    class Counted(MemoryTranscript):
        def get(self, n: int) -> Message | None:
            reads.append(n)
            return super().get(n)

    counted = Counted(records)
    output = transcript.get(far + 1)
    assert output is not None
    shown = rendered(output, Size.SNIPPET, MessageRenderer(call_of=CallsBefore(counted)))
    assert shown.select_one(".msg-output__label").get_text() == "Tool output"  # too far back to be looked for
    assert sorted(reads) == list(range(2, far + 1))  # the messages just before it, and no other
    assert CallsBefore(transcript)("call-1", 2) == ("Bash", 1, {"command": "ls"})
