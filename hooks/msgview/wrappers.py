"""What Claude Code wraps in tags inside a message's text, shown as what it is: a slash
command and its arguments, a local command's output, a note of what the IDE showed, a
system reminder, and a request the user interrupted.

Only a wrapper exactly as Claude Code writes it is shown so: its opening tag at the start
of a line, its closing tag at the end of one, and no opening tag of its kind inside.
Anything else, an unclosed or oddly nested tag too, stays the message's text. The words
are the log's, all of them, escaped: only how they are shown changes.
"""

from __future__ import annotations

import bisect
import re
import xml.etree.ElementTree as etree
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from .html import to_html

_COMMAND_TAGS = ("command-name", "command-message", "command-args")
_OUTPUT_LABELS = {"local-command-stdout": "Command output", "local-command-stderr": "Command error output"}
_IDE_TAGS = ("ide_opened_file", "ide_selection")
_REMINDER_TAG = "system-reminder"
_TAGS = (*_COMMAND_TAGS, *_OUTPUT_LABELS, *_IDE_TAGS, _REMINDER_TAG)
_TAG_GROUP = "|".join(map(re.escape, _TAGS))
_OPEN_RE = re.compile(rf"^[ \t]*<({_TAG_GROUP})>", re.MULTILINE)
_CLOSE_RE = re.compile(rf"</({_TAG_GROUP})>[ \t]*$", re.MULTILINE)
# What Claude Code writes as the user's message when the user stops a reply.
INTERRUPTIONS = frozenset({"[Request interrupted by user]", "[Request interrupted by user for tool use]"})


@dataclass(frozen=True)
class Wrapper:
    tag: str
    content: str  # the words between the tags, as the log has them


def is_event(text: str) -> bool:
    """Whether `text` is no one's words but a mark of what happened: an interruption."""
    return text.strip() in INTERRUPTIONS


def parts(text: str) -> Iterator[str | Wrapper]:
    """The text between the wrappers (as it is, blank or not) and the wrappers, in order.
    Found in time by the text's length: each tag is looked for once, and a closing tag
    is found among those by bisection, not by reading on from each opening one."""
    if "<" not in text:
        yield text
        return
    closed: dict[str, list[tuple[int, int]]] = {tag: [] for tag in _TAGS}  # (tag start, end)
    for found in _CLOSE_RE.finditer(text):
        closed[found.group(1)].append((found.start(), found.end()))
    done = 0  # where the text not yet given starts
    for found in _OPEN_RE.finditer(text):
        start, content, tag = found.start(), found.end(), found.group(1)
        if start < done:
            continue  # inside a wrapper already given
        ends = closed[tag]
        i = bisect.bisect_left(ends, (content, 0))
        if i == len(ends):
            continue  # never closed: text
        close_start, end = ends[i]
        if text.find(f"<{tag}>", content, close_start) >= 0 or text.find(f"</{tag}>", content, close_start) >= 0:
            continue  # another of its kind opens or closes inside: text (each find stops at the first)
        yield text[done:start]
        yield Wrapper(tag, text[content:close_start])
        done = end
    yield text[done:]


def text_html(text: str, markdown_html: Callable[[str], str]) -> str:
    """The HTML of a message's `text`: its wrappers shown as what they are, the words
    around them given to `markdown_html`."""
    if is_event(text):
        return to_html(_element("p", "msg-event", text.strip()[1:-1]))
    shown: list[str] = []
    command: list[Wrapper] = []
    for part in parts(text):
        if isinstance(part, Wrapper) and part.tag in _COMMAND_TAGS:
            command.append(part)
            continue
        if isinstance(part, str) and not part.strip():
            continue  # the line breaks between wrappers
        if command:
            shown.append(to_html(_slash_command(command)))
            command = []
        shown.append(markdown_html(part) if isinstance(part, str) else to_html(_wrapper(part)))
    if command:
        shown.append(to_html(_slash_command(command)))
    return "".join(shown)


def _element(tag: str, class_name: str | None, text: str = "") -> etree.Element:
    element = etree.Element(tag, {"class": class_name} if class_name else {})
    element.text = text
    return element


def _slash_command(wrappers: list[Wrapper]) -> etree.Element:
    """A slash command, its name as code and its arguments after it, then the words
    Claude Code showed while it ran ("review is running…"), quietly."""
    by_tag: dict[str, list[str]] = {}
    for wrapper in wrappers:
        by_tag.setdefault(wrapper.tag, []).append(wrapper.content)
    line = _element("p", "msg-slash")
    label = etree.SubElement(line, "span", {"class": "visually-hidden"})
    label.text = "Slash command: "
    for name in by_tag.get("command-name", []):
        etree.SubElement(line, "code", {"class": "msg-slash__name"}).text = name
    for args in by_tag.get("command-args", []):
        if args.strip():
            etree.SubElement(line, "span", {"class": "msg-slash__args"}).text = args
    for message in by_tag.get("command-message", []):
        etree.SubElement(line, "span", {"class": "msg-slash__message"}).text = message
    for child in line[1:-1]:
        child.tail = " "  # the words of each part apart, in the page's text too
    return line


def _wrapper(wrapper: Wrapper) -> etree.Element:
    if wrapper.tag in _OUTPUT_LABELS:
        shown = _element("div", "msg-local-output")
        shown.append(_element("p", "msg-output__label", _OUTPUT_LABELS[wrapper.tag]))
        etree.SubElement(shown, "pre").append(_element("samp", None, wrapper.content))
        return shown
    if wrapper.tag in _IDE_TAGS:
        note = _element("p", "msg-ide")
        label = etree.SubElement(note, "span", {"class": "msg-ide__label"})
        label.text = "IDE"
        label.tail = " "
        etree.SubElement(note, "span", {"class": "msg-ide__text"}).text = wrapper.content
        return note
    reminder = _element("details", "msg-fold msg-reminder")  # folded as a long output is
    reminder.append(_element("summary", None, "System reminder"))
    reminder.append(_element("div", "msg-reminder__text", wrapper.content))
    return reminder
