"""The tool call a tool's output answers, for an output shown away from its call (quoted
in the essay): found among the messages just before the output, as a session answers a
call within a few messages. Only those are read: each message read is parsed and
checked for secrets, and a transcript holds hundreds of thousands."""

from __future__ import annotations

import bisect

from .schema import MessageSource

# How far before its output a call is looked for: past the calls one reply makes together,
# whose outputs follow them all.
LOOK_BACK = 32


class CallsBefore:
    """`transcript`'s calls; looked for in `ids`, the same messages read more cheaply for
    their ids (unredacted: nothing read there is shown), if given."""

    def __init__(self, transcript: MessageSource, ids: MessageSource | None = None):
        self._transcript, self._ids = transcript, ids or transcript
        self._found: dict[tuple[str, int], int | None] = {}

    def __call__(self, call_id: str, output: int) -> tuple[str, int, object] | None:
        """The tool's name, the message number and the input of the call `call_id` that
        message `output` answers, if one of the LOOK_BACK messages before it is that call."""
        key = (call_id, output)
        if key not in self._found:
            self._found[key] = self._look_back(call_id, output)
        n = self._found[key]
        call = self._transcript.get(n) if n is not None else None  # read again rather than kept: it may be long
        if call is None or call.tool_name is None:
            return None
        return call.tool_name, call.n, call.tool_input

    def _look_back(self, call_id: str, output: int) -> int | None:
        numbers = self._ids.numbers
        at = bisect.bisect_left(numbers, output)
        for n in reversed(numbers[max(at - LOOK_BACK, 0) : at]):
            message = self._ids.get(n)
            if message is not None and message.tool_name and message.source_id == call_id:
                return n
        return None
