"""Time what the redaction seal saves and costs on one imported transcript, in this process:

    python scripts/perf/seal_timer.py TRANSCRIPT [REPEAT]

Prints, best of REPEAT runs (default 5): the index of the file without and with seal
verification, the redaction precheck (`Redactor.may_hold_secret`) over every message,
and reading every message through the build's redacted view without and with the seals.
The redactor is the build's default one; import the transcript with the default rules.
"""

import sys
import time

from msgref import transcript as transcript_module
from msgref.redact import RedactedTranscript, Redactor
from msgref.schema import LOG_TEXT_FIELDS


def best(repeat: int, work) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return min(times)


def read_all(path: str, seal_key) -> None:
    offsets, lines, sealed = transcript_module._file_index(path, path, seal_key)
    indexed = transcript_module.IndexedTranscript(offsets, lines, path, path, sealed, seal_key)
    view = RedactedTranscript(indexed, Redactor())
    for n in view.numbers:
        view.get(n)


def main(path: str, repeat: int) -> None:
    redactor = Redactor()
    key = redactor.fingerprint
    plain = best(repeat, lambda: transcript_module._file_index(path, path))
    checked = best(repeat, lambda: transcript_module._file_index(path, path, key))
    offsets, lines, sealed = transcript_module._file_index(path, path, key)
    print(f"{len(offsets)} messages, {len(sealed)} sealed")
    print(f"index without seals: {plain:.3f} s; with seal verification: {checked:.3f} s (+{checked - plain:.3f} s)")
    messages = [transcript_module.IndexedTranscript(offsets, lines, path, path).get(n) for n in sorted(offsets)]
    precheck = best(repeat, lambda: [redactor.may_hold_secret(*(getattr(m, f) for f in LOG_TEXT_FIELDS))
                                     for m in messages])
    print(f"may_hold_secret over every message (what a seal saves): {precheck:.3f} s")
    unsealed_read = best(repeat, lambda: read_all(path, None))
    sealed_read = best(repeat, lambda: read_all(path, key))
    print(f"index and read every message redacted: {unsealed_read:.3f} s without seals, {sealed_read:.3f} s with")


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 5)
