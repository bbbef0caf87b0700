"""The transcript importer, on the real sample logs in tests/data/transcripts/.

Every transcript written here is checked with the site's own loader. The message
counts follow the numbering rule in scripts/README.md: user turns, assistant replies
(text and thinking together) and each tool call and each tool result, in log order.
"""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
import tracemalloc
from pathlib import Path

import pytest

import import_transcript
from test_redact import more_planted_secrets, planted_secrets
from transcript.reader import load_transcript
from transcript.redact import Redactor
from transcript_formats import ReadStats, detect, json_stream, read_messages
from transcript_formats.progress import Progress

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "tests" / "data" / "transcripts"
SCRIPT = ROOT / "scripts" / "import_transcript.py"


def run_cli(*args, cwd=ROOT) -> subprocess.CompletedProcess:
    """The command as a person runs it, from the repository root."""
    return subprocess.run(
        [sys.executable, str(SCRIPT), *map(str, args)], cwd=cwd, capture_output=True, text=True, timeout=120
    )


def import_sample(tmp_path: Path, source: Path, *options: str, capsys=None) -> list[dict]:
    """Import in-process, check the result with the site's loader, return the records.

    Every line of a redacted import carries a seal that the loader finds matches the
    rules of the import (none without redaction); the records are returned without it."""
    output = tmp_path / "transcript.jsonl"
    assert import_transcript.main([str(source), "-o", str(output), *options]) == 0
    redactor = _redactor_of(options)
    transcript = load_transcript(str(output), seal_key=redactor.fingerprint if redactor else None)
    verified = {message.n for message in transcript if transcript.seal_verified(message.n)}
    assert verified == (set(transcript.numbers) if redactor else set())
    records = [json.loads(line) for line in output.read_text(encoding="utf-8").splitlines()]
    assert [record["n"] for record in records] == list(range(1, len(records) + 1))
    assert {record["provenance"] for record in records} == {"verbatim"}
    for record in records:
        assert ("redaction_seal" in record) == (redactor is not None)
        if redactor is not None:
            assert list(record)[-1] == "redaction_seal" and re.fullmatch(r"[0-9a-f]{32}", record.pop("redaction_seal"))
    return records


def _redactor_of(options) -> Redactor | None:
    """The redactor an import with these command-line options uses."""
    args = import_transcript._parser().parse_args(["log", "-o", "out", *options])
    if args.no_redact:
        return None
    return Redactor(dict(option.split("=", 1) for option in args.redact_pattern), args.allow)


# --- Each format, from the real samples ---------------------------------------------

SAMPLE_COUNTS = {
    # Line 1 is a summary (no message); 7 lines with messages. The reply on line 3 holds
    # text and a Write call: a reply message and a tool call. Line 5 holds only a Bash
    # call. Two user turns, two tool results, one final reply: 1+2+1+1+1+1+1 = 8.
    "claude-code-transcripts_sample_session.jsonl": ("claude-code", 8),
    # 33 loglines, none with a message.id: 6 user turns; 15 replies, of which 8 have
    # text (one with thinking too) and 7 only a tool call; 12 tool calls; 12 tool
    # results: 6 + 8 + 12 + 12 = 38 (test_loglines_counted_line_by_line recounts it).
    "claude-code-transcripts_sample_session.json": ("claude-code", 38),
    # 11 message lines, one message each (no reply mixes text and a tool call), and a
    # closing summary that holds none: 11.
    "claude-code-log_representative_messages.jsonl": ("claude-code", 11),
    # 19 lines: 6 unusable ones skipped (10, 11, 13-16), a summary passed over; line 9
    # is a reply with text and a MultiEdit call (2 messages); the other 11 lines give
    # one message each: 11 + 2 = 13.
    "claude-code-log_edge_cases.jsonl": ("claude-code", 13),
    # Task call; its result; a sidechain reply over two lines sharing message.id (one
    # reply message, then its Grep call); a subagent's tool result; the main reply: 6.
    "claude-code-log_sidechain_integrated.jsonl": ("claude-code", 6),
    # The user message; reasoning (a reply of thinking alone, as a function call
    # follows it); 3 tool calls and their 3 results; the final reply. The two event_msg
    # copies of the user message and the reply are not counted: 1+1+6+1 = 9.
    "codex-rollout_synthetic.jsonl": ("codex", 9),
    # A real rollout: 3 user messages (the project instructions Codex sends first, two
    # requests), 4 replies, 12 tool calls and their 12 outputs; its 5 reasoning items
    # are encrypted only, not counted: 3+4+12+12 = 31.
    "codemie-code_codex_rollout_reasoning_message.jsonl": ("codex", 31),
    # 25 lines, 6 of them file-history-snapshot (lines 1, 7, 9, 11, 14, 21: no message).
    # Lines 3-6 share one message.id: a reply of text, then its 3 Write calls (4). Lines
    # 2, 15 and 22 are user turns (3); lines 8, 10, 12, 17, 19, 24 tool results (6, the
    # last one Bash's empty result); lines 16, 18, 23 a reply of one call each (3); lines
    # 13, 20, 25 replies of text (3): 4 + 3 + 6 + 3 + 3 = 19.
    "codemie-code_claude_write_edit_bash.jsonl": ("claude-code", 19),
    # 34 lines, each a message: 7 replies are a text line and a tool_use line sharing a
    # message.id (lines 1-2, 4-5, 7-8, 12-13, 19-20, 26-27, 29-30: the reply, then its
    # call: 14); 2 replies of text alone (lines 10, 34); 5 of a call alone (lines 15, 17,
    # 22, 24, 32); 12 tool results, two of them tool_use_error (lines 14, 21); the user
    # turn on line 11, a pasted image and text: 14 + 2 + 5 + 12 + 1 = 34.
    "claude-code-log_image_edit_bash.jsonl": ("claude-code", 34),
    # 61 lines: 9 file-history-snapshot, 11 progress and 7 system lines hold no message.
    # 10 user turns (lines 3, 18, 25, 32, 38, 45, 52, 59, 60, 61); 8 replies with text or
    # thinking (lines 4-7, 14, 19-21, 26-28, 33, 39-41, 46-48, 53-55: each run one
    # message.id); 2 tool calls (Bash on line 7, Read alone on line 10); 2 tool results
    # (lines 9, 13): 10 + 8 + 2 + 2 = 22.
    "claude-code-log_thinking_progress.jsonl": ("claude-code", 22),
    # 53 lines, all user or assistant lines, one message each: the replies whose text
    # and tool calls share a message.id are split over lines one block a line (3-4,
    # 17-18, 27-28, 44-45), the calls of lines 6-8 and 12-14 are one a line, and every
    # tool result has a line of its own: 53.
    "claude-code-viewer_sidechain_todowrite_multiedit.jsonl": ("claude-code", 53),
    # 14 elements of `messages`: 3 user messages (the 1st, 3rd and 10th); 11 gemini ones.
    # Of these, the 2nd and 9th hold text and thoughts, the 14th text alone: 3 replies.
    # The 4th-8th, 12th and 13th hold thoughts, no text, and one tool call with its
    # result: 7 x 3 = 21. The 11th holds thoughts and 3 calls with their results: 1 + 6.
    # 3 + 3 + 21 + 7 = 34.
    "codemie-code_gemini_session_thoughts.json": ("gemini", 34),
    # System prompt passed over; user; 2 parallel tool calls (a reply with no text is
    # only its calls); 2 results; a reply with reasoning; user; an empty reply: 8.
    "openai_chat_tools.json": ("openai", 8),
    # Two conversations: the system turn passed over; 5 turns in the first (human, gpt,
    # function_call, observation, gpt), 2 in the second: 7.
    "sharegpt_tools.json": ("sharegpt", 7),
}


