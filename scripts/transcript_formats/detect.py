"""Telling the log formats apart from the first records of a file."""

from __future__ import annotations

from dataclasses import dataclass

from . import claude_code, codex, gemini, openai_chat, sharegpt
from .common import LogError
from .json_stream import JsonDocument

# Keys of a JSON document whose list holds the whole log, and the format they mean.
# A `messages` list is a Gemini CLI session's when its object or its first element
# says so (see _list_format), else OpenAI chat messages.
DOCUMENT_LISTS = {
    "loglines": claude_code.NAME,
    "messages": openai_chat.NAME,
    **dict.fromkeys(sharegpt.TURN_LISTS, sharegpt.NAME),
}
# Keys worth keeping while looking at a first record; other values are read and dropped.
_CLUE_KEYS = ("type", "payload", "message", "uuid", "sessionId", "projectHash", "role", "from", "value")
_RECORDS_TO_TRY = 20


@dataclass(frozen=True)
class Shape:
    format: str | None  # None: no known format
    document: bool  # one JSON document, rather than JSON Lines


def detect(file, path: str) -> Shape:
    """Look at the start of a binary file, then rewind it."""
    try:
        return _detect(JsonDocument(file, path), path)
    finally:
        file.seek(0)


def _detect(json_doc: JsonDocument, path: str) -> Shape:
    first = json_doc.peek()
    if first == "":
        raise LogError(path, None, "the file is empty")
    if first == "[":
        for _ in json_doc.iter_array():
            if json_doc.peek() != "{":
                return Shape(None, True)
            clues = _first_object(json_doc)
            if clues.get("list") == sharegpt.NAME or sharegpt.looks_like(clues):
                return Shape(sharegpt.NAME, True)
            if openai_chat.looks_like(clues):
                return Shape(openai_chat.NAME, True)
            return Shape(None, True)
        return Shape(None, True)
    if first != "{":
        return Shape(None, False)
    clues = _first_object(json_doc)
    if "list" in clues:
        return Shape(clues["list"], True)
    if sharegpt.looks_like(clues) and json_doc.peek() == "":
        return Shape(sharegpt.NAME, True)
    # JSON Lines: the first records that a format knows tell which it is; a log may
    # open with record types newer than this importer.
    for _ in range(_RECORDS_TO_TRY):
        if codex.looks_like(clues):
            return Shape(codex.NAME, False)
        if claude_code.looks_like(clues):
            return Shape(claude_code.NAME, False)
        if json_doc.peek() != "{":
            break
        clues = _first_object(json_doc)
    return Shape(None, False)


def _first_object(json_doc: JsonDocument) -> dict:
    """The telling keys of the object at the cursor. A key that holds a whole log
    stops the walk there, so that the log itself is never read into memory."""
    clues: dict = {}
    for key in json_doc.iter_object():
        if key in DOCUMENT_LISTS and json_doc.peek() == "[":
            clues["list"] = _list_format(key, json_doc, clues)
            return clues
        value = json_doc.read_value()
        if key in _CLUE_KEYS:
            clues[key] = value
    return clues


def _list_format(key: str, json_doc: JsonDocument, outer: dict) -> str:
    """The format of the log list under `key`, at its `[`: a `messages` list is a Gemini
    CLI session's when the keys before it are a session's, or its first element is a
    Gemini CLI message (whichever order the session's keys were written in); only that
    element is read."""
    if key != "messages":
        return DOCUMENT_LISTS[key]
    if gemini.looks_like_session(outer):
        return gemini.NAME
    for _ in json_doc.iter_array():
        if json_doc.peek() == "{" and gemini.looks_like(_first_object(json_doc)):
            return gemini.NAME
        break
    return DOCUMENT_LISTS[key]
