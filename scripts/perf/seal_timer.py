"""Time what the redaction seal saves and costs on one imported transcript, in this process.

    python scripts/perf/seal_timer.py TRANSCRIPT [REPEAT]

Prints, best of REPEAT runs (default 5): the index of the file; the index and a read of
every message without and with seal verification (a line's seal is checked as the line
is read); the redaction precheck (`Redactor.may_hold_secret`) over every message, which
a verified seal saves; and the index and a read of every message through the build's
redacted view, without and with the seals. The redactor is the build's default one:
import the transcript with the default rules.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable

from transcript.reader import TranscriptError, load_transcript
from transcript.redact import RedactedTranscript, Redactor
from transcript.schema import LOG_TEXT_FIELDS, MessageSource


def best(repeat: int, work: Callable[[], object]) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return min(times)


def read_every(transcript: MessageSource) -> None:
    for n in transcript.numbers:
        transcript.get(n)


def read_all(path: str, seal_key: bytes | None, redactor: Redactor | None = None) -> None:
    """Index the transcript afresh (nothing cached) and read every message, redacted if `redactor` is given."""
    transcript = load_transcript(path, seal_key=seal_key)
    read_every(transcript if redactor is None else RedactedTranscript(transcript, redactor))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     epilog=__doc__.split("\n\n", 2)[2],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("transcript", help="a transcript written by scripts/import_transcript.py")
    parser.add_argument("repeat", nargs="?", type=int, default=5, help="runs of each timing (default 5)")
    args = parser.parse_args(argv)
    if args.repeat < 1:
        parser.error("REPEAT must be 1 or more")
    path, repeat = args.transcript, args.repeat
    redactor = Redactor()
    key = redactor.fingerprint
    try:
        sealed = load_transcript(path, seal_key=key)
        read_every(sealed)
    except TranscriptError as error:
        print(f"seal_timer: {error}", file=sys.stderr)
        return 1
    verified = sum(sealed.seal_verified(n) for n in sealed.numbers)
    print(f"{len(sealed)} messages, {verified} sealed under the default rules")

    index = best(repeat, lambda: load_transcript(path))
    unchecked = best(repeat, lambda: read_all(path, None))
    checked = best(repeat, lambda: read_all(path, key))
    print(f"index: {index:.3f} s; index and read every message: {unchecked:.3f} s without seal verification, "
          f"{checked:.3f} s with (+{checked - unchecked:.3f} s)")

    messages = list(load_transcript(path))
    precheck = best(repeat, lambda: [redactor.may_hold_secret(*(getattr(m, name) for name in LOG_TEXT_FIELDS))
                                     for m in messages])
    print(f"may_hold_secret over every message (what a seal saves): {precheck:.3f} s")

    unsealed_read = best(repeat, lambda: read_all(path, None, redactor))
    sealed_read = best(repeat, lambda: read_all(path, key, redactor))
    print(f"index and read every message redacted: {unsealed_read:.3f} s without seals, {sealed_read:.3f} s with")
    return 0


if __name__ == "__main__":
    sys.exit(main())