@pytest.mark.parametrize("name", sorted(SAMPLE_COUNTS))
def test_each_sample_is_detected_and_counted(tmp_path, name):
    expected_format, expected_count = SAMPLE_COUNTS[name]
    with open(SAMPLES / name, "rb") as file:
        assert detect(file, name).format == expected_format
    assert len(import_sample(tmp_path, SAMPLES / name)) == expected_count
    # Naming the format gives the same transcript.
    assert len(import_sample(tmp_path, SAMPLES / name, "--format", expected_format)) == expected_count


def test_loglines_counted_line_by_line(tmp_path):
    """The {"loglines": [...]} export: every assistant line has no message.id, so each
    is its own reply; a reply is a message when it has text or thinking, and each
    tool_use and tool_result block is a message."""
    document = json.loads((SAMPLES / "claude-code-transcripts_sample_session.json").read_text(encoding="utf-8"))
    expected = 0
    for record in document["loglines"]:
        content = record["message"]["content"]
        if isinstance(content, str):
            expected += 1
            continue
        types = [block["type"] for block in content]
        expected += types.count("tool_use") + types.count("tool_result")
        expected += record["type"] == "assistant" and ("text" in types or "thinking" in types)
    records = import_sample(tmp_path, SAMPLES / "claude-code-transcripts_sample_session.json")
    assert len(records) == expected == 38


def test_claude_code_messages_keep_speaker_source_ids_tools_and_timestamps(tmp_path):
    records = import_sample(tmp_path, SAMPLES / "claude-code-transcripts_sample_session.jsonl")
    assert [(r["speaker"], r.get("tool_name")) for r in records] == [
        ("user", None),
        ("assistant", None),
        ("assistant", "Write"),
        ("tool", None),
        ("assistant", "Bash"),
        ("tool", None),
        ("user", None),
        ("assistant", None),
    ]
    first, reply, write_call, write_result = records[:4]
    assert first == {
        "n": 1,
        "speaker": "user",
        "provenance": "verbatim",
        "text": "Create a hello world function",
        "source_id": "msg-001",
        "timestamp": "2025-12-24T10:00:00.000Z",
    }
    assert reply["text"] == "I'll create that function for you." and reply["source_id"] == "msg-002"
    assert write_call["text"] == ""
    assert write_call["source_id"] == "toolu_001"
    assert write_call["tool_input"] == {
        "file_path": "/project/hello.py",
        "content": "def hello():\n    return 'Hello, World!'\n",
    }
    # A result carries the id of the call it answers.
    assert write_result == {
        "n": 4,
        "speaker": "tool",
        "provenance": "verbatim",
        "text": "File written successfully",
        "source_id": "toolu_001",
        "timestamp": "2025-12-24T10:00:10.000Z",
    }
    assert records[4]["tool_input"]["command"] == "git add . && git commit -m 'Add hello function'"


def test_thinking_is_kept_beside_the_reply_text(tmp_path):
    records = import_sample(tmp_path, SAMPLES / "claude-code-transcripts_sample_session.json")
    assert records[1]["speaker"] == "assistant"
    assert records[1]["thinking"].startswith("The user wants a simple addition function.")
    assert records[1]["text"] == "I'll create a simple Python function for you. Let me write it now."
    assert [r for r in records if "thinking" in r] == [records[1]]


def test_sidechain_and_subagent_origin(tmp_path):
    records = import_sample(tmp_path, SAMPLES / "claude-code-log_sidechain_integrated.jsonl")
    assert [r.get("origin") for r in records] == [None, None, "sidechain", "sidechain", "subagent:e1c84ba5", None]
    assert records[0]["tool_name"] == "Task" and records[0]["source_id"] == "toolu_01JA2mLseQCAW3MdwPE4qWEk"


def test_lines_sharing_a_message_id_are_one_reply(tmp_path):
    # In the sample, lines 3 and 4 share message.id msg_017zj75dqWUNqVxCUrhqbTkf: one
    # reply message (with the first line's uuid), then the Grep call it made.
    records = import_sample(tmp_path, SAMPLES / "claude-code-log_sidechain_integrated.jsonl")
    reply, call = records[2], records[3]
    assert reply["source_id"] == "b674eedd-0d9d-49e7-8116-1f092cd750ed"
    assert reply["text"].startswith("I'll research how `data-border-color`")
    assert call["tool_name"] == "Grep" and call["source_id"] == "toolu_01BWgwmyj8gGuqFNHMPqqtN2"
    assert sum(1 for r in records if r["speaker"] == "assistant" and "tool_name" not in r) == 2


