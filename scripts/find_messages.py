#!/usr/bin/env python3
"""List the messages of the site's transcript, or find the ones to cite.

    python scripts/find_messages.py garbage output        # the messages holding both words
    python scripts/find_messages.py --speaker user --range 5840-5900
    python scripts/find_messages.py --tool Bash nvcc -t other/transcript.jsonl

Each message found is one line, in the file's order: the tag that cites it, its speaker,
its time, its tool for a tool call, and the first line of its text, cut to the
terminal's width (COLUMNS, or 100 characters when the output is not a terminal):

    [msg 5852]    user       2025-09-07 09:52  https://gist.github.com/catid/...

The file is read one line at a time and each line checked as the site build checks it:
a line the build would refuse stops the listing, named by file and line.
"""

from __future__ import annotations

import argparse
import io
import os
import shutil
import sys
from typing import TextIO

import yaml

from message_search import Query, first_line, messages_in, printable, short_time
from sitebuild.config_file import read_config
from sitebuild.settings import SettingsError, TranscriptSettings, read_settings
from transcript.reader import TranscriptError
from transcript.schema import SPEAKERS, Message

EXIT_FOUND, EXIT_NOT_FOUND = 0, 1  # 1 also for a transcript that cannot be read; 2, argparse's, for wrong usage
EXIT_INTERRUPTED = 130
CONFIG = "mkdocs.yml"  # in the current folder, as `mkdocs build` looks for it
FALLBACK_WIDTH = 100  # when the output is a pipe or a file
MIN_PREVIEW = 20  # characters of the text shown however narrow the terminal
TAG_WIDTH = len("[msg 100000]")
SPEAKER_WIDTH = max(map(len, SPEAKERS))
TIME_WIDTH = len("2025-09-07 09:52")


def main(argv: list[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    first, last = _bounds(parser, args)
    if args.limit is not None and args.limit < 1:
        parser.error("--limit must be 1 or more")
    path = args.transcript if args.transcript is not None else _configured_transcript(parser)
    if not path:
        parser.error("--transcript: the path is empty")
    query = Query(tuple(args.words), frozenset(args.speaker or ()), args.tool, first, last)
    width = shutil.get_terminal_size((FALLBACK_WIDTH, 24)).columns
    if isinstance(sys.stdout, io.TextIOWrapper):
        sys.stdout.reconfigure(errors="replace")  # a lone surrogate read from a line is shown, not fatal
    try:
        listed = list_messages(path, query, args.limit, width, sys.stdout)
        sys.stdout.flush()  # here, where a closed pipe is caught, not at exit
    except BrokenPipeError:  # the reader (`| head`) has seen enough
        _discard_output()
        return EXIT_FOUND
    except TranscriptError as error:
        _flush_quietly()  # the messages listed before the bad line, then the problem
        print(error, file=sys.stderr)
        return EXIT_NOT_FOUND
    except KeyboardInterrupt:
        return EXIT_INTERRUPTED
    if not listed:
        print(f"{path}: no message matched", file=sys.stderr)
        return EXIT_NOT_FOUND
    return EXIT_FOUND


def list_messages(path: str, query: Query, limit: int | None, width: int, out: TextIO) -> int:
    """Write the line of each message of `path` that `query` matches, at most `limit`;
    return how many were written."""
    listed = 0
    for message in messages_in(path):
        if query.matches(message):
            out.write(listing_line(message, width) + "\n")
            listed += 1
            if listed == limit:
                break  # the rest of the file is not read
    return listed


def listing_line(message: Message, width: int) -> str:
    """One message as the listing shows it, at most `width` characters unless the
    terminal is too narrow for the columns and a little of the text."""
    tag = f"[msg {message.n}]"
    head = f"{tag:<{TAG_WIDTH}}  {message.speaker:<{SPEAKER_WIDTH}}  {short_time(message.timestamp):<{TIME_WIDTH}}  "
    if message.tool_name:
        head += printable(message.tool_name) + "  "
    room = max(width - len(head), MIN_PREVIEW)
    preview = first_line(message)
    if len(preview) > room:
        preview = preview[: room - 1] + "…"
    return (head + preview).rstrip()


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="find_messages.py",
        description=__doc__.split("\n\n")[0],
        epilog=__doc__.split("\n\n", 1)[1]
        + "\nExit status: 0 when a message was listed (also when the reader of the output, such as\n"
        "`| head`, closed it early), 1 when none matched or the transcript could not be read (the\n"
        "problem, with its file and line, on stderr), 2 for wrong usage.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("words", nargs="*", metavar="WORD",
                        help="words (or quoted phrases) each message must hold, in any case, in its text, its "
                        "tool's name or its tool's input; part of a longer word counts")
    parser.add_argument("-t", "--transcript", metavar="FILE",
                        help="the transcript file (default: extra.transcript.source of ./mkdocs.yml)")
    parser.add_argument("--speaker", action="append", choices=SPEAKERS,
                        help="only messages of this speaker; repeat for several")
    parser.add_argument("--tool", metavar="NAME", help="only calls of the tool NAME, in any case")
    parser.add_argument("--range", metavar="N-M", type=_number_range,
                        help="only messages N to M, both included (N- for N onwards, N for one message)")
    parser.add_argument("--from", dest="first", metavar="N", type=_message_number, help="only messages N onwards")
    parser.add_argument("--to", dest="last", metavar="M", type=_message_number, help="only messages up to M")
    parser.add_argument("--limit", metavar="COUNT", type=int,
                        help="stop after listing COUNT messages (the rest of the file is not read)")
    return parser


def _message_number(text: str) -> int:
    if not text.strip().isdecimal() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"expected a message number of 1 or more, found {text!r}")
    return int(text)


