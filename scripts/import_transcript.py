#!/usr/bin/env python3
"""Write the site's transcript file from a coding session's log.

    python scripts/import_transcript.py SESSION.jsonl -o docs/transcript.jsonl

Reads Claude Code session logs (JSON Lines, or a {"loglines": [...]} export), Codex
CLI rollouts, Gemini CLI sessions, OpenAI chat-message lists and ShareGPT conversations, numbers their
messages by the rule in scripts/README.md, redacts secrets (sealing each line it redacted, so
that the site build need not redact it again: see transcript.seal), keeps the log's images
in a folder beside the output (transcript_formats.images; not with --no-images), and
replaces the output file and that folder only once the whole log has been read and the
report written. It never writes over the log (by any name), replaces nothing but a
regular file (a device or a named pipe is written directly, a symbolic link keeps
pointing at the file it replaces) and a folder of images as it writes them, and refuses
a log that is not a regular file.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import json
import os
import re
import signal
import stat
import sys
import tempfile

from sitebuild.files import replaced_when_done
from transcript.home_folder import HomeShortener, names_in, owner
from transcript.reader import file_kind
from transcript.redact import Redactor
from transcript.schema import LOG_TEXT_FIELDS, record_of
from transcript.seal import sealed
from transcript.secret_patterns import PatternTimeout
from transcript_formats import FORMAT_NAMES, FORMAT_TITLES, LogError, ReadStats, detect, read_messages
from transcript_formats.common import LogMessage
from transcript_formats.images import NO_FOLDER, NO_IMAGES_OPTION, ImageFolder, LeftOut, kept_images
from transcript_formats.jsonl import MAX_LINE_BYTES, size_text
from transcript_formats.progress import Progress

EXIT_OK, EXIT_BAD_INPUT = 0, 1  # and 2, argparse's, for wrong usage
# Half of a character cut in two in the log: no UTF-8 file can hold it.
LONE_SURROGATE_RE = re.compile("[\ud800-\udfff]")
# What the report keeps of the lines a reader skipped or passed over: so many different
# reasons at most, each cut to so many characters. A reason may name a value found in
# the log (an unknown record type); a hostile log could otherwise fill memory with them.
MAX_REASONS = 50
MAX_REASON_CHARS = 200


def main(argv: list[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    for option, path in (("-o", args.output), ("--report", args.report)):
        if path == "":
            parser.error(f"{option}: expected a file name, found nothing")
    if args.report and not os.path.isdir(os.path.dirname(os.path.abspath(args.report))):
        parser.error(f"--report {args.report}: the folder does not exist")
    try:
        extra = dict(_pattern_option(parser, option) for option in args.redact_pattern)
        redactor = None if args.no_redact else Redactor(extra, args.allow)
    except re.error as error:
        parser.error(f"--redact-pattern: not a valid regular expression: {error}")
    # SIGTERM (a `kill`, a closing terminal) stops the import as Ctrl-C does: the files
    # being written are removed, the output left as it was.
    signal.signal(signal.SIGTERM, lambda signum, frame: _raise_interrupt())
    try:
        import_log(args.source, args.output, args.format, redactor, args.report,
                   keep_images=not args.no_images, keep_home=args.keep_home).close()
    except LogError as error:
        print(error, file=sys.stderr)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        print("import stopped; the output file was left as it was", file=sys.stderr)
        return 130
    except OSError as error:  # a failure no step above names: still one line, no traceback
        where = f"{error.filename}: " if error.filename else ""
        print(f"{where}import stopped: {_reason(error)}; the output file was left as it was", file=sys.stderr)
        return EXIT_BAD_INPUT
    return EXIT_OK


def _raise_interrupt() -> None:
    raise KeyboardInterrupt


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="import_transcript.py",
        description="Write the site's transcript file (JSON Lines) from a coding session's log.",
        epilog="Exit status: 0 imported, 1 bad input (such as a log line longer than "
        f"{size_text(MAX_LINE_BYTES)}), or an OUTPUT or report that is SOURCE or cannot be "
        "written (the output and report are left untouched), 2 wrong usage. A device or named pipe as "
        "OUTPUT or report is written directly (the log's images are then left out: no folder can be beside it). "
        "The numbering of messages and the redaction are described "
        "in scripts/README.md.",
    )
    parser.add_argument("source", metavar="SOURCE", help="the session log to import")
    parser.add_argument("-o", "--output", required=True, metavar="OUTPUT",
                        help="the transcript file to write; the log's images go in the folder STEM-images beside it "
                        "(for docs/transcript.jsonl, docs/transcript-images/), replaced at each import")
    parser.add_argument(
        "--format",
        choices=("auto", *FORMAT_NAMES),
        default="auto",
        help="the log's format (default: auto, detected from its first records)",
    )
    parser.add_argument("--no-redact", action="store_true", help="keep secrets as they are in the log")
    parser.add_argument(
        "--redact-pattern",
        action="append",
        default=[],
        metavar="KIND=REGEX",
        help="also redact what REGEX matches (its group 'secret' if it has one), reported as KIND; repeatable",
    )
    parser.add_argument(
        "--allow", action="append", default=[], metavar="STRING", help="a string never to redact; repeatable"
    )
    parser.add_argument(
        "--no-images", action="store_true",
        help="keep no image of the log (the text keeps \"[image]\" where each was); redaction cannot read "
        "an image's pixels, so a screenshot of a secret is kept unless this is given",
    )
    parser.add_argument(
        "--keep-home", action="store_true",
        help="keep the home folder of the log's owner (/Users/NAME, /home/NAME, C:\\Users\\NAME) in its paths; "
        "by default it is written ~, so that the site does not publish the owner's user name",
    )
    parser.add_argument(
        "--report", metavar="FILE",
        help="write the report of skipped lines and redactions to FILE (default: stderr); not SOURCE or OUTPUT"
    )
    return parser


def _pattern_option(parser: argparse.ArgumentParser, option: str) -> tuple[str, str]:
    kind, sep, regex = option.partition("=")
    if not sep or not re.fullmatch(r"[a-z0-9][a-z0-9-]*", kind) or not regex:
        parser.error(f"--redact-pattern {option!r}: expected KIND=REGEX, KIND in lower case letters, digits and '-'")
    return kind, regex


class _ReportStats(ReadStats):
    """ReadStats of a size that does not grow with the log: at most MAX_REASONS reasons
    (the last of them counting all the others), each redacted and cut to MAX_REASON_CHARS."""

    def __init__(self, redactor: Redactor | None):
        super().__init__()
        self._redactor = redactor

    def ignore(self, what: str) -> None:
        super().ignore(self._bounded(what, self.ignored, "other records"))

    def skip(self, line: int, reason: str) -> None:
        super().skip(line, self._bounded(reason, self.skipped, "other reasons"))

    def _bounded(self, reason: str, seen: dict, other: str) -> str:
        if reason in seen:  # the usual case, quickly: a reason kept is one without a secret
            return reason
        if self._redactor is not None:
            reason = self._redactor.redact_text(reason)[0]
        if len(reason) > MAX_REASON_CHARS:
            reason = reason[: MAX_REASON_CHARS - 3] + "..."
        return reason if reason in seen or len(seen) < MAX_REASONS - 1 else other


class ImportResult:
    """What an import did, kept small: counts, and redactions spooled to a temporary file."""

    def __init__(self, source: str, output: str, format_name: str, redactor: Redactor | None = None):
        self.source, self.output, self.format_name = source, output, format_name
        self.messages = 0
        self.stats: ReadStats = _ReportStats(redactor)
        self.kind_counts: dict[str, int] = {}
        self.redacted_messages = 0
        self.home: str | None = None  # the home folder written ~
        self.home_count = self.home_messages = 0
        self.home_kept: str | None = None  # the owner whose home folder --keep-home kept
        self.images_kept = 0
        self.images_folder: str | None = None  # where they are written
        self.image_files = 0
        self.images_left_out = LeftOut()
        self._redactions = tempfile.TemporaryFile("w+", encoding="utf-8")  # noqa: SIM115 - open until close()

    def add_redaction(self, n: int, field: str, kinds: list[str]) -> None:
        for kind in kinds:
            self.kind_counts[kind] = self.kind_counts.get(kind, 0) + 1
        self._redactions.write(f"  msg {n} {field}: {', '.join(kinds)}\n")

    def summary_lines(self) -> list[str]:
        lines = [
            f"imported {self.messages} messages from {self.source} "
            f"({FORMAT_TITLES[self.format_name]}) into {self.output}"
        ]
        if self.stats.skipped:
            lines.append(f"skipped {self.stats.skipped_count} lines of {self.source}:")
            for reason, (count, first_lines) in sorted(self.stats.skipped.items()):
                more = ", ..." if count > len(first_lines) else ""
                where = ", ".join(map(str, first_lines)) + more
                lines.append(f"  {count} x {reason} (line{'s' if count > 1 else ''} {where})")
        if self.stats.ignored:
            held = ", ".join(f"{what} {count}" for what, count in sorted(self.stats.ignored.items()))
            lines.append(f"records that hold no message to count: {held}")
        if self.images_kept:
            lines.append(f"kept {_count(self.images_kept, 'image')} ({_count(self.image_files, 'file')}) "
                         f"in {self.images_folder}")
        left_out = self.images_left_out
        if left_out.count:
            lines.append(f"left out {_count(left_out.count, 'image')} (the text keeps \"[image]\" where each was):")
            for reason, (count, first_lines, more_lines) in sorted(left_out.reasons.items()):
                more = ", ..." if more_lines else ""
                where = ", ".join(map(str, first_lines)) + more
                lines.append(f"  {count} x {reason} (line{'s' if len(first_lines) > 1 else ''} {where})")
        if self.home_kept:
            lines.append(f"kept the home folder of {self.home_kept} in its paths (--keep-home)")
        if self.home_count:
            lines.append(f"wrote ~ for the home folder of {self.home} {_count(self.home_count, 'time')} in "
                         f"{_count(self.home_messages, 'message')} (--keep-home keeps it)")
        total = sum(self.kind_counts.values())
        if total:
            kinds = ", ".join(f"{kind} {count}" for kind, count in sorted(self.kind_counts.items()))
            lines.append(f"redacted {total} secrets in {self.redacted_messages} messages ({kinds})")
        else:
            lines.append("redacted no secrets")
        return lines

    def write_report(self, report) -> None:
        """The summary and the list of redactions, into the file `report`."""
        report.write("\n".join(self.summary_lines()) + "\n")
        self._copy_redactions(report)

    def show(self, report_path: str | None) -> None:
        """The summary on stderr; the list of redactions too, unless it went to `report_path`."""
        print("\n".join(self.summary_lines()), file=sys.stderr)
        if report_path is None:
            self._copy_redactions(sys.stderr)
        else:
            print(f"report written to {report_path}", file=sys.stderr)

    def _copy_redactions(self, stream) -> None:
        if not self.kind_counts:
            return
        stream.write("redactions (message, field: kinds):\n")
        self._redactions.seek(0)
        for line in self._redactions:
            stream.write(line)

    def close(self) -> None:
        self._redactions.close()


def import_log(source: str, output: str, format_name: str, redactor: Redactor | None,
               report_path: str | None = None, keep_images: bool = True, keep_home: bool = False) -> ImportResult:
    """Read the log at `source` and write its transcript to `output`, its images to the
    folder beside it (unless not `keep_images`) and its report to `report_path` (or the
    standard error), or raise LogError leaving all as they were. The owner's home folder
    is written `~` (see transcript.home_folder), unless `keep_home`."""
    file = _open_log(source)
    with file:
        _check_outputs(file, source, output, report_path)
        shape = detect(file, source)
        if format_name == "auto":
            if shape.format is None:
                raise LogError(
                    source,
                    1,
                    "unknown log format: not a Claude Code session, Codex CLI rollout, Gemini CLI session, "
                    "OpenAI chat-message list or ShareGPT conversation (name one with --format)",
                )
            format_name = shape.format
        result = ImportResult(source, output, format_name, redactor)
        home = _home_of(file)
        if keep_home:
            result.home_kept, home = home.name if home else None, None
        result.home = home.name if home else None
        # The folder of images of an earlier import is replaced, by nothing if no image is
        # kept. A device or pipe (/dev/stdout) has no folder beside it: the images are left
        # out, and the report says so, rather than the import refused: a check of a log
        # (-o /dev/null) or a look at it (| jq) needs no images.
        folder = None if _is_device(output) else ImageFolder(output)
        if folder and report_path and os.path.realpath(os.path.dirname(os.path.abspath(report_path))) == folder.path:
            raise LogError(report_path, None, "is in the folder of the transcript's images, which each import "
                           "replaces; --report must name a file elsewhere")
        writing = folder if keep_images else None
        drop_reason = NO_IMAGES_OPTION if not keep_images else NO_FOLDER
        result.images_folder = folder.name if folder else None
        progress = Progress(os.fstat(file.fileno()).st_size, f"importing {os.path.basename(source)}")
        try:
            with _atomic_writer(output) as transcript:
                for message in read_messages(file, source, format_name, shape, result.stats):
                    result.messages += 1
                    blocks = message.image_blocks if isinstance(message, LogMessage) else ()
                    names = kept_images(blocks, message.line, writing, result.images_left_out, drop_reason)
                    result.images_kept += len(names)
                    record = record_of(dataclasses.replace(message, n=result.messages, images=names))
                    if home is not None:
                        record = _shorten_home(record, home, result)
                    if redactor is not None:
                        try:
                            record = _redact(record, redactor, result)
                        except PatternTimeout as error:
                            raise LogError(source, message.line, f"--redact-pattern: {error}") from None
                    line = LONE_SURROGATE_RE.sub("\ufffd", json.dumps(record, ensure_ascii=False))
                    if redactor is not None:  # the build then knows the line needs no redaction
                        line = sealed(redactor.fingerprint, line)
                    transcript.write(line + "\n")
                    if progress.due():
                        progress.show(file.tell(), result.messages)
                if result.messages == 0:
                    raise LogError(source, None, f"no messages found in this {FORMAT_TITLES[format_name]} log")
                progress.close(file.tell(), result.messages)
                result.image_files = len(writing.names) if writing else 0
                if report_path is None:
                    transcript.close()  # a full disk may show only now
                    if folder:  # in place just before the transcript; put back if that fails
                        folder.put_in_place()
                else:
                    # The report is in place before the transcript: a report that cannot be
                    # written leaves both as they were.
                    with _atomic_writer(report_path) as report:
                        result.write_report(report)
                        transcript.close()
                        if folder:
                            folder.put_in_place()
            if folder:
                folder.finish()  # the earlier images go, once the transcript is in place
            result.show(report_path)  # once the transcript is in place
        except BaseException:
            if folder:
                folder.abandon()
            progress.abandon()
            result.close()
            raise
    return result


def _is_device(path: str) -> bool:
    """Whether `path` is a device or a named pipe (`/dev/null`, `/dev/stdout`), which is
    written directly and has no folder beside it for images."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return False
    return stat.S_ISCHR(mode) or stat.S_ISFIFO(mode)