def test_thinking_and_text_split_over_lines_are_merged(tmp_path):
    def line(uuid, message_id, block):
        return {
            "type": "assistant",
            "uuid": uuid,
            "timestamp": f"2025-01-01T00:00:0{uuid[-1]}Z",
            "message": {"id": message_id, "role": "assistant", "content": [block]},
        }

    records = [
        {"type": "user", "uuid": "u1", "message": {"role": "user", "content": "Go."}},
        line("a1", "msg_A", {"type": "thinking", "thinking": "First, look around."}),
        line("a2", "msg_A", {"type": "text", "text": "Looking."}),
        {"type": "system", "uuid": "s1", "content": "A hook ran."},  # holds no message
        line("a3", "msg_A", {"type": "tool_use", "id": "toolu_1", "name": "Bash", "input": {"command": "ls"}}),
        line("a4", "msg_A", {"type": "text", "text": "And more."}),
        {"type": "user", "uuid": "u2", "message": {"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": "toolu_1", "content": [{"type": "text", "text": "a.txt"}]}]}},
        line("a5", "msg_B", {"type": "text", "text": "Done."}),
    ]
    source = tmp_path / "session.jsonl"
    source.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    out = import_sample(tmp_path, source)
    assert [(r["speaker"], r["text"], r.get("thinking"), r.get("source_id")) for r in out] == [
        ("user", "Go.", None, "u1"),
        ("assistant", "Looking.\n\nAnd more.", "First, look around.", "a1"),
        ("assistant", "", None, "toolu_1"),
        ("tool", "a.txt", None, "toolu_1"),
        ("assistant", "Done.", None, "a5"),
    ]
    assert out[1]["timestamp"] == "2025-01-01T00:00:01Z"


def _log_lines(name: str) -> list[dict]:
    """The records of a JSON Lines sample, to compare with what is imported from them."""
    return [json.loads(line) for line in (SAMPLES / name).read_text(encoding="utf-8").splitlines()]


WRITE_EDIT_BASH = "codemie-code_claude_write_edit_bash.jsonl"
IMAGE_EDIT_BASH = "claude-code-log_image_edit_bash.jsonl"
THINKING_PROGRESS = "claude-code-log_thinking_progress.jsonl"


def test_one_message_id_over_several_lines_then_their_results(tmp_path, capsys):
    """Lines 3-6 of the real session share message.id: a reply of text, then three
    Write calls, each on a line of its own; the three results come later, one a line,
    with file-history-snapshot lines between them."""
    lines = _log_lines(WRITE_EDIT_BASH)
    records = import_sample(tmp_path, SAMPLES / WRITE_EDIT_BASH)
    assert {lines[i]["message"]["id"] for i in range(2, 6)} == {"msg_bdrk_013SYvCzWGkVVXBeihWmL3gF"}
    reply, *calls = records[1:5]
    assert reply["source_id"] == lines[2]["uuid"] and reply["text"].startswith("I'll create three simple files")
    assert [c["tool_name"] for c in calls] == ["Write"] * 3
    assert [c["source_id"] for c in calls] == [lines[i]["message"]["content"][0]["id"] for i in (3, 4, 5)]
    assert [c["tool_input"]["file_path"] for c in calls] == [f"/tmp/private/hello.{x}" for x in ("py", "md", "js")]
    results = records[5:8]
    assert [r["speaker"] for r in results] == ["tool"] * 3
    assert [r["source_id"] for r in results] == [c["source_id"] for c in calls]
    assert results[0]["text"] == "File created successfully at: /tmp/private/hello.py"
    # The Edit call keeps old_string and new_string as the log has them.
    (edit,) = [r for r in records if r.get("tool_name") == "Edit"]
    assert edit["tool_input"] == lines[17]["message"]["content"][0]["input"]
    assert set(edit["tool_input"]) == {"file_path", "old_string", "new_string"}
    # Snapshot lines hold no message: the report counts them by name.
    assert "records that hold no message to count: file-history-snapshot 6" in capsys.readouterr().err


def test_a_bash_call_with_an_empty_result(tmp_path):
    """Line 24 of the real session: `rm hello.js` printed nothing; its result is a tool
    message with empty text, not a skipped line."""
    records = import_sample(tmp_path, SAMPLES / WRITE_EDIT_BASH)
    bash, result, reply = records[-3:]
    assert bash["tool_name"] == "Bash" and bash["tool_input"]["command"].startswith("rm ")
    assert result == {
        "n": 18,
        "speaker": "tool",
        "provenance": "verbatim",
        "text": "",
        "source_id": "toolu_bdrk_01Siz9pfbo7dpNst33AQai4F",
        "timestamp": "2025-12-10T19:38:27.421Z",
    }
    assert result["source_id"] == bash["source_id"]
    assert reply["text"] == "Done! I've deleted hello.js."


def test_a_pasted_image_is_written_as_a_marker_beside_the_text(tmp_path):
    """Line 11 of the real session: the person pasted a PNG (base64 in the log) and wrote
    a question. The turn is one user message: "[image]", then the text; the image's
    data is not in the transcript, but in a file beside it, which the message names
    (tests/test_import_images.py)."""
    line = _log_lines(IMAGE_EDIT_BASH)[10]
    image, text = line["message"]["content"]
    assert image["type"] == "image" and image["source"]["type"] == "base64"
    records = import_sample(tmp_path, SAMPLES / IMAGE_EDIT_BASH)
    (turn,) = [r for r in records if r["speaker"] == "user"]
    assert turn["n"] == 11 and turn["source_id"] == line["uuid"]
    assert turn["text"] == "[image]\n\n" + text["text"]
    assert image["source"]["data"][:40] not in (tmp_path / "transcript.jsonl").read_text(encoding="utf-8")
    assert [(tmp_path / "transcript-images" / name).exists() for name in turn["images"]] == [True]


def test_tool_use_errors_are_tool_results(tmp_path):
    """Lines 14 and 21: an Edit refused (`is_error`, `<tool_use_error>`): a tool result
    like any other, answering its call, with the error as its text."""
    records = import_sample(tmp_path, SAMPLES / IMAGE_EDIT_BASH)
    errors = [r for r in records if r["speaker"] == "tool" and "<tool_use_error>" in r["text"]]
    assert [r["n"] for r in errors] == [14, 21]
    for error in errors:
        call = records[error["n"] - 2]
        assert call["tool_name"] == "Edit" and call["source_id"] == error["source_id"]
        assert error["text"] == (
            "<tool_use_error>File has not been read yet. Read it first before writing to it.</tool_use_error>"
        )
    bash_results = [r for r in records if r["speaker"] == "tool" and records[r["n"] - 2].get("tool_name") == "Bash"]
    assert len(bash_results) == 6 and all(r["text"] for r in bash_results)


