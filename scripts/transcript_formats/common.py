"""What every log reader shares: the message it yields, its errors, its tallies."""

from __future__ import annotations

import json
import re
from collections import Counter
from dataclasses import dataclass, field

from transcript.schema import MAX_NESTING, Message, nests_deeper, shown_key

TOO_DEEP = f"nested deeper than {MAX_NESTING} levels, the most a transcript message may hold"
# What a name from the log must look like to be printed in a report (and be known too).
_NAME = re.compile(r"[a-z_-]{1,40}")


class LogError(Exception):
    """Input that cannot be imported; str() is `path:line: what is wrong`."""

    def __init__(self, path: str, line: int | None, problem: str):
        self.path, self.line, self.problem = path, line, problem
        where = f"{path}:{line}" if line else path
        super().__init__(f"{where}: {problem}")


# The words that stand in a message's text where the log held an image, kept or not.
IMAGE_MARK = "[image]"
# Why an image block is left out before its data is looked at (the others are the importer's:
# transcript_formats.images). Never the block's data, nor any value of the log.
A_LINK = "a link to an image elsewhere, not the image itself (never fetched)"
NO_IMAGE_DATA = "an image block without its data"
DATA_URL_NOT_BASE64 = "a data URL whose data is not base64"
# How far into a data URL its comma may be: `data:image/png;base64,` and parameters.
_DATA_URL_HEAD = 200


@dataclass(frozen=True)
class ImageBlock:
    """An image block of the log, as found: its data not yet decoded, or why it has none.

    The base64 data is `text[start:]`: a data URL's is what follows its comma. The text
    is the log's own string, not a copy, so holding the blocks of a message costs nothing
    beyond the record read; the importer decodes them one at a time."""

    text: str = ""
    start: int = 0
    problem: str | None = None  # why it cannot be kept (a link, no data), known without decoding

    @classmethod
    def from_url(cls, url: str) -> ImageBlock:
        """An image given by its address: a `data:` URL holds it; any other links to it."""
        if url[:5].lower() != "data:":
            return cls(problem=A_LINK)
        comma = url.find(",", 0, _DATA_URL_HEAD)
        if comma < 0 or not url[:comma].lower().endswith(";base64"):
            return cls(problem=DATA_URL_NOT_BASE64)
        return cls(url, comma + 1)


@dataclass(frozen=True)
class LogMessage(Message):
    """A message as a reader yields it: a transcript message and the image blocks the log
    held in it, in the order their marks ("[image]") stand in its text. The importer turns
    them into the message's `images`; they are no field of the transcript."""

    image_blocks: tuple[ImageBlock, ...] = ()


def log_message(speaker: str, text: str, line: int, **fields) -> LogMessage:
    """A message as a reader finds it in the log, before the importer numbers it: number
    0, verbatim, and `line` where it starts in the log, for reports. `fields` are the
    other fields of a transcript message (source_id, timestamp, thinking, ...), and
    `image_blocks`, the images it holds."""
    return LogMessage(0, speaker, "verbatim", text, line=line, **fields)


def tool_call(name, arguments, line: int, **fields) -> Message:
    return log_message("assistant", "", line, tool_name=str(name or "unknown"), tool_input=arguments, **fields)


def parse_json(text: str, path: str, line: int):
    """The JSON value of `text`, found on `line` of the log at `path`; LogError if it
    nests deeper than a transcript message may, gives a key twice in one object (a
    reader would keep one of the two values without a word) or holds NaN or Infinity
    (no JSON: a page would show them as null). JSONDecodeError if it is not JSON."""
    try:
        value = json.loads(text, object_pairs_hook=_object, parse_constant=_no_constant)
    except RecursionError:
        raise LogError(path, line, TOO_DEEP) from None
    except _NotJson as problem:
        raise LogError(path, line, str(problem)) from None
    if nests_deeper(value, MAX_NESTING):
        raise LogError(path, line, TOO_DEEP)
    return value


