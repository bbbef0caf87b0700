"""A message as the transcript's search reads it: the plain text of what its entry shows.

The search's results show a message's heading and the start of its text; its words are
taken from all its entry shows: a tool call's name and every text of its input (the
command, the path, the pattern, the file written), and the thinking folded in it.
"""

from __future__ import annotations

from transcript.schema import Message

from .render import shown_text


def searchable_text(message: Message) -> str:
    """The text whose words find `message`: its text, then, unless the essay describes
    it, its thinking, its tool's name and every text in its tool's input, at any depth, a
    line apart; for a message of none of these, what its body shows. `message` is as the page shows
    it: cut, if its text is long."""
    if message.is_described:  # the entry shows the description alone
        return message.text
    # The text as the log holds it: its words are the same, and a long one is not copied.
    parts = [message.text] if message.text.strip() else []
    if message.thinking:
        parts.append(message.thinking)
    if message.tool_name:
        parts.append(message.tool_name)
        parts += _texts(message.tool_input)
    return "\n".join(parts or [shown_text(message)])  # else its images, or the mark of an empty message


def _texts(value: object) -> list[str]:
    """Every text in a JSON value, in order: its strings, not its mappings' keys (which
    name the fields, such as "command", the same in every call of a tool)."""
    found: list[str] = []
    pending = [value]  # a stack, not recursion: the schema bounds the nesting, but not by Python's limit
    while pending:
        item = pending.pop()
        if isinstance(item, str):
            found.append(item)
        elif isinstance(item, dict):
            pending.extend(reversed(item.values()))
        elif isinstance(item, list):
            pending.extend(reversed(item))
    return found