def test_thinking_blocks_progress_and_system_lines(tmp_path, capsys):
    """A real Claude Code 2.1 session: each reply is written as a line of "\n\n" text, a
    thinking line and a text line (and a tool_use line), sharing message.id; progress,
    system and file-history-snapshot lines between them hold no message."""
    lines = _log_lines(THINKING_PROGRESS)
    records = import_sample(tmp_path, SAMPLES / THINKING_PROGRESS)
    report = capsys.readouterr().err
    assert "records that hold no message to count: file-history-snapshot 9, progress 11, system 7" in report
    assert "skipped" not in report
    thinking = [r for r in records if "thinking" in r]
    assert len(thinking) == 6
    first = thinking[0]
    assert first["source_id"] == lines[3]["uuid"]  # the reply's first line
    assert first["thinking"] == lines[4]["message"]["content"][0]["thinking"]
    # The text parts of the reply, joined as they come: the "\n\n" line, then the text.
    assert first["text"] == "\n\n" + "\n\n" + "Let me take a look at what's here."
    assert records[first["n"]]["tool_name"] == "Bash"  # the call after the reply
    assert all(r["speaker"] == "assistant" and "tool_name" not in r for r in thinking)
    # The slash command at the end is three user turns, as the log writes it.
    assert [r["text"].split(">")[0] for r in records[-3:]] == [
        "<local-command-caveat", "<command-name", "<local-command-stdout"]


def test_codex_event_copies_are_counted_once(tmp_path):
    records = import_sample(tmp_path, SAMPLES / "codex-rollout_synthetic.jsonl")
    texts = [r["text"] for r in records]
    assert texts.count("List the synthetic files.") == 1
    assert texts.count("The synthetic files are alpha.txt and beta.txt.") == 1
    # The response_item copy is the one kept: its timestamp, not the event's.
    assert records[0]["timestamp"] == "2026-01-02T03:04:07.001Z"


def test_codex_reasoning_tools_and_call_ids(tmp_path):
    records = import_sample(tmp_path, SAMPLES / "codex-rollout_synthetic.jsonl")
    assert records[1] == {
        "n": 2,
        "speaker": "assistant",
        "provenance": "verbatim",
        "text": "",
        "timestamp": "2026-01-02T03:04:08.000Z",
        "thinking": "I will inspect the synthetic directory.",
    }
    calls = [(r["tool_name"], r["tool_input"], r["source_id"]) for r in records if "tool_name" in r]
    assert calls == [
        ("exec_command", {"cmd": "find . -maxdepth 1 -type f"}, "call-structured-001"),
        ("apply_patch", "*** Begin Patch\n*** Add File: gamma.txt\n+synthetic\n*** End Patch", "call-custom-001"),
        ("mcp__synthetic__lookup", {"query": "fixture"}, "call-mcp-001"),
    ]
    results = [(r["text"], r["source_id"]) for r in records if r["speaker"] == "tool"]
    assert results == [
        ("./alpha.txt\n./beta.txt", "call-structured-001"),
        ("Done!", "call-custom-001"),
        ('{"status":"ok"}', "call-mcp-001"),
    ]
    output = (tmp_path / "transcript.jsonl").read_text(encoding="utf-8")
    assert "SYNTHETIC_ENCRYPTED_CONTENT" not in output


def test_codex_rollouts_without_envelopes(tmp_path):
    """Earlier rollouts: a session line, then bare response items and state lines."""
    items = [
        {"id": "session-1", "timestamp": "2025-05-01T10:00:00.000Z", "instructions": None},
        {"record_type": "state"},
        {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "Count the files."}]},
        {"type": "reasoning", "id": "rs_1", "summary": [{"type": "summary_text", "text": "Use wc."}]},
        {"type": "function_call", "id": "fc_1", "name": "shell", "arguments": '{"command": ["ls"]}', "call_id": "c1"},
        {"type": "function_call_output", "call_id": "c1", "output": "a\nb\nc"},
        {"type": "message", "id": "msg_1", "role": "assistant", "content": [{"type": "output_text", "text": "3."}]},
    ]
    source = tmp_path / "rollout.jsonl"
    source.write_text("".join(json.dumps(item) + "\n" for item in items), encoding="utf-8")
    records = import_sample(tmp_path, source)
    assert [(r["speaker"], r["text"], r.get("thinking"), r.get("source_id")) for r in records] == [
        ("user", "Count the files.", None, None),
        ("assistant", "", "Use wc.", "rs_1"),
        ("assistant", "", None, "c1"),
        ("tool", "a\nb\nc", None, "c1"),
        ("assistant", "3.", None, "msg_1"),
    ]


REAL_ROLLOUT = SAMPLES / "codemie-code_codex_rollout_reasoning_message.jsonl"


