#!/usr/bin/env python3
"""Write the site's transcript file from a coding session's log.

    python scripts/import_transcript.py SESSION.jsonl -o docs/transcript.jsonl

Reads Claude Code session logs (JSON Lines, or a {"loglines": [...]} export), Codex
CLI rollouts, OpenAI chat-message lists and ShareGPT conversations, numbers their
messages by the rule in the README, redacts secrets (sealing each line it redacted, so
that the site build need not redact it again: see msgref.seal), and replaces the output
file only once the whole log has been read and the report written. It never writes
over the log (by any name), replaces nothing but a regular file (a device or a named
pipe is written directly, a symbolic link keeps pointing at the file it replaces),
and refuses a log that is not a regular file.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import re
import stat
import sys
import tempfile

from msgref.redact import Redactor
from msgref.schema import LOG_TEXT_FIELDS, record_of
from msgref.seal import sealed
from msgref.transcript import file_kind
from sitebuild.files import replaced_when_done
from transcript_formats import FORMAT_NAMES, FORMAT_TITLES, LogError, ReadStats, detect, read_messages
from transcript_formats.progress import Progress

EXIT_OK, EXIT_BAD_INPUT = 0, 1  # and 2, argparse's, for wrong usage
# Half of a character cut in two in the log: no UTF-8 file can hold it.
LONE_SURROGATE_RE = re.compile("[\ud800-\udfff]")


def main(argv: list[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    if args.report and not os.path.isdir(os.path.dirname(os.path.abspath(args.report))):
        parser.error(f"--report {args.report}: the folder does not exist")
    try:
        extra = dict(_pattern_option(parser, option) for option in args.redact_pattern)
        redactor = None if args.no_redact else Redactor(extra, args.allow)
    except re.error as error:
        parser.error(f"--redact-pattern: not a valid regular expression: {error}")
    try:
        import_log(args.source, args.output, args.format, redactor, args.report).close()
    except LogError as error:
        print(error, file=sys.stderr)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        print("import stopped; the output file was left as it was", file=sys.stderr)
        return 130
    return EXIT_OK


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="import_transcript.py",
        description="Write the site's transcript file (JSON Lines) from a coding session's log.",
        epilog="Exit status: 0 imported, 1 bad input, or an OUTPUT or report that is SOURCE or cannot be "
        "replaced (the output and report are left untouched), 2 wrong usage. A device or named pipe as "
        "OUTPUT or report is written directly. The numbering of messages and the redaction are described "
        "in the README.",
    )
    parser.add_argument("source", metavar="SOURCE", help="the session log to import")
    parser.add_argument("-o", "--output", required=True, metavar="OUTPUT", help="the transcript file to write")
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
        "--report", metavar="FILE",
        help="write the report of skipped lines and redactions to FILE (default: stderr); not SOURCE or OUTPUT"
    )
    return parser


def _pattern_option(parser: argparse.ArgumentParser, option: str) -> tuple[str, str]:
    kind, sep, regex = option.partition("=")
    if not sep or not re.fullmatch(r"[a-z0-9][a-z0-9-]*", kind) or not regex:
        parser.error(f"--redact-pattern {option!r}: expected KIND=REGEX, KIND in lower case letters, digits and '-'")
    return kind, regex


class ImportResult:
    """What an import did, kept small: counts, and redactions spooled to a temporary file."""

    def __init__(self, source: str, output: str, format_name: str):
        self.source, self.output, self.format_name = source, output, format_name
        self.messages = 0
        self.stats = ReadStats()
        self.kind_counts: dict[str, int] = {}
        self.redacted_messages = 0
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
        total = sum(self.kind_counts.values())
        if total:
            kinds = ", ".join(f"{kind} {count}" for kind, count in sorted(self.kind_counts.items()))
            lines.append(f"redacted {total} secrets in {self.redacted_messages} messages ({kinds})")
        else:
            lines.append("redacted no secrets")
        return lines

    def report(self, report_path: str | None) -> None:
        """The summary on stderr; the list of redactions too, or into `report_path`."""
        summary = self.summary_lines()
        if report_path is None:
            print("\n".join(summary), file=sys.stderr)
            self._copy_redactions(sys.stderr)
            return
        with _atomic_writer(report_path) as report:
            report.write("\n".join(summary) + "\n")
            self._copy_redactions(report)
        print("\n".join(summary), file=sys.stderr)
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
               report_path: str | None = None) -> ImportResult:
    """Read the log at `source` and write its transcript to `output` and its report to
    `report_path` (or the standard error), or raise LogError leaving both as they were."""
    file = _open_log(source)
    with file:
        _check_outputs(file, source, output, report_path)
        shape = detect(file, source)
        if format_name == "auto":
            if shape.format is None:
                raise LogError(
                    source,
                    1,
                    "unknown log format: not a Claude Code session, Codex CLI rollout, OpenAI chat-message list "
                    "or ShareGPT conversation (name one with --format)",
                )
            format_name = shape.format
        result = ImportResult(source, output, format_name)
        progress = Progress(os.fstat(file.fileno()).st_size, f"importing {os.path.basename(source)}")
        try:
            with _atomic_writer(output) as transcript:
                for message in read_messages(file, source, format_name, shape, result.stats):
                    result.messages += 1
                    record = record_of(dataclasses.replace(message, n=result.messages))
                    if redactor is not None:
                        record = _redact(record, redactor, result)
                    line = LONE_SURROGATE_RE.sub("\ufffd", json.dumps(record, ensure_ascii=False))
                    if redactor is not None:  # the build then knows the line needs no redaction
                        line = sealed(redactor.fingerprint, line)
                    transcript.write(line + "\n")
                    if progress.due():
                        progress.show(file.tell(), result.messages)
                if result.messages == 0:
                    raise LogError(source, None, f"no messages found in this {FORMAT_TITLES[format_name]} log")
                progress.close(file.tell(), result.messages)
                # Before the transcript replaces the old one: a report that cannot be written leaves both.
                result.report(report_path)
        except BaseException:
            progress.abandon()
            result.close()
            raise
    return result


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


def _redact(record: dict, redactor: Redactor, result: ImportResult) -> dict:
    found_any = False
    for field in LOG_TEXT_FIELDS:
        if field not in record:
            continue
        record[field], kinds = redactor.redact_value(record[field])
        if kinds:
            found_any = True
            result.add_redaction(record["n"], field, kinds)
    result.redacted_messages += found_any
    return record


class _atomic_writer:
    """A text file written under a temporary name beside `path`, renamed to `path`
    only when the `with` block ends without an error; removed otherwise."""

    def __init__(self, path: str):
        self.path = path

    def __enter__(self):
        if not os.path.isdir(os.path.dirname(os.path.abspath(self.path))):
            raise LogError(self.path, None, "cannot write here: the folder does not exist")
        self._replacing = replaced_when_done(self.path)
        try:
            temporary = self._replacing.__enter__()
        except OSError as error:
            raise LogError(self.path, None, f"cannot write here: {error.strerror}") from None
        try:
            self.file = open(temporary, "w", encoding="utf-8", newline="\n")
        except OSError as error:
            self._replacing.__exit__(type(error), error, error.__traceback__)  # removes the temporary file
            raise LogError(self.path, None, f"cannot write here: {error.strerror}") from None
        return self.file

    def __exit__(self, error_type, error, traceback):
        self.file.close()
        try:
            return self._replacing.__exit__(error_type, error, traceback)
        except OSError as failure:
            raise LogError(self.path, None, f"cannot write the file: {failure.strerror}") from None


if __name__ == "__main__":
    sys.exit(main())
