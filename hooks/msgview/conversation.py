"""How a transcript page shows its messages as the conversation they were: each message's
text as Markdown, its thinking folded, a tool call by what its tool did and a tool's
output under the name of the call it answers, and the time of each in a readable form.

A page is read in order, and its view remembers what the messages before told it: the
day of the last time shown, and the tool of each call, by the id its output carries.
"""

from __future__ import annotations

import html
import xml.etree.ElementTree as etree
from collections import Counter
from collections.abc import Callable
from datetime import UTC, datetime

from transcript.schema import Message

from .html import to_html
from .labels import message_body
from .message_markdown import MessageMarkdown
from .text import displayable
from .tool_views import TASK_TOOLS, tool_call_html, tool_output_html

# What a message is, for the page's "dialogue only" switch: the people's words, or the
# work between them (tool calls, their outputs, thinking with no words after it).
DIALOGUE, WORK = "dialogue", "work"
_MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
           "November", "December")  # in English, whatever the machine's locale
# The tools of the calls a page remembers; a call's output follows it within a few messages.
_CALLS_REMEMBERED = 64
# Where a view that has not seen a call learns of it: a call's id -> its tool's name, its message.
CallOf = Callable[[str], "tuple[str, int] | None"]


class ConversationView:
    """The messages of one page, in order."""

    def __init__(self, markdown: MessageMarkdown, image_href: Callable[[str], str], call_of: CallOf | None = None):
        """`image_href(name)`: the address of an image of a message, from this page;
        `call_of`, the calls of outputs whose call the page has not shown before them."""
        self._markdown, self._image_href, self._call_of = markdown, image_href, call_of
        self.images: list[tuple[int, str]] = []  # (message, image name) of the images shown
        self._day: str | None = None
        self._calls: dict[str, tuple[str, int]] = {}  # a call's id in the log -> its tool's name, its message
        self._previous = 0  # the number of the message before
        self.kinds_shown: Counter[str] = Counter()

    def kind(self, message: Message) -> str:
        work = message.speaker == "tool" or message.tool_name or (_thought(message) and not message.text.strip())
        kind = WORK if work else DIALOGUE
        self.kinds_shown[kind] += 1
        return kind

    def time_html(self, message: Message) -> str:
        """When the message was sent: its time of day, after the date when the day is new
        on this page; the log's own text if it is no time; "" if the log has none."""
        if not message.timestamp:
            return ""
        when = _parsed(message.timestamp)
        if when is None:
            return f'<span class="msg-time">{html.escape(displayable(message.timestamp))}</span>'
        # Formatted field by field: strftime, for each of a session's messages, took a tenth
        # of the time of its page.
        day = f"{when.day} {_MONTHS[when.month - 1]} {when.year}"
        clock = f"{when.hour:02d}:{when.minute:02d}{' UTC' if when.tzinfo else ''}"
        shown = clock if day == self._day else f"{day}, {clock}"
        self._day = day
        return f'<time class="msg-time" datetime="{when.isoformat()}">{shown}</time>'

    def origin_html(self, message: Message) -> str:
        """Where a message came from other than the main conversation: a sidechain, a subagent."""
        if not message.origin:
            return ""
        return f'<span class="msg-origin">{html.escape(displayable(message.origin))}</span>'

    def body_html(self, message: Message) -> str:
        """The message's content: a description as the essay gives it, or what was said or done."""
        if message.is_described:
            return to_html(message_body(message))
        parts = []
        if _thought(message):
            parts.append('<details class="msg-thinking"><summary>Thinking</summary>'
                         f"{self._markdown.html(displayable(message.thinking or ''))}</details>")
        if message.tool_name:
            if message.source_id:
                self._remember(message.source_id, (message.tool_name, message.n))
            if message.text.strip():
                parts.append(self._markdown.html(displayable(message.text)))
            parts.append(tool_call_html(message.tool_name, message.tool_input))
        elif message.speaker == "tool":
            tool, label = self._output_label(message)
            if tool in TASK_TOOLS and message.text.strip():  # a subagent's answer, in Markdown
                parts.append(f'<p class="msg-output__label">{html.escape(label)}</p>'
                             f"{self._markdown.html(displayable(message.text))}")
            else:
                parts.append(tool_output_html(message.text, label))
        elif message.text.strip():
            parts.append(self._markdown.html(displayable(message.text)))
        elif not _thought(message):
            parts.append(to_html(message_body(message)))  # the mark of an empty message
        if message.images:
            parts.append(self._images_html(message))
        self._previous = message.n
        return "".join(parts)

    def output_label(self, message: Message) -> str:
        """The label of a tool's output: the call it answers, where it is known."""
        return self._output_label(message)[1]

    def _output_label(self, message: Message) -> tuple[str | None, str]:
        """The tool whose call a tool's output answers, if this page has it, and the
        output's label: the tool's name, and the message of the call if it is not the one
        right before (calls made together are answered after them all)."""
        call = self._calls.get(message.source_id or "")
        if call is None and self._call_of is not None and message.source_id:
            call = self._call_of(message.source_id)
        if call is None:
            return None, "Tool output"
        tool, n = call
        label = f"Output of {displayable(tool)}"
        return tool, label if n == self._previous else f"{label} (called in message {n})"

    def _images_html(self, message: Message) -> str:
        """The message's images, loaded as the reader scrolls to them."""
        count = len(message.images)
        shown = etree.Element("p", {"class": "msg-images"})
        for number, name in enumerate(message.images, start=1):
            self.images.append((message.n, name))
            which = "An image" if count == 1 else f"Image {number} of {count}"
            etree.SubElement(shown, "img", {"src": self._image_href(name), "loading": "lazy", "decoding": "async",
                                            "alt": f"{which} of message {message.n}, as the session's log holds it"})
        return to_html(shown)

    def _remember(self, call_id: str, tool: tuple[str, int]) -> None:
        if len(self._calls) >= _CALLS_REMEMBERED:
            del self._calls[next(iter(self._calls))]
        self._calls[call_id] = tool


def _thought(message: Message) -> bool:
    """Whether the message has thinking to show: a blank one shows as an empty message."""
    return bool(message.thinking and message.thinking.strip())


def _parsed(timestamp: str) -> datetime | None:
    try:
        when = datetime.fromisoformat(timestamp)
        if when.tzinfo is None or when.tzinfo is UTC:  # without its zone, a time is shown as it is
            return when
        return when.astimezone(UTC)
    except (ValueError, OverflowError):  # not a time, or one whose UTC is outside years 1 to 9999
        return None
