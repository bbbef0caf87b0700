"""How a message looks, wherever the site shows it, at the size its place needs.

One renderer for every place: the transcript's entry (WHOLE), the printed appendix and a
whole quote in the essay (PRINT: as WHOLE, nothing folded away), the preview that
opens on a citation link (PREVIEW) and the snippet beside a citing paragraph (SNIPPET);
`line` is its plain projection, one line, for listings. A shortened view shows the
first blocks of the message as its Markdown has them, its tool call by what the call
did, and says what it leaves out. Rendering changes how words look, never the words.
The frame around a message (a figure and its caption, a popover, an appendix entry, a
transcript entry) is its caller's.
"""

from __future__ import annotations

import dataclasses
import enum
import html
from collections.abc import Callable
from dataclasses import dataclass

from transcript.schema import Message

from .conversation import CallOf, ConversationView
from .cut import cut_at_block
from .html import to_html
from .labels import empty_label, message_body
from .message_markdown import MessageMarkdown
from .text import displayable, shorten
from .tool_views import tool_call_html

READ_WHOLE = "Read the whole message"


class Size(enum.Enum):
    WHOLE = "whole"
    PRINT = "print"
    PREVIEW = "preview"
    SNIPPET = "snippet"


@dataclass(frozen=True)
class Bound:
    """What a shortened view shows at most of each part of a message."""

    chars: int
    lines: int


BOUNDS = {Size.PREVIEW: Bound(1200, 16), Size.SNIPPET: Bound(280, 6)}
# One line of a listing: longer lines are cut at a word.
LINE_CHARS = 200


@dataclass(frozen=True)
class Rendered:
    html: str
    shortened: bool  # whether the view leaves out some of the message


class MessageRenderer:
    """Renders messages at any size. `call_of(call_id)` tells the tool and the message of
    a call, so that a tool's output is shown under its call's name wherever it stands;
    `image_href(name)` the address of a message's image, or None where images are only
    named (they are shown in the transcript)."""

    def __init__(self, call_of: CallOf | None = None, image_href: Callable[[str], str] | None = None,
                 markdown: MessageMarkdown | None = None):
        self._call_of = call_of
        self._image_href = image_href
        self._markdown = markdown or MessageMarkdown()

    def body(self, message: Message, size: Size, whole_href: str | None = None) -> Rendered:
        """The message's content at `size`; a shortened one ends with what it left out
        and, given `whole_href`, a link to the whole message."""
        if message.is_described:
            return self._described(message, size)
        if size in (Size.WHOLE, Size.PRINT):
            view = ConversationView(self._markdown, self._image_href or _no_image, self._call_of)
            if self._image_href is None and message.images:  # named, not shown
                words = dataclasses.replace(message, images=())
                shown = ("" if is_empty(words) else view.body_html(words)) + _images_note(message)
            else:
                shown = view.body_html(message)
            if size is Size.PRINT:  # on paper, nothing opens
                shown = shown.replace('<details class="msg-fold">', '<details class="msg-fold" open>')
            return Rendered(shown, False)
        return self._shortened(message, BOUNDS[size], size, whole_href)

    def quotation(self, message: Message, size: Size, whole_href: str | None = None,
                  shown_with: tuple[int, ...] = ()) -> Rendered:
        """The message as a quotation: its body in a block quote, a description in its labelled box."""
        if message.is_described:
            return self._described(message, size, shown_with)
        if is_empty(message):  # nothing to quote: the mark alone
            return Rendered(_paragraph("msg-body msg-body--empty", empty_label(message)), False)
        inner = self.body(message, size, whole_href)
        return Rendered(f'<blockquote class="msg-body msg-body--verbatim msg-body--{size.value}">{inner.html}'
                        "</blockquote>", inner.shortened)

    def _described(self, message: Message, size: Size, shown_with: tuple[int, ...] = ()) -> Rendered:
        bound = BOUNDS.get(size)
        shortened = bound is not None and len(message.text) > bound.chars
        return Rendered(to_html(message_body(message, bound.chars if shortened and bound else None, shown_with)),
                        shortened)

    def _shortened(self, message: Message, bound: Bound, size: Size, whole_href: str | None) -> Rendered:
        parts: list[str] = []
        left_out = 0
        if message.speaker == "tool" and not message.tool_name:
            label = ConversationView(self._markdown, _no_image, self._call_of).output_label(message)
            output, left_out = _output_start(message.text, bound)
            parts.append(f'<p class="msg-output__label">{html.escape(label, quote=False)}</p>{output}'
                         if message.text.strip() else _paragraph("msg-output msg-output--empty", f"{label}: empty"))
        else:
            said = message.text if message.text.strip() else message.thinking or ""
            if said.strip():
                cut = cut_at_block(displayable(said), bound.chars, bound.lines)
                if not message.text.strip():
                    parts.append(_paragraph("msg-body__label", "Thinking"))
                parts.append(self._markdown.html(cut.text))
                left_out += cut.left_out
            if message.tool_name:
                if size is Size.SNIPPET:
                    parts.append(f'<p class="msg-tool-line"><code>{html.escape(call_line(message), quote=False)}'
                                 "</code></p>")
                else:
                    parts.append(tool_call_html(message.tool_name, message.tool_input))
        if message.images:
            parts.append(_images_note(message))
        if not parts:
            parts.append(_paragraph("msg-body msg-body--empty", empty_label(message)))
        if left_out:
            parts.append(_left_out_note(left_out, whole_href))
        return Rendered("".join(parts), left_out > 0)