def test_codex_real_rollout_reasoning_and_replies(tmp_path, capsys):
    """A reasoning model's rollout: each `reasoning` item holds only encrypted content
    (an empty summary), so it is not counted, and the reply after it has no thinking."""
    records = import_sample(tmp_path, REAL_ROLLOUT)
    assert "reasoning with no readable text 5" in capsys.readouterr().err
    shape = [r.get("tool_name") or r["speaker"] for r in records]
    assert shape == [
        "user", "user", "exec_command", "tool", "write_stdin", "tool", "assistant",
        "user", "assistant", "exec_command", "tool", "write_stdin", "tool",
        "write_stdin", "tool", "write_stdin", "tool", "assistant",
        "exec_command", "exec_command", "exec_command", "tool", "tool", "tool",
        "write_stdin", "write_stdin", "write_stdin", "tool", "tool", "tool", "assistant",
    ]
    # The project instructions Codex sends with the first turn are a user message.
    assert records[0]["text"].startswith("# AGENTS.md instructions for ~/repos/codemie-ai/")
    assert records[1]["text"] == "show tools"
    replies = [r for r in records if r["speaker"] == "assistant" and "tool_name" not in r]
    assert [r["n"] for r in replies] == [7, 9, 18, 31]
    assert replies[1] == {
        "n": 9,
        "speaker": "assistant",
        "provenance": "verbatim",
        "text": "Using `superpowers:brainstorming` briefly because this changes runtime behavior/configuration. "
                "I’ll first locate the existing env var/default, then make the smallest scoped update and verify it.",
        "timestamp": "2026-05-11T08:33:03.218Z",
    }
    assert replies[3]["text"].startswith("I found compact-related hook code under `src/agents/plugins/")
    assert not any("thinking" in r for r in records)
    assert "encrypted_content" not in (tmp_path / "transcript.jsonl").read_text(encoding="utf-8")
    # Each call, then its output, with the same call_id; arguments stored as JSON text are parsed.
    calls = [r for r in records if "tool_name" in r]
    outputs = [r for r in records if r["speaker"] == "tool"]
    assert [c["source_id"] for c in calls] == [o["source_id"] for o in outputs]
    assert calls[0]["source_id"] == "call_Y2p6KmqwoTtpi6atpDPuxC5M" and calls[0]["text"] == ""
    assert calls[0]["tool_input"]["cmd"].startswith("sed -n '1,180p' ~/.codex/")
    assert calls[4]["tool_input"] == {"session_id": 20936, "chars": "\u0003", "yield_time_ms": 1000,
                                      "max_output_tokens": 4000}
    assert outputs[4]["text"] == ("write_stdin failed: stdin is closed for this session; "
                                  "rerun exec_command with tty=true to keep stdin open")


def test_codex_reasoning_with_a_summary_joins_the_reply_after_it(tmp_path):
    """The real rollout with a readable summary in each `reasoning` item: reasoning
    directly followed by the assistant's message (an event_msg copy between them does
    not count) is one reply, with the reasoning's timestamp; reasoning followed by a
    tool call is a reply of thinking alone."""
    lines = REAL_ROLLOUT.read_text(encoding="utf-8").splitlines()
    for index, line in enumerate(lines):
        record = json.loads(line)
        if record["type"] == "response_item" and record["payload"]["type"] == "reasoning":
            record["payload"]["summary"] = [{"type": "summary_text", "text": f"Reasoning of line {index + 1}."}]
            lines[index] = json.dumps(record, ensure_ascii=False)
    source = tmp_path / "rollout.jsonl"
    source.write_text("\n".join(lines) + "\n", encoding="utf-8")
    records = import_sample(tmp_path, source)
    assert len(records) == 33
    thinking = [(r["n"], r["text"][:20], r["thinking"], r["timestamp"]) for r in records if "thinking" in r]
    assert thinking == [
        (3, "", "Reasoning of line 8.", "2026-05-11T08:27:21.556Z"),
        (10, "Using `superpowers:b", "Reasoning of line 24.", "2026-05-11T08:33:02.473Z"),
        (15, "", "Reasoning of line 34.", "2026-05-11T08:33:16.923Z"),
        (20, "The graph MCP tools ", "Reasoning of line 41.", "2026-05-11T08:33:24.474Z"),
        (33, "I found compact-rela", "Reasoning of line 61.", "2026-05-11T08:33:41.291Z"),
    ]
    assert all("tool_name" not in r for r in records if "thinking" in r)
    assert records[3]["tool_name"] == "exec_command" and records[15]["tool_name"] == "write_stdin"
    assert records[7]["text"].startswith("Available tool groups") and "thinking" not in records[7]


GEMINI = SAMPLES / "codemie-code_gemini_session_thoughts.json"


def _gemini_messages() -> list[dict]:
    return json.loads(GEMINI.read_text(encoding="utf-8"))["messages"]


def test_gemini_thoughts_are_the_thinking_of_the_reply(tmp_path):
    """Each thought is its subject, then its description; a reply's thoughts, joined by
    blank lines, are its thinking, beside its text."""
    messages = _gemini_messages()
    records = import_sample(tmp_path, GEMINI, "--keep-home")  # compared with the log's paths as they are
    greeting = messages[1]
    assert greeting["type"] == "gemini" and len(greeting["thoughts"]) == 2
    assert records[1] == {
        "n": 2,
        "speaker": "assistant",
        "provenance": "verbatim",
        "text": greeting["content"],
        "source_id": greeting["id"],
        "timestamp": greeting["timestamp"],
        "thinking": "\n\n".join(f"{t['subject']}\n\n{t['description']}" for t in greeting["thoughts"]),
    }
    assert records[1]["thinking"].startswith("Assessing the Prompt's Intent\n\n")
    # Thoughts and a tool call, no text: a reply of thinking alone, then the call.
    assert records[3]["text"] == "" and records[3]["thinking"].startswith("Considering Directory Structure\n\n")
    assert records[4]["tool_name"] == "list_directory"
    # Ten gemini messages hold thoughts; the last one, none.
    assert sum("thinking" in r for r in records) == 10
    assert messages[-1]["thoughts"] == [] and "thinking" not in records[-1]
    assert [r["speaker"] for r in records if r["speaker"] == "user"] == ["user"] * 3


def test_gemini_each_tool_call_then_its_result(tmp_path):
    """Each toolCall is a call message (its name and args), then its result: the
    functionResponse's output, with the call's id and timestamp."""
    calls = [call for message in _gemini_messages() for call in message.get("toolCalls", [])]
    records = import_sample(tmp_path, GEMINI, "--keep-home")
    imported = [(record, records[record["n"]]) for record in records if "tool_name" in record]
    assert len(imported) == len(calls) == 10
    for (call_record, result_record), call in zip(imported, calls, strict=True):
        assert (call_record["tool_name"], call_record["tool_input"]) == (call["name"], call["args"])
        assert call_record["text"] == ""
        assert call_record["source_id"] == result_record["source_id"] == call["id"]
        assert call_record["timestamp"] == result_record["timestamp"] == call["timestamp"]
        assert result_record["speaker"] == "tool"
        assert result_record["text"] == call["result"][0]["functionResponse"]["response"]["output"]
    # Three calls of one gemini message follow its reply, each with its result.
    assert [r.get("tool_name") or r["speaker"] for r in records[20:27]] == [
        "assistant", "read_file", "tool", "write_file", "tool", "read_file", "tool"]
    assert records[24]["text"].startswith("Successfully created and wrote to new file:")


