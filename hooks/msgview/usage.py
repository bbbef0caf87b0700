"""The model that wrote a message and the tokens it took, as the log counts them: one
quiet line in the message's heading, said for what it is to screen readers. It is kept
short: a whole session's page holds hundreds of them."""

from __future__ import annotations

import html

from transcript.schema import Message

from .text import displayable

# The counts shown, in this order, by the names the logs give them (Claude Code, Codex,
# Gemini CLI), each with the word that follows its number; other counts are left out.
_COUNTS = (("input_tokens", "in"), ("input", "in"), ("cache_read_input_tokens", "cache read"),
           ("cached_input_tokens", "cache read"), ("cached", "cache read"),
           ("cache_creation_input_tokens", "cache written"), ("output_tokens", "out"), ("output", "out"),
           ("reasoning_output_tokens", "reasoning"), ("thoughts", "reasoning"))
_SAID = '<span class="visually-hidden">Model and tokens: </span>'


def usage_html(message: Message, model_named: str | None = None) -> str:
    """The message's model and token counts, "" if the log gives neither; its model left
    out if it is `model_named`, the one named just before."""
    shown: list[str] = []
    if message.model and message.model != model_named:
        shown.append(html.escape(displayable(message.model)))
    usage = message.usage if isinstance(message.usage, dict) else {}
    for key, word in _COUNTS:
        count = usage.get(key)
        if type(count) is int and count >= 0:  # not a boolean, nor a count the log got wrong
            shown.append(f"{count:,} {word}")
    if not shown:
        return ""
    return f'<span class="msg-usage">{_SAID}{" · ".join(shown)}</span>'
