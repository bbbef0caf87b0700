"""The tool calls of a transcript by the id their outputs carry, found when first asked:
a tool's output, shown away from its call (quoted in the essay, or on another page),
is labelled with its call's tool and message."""

from __future__ import annotations

from .schema import MessageSource


class CallsById:
    def __init__(self, transcript: MessageSource):
        self._transcript = transcript
        self._calls: dict[str, tuple[str, int]] | None = None

    def __call__(self, call_id: str) -> tuple[str, int] | None:
        """The tool's name and the message number of the call `call_id`, if the transcript has it."""
        if self._calls is None:
            self._calls = {}
            for n in self._transcript.numbers:
                message = self._transcript.get(n)
                if message is not None and message.tool_name and message.source_id:
                    self._calls.setdefault(message.source_id, (message.tool_name, n))
        return self._calls.get(call_id)
