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
from typing import Protocol

from transcript.schema import Message

from .html import to_html
from .labels import message_body
from .message_markdown import MessageMarkdown
from .text import displayable
from .tool_views import TASK_TOOLS, tool_call_html, tool_output_html
from .usage import usage_html
from .wrappers import is_event, text_html

# What a message is, for the page's "dialogue only" switch: the people's words, or the
# work between them (tool calls, their outputs, thinking with no words after it).
DIALOGUE, WORK = "dialogue", "work"
_MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
           "November", "December")  # in English, whatever the machine's locale
# Above a tool's output the log marks as an error (a failed command, a refused call): in
# words, as well as in colour (essay.css).
ERROR_LABEL = '<p class="msg-error"><strong class="msg-error__label">Error</strong></p>'
# The tools of the calls a page remembers; a call's output follows it within a few messages.
_CALLS_REMEMBERED = 64
# Where a view that has not seen a call learns of it: a call's id and the number of an
# output that answers it -> the call's tool, its message and its input.
CallOf = Callable[[str, int], "tuple[str, int, object] | None"]


class CallLinks(Protocol):
    """Where a page finds the other half of a tool call, among the messages shown."""

    def output_of(self, call: int) -> int | None:
        """The message of the output answering the call in message `call`."""

    def call_of(self, output: int) -> int | None:
        """The message of the call that the output in message `output` answers."""

    def tool_of(self, call: int) -> str | None:
        """The tool of the call in message `call`."""

    def href(self, n: int) -> str:
        """The address of shown message n's entry, from this page."""


class ConversationView:
    """The messages of one page, in order."""

    def __init__(self, markdown: MessageMarkdown, image_href: Callable[[str], str], call_of: CallOf | None = None,
                 calls: CallLinks | None = None):
        """`image_href(name)`: the address of an image of a message, from this page;
        `call_of`, the calls of outputs whose call the page has not shown before them;
        `calls`: the calls and outputs of the transcript's pages, each linked to the other."""
        self._markdown, self._image_href, self._call_of, self._links = markdown, image_href, call_of, calls
        self.images: list[tuple[int, str]] = []  # (message, image name) of the images shown
        self._day: str | None = None
        self._model: str | None = None  # the model the page last named
        # A call's id in the log -> its tool's name, its message, its input.
        self._calls: dict[str, tuple[str, int, object]] = {}
        self._previous = 0  # the number of the message before
        self.kinds_shown: Counter[str] = Counter()

    def kind(self, message: Message) -> str:
        work = (message.speaker == "tool" or message.tool_name or (_thought(message) and not message.text.strip())
                or is_event(message.text))
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

    def usage_html(self, message: Message) -> str:
        """The message's model and token counts; its model only where it is not the one
        the page last named."""
        shown = usage_html(message, self._model)
        self._model = message.model or self._model
        return shown

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
                self._remember(message.source_id, (message.tool_name, message.n, message.tool_input))
            if message.text.strip():
                parts.append(self.text_html(message.text))
            parts.append(tool_call_html(message.tool_name, message.tool_input))
            output = self._links.output_of(message.n) if self._links is not None else None
            href = self._links.href(output) if self._links is not None and output is not None else None
            # A result shown right under its call needs no link to it, as it needs none back.
            if href is not None and not (output == message.n + 1 and href.startswith("#")):
                parts.append(f'<p class="msg-call-result">Result: <a href="{html.escape(href)}">'
                             f"message {output}</a></p>")
        elif message.speaker == "tool" and message.hook:
            parts.append((ERROR_LABEL if message.is_error else "") + _hook_output_html(message))
        elif message.speaker == "tool":
            if message.is_error:
                parts.append(ERROR_LABEL)
            tool, label, call, call_input = self._output_label(message)
            if tool in TASK_TOOLS and message.text.strip():  # a subagent's answer, in Markdown
                shown = (f'<p class="msg-output__label">{html.escape(label, quote=False)}</p>'
                         f"{self._markdown.html(displayable(message.text))}")
            else:
                shown = tool_output_html(message.text, label, tool=tool, call_input=call_input)
            parts.append(shown if call is None else self._with_call_link(shown, label, call))
        elif message.text.strip():
            parts.append(self.text_html(message.text))
        elif not _thought(message):
            parts.append(to_html(message_body(message)))  # the mark of an empty message
        if message.images:
            parts.append(self._images_html(message))
        self._previous = message.n
        return "".join(parts)

    def text_html(self, text: str) -> str:
        """What a person or the model said, in Markdown, with Claude Code's wrappers shown as what they are."""
        return text_html(displayable(text), self._markdown.html)

    def answered(self, message: Message) -> tuple[str | None, str, object]:
        """Of a tool's output: the tool of the call it answers, its label, and the call's
        input, where they are known."""
        tool, label, _, call_input = self._output_label(message)
        return tool, label, call_input

    def _output_label(self, message: Message) -> tuple[str | None, str, int | None, object]:
        """The tool whose call a tool's output answers, if known; the output's label (the
        tool's name); the message of the call to link to if it is not the one right before
        (calls made together are answered after them all); and the call's input, if known.
        Without links, the call's message is named in the label."""
        if self._links is not None:
            n = self._links.call_of(message.n)
            if n is None:
                return None, "Tool output (its call is not shown)" if message.source_id else "Tool output", None, None
            remembered = self._calls.get(message.source_id or "")
            tool = remembered[0] if remembered is not None else self._links.tool_of(n)
            label = f"Output of {displayable(tool)}" if tool else "Tool output"
            call_input = remembered[2] if remembered is not None else None
            return tool, label, None if n == self._previous else n, call_input
        call = self._calls.get(message.source_id or "")
        if call is None and self._call_of is not None and message.source_id:
            call = self._call_of(message.source_id, message.n)
        if call is None:
            return None, "Tool output", None, None
        tool, n, call_input = call
        label = f"Output of {displayable(tool)}"
        return tool, label if n == self._previous else f"{label} (called in message {n})", None, call_input

    def _with_call_link(self, output: str, label: str, call: int) -> str:
        """The output's HTML, its label followed by a link to the message of its call."""
        assert self._links is not None
        anchor = f'<a class="msg-call-link" href="{html.escape(self._links.href(call))}">message {call}</a>'
        shown = html.escape(label, quote=False)
        at = output.find(shown)  # the label comes first, before the output's words
        if at < 0:
            return f'<p class="msg-output__label">Called in {anchor}</p>{output}'
        return f"{output[: at + len(shown)]} (called in {anchor}){output[at + len(shown):]}"

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

    def _remember(self, call_id: str, tool: tuple[str, int, object]) -> None:
        if len(self._calls) >= _CALLS_REMEMBERED:
            del self._calls[next(iter(self._calls))]
        self._calls[call_id] = tool


def _hook_output_html(message: Message) -> str:
    """What a hook (a command the session runs at its events) wrote, folded under its name."""
    label = html.escape(f"Hook output: {displayable(message.hook or '')}", quote=False)
    text = html.escape(displayable(message.text), quote=False)
    body = f'<pre class="msg-output"><samp>{text}</samp></pre>' if message.text.strip() else "<p>Empty.</p>"
    return f'<details class="msg-fold msg-hook"><summary>{label}</summary>{body}</details>'


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
