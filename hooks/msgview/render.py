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

from .conversation import ERROR_LABEL, CallOf, ConversationView
from .cut import cut_at_block
from .html import to_html
from .labels import empty_label, message_body
from .message_markdown import MessageMarkdown
from .text import displayable, indented_json, shorten
from .tool_views import BOUNDED_LINE_CHARS, tool_call_html, tool_call_line, tool_output_html

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
    """Renders messages at any size. `call_of(call_id, output)` tells the tool, the message
    and the input of the call that message `output` answers, so that a tool's output is
    shown under its call's name wherever it stands;
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
                shown = shown.replace('<details class="msg-fold', '<details open class="msg-fold')
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
        view = ConversationView(self._markdown, _no_image, self._call_of)
        parts: list[str] = []
        left_out = 0
        shortened = False
        if message.speaker == "tool" and not message.tool_name:
            if message.is_error:
                parts.append(ERROR_LABEL)
            if message.hook:
                label, tool, call_input = f"Hook output: {displayable(message.hook)}", None, None
            else:
                tool, label, call_input = view.answered(message)
            parts.append(tool_output_html(message.text, label, bound.lines, tool=tool, call_input=call_input))
            shortened = _beyond(message.text, bound)
        else:
            said = message.text if message.text.strip() else message.thinking or ""
            if said.strip():
                cut = cut_at_block(displayable(said), bound.chars, bound.lines)
                if not message.text.strip():
                    parts.append(_paragraph("msg-body__label", "Thinking"))
                parts.append(view.text_html(cut.text) if message.text.strip() else self._markdown.html(cut.text))
                left_out = cut.left_out
            if message.tool_name:
                if size is Size.SNIPPET:
                    line = tool_call_line(message.tool_name, message.tool_input)
                    parts.append(f'<p class="msg-tool-line"><code>{html.escape(line, quote=False)}</code></p>')
                else:
                    parts.append(tool_call_html(message.tool_name, message.tool_input, bound.lines))
                    shortened = shortened or _beyond(indented_json(message.tool_input), bound)
        if message.images:
            parts.append(_images_note(message))
        if not parts:
            parts.append(_paragraph("msg-body msg-body--empty", empty_label(message)))
        if left_out or shortened:
            parts.append(_left_out_note(left_out, whole_href))
        return Rendered("".join(parts), bool(left_out or shortened))


def is_empty(message: Message) -> bool:
    """Whether the message holds nothing to show: no words, thinking, call or image."""
    return not (message.text.strip() or (message.thinking or "").strip() or message.tool_name or message.images)


def shown_text(message: Message) -> str:
    """The words a message's body shows first, as plain text, as a search result shows
    them: its text (a description's, for a described one), else its thinking, its tool
    call as one line, its images counted, or the mark of an empty message."""
    if message.text.strip() or message.is_described:
        return displayable(message.text)
    if message.thinking and message.thinking.strip():
        return displayable(message.thinking)
    if message.tool_name:
        return tool_call_line(message.tool_name, message.tool_input)
    if message.images:
        return _images_words(message)
    return empty_label(message)


def line(message: Message) -> str:
    """The message as one plain line: its text's first line, its tool call, its thinking
    marked, its images counted, or the mark of an empty message."""
    if message.text.strip():
        return _first_line(message.text)
    if message.tool_name:
        return tool_call_line(message.tool_name, message.tool_input)
    if message.thinking and message.thinking.strip():
        return _first_line(message.thinking, "(thinking) ")
    if message.images:
        return "(an image)" if len(message.images) == 1 else f"({len(message.images)} images)"
    return empty_label(message)


def _first_line(text: str, mark: str = "") -> str:
    for candidate in text.split("\n", 64):
        if candidate.strip():
            return shorten(mark + candidate[: 4 * LINE_CHARS], LINE_CHARS)
    return mark


def _beyond(text: str, bound: Bound) -> bool:
    """Whether a bounded view of `text` leaves some of it out: more lines than it shows,
    or a line longer than it shows of one."""
    return text.count("\n") >= bound.lines or any(len(line) > BOUNDED_LINE_CHARS for line in text.split("\n"))


def _left_out_note(chars: int, whole_href: str | None) -> str:
    """What a shortened view leaves out of the message's words (a tool's view says what it
    leaves out of its own), and a link to the whole message."""
    more = f" {chars:,} more character{'s' if chars != 1 else ''}." if chars else ""
    note = f'<p class="msg-cut">Shortened here.{more}' if not more else f'<p class="msg-cut">Shortened here:{more}'
    if whole_href:
        note += f' <a href="{html.escape(whole_href)}">{READ_WHOLE}</a>'
    return note + "</p>"


def _images_note(message: Message) -> str:
    return _paragraph("msg-body__note", _images_words(message))


def _images_words(message: Message) -> str:
    count = len(message.images)
    return f"{'An image' if count == 1 else f'{count} images'}, shown in the transcript"


def _paragraph(css: str, text: str) -> str:
    return f'<p class="{css}">{html.escape(text, quote=False)}</p>'


def _no_image(name: str) -> str:
    return ""