def _open_log(source: str):
    """The log, opened to read: only a regular file, which can be read twice (once to
    detect its format). It is opened without waiting, so that a named pipe is refused at once."""
    try:
        handle = os.open(source, os.O_RDONLY | os.O_NONBLOCK)
    except FileNotFoundError:
        raise LogError(source, None, "file not found") from None
    except OSError as error:
        raise LogError(source, None, f"cannot read the file: {error.strerror}") from None
    mode = os.fstat(handle).st_mode
    if not stat.S_ISREG(mode):
        os.close(handle)
        hint = "" if stat.S_ISDIR(mode) else "; save the log to a file and import that"
        raise LogError(source, None, f"is {file_kind(mode)}, not a log file{hint}")
    return os.fdopen(handle, "rb")


def _check_outputs(log, source: str, output: str, report_path: str | None) -> None:
    """Refuse an output or report that is the log itself (by any name: a symbolic or hard
    link is the same file), or a report that is the output."""
    def same_file(path: str, other: os.stat_result) -> bool:
        try:
            found = os.stat(path)
        except OSError:
            return False
        return (found.st_dev, found.st_ino) == (other.st_dev, other.st_ino)

    source_stat = os.fstat(log.fileno())
    for option, path in (("-o", output), ("--report", report_path)):
        if path is not None and same_file(path, source_stat):
            raise LogError(path, None, f"is the log being imported ({source}); {option} must name another file")
    if report_path is None:
        return
    try:
        output_stat = os.stat(output)
    except OSError:  # not there yet: the same file only by the same name
        same = os.path.realpath(report_path) == os.path.realpath(output)
    else:  # a device or pipe such as /dev/null can take both
        same = stat.S_ISREG(output_stat.st_mode) and same_file(report_path, output_stat)
    if same:
        raise LogError(report_path, None, "is the transcript being written (-o); --report must name another file")


