"""Which shown message answers each shown tool call, and which call each output answers,
found for each page from the shown messages around it, in order: a call and its output
carry the same id from the log (`source_id`, the call's id).

Only numbers are kept, in arrays searched by bisection (32 bytes a pair: a whole session
of a million messages, a third of them outputs, takes about ten megabytes). The ids are
held only while a call waits for its output, and only for the latest calls: an output
comes within a few messages of its call, after the others made with it.
"""

from __future__ import annotations

import bisect
from array import array
from collections import OrderedDict
from collections.abc import Callable, Iterable

from transcript.schema import Message

# The calls still waiting for their output that are remembered: far more than a model makes at once.
WAITING_CALLS = 4096


class CallPairs:
    """The pairs of a call's message and its output's message."""

    def __init__(self, calls: array[int], outputs: array[int]):
        """`calls[i]` is answered by `outputs[i]`; `outputs` ascending."""
        by_call = sorted(range(len(calls)), key=calls.__getitem__)
        self._calls, self._answers = array("q", (calls[i] for i in by_call)), array("q", (outputs[i] for i in by_call))
        self._outputs, self._callers = outputs, calls

    def __len__(self) -> int:
        return len(self._outputs)

    def output_of(self, call: int) -> int | None:
        """The message of the output that answers the call in message `call`, if one is found."""
        return _looked_up(self._calls, self._answers, call)

    def call_of(self, output: int) -> int | None:
        """The message of the call that the output in message `output` answers, if one is found."""
        return _looked_up(self._outputs, self._callers, output)


def _looked_up(keys: array[int], values: array[int], key: int) -> int | None:
    i = bisect.bisect_left(keys, key)
    return values[i] if i < len(keys) and keys[i] == key else None


def call_pairs(messages: Iterable[Message]) -> CallPairs:
    """The pairs among `messages`, in the order of their numbers."""
    waiting: OrderedDict[str, int] = OrderedDict()  # a call's id -> its message
    calls, outputs = array("q"), array("q")
    for message in messages:
        call_id = message.source_id
        if not call_id or message.hook:  # a hook's output may carry the id of the call it ran after
            continue
        if message.tool_name:
            waiting[call_id] = message.n
            waiting.move_to_end(call_id)
            if len(waiting) > WAITING_CALLS:
                waiting.popitem(last=False)
        elif message.speaker == "tool":
            call = waiting.pop(call_id, None)
            if call is not None:
                calls.append(call)
                outputs.append(message.n)
    return CallPairs(calls, outputs)


class PageCallLinks:
    """The pairs as one page links them (msgview.conversation.CallLinks): to the page
    that shows the other message, `src_of(n)`, by `href(src)` from this page `here`."""

    def __init__(self, pairs: CallPairs, src_of: Callable[[int], str | None], href: Callable[[str], str], here: str,
                 message: Callable[[int], Message]):
        self._pairs, self._src_of, self._href, self._here, self._message = pairs, src_of, href, here, message

    def output_of(self, call: int) -> int | None:
        return self._pairs.output_of(call)

    def call_of(self, output: int) -> int | None:
        return self._pairs.call_of(output)

    def tool_of(self, call: int) -> str | None:
        return self._message(call).tool_name

    def href(self, n: int) -> str:
        src = self._src_of(n)
        page = "" if src is None or src == self._here else self._href(src)
        return f"{page}#msg-{n}"