def is_empty(message: Message) -> bool:
    """Whether the message holds nothing to show: no words, thinking, call or image."""
    return not (message.text.strip() or (message.thinking or "").strip() or message.tool_name or message.images)


def line(message: Message) -> str:
    """The message as one plain line: its text's first line, its tool call, its thinking
    marked, its images counted, or the mark of an empty message."""
    if message.text.strip():
        return _first_line(message.text)
    if message.tool_name:
        return call_line(message)
    if message.thinking and message.thinking.strip():
        return _first_line(message.thinking, "(thinking) ")
    if message.images:
        return "(an image)" if len(message.images) == 1 else f"({len(message.images)} images)"
    return empty_label(message)


def call_line(message: Message) -> str:
    """A tool call as one line: what it did."""
    return shorten(f"{message.tool_name}: {_input_line(message.tool_input)}", LINE_CHARS)


def _input_line(tool_input: object) -> str:
    if isinstance(tool_input, dict):
        for key in ("command", "cmd", "file_path", "path", "absolute_path", "pattern", "url", "query",
                    "description", "prompt"):
            value = tool_input.get(key)
            if isinstance(value, str) and value.strip():
                return ("$ " if key in ("command", "cmd") else "") + value
            if isinstance(value, list) and value and all(isinstance(word, str) for word in value):
                return ("$ " if key in ("command", "cmd") else "") + " ".join(value)
    return str(tool_input) if tool_input is not None else ""


def _first_line(text: str, mark: str = "") -> str:
    for candidate in text.split("\n", 64):
        if candidate.strip():
            return shorten(mark + candidate[: 4 * LINE_CHARS], LINE_CHARS)
    return mark


def _output_start(text: str, bound: Bound) -> tuple[str, int]:
    """The first lines of a tool's output, as preformatted text, and how many characters are left out."""
    shown_lines = text.split("\n", bound.lines)[: bound.lines]
    shown = "\n".join(shown_lines)[: bound.chars * 2]
    left_out = len(text) - len(shown)
    return f'<pre class="msg-output"><code>{html.escape(displayable(shown), quote=False)}</code></pre>', left_out


def _left_out_note(chars: int, whole_href: str | None) -> str:
    note = f'<p class="msg-cut">Shortened here: {chars:,} more character{"s" if chars != 1 else ""}.'
    if whole_href:
        note += f' <a href="{html.escape(whole_href)}">{READ_WHOLE}</a>'
    return note + "</p>"


def _images_note(message: Message) -> str:
    count = len(message.images)
    return _paragraph("msg-body__note", f"{'An image' if count == 1 else f'{count} images'}, shown in the transcript")


def _paragraph(css: str, text: str) -> str:
    return f'<p class="{css}">{html.escape(text, quote=False)}</p>'


def _no_image(name: str) -> str:
    return ""