def test_openai_tool_calls_results_and_reasoning(tmp_path):
    records = import_sample(tmp_path, SAMPLES / "openai_chat_tools.json")
    assert [(r["speaker"], r.get("tool_name"), r.get("source_id")) for r in records] == [
        ("user", None, None),
        ("assistant", "run_shell", "call_list_01"),
        ("assistant", "run_shell", "call_count_02"),
        ("tool", None, "call_list_01"),
        ("tool", None, "call_count_02"),
        ("assistant", None, None),
        ("user", None, None),
        ("assistant", None, None),
    ]
    assert records[1]["tool_input"] == {"command": "ls *.py"}
    assert records[5]["thinking"] == "Both commands succeeded; app.py is the larger file."
    assert records[6]["text"] == "Thanks."
    assert records[7]["text"] == ""  # an empty reply is a message


def test_sharegpt_turns_and_source_ids(tmp_path):
    records = import_sample(tmp_path, SAMPLES / "sharegpt_tools.json")
    assert [(r["speaker"], r["source_id"]) for r in records] == [
        ("user", "conv-1#1"),
        ("assistant", "conv-1#2"),
        ("assistant", "conv-1#3"),
        ("tool", "conv-1#4"),
        ("assistant", "conv-1#5"),
        ("user", "conv-2#0"),
        ("assistant", "conv-2#1"),
    ]
    assert records[2]["tool_name"] == "get_weather" and records[2]["tool_input"] == {"city": "Oslo"}


def test_skipped_lines_are_counted_with_their_reasons(tmp_path):
    result = run_cli(SAMPLES / "claude-code-log_edge_cases.jsonl", "-o", tmp_path / "t.jsonl")
    assert result.returncode == 0, result.stderr
    assert "imported 13 messages" in result.stderr
    assert "skipped 6 lines of" in result.stderr
    assert "3 x not a log record (a JSON value that is not an object) (lines 13, 15, 16)" in result.stderr
    assert "1 x not a log record (no 'type') (line 14)" in result.stderr
    assert "1 x a user record without message content (line 10)" in result.stderr
    assert "1 x a user record whose 'message' is not an object (line 11)" in result.stderr
    result = run_cli(SAMPLES / "codex-rollout_synthetic.jsonl", "-o", tmp_path / "t.jsonl")
    # The unknown type is not quoted: a log may hold anything there, a secret too.
    assert "1 x a record of unknown type (its 'type' is not one this importer knows) (line 14)" in result.stderr
    assert "future_synthetic_record" not in result.stderr


def test_a_log_that_opens_with_unknown_record_types_is_still_detected(tmp_path):
    lines = _claude_lines()
    source = tmp_path / "session.jsonl"
    source.write_bytes(b'{"type": "future-record", "note": 1}\n' * 3 + b"".join(lines))
    records = import_sample(tmp_path, source)
    assert len(records) == 8


def test_reading_in_tiny_pieces_gives_the_same_messages(tmp_path, monkeypatch):
    """JSON documents are read piece by piece; pieces of a few bytes split every
    string, escape, number and multi-byte character somewhere, and must not change
    what is read."""
    escapes = tmp_path / "escapes.json"
    escapes.write_text(json.dumps([
        {"role": "user", "content": 'café 中文 🎉 "quoted" back\\slash [not] {a: list}', "id": "m1"},
        {"role": "assistant", "content": None, "tool_calls": [
            {"id": "c1", "function": {"name": "f", "arguments": {"n": -1.5e3, "ok": True, "none": None}}}]},
    ], ensure_ascii=False, indent=2), encoding="utf-8")
    paths = [SAMPLES / name for name in
             ("claude-code-transcripts_sample_session.json", "openai_chat_tools.json", "sharegpt_tools.json",
              "codemie-code_gemini_session_thoughts.json")]
    for path in [*paths, escapes]:
        expected = _read_all(path)
        monkeypatch.setattr(json_stream, "CHUNK_SIZE", 3)
        assert _read_all(path) == expected, path.name
        monkeypatch.undo()
    assert _read_all(escapes)[0]["text"] == 'café 中文 🎉 "quoted" back\\slash [not] {a: list}'
    assert _read_all(escapes)[1]["tool_input"] == {"n": -1500.0, "ok": True, "none": None}


def test_an_element_that_never_ends_stops_the_import(tmp_path, monkeypatch):
    monkeypatch.setattr(json_stream, "MAX_ELEMENT_CHARS", 1000)
    source = tmp_path / "chat.json"
    source.write_text('[\n{"role": "user", "content": "hi"},\n{"role": "user", "content": "open quote}\n'
                      + '{"role": "user", "content": "more"},\n' * 100 + "]\n", encoding="utf-8")
    with pytest.raises(import_transcript.LogError) as error:
        import_transcript.import_log(str(source), str(tmp_path / "t.jsonl"), "auto", None)
    # The line where the element starts, and why it was refused (the wording is
    # json_stream's: an element too long, or a quote or bracket never closed).
    message = str(error.value)
    assert message.startswith(f"{source}:3: ") and re.search(r"never (ends|closed)", message), message
    assert "open quote" not in message
    assert not (tmp_path / "t.jsonl").exists()


def _read_all(path: Path) -> list:
    with open(path, "rb") as file:
        shape = detect(file, str(path))
        assert shape.format is not None, f"{path}: no known format"
        return [vars(m) for m in read_messages(file, str(path), shape.format, shape, ReadStats())]


# --- Bad input -----------------------------------------------------------------------

def _claude_lines() -> list[bytes]:
    return (SAMPLES / "claude-code-transcripts_sample_session.jsonl").read_bytes().splitlines(keepends=True)