def _count(n: int, thing: str) -> str:
    return f"{n} {thing}{'' if n == 1 else 's'}"


def _home_of(file) -> HomeShortener | None:
    """The shortener of the log's owner's home folder, read from the whole file, which
    is left at its start; None if the log names no home folder."""
    names: list[str] = []
    file.seek(0)
    tail = b""
    while chunk := file.read(1 << 20):
        whole, _, tail = (tail + chunk).rpartition(b"\n")  # a folder cut between chunks is read whole
        names += names_in(whole)
    names += names_in(tail)
    file.seek(0)
    name = owner(names)
    return None if name is None else HomeShortener(name)


def _shorten_home(record: dict, home: HomeShortener, result: ImportResult) -> dict:
    """The record with the owner's home folder written `~` in its fields from the log."""
    shortened = 0
    for name in LOG_TEXT_FIELDS:
        if record.get(name) is not None:
            record[name], count = home.shorten(record[name])
            shortened += count
    result.home_count += shortened
    result.home_messages += shortened > 0
    return record


def _redact(record: dict, redactor: Redactor, result: ImportResult) -> dict:
    """The record with its text fields redacted together (a secret split between its
    thinking and its text is caught), each redaction added to the report."""
    fields = {name: record[name] for name in LOG_TEXT_FIELDS if name in record}
    if not redactor.fields_may_hold_secret(fields):  # most messages: a quick look for hints
        return record
    redacted, found = redactor.redact_fields(fields)
    record.update(redacted)
    for name, kinds in found.items():
        if kinds:
            result.add_redaction(record["n"], name, kinds)
    result.redacted_messages += any(found.values())
    return record


