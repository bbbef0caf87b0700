"""The model that wrote a message and the tokens it took, as the log counts them: one
quiet line in the message's heading, its numbers explained in words for those who ask
(a title) and for screen readers (visually hidden)."""

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
_TITLE = ("The model that wrote this message, and its tokens as the session's log counts them: in, read by the "
          "model; cache read and cache written, read from or written to its prompt cache; out, written by it")


def usage_html(message: Message) -> str:
    """The message's model and token counts, "" if the log gives neither."""
    shown: list[str] = []
    if message.model:
        shown.append(f'<span class="visually-hidden">Model: </span>{html.escape(displayable(message.model))}')
    usage = message.usage if isinstance(message.usage, dict) else {}
    for key, word in _COUNTS:
        count = usage.get(key)
        if type(count) is int and count >= 0:  # not a boolean, nor a count the log got wrong
            shown.append(f'{count:,}<span class="visually-hidden"> tokens</span> {word}')
    if not shown:
        return ""
    return f'<span class="msg-usage" title="{html.escape(_TITLE)}">{" · ".join(shown)}</span>'