def _bad_inputs():
    lines = _claude_lines()
    openai = (SAMPLES / "openai_chat_tools.json").read_bytes()
    return {
        "unknown format": (b'{"kind": "note", "body": "hello"}\n', ":1: unknown log format"),
        "truncated last line": (b"".join(lines[:-1]) + lines[-1][:40], ":8: the last line is cut off (truncated)"),
        "invalid UTF-8": (b"".join(lines[:2]) + lines[2].replace(b"I'll", b"I\xffll") + b"".join(lines[3:]),
                          ":3: not valid UTF-8"),
        "a line that is not JSON": (b"".join(lines[:3]) + b"this is not JSON\n" + b"".join(lines[3:]),
                                    ":4: not valid JSON"),
        "truncated JSON document": (openai[: openai.index(b'"call_count_02"')], ":9: the file ends before"),
        "invalid UTF-8 in a JSON document": (openai.replace(b"Thanks.", b"Thanks\xc3."), ":19: not valid UTF-8"),
        "not JSON in a JSON document": (openai.replace(b'"role": "tool"', b"'role': 'tool'", 1),
                                        ":12: not valid JSON"),
        "empty file": (b"", ": the file is empty"),
    }


@pytest.mark.parametrize("case", sorted(_bad_inputs()))
def test_bad_input_names_file_and_line_and_leaves_no_output(tmp_path, case):
    content, expected = _bad_inputs()[case]
    source = tmp_path / "session.jsonl"
    source.write_bytes(content)
    output = tmp_path / "out" / "transcript.jsonl"
    output.parent.mkdir()
    result = run_cli(source, "-o", output)
    assert result.returncode == 1
    assert result.stderr.startswith(f"{source}{expected}"), result.stderr
    assert "Traceback" not in result.stderr
    assert list(output.parent.iterdir()) == []


def test_a_failed_import_leaves_the_previous_transcript_untouched(tmp_path):
    source = tmp_path / "session.jsonl"
    lines = _claude_lines()
    source.write_bytes(b"".join(lines[:5]) + b"{not json\n" + b"".join(lines[5:]))
    output = tmp_path / "transcript.jsonl"
    output.write_text("the previous transcript\n", encoding="utf-8")
    result = run_cli(source, "-o", output)
    assert result.returncode == 1
    assert result.stderr == (
        f"{source}:6: not valid JSON: Expecting property name enclosed in double quotes (column 2)\n"
    )
    assert output.read_text(encoding="utf-8") == "the previous transcript\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["session.jsonl", "transcript.jsonl"]


def test_a_missing_file_or_folder(tmp_path):
    result = run_cli(tmp_path / "nowhere.jsonl", "-o", tmp_path / "t.jsonl")
    assert (result.returncode, result.stderr) == (1, f"{tmp_path / 'nowhere.jsonl'}: file not found\n")
    result = run_cli(tmp_path, "-o", tmp_path / "t.jsonl")
    assert (result.returncode, result.stderr) == (1, f"{tmp_path}: is a folder, not a log file\n")
    result = run_cli(SAMPLES / "openai_chat_tools.json", "-o", tmp_path / "no" / "t.jsonl")
    assert result.returncode == 1 and "the folder does not exist" in result.stderr
    assert not (tmp_path / "t.jsonl").exists()


def test_a_log_with_no_message_in_the_named_format(tmp_path):
    result = run_cli(SAMPLES / "claude-code-transcripts_sample_session.jsonl", "--format", "codex",
                     "-o", tmp_path / "t.jsonl")
    assert result.returncode == 1
    assert "no messages found in this Codex CLI rollout log" in result.stderr
    assert not (tmp_path / "t.jsonl").exists()


@pytest.mark.parametrize(
    "args",
    [
        ["--format", "yaml"],
        ["--redact-pattern", "no-equals-sign"],
        ["--redact-pattern", "Bad Kind=x"],
        ["--redact-pattern", "kind=("],
        ["--report", "/nonexistent-folder/report.txt"],
    ],
)
def test_wrong_usage_exits_with_2(tmp_path, args):
    result = run_cli(SAMPLES / "openai_chat_tools.json", "-o", tmp_path / "t.jsonl", *args)
    assert result.returncode == 2
    assert "usage:" in result.stderr and "Traceback" not in result.stderr
    assert not (tmp_path / "t.jsonl").exists()


def test_help_and_a_missing_output_option():
    assert run_cli("--help").returncode == 0
    assert run_cli(SAMPLES / "openai_chat_tools.json").returncode == 2


# --- Redaction at import -------------------------------------------------------------

def _log_with_planted_secrets(path: Path) -> dict[str, str]:
    """A Claude Code log with one secret of each kind, spread over text, thinking,
    tool input and tool results. Returns kind -> secret."""
    planted = {**planted_secrets(), **more_planted_secrets()}
    kinds = sorted(planted)
    records = []
    for index, kind in enumerate(kinds):
        line, _ = planted[kind]
        place = index % 4
        if place == 0:
            records.append({"type": "user", "uuid": f"u{index}", "message": {"role": "user", "content": line}})
        elif place == 1:
            records.append({"type": "assistant", "uuid": f"a{index}", "message": {"id": f"m{index}", "content": [
                {"type": "thinking", "thinking": f"I should not repeat {line}\n"},
                {"type": "text", "text": "Noted."}]}})
        elif place == 2:
            records.append({"type": "assistant", "uuid": f"a{index}", "message": {"id": f"m{index}", "content": [
                {"type": "tool_use", "id": f"toolu_{index}", "name": "Bash",
                 "input": {"command": line, "env": [{"value": line}]}}]}})
        else:
            text = [{"type": "text", "text": line}]
            result = {"type": "tool_result", "tool_use_id": f"toolu_{index - 1}", "content": text}
            records.append({"type": "user", "uuid": f"u{index}", "message": {"content": [result]}})
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return {kind: planted[kind][1] for kind in kinds}


def test_a_token_split_between_thinking_and_text_is_redacted_in_both(tmp_path):
    token = "ghp_" + "d" * 36
    source = tmp_path / "session.jsonl"
    reply = {"type": "assistant", "uuid": "a1", "message": {"id": "m1", "content": [
        {"type": "thinking", "thinking": "The token is " + token[:12]},
        {"type": "text", "text": token[12:] + " as printed."}]}}
    source.write_text(json.dumps(reply) + "\n", encoding="utf-8")
    output, report = tmp_path / "transcript.jsonl", tmp_path / "report.txt"
    result = run_cli(source, "-o", output, "--report", report)
    assert result.returncode == 0, result.stderr
    [record] = [json.loads(line) for line in output.read_text(encoding="utf-8").splitlines()]
    assert record["thinking"] == "The token is [REDACTED: github-token]"
    assert record["text"] == "[REDACTED: github-token] as printed."
    assert report.read_text(encoding="utf-8").splitlines()[-2:] == [
        "  msg 1 text: github-token", "  msg 1 thinking: github-token"]