def key_twice(key: str) -> str:
    """The problem of an object that gives `key` twice: a reader would keep one value of two."""
    return f"a key given twice in one object ({shown_key(key)})"


class _NotJson(Exception):
    """What json.loads reads, but JSON does not allow."""


def _object(pairs: list[tuple[str, object]]) -> dict[str, object]:
    value = dict(pairs)
    if len(value) < len(pairs):
        counts = Counter(key for key, _ in pairs)
        twice = next(key for key, count in counts.items() if count > 1)
        raise _NotJson(key_twice(twice))
    return value


def _no_constant(name: str) -> object:
    raise _NotJson(f"not valid JSON: {name} is no JSON number")


def parse_arguments(arguments):
    """Tool arguments that a log stores as JSON text become the JSON value, unless the
    text is not JSON or nests too deeply for a transcript: such arguments stay text."""
    if isinstance(arguments, str):
        try:
            value = json.loads(arguments)
        except (ValueError, RecursionError):
            return arguments
        return arguments if nests_deeper(value, MAX_NESTING) else value
    return arguments


def known_name(value, known) -> str | None:
    """`value`, a name the log gives (a record type, a role), when it is one of the
    `known` names, and so safe to print in a report; else None. A report never prints
    what the log holds in a field whose value it does not know: that value may be a
    secret written where a name belongs."""
    if isinstance(value, str) and _NAME.fullmatch(value) and value in known:
        return value
    return None


def string_or_none(value) -> str | None:
    return value if isinstance(value, str) and value else None


def join_text(parts) -> str:
    return "\n\n".join(part for part in parts if part)


def content_text(content, images: list[ImageBlock] | None = None) -> str:
    """Readable text of a message or tool result's content: a string, or a list of
    parts (text, images, other JSON), as the formats store it. An image is "[image]"
    in the text, and its block is added to `images` (in the order of the marks)."""
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return join_text([_part_text(part, images) for part in content])
    return _part_text(content, images)


def _part_text(part, images: list[ImageBlock] | None) -> str:
    if isinstance(part, str):
        return part
    if isinstance(part, dict):
        kind = part.get("type")
        for key in ("text", "content", "output"):
            value = part.get(key)
            if isinstance(value, str):
                return value
            if key == "content" and isinstance(value, list):
                return content_text(value, images)
        if isinstance(kind, str) and "image" in kind:
            if images is not None:
                images.append(image_block(part))
            return IMAGE_MARK
    return json.dumps(part, ensure_ascii=False)


def image_block(part: dict) -> ImageBlock:
    """The image of a content part whose type names an image, in each format's shape:
    Claude's `source` (`{"type": "base64", "data": ...}` or `{"type": "url", "url": ...}`),
    the `image_url` of OpenAI chat (`{"url": ...}`) and of Codex (the URL itself)."""
    source = part.get("source")
    if isinstance(source, dict):
        if isinstance(source.get("data"), str):
            return ImageBlock(source["data"])
        if isinstance(source.get("url"), str):
            return ImageBlock.from_url(source["url"])
        return ImageBlock(problem=NO_IMAGE_DATA)
    url = part.get("image_url")
    if isinstance(url, dict):
        url = url.get("url")
    if isinstance(url, str):
        return ImageBlock.from_url(url)
    return ImageBlock(problem=NO_IMAGE_DATA)


@dataclass
class ReadStats:
    """What a reader passed over: records that hold no message, and lines skipped."""

    ignored: dict[str, int] = field(default_factory=dict)
    # reason -> [count, first few line numbers]
    skipped: dict[str, list] = field(default_factory=dict)

    def ignore(self, what: str) -> None:
        self.ignored[what] = self.ignored.get(what, 0) + 1

    def skip(self, line: int, reason: str) -> None:
        entry = self.skipped.setdefault(reason, [0, []])
        entry[0] += 1
        if len(entry[1]) < 5:
            entry[1].append(line)

    @property
    def skipped_count(self) -> int:
        return sum(count for count, _ in self.skipped.values())