def _number_range(text: str) -> tuple[int, int | None]:
    start, dash, end = text.partition("-")
    first = _message_number(start)
    if not dash:
        return first, first
    return first, _message_number(end) if end.strip() else None


def _bounds(parser: argparse.ArgumentParser, args: argparse.Namespace) -> tuple[int | None, int | None]:
    """The first and last message numbers asked for, by --range or by --from and --to."""
    if args.range is not None and (args.first is not None or args.last is not None):
        parser.error("--range and --from/--to both set the numbers: use one or the other")
    first, last = args.range if args.range is not None else (args.first, args.last)
    if first is not None and last is not None and first > last:
        parser.error(f"the range starts at {first}, after its end {last}")
    return first, last


def _configured_transcript(parser: argparse.ArgumentParser) -> str:
    """The transcript that `extra.transcript.source` of ./mkdocs.yml names, as the build reads it."""
    if not os.path.isfile(CONFIG):
        parser.error(f"no ./{CONFIG} here to name the transcript: give it with --transcript FILE")
    try:
        extra = read_config(CONFIG).get("extra")
        values = extra.get("transcript") if isinstance(extra, dict) else None
        settings = read_settings(TranscriptSettings, values, "extra.transcript", config_name=CONFIG)
    except (OSError, UnicodeDecodeError, yaml.YAMLError) as error:
        problem = " ".join(str(error).split())  # YAML's own message spans lines
        raise _stop(f"{CONFIG}: cannot be read: {problem}") from None
    except SettingsError as error:
        raise _stop(str(error)) from None
    return os.path.normpath(settings.source)  # relative to the folder of mkdocs.yml: this one


def _stop(problem: str) -> SystemExit:
    print(problem, file=sys.stderr)
    return SystemExit(EXIT_NOT_FOUND)


def _discard_output() -> None:
    """Point the standard output at nothing, so that Python's last flush at exit finds
    no closed pipe to report."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    os.close(devnull)


def _flush_quietly() -> None:
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        _discard_output()


if __name__ == "__main__":
    sys.exit(main())
