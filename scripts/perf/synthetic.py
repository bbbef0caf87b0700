"""Synthetic transcripts and essays with the size mix of a real session log.

Most messages are a few hundred bytes; 1% are tool outputs of 100 KB or more, like the
long command outputs and pasted data blocks of a real session. Everything is drawn from
a seeded random generator, so the same size and seed give the same files.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from pathlib import Path

LARGE_SHARE = 0.01
LARGE_BYTES = (100_000, 400_000)
SMALL_BYTES = (80, 700)

_WORDS = [
    "the", "model", "server", "build", "kernel", "output", "error", "test", "request", "response", "token", "layer",
    "cache", "config", "flag", "backend", "value", "file", "path", "commit", "branch", "change", "result", "check",
    "run", "step", "expert", "attention", "memory", "batch", "queue", "worker", "thread", "retry", "timeout", "log",
    "trace", "patch",
]
_SPEAKERS = ("user", "assistant", "tool")
_TOOLS = ("Bash", "Read", "Edit", "Grep", "WebFetch")


@dataclass(frozen=True)
class Essay:
    pages: dict[str, str]  # file name -> Markdown
    cited: list[int]  # the message numbers of every tag, in page order


def sentence(rng: random.Random, words: int) -> str:
    return " ".join(rng.choices(_WORDS, k=words)).capitalize() + "."


def small_text(rng: random.Random) -> str:
    size = rng.randint(*SMALL_BYTES)
    parts: list[str] = []
    while sum(map(len, parts)) < size:
        parts.append(sentence(rng, rng.randint(5, 15)))
    return " ".join(parts)


def log_lines(rng: random.Random, count: int) -> list[str]:
    """A pool of tool-output lines: paths, numbers, quotes, tabs and a little non-ASCII."""
    lines = []
    for i in range(count):
        words = " ".join(rng.choices(_WORDS, k=rng.randint(3, 12)))
        kind = i % 5
        if kind == 0:
            module = rng.choice(_WORDS)
            lines.append(f'  File "/srv/app/{module}.py", line {rng.randint(1, 999)}, in {words.split()[0]}')
        elif kind == 1:
            lines.append(f"[{rng.randint(0, 99999):05d}]\t{words}\t{rng.random():.6f}")
        elif kind == 2:
            lines.append(f'{{"step": {i}, "status": "{rng.choice(_WORDS)}", "note": "{words}"}}')
        elif kind == 3 and i % 40 == 3:
            lines.append(f"✓ {words} — done")
        else:
            lines.append(words)
    return lines


def large_text(rng: random.Random, pool: list[str]) -> str:
    size = rng.randint(*LARGE_BYTES)
    average = sum(len(line.encode()) + 1 for line in pool) / len(pool)
    return "\n".join(rng.choices(pool, k=int(size / average) + 1))


def message_record(rng: random.Random, n: int, large: bool, pool: list[str]) -> dict:
    speaker = "tool" if large else _SPEAKERS[n % 3]
    record = {"n": n, "speaker": speaker, "provenance": "verbatim",
              "text": large_text(rng, pool) if large else small_text(rng),
              "source_id": f"{rng.getrandbits(64):016x}", "timestamp": f"2026-03-{1 + n % 28:02d}T12:00:00Z"}
    if speaker == "assistant" and n % 4 == 1:
        record["thinking"] = sentence(rng, 20)
    if speaker == "tool" and not large and n % 2 == 0:
        record["tool_name"] = rng.choice(_TOOLS)
        record["tool_input"] = {"command": sentence(rng, 6)}
    if speaker == "user" and n % 50 == 0:
        record["provenance"] = "described"
    if n % 97 == 0:
        record["text"] = ""  # an empty message now and then
    return record


def write_transcript(path: Path, messages: int, seed: int = 1) -> int:
    """Write a transcript of `messages` messages to `path`; return its size in bytes."""
    rng = random.Random(seed)
    large = set(rng.sample(range(1, messages + 1), max(1, round(messages * LARGE_SHARE))))
    pool = log_lines(rng, 3000)
    with open(path, "w", encoding="utf-8") as file:
        for n in range(1, messages + 1):
            record = message_record(rng, n, n in large, pool)
            file.write(json.dumps(record, ensure_ascii=False) + "\n")
    return path.stat().st_size


def make_essay(messages: int, pages: int = 10, references: int = 200, seed: int = 2) -> Essay:
    """An essay of `pages` pages that cite `references` messages of 1..`messages` in all.

    Most tags stand in a sentence, some in pairs; each page has one tag alone on its
    line, which the site shows as a block quote of the whole message.
    """
    if pages < 1 or references < pages:
        raise ValueError("an essay needs at least one page and one reference a page")
    rng = random.Random(seed)
    cited = [rng.randint(1, messages) for _ in range(references)]
    result, position = {}, 0
    for page in range(pages):
        count = references // pages + (1 if page < references % pages else 0)
        numbers, position = cited[position : position + count], position + count
        blocks = [f"# Section {page + 1}", sentence(rng, 30), f"[msg {numbers[0]}]"]
        rest = numbers[1:]
        while rest:
            take = 2 if len(rest) >= 2 and rng.random() < 0.25 else 1
            tags = ", ".join(f"[msg {n}]" for n in rest[:take])
            rest = rest[take:]
            blocks.append(f"{sentence(rng, 25)} {sentence(rng, 12)[:-1]} ({tags}). {sentence(rng, 18)}")
        result[f"section-{page + 1:02d}.md"] = "\n\n".join(blocks) + "\n"
    return Essay(result, cited)