def test_every_planted_secret_is_redacted_and_reported_without_the_secret(tmp_path):
    source = tmp_path / "session.jsonl"
    secrets = _log_with_planted_secrets(source)
    output, report = tmp_path / "transcript.jsonl", tmp_path / "report.txt"
    result = run_cli(source, "-o", output, "--report", report)
    assert result.returncode == 0, result.stderr
    load_transcript(str(output))
    written = output.read_text(encoding="utf-8")
    report_text = report.read_text(encoding="utf-8")
    for kind, secret in secrets.items():
        # json.dumps may escape a secret (a private key's line breaks): look for both forms.
        for form in (secret, json.dumps(secret)[1:-1]):
            assert form not in written, kind
            assert form not in report_text, kind
            assert form not in result.stderr, kind
        assert f"[REDACTED: {kind}]" in written
    # Where each was found: message number, field, kinds, as the transcript shows it.
    expected_lines = []
    for record in map(json.loads, written.splitlines()):
        for field in ("text", "thinking", "tool_input"):
            markers = re.findall(r"\[REDACTED: ([a-z0-9-]+)\]", json.dumps(record.get(field, "")))
            if markers:
                expected_lines.append(f"  msg {record['n']} {field}: {', '.join(markers)}")
    assert report_text.splitlines()[-len(expected_lines):] == expected_lines
    assert len(expected_lines) == len(secrets)
    twice = sum(1 for line in expected_lines if " tool_input: " in line)  # in the command and the env
    assert f"redacted {len(secrets) + twice} secrets" in report_text
    assert f"report written to {report}" in result.stderr


def test_no_redact_keeps_the_log_as_it_is(tmp_path):
    source = tmp_path / "session.jsonl"
    secrets = _log_with_planted_secrets(source)
    records = import_sample(tmp_path, source, "--no-redact")
    written = json.dumps(records)
    assert all(json.dumps(secret)[1:-1] in written for secret in secrets.values())
    assert "REDACTED" not in written


def test_allow_list_and_extra_pattern_at_import(tmp_path, capsys):
    aws_example = "AKIA" + "EXAMPLE" + "K" * 9
    order = "ORDER-" + "4" * 6
    source = tmp_path / "chat.json"
    source.write_text(json.dumps([
        {"role": "user", "content": f"The docs use {aws_example}; see {order}."},
        {"role": "assistant", "content": "Noted, with key " + "AKIA" + "R" * 16},
    ]), encoding="utf-8")
    records = import_sample(
        tmp_path, source, "--allow", aws_example, "--redact-pattern", r"order-id=ORDER-[0-9]{6}"
    )
    assert records[0]["text"] == f"The docs use {aws_example}; see [REDACTED: order-id]."
    assert records[1]["text"] == "Noted, with key [REDACTED: aws-access-key]"
    stderr = capsys.readouterr().err
    assert "msg 1 text: order-id" in stderr and "msg 2 text: aws-access-key" in stderr
    assert order not in stderr


# --- Streaming and the terminal ------------------------------------------------------

def _write_large_claude_log(path: Path, replies: int) -> None:
    body = "All work and no play makes a long log. " * 40
    with open(path, "w", encoding="utf-8") as file:
        for i in range(replies):
            user = {"type": "user", "uuid": f"u{i}", "message": {"role": "user", "content": body}}
            reply = {"id": f"m{i}", "role": "assistant", "content": [{"type": "text", "text": body}]}
            file.write(json.dumps(user) + "\n")
            file.write(json.dumps({"type": "assistant", "uuid": f"a{i}", "message": reply}) + "\n")


@pytest.mark.parametrize("document", [False, True])
def test_memory_does_not_grow_with_the_log(tmp_path, document):
    """Peak memory importing a log 8 times larger stays about the same."""
    peaks = []
    for replies in (500, 4000):
        source = tmp_path / f"log-{replies}.jsonl"
        _write_large_claude_log(source, replies)
        if document:
            lines = source.read_text(encoding="utf-8").splitlines()
            source = tmp_path / f"log-{replies}.json"
            source.write_text('{"loglines": [\n' + ",\n".join(lines) + "\n]}\n", encoding="utf-8")
        tracemalloc.start()
        try:
            with open(source, "rb") as file:
                shape = detect(file, str(source))
                result = import_transcript.import_log(str(source), str(tmp_path / "t.jsonl"), "auto", None)
                result.close()
            peaks.append(tracemalloc.get_traced_memory()[1])
        finally:
            tracemalloc.stop()
        assert shape.document is document
        assert source.stat().st_size > replies * 3000
    small, large = peaks
    assert large < small * 1.5 + 256 * 1024, peaks


class _Terminal(io.StringIO):
    def isatty(self):
        return True


def test_progress_bar_only_on_a_terminal_for_large_logs():
    terminal = _Terminal()
    progress = Progress(10_000_000, "importing log.jsonl", stream=terminal)
    assert progress.due()
    progress.show(5_000_000, 1200)
    progress.close(10_000_000, 2400)
    shown = terminal.getvalue()
    assert "\rimporting log.jsonl [###############---------------]  50% 5.0/10.0 MB, 1200 messages" in shown
    assert shown.endswith("100% 10.0/10.0 MB, 2400 messages\n")
    assert not Progress(1_000_000, "small", stream=_Terminal()).enabled
    assert not Progress(10_000_000, "piped", stream=io.StringIO()).enabled


def test_the_command_runs_from_another_folder(tmp_path):
    result = run_cli(SAMPLES / "codex-rollout_synthetic.jsonl", "-o", tmp_path / "t.jsonl", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert os.path.getsize(tmp_path / "t.jsonl") > 0


def test_half_a_character_in_the_log_is_written_as_a_replacement_character(tmp_path):
    log = tmp_path / "cut.jsonl"
    log.write_text('{"type": "user", "uuid": "u1", "message": {"role": "user", "content": "half \\ud83d emoji"}}\n')
    (record,) = import_sample(tmp_path, log)
    assert record["text"] == "half \ufffd emoji"