def _reason(error: OSError) -> str:
    """Why an operation on a file failed, in words (never a traceback)."""
    if error.strerror:
        return error.strerror
    return os.strerror(error.errno) if error.errno else "an error of the operating system"


class _Output:
    """A file being written: an OSError (a full disk, a read-only file system, a device
    that refuses the text) becomes a LogError naming the file the person gave."""

    def __init__(self, file, path: str):
        self._file, self._path = file, path

    def write(self, text: str) -> None:
        try:
            self._file.write(text)
        except OSError as error:
            raise _cannot_write(self._path, error) from None

    def close(self) -> None:
        """Write what is still buffered and close the file (closing again does nothing)."""
        try:
            self._file.close()
        except OSError as error:
            raise _cannot_write(self._path, error) from None


def _cannot_write(path: str, error: OSError) -> LogError:
    return LogError(path, None, f"cannot write the file: {_reason(error)}")


class _atomic_writer:
    """A text file written under a temporary name beside `path`, renamed to `path`
    only when the `with` block ends without an error; removed otherwise. A device or
    a named pipe is written directly. Every OSError is a LogError naming `path`."""

    def __init__(self, path: str):
        self.path = path

    def __enter__(self) -> _Output:
        if not os.path.isdir(os.path.dirname(os.path.abspath(self.path))):
            raise LogError(self.path, None, "cannot write here: the folder does not exist")
        self._replacing = replaced_when_done(self.path)
        try:
            temporary = self._replacing.__enter__()
        except OSError as error:
            raise LogError(self.path, None, f"cannot write here: {_reason(error)}") from None
        try:
            self.file = open(temporary, "w", encoding="utf-8", newline="\n")
        except OSError as error:
            with contextlib.suppress(OSError):  # the error told below is the one that matters
                self._replacing.__exit__(type(error), error, error.__traceback__)  # removes the temporary file
            raise LogError(self.path, None, f"cannot write here: {_reason(error)}") from None
        return _Output(self.file, self.path)

    def __exit__(self, error_type, error, traceback):
        closing_error = None
        try:
            self.file.close()  # writes what is still buffered: a full disk may show only now
        except OSError as failure:
            closing_error = _cannot_write(self.path, failure)
        if error is None and closing_error is not None:
            error_type, error, traceback = LogError, closing_error, None
        try:
            # Renames the temporary file into place, or, after an error, removes it.
            self._replacing.__exit__(error_type, error, traceback)
        except OSError as failure:
            raise _cannot_write(self.path, failure) from None
        if closing_error is not None and error is closing_error:
            raise closing_error
        return False


if __name__ == "__main__":
    sys.exit(main())
