"""The model that wrote a message and its token counts, quietly in its heading (msgview.usage)."""

from __future__ import annotations

from conftest import message_in, selected
from session_pages import imported, layout_of, page, records
from transcripts import MemoryTranscript


def head_of(soup, n):
    return selected(soup, f'.msg-item[data-msg="{n}"] > .msg-head')


def test_the_model_and_token_counts_are_one_quiet_line_explained_in_words():
    messages = MemoryTranscript(records(
        {"speaker": "assistant", "text": "Done.", "model": "claude-opus-4",
         "usage": {"input_tokens": 1234, "output_tokens": 567, "cache_read_input_tokens": 89_000,
                   "service_tier": 3}},
        {"speaker": "assistant", "text": "<b>", "model": "<script>x</script>"},
        {"speaker": "user", "text": "Thanks"},
        {"speaker": "assistant", "text": "Gemini", "usage": {"input": 10, "output": 2, "cached": 0, "thoughts": 7,
                                                            "total": 19}}))
    soup = page(layout_of(messages))
    line = selected(head_of(soup, 1), ".msg-usage")
    hidden = "".join(span.get_text() for span in line.select(".visually-hidden"))
    for span in line.select(".visually-hidden"):
        span.extract()
    assert line.get_text() == "claude-opus-4 · 1,234 in · 89,000 cache read · 567 out"
    assert hidden == "Model and tokens: "  # said once: a whole session's page holds hundreds of these
    assert selected(head_of(soup, 2), ".msg-usage").get_text() == "Model and tokens: <script>x</script>"
    assert head_of(soup, 2).find("script") is None
    assert head_of(soup, 3).select(".msg-usage") == []
    gemini = selected(head_of(soup, 4), ".msg-usage").get_text()
    assert gemini == "Model and tokens: 10 in · 0 cache read · 2 out · 7 reasoning"


def test_a_real_sessions_replies_show_their_model_and_counts(tmp_path):
    transcript = imported(tmp_path, "claude-code-log_subagent_2-1_opus.jsonl", models_from_log=True)
    soup = page(layout_of(transcript))
    shown = 0
    for n in transcript.numbers:
        message = message_in(transcript, n)
        lines = head_of(soup, n).select(".msg-usage")
        if message.speaker != "assistant":
            assert lines == []
            continue
        assert message.usage is not None
        text = lines[0].get_text()
        # The model where the page names it first, then only where it changes.
        assert text.startswith("Model and tokens: claude-opus-4-7" if shown == 0 else "Model and tokens: ")
        assert shown == 0 or "claude-opus-4-7" not in text
        assert f"{message.usage['output_tokens']:,} out" in text
        shown += 1
    assert shown >= 8
