"""Every record shape each log reader documents, one small log each, where no sample
log in tests/data/transcripts/ holds it; and the report, which never prints what a
log holds in a field whose value the importer does not know.

The shapes the real samples hold are tested in test_import_transcript.py.
"""

from __future__ import annotations

import json
import tracemalloc
from pathlib import Path
from typing import Any

import pytest

import import_transcript
from test_import_transcript import import_sample
from transcript_formats import claude_code, codex, detect, gemini

# Shaped like a GitHub token: what a hostile or careless log may hold in any field.
TOKEN = "ghp_" + "abcdefghijklmnopqrstuvwxyzABCDEFGHIJ"


def write_lines(path: Path, records: list) -> Path:
    path.write_text("".join(json.dumps(record) + "\n" for record in records), encoding="utf-8")
    return path


def write_document(path: Path, head: str, elements: list, tail: str = "") -> Path:
    """A JSON document with one element a line: element i (from 0) is on line i + 2."""
    body = ",\n".join(json.dumps(element) for element in elements)
    path.write_text(f"{head}[\n{body}\n]{tail}\n", encoding="utf-8")
    return path


def imported(tmp_path: Path, source: Path, capsys, *options: str) -> tuple[list[dict], str]:
    """The records of an import and its report (the standard error)."""
    capsys.readouterr()
    records = import_sample(tmp_path, source, *options)
    return records, capsys.readouterr().err


def shape(records: list[dict]) -> list[tuple]:
    return [(r["speaker"], r.get("tool_name"), r["text"], r.get("thinking"), r.get("source_id")) for r in records]


# --- Claude Code ----------------------------------------------------------------------

def user(text, uuid="u1"):
    return {"type": "user", "uuid": uuid, "message": {"role": "user", "content": text}}


def assistant(content, uuid="a1", message_id="msg_1"):
    return {"type": "assistant", "uuid": uuid, "message": {"id": message_id, "role": "assistant", "content": content}}


@pytest.mark.parametrize("record_type", sorted(claude_code.NON_MESSAGE_TYPES))
def test_claude_code_records_that_hold_no_message_are_counted_by_name(tmp_path, capsys, record_type):
    """Each leaves an open reply open: the lines around it sharing message.id are one reply."""
    source = write_lines(tmp_path / "session.jsonl", [
        user("Go."),
        assistant([{"type": "text", "text": "One."}], "a1"),
        {"type": record_type, "uuid": "x1", "content": "not a message"},
        assistant([{"type": "text", "text": "Two."}], "a2"),
    ])
    records, report = imported(tmp_path, source, capsys)
    assert shape(records) == [("user", None, "Go.", None, "u1"), ("assistant", None, "One.\n\nTwo.", None, "a1")]
    held = f"{record_type} (other 1)" if record_type in ("attachment", "system") else record_type
    assert f"skipped 1 record that holds no conversation: 1 {held}\n" in report
    assert "lines of" not in report


def test_claude_code_assistant_content_blocks(tmp_path, capsys):
    """Text given as a string, redacted thinking (encrypted: dropped), a server tool
    call and its result (a web search the provider ran), a plain string block."""
    source = write_lines(tmp_path / "session.jsonl", [
        user("Search."),
        assistant("A reply written as one string.", "a1", "msg_1"),
        assistant([
            {"type": "redacted_thinking", "data": "ENCRYPTED-BLOB"},
            {"type": "server_tool_use", "id": "srvtoolu_1", "name": "web_search", "input": {"query": "jsonl"}},
            {"type": "web_search_tool_result", "tool_use_id": "srvtoolu_1",
             "content": [{"type": "web_search_result", "title": "JSON Lines", "url": "https://jsonlines.org"}]},
            "a plain string block",
        ], "a2", "msg_2"),
    ])
    records, report = imported(tmp_path, source, capsys)
    assert shape(records) == [
        ("user", None, "Search.", None, "u1"),
        ("assistant", None, "A reply written as one string.", None, "a1"),
        ("assistant", None, "a plain string block", None, "a2"),
        ("assistant", "web_search", "", None, "srvtoolu_1"),
        ("tool", None, '{"type": "web_search_result", "title": "JSON Lines", "url": "https://jsonlines.org"}',
         None, "srvtoolu_1"),
    ]
    assert records[3]["tool_input"] == {"query": "jsonl"}
    assert "ENCRYPTED-BLOB" not in (tmp_path / "transcript.jsonl").read_text(encoding="utf-8")
    assert "skipped" not in report


def test_claude_code_empty_turns_and_replies_are_messages(tmp_path):
    source = write_lines(tmp_path / "session.jsonl", [user([]), assistant([])])
    assert shape(import_sample(tmp_path, source)) == [
        ("user", None, "", None, "u1"),
        ("assistant", None, "", None, "a1"),
    ]


def test_claude_code_text_beside_tool_results_keeps_its_place(tmp_path):
    """A user line with text, a tool result, then more text: the text before the result,
    the result, the text after it."""
    source = write_lines(tmp_path / "session.jsonl", [
        assistant([{"type": "tool_use", "id": "toolu_1", "name": "Read", "input": {"file_path": "a.txt"}}]),
        user([{"type": "text", "text": "Before."},
              {"type": "tool_result", "tool_use_id": "toolu_1", "content": "a"},
              {"type": "text", "text": "After."}], "u2"),
    ])
    assert shape(import_sample(tmp_path, source)) == [
        ("assistant", "Read", "", None, "toolu_1"),
        ("user", None, "Before.", None, "u2"),
        ("tool", None, "a", None, "toolu_1"),
        ("user", None, "After.", None, "u2"),
    ]


def test_claude_code_lines_that_cannot_be_messages_are_skipped_by_line(tmp_path, capsys):
    source = write_lines(tmp_path / "session.jsonl", [
        user("Go."),
        {"type": "assistant", "uuid": "a0", "message": "not an object"},
        assistant(42, "a1"),
        assistant([{"type": "text", "text": "Fine."}, {"type": "future_block"}], "a2", "msg_2"),
    ])
    records, report = imported(tmp_path, source, capsys)
    assert shape(records) == [("user", None, "Go.", None, "u1"), ("assistant", None, "Fine.", None, "a2")]
    assert "1 x an assistant record whose 'message' is not an object (line 2)" in report
    assert "1 x an assistant record without message content (line 3)" in report
    assert f"1 x {claude_code.UNKNOWN_BLOCK} (line 4)" in report
    assert "future_block" not in report


def test_claude_code_export_without_loglines(tmp_path):
    """A JSON document named as a Claude Code export that holds no `loglines` list."""
    source = tmp_path / "export.json"
    source.write_text('{"messages": [{"role": "user", "content": "Hi."}]}\n', encoding="utf-8")
    with pytest.raises(import_transcript.LogError, match=r":1: a JSON object without a 'loglines' list"):
        import_transcript.import_log(str(source), str(tmp_path / "t.jsonl"), "claude-code", None)


def attachment(kind, uuid="h1", **fields):
    return {"type": "attachment", "uuid": uuid, "timestamp": "2026-01-01T00:00:05.000Z",
            "attachment": {"type": kind, **fields}}


def hook_shape(records: list[dict]) -> list[tuple]:
    return [(r["speaker"], r.get("tool_name") or r.get("hook"), r["text"], r.get("is_error"), r.get("source_id"))
            for r in records]


def test_claude_code_hook_output_written_while_a_reply_is_open_follows_it(tmp_path, capsys):
    """A hook that ran between two lines of one reply (a PreToolUse hook, as the reply's
    calls are written) leaves the reply whole: its output follows the reply and its
    calls. A hook that wrote nothing, and attachments of other kinds, hold no
    conversation; an attachment of a kind the importer does not know is "other"."""
    source = write_lines(tmp_path / "session.jsonl", [
        user("Go."),
        assistant([{"type": "text", "text": "Editing."}], "a1"),
        attachment("hook_success", "h1", hookEvent="PreToolUse", hookName="PreToolUse:Edit", content="",
                   stdout="checked\n", stderr="", exitCode=0),
        assistant([{"type": "tool_use", "id": "t1", "name": "Edit", "input": {}}], "a2"),
        attachment("hook_success", "h2", hookEvent="PostToolUse", hookName="PostToolUse:Edit", content="",
                   stdout="", stderr=""),
        attachment("hook_additional_context", "h3", hookEvent="SessionStart", content=["one", "two"]),
        attachment("hook_blocking_error", "h4", hookEvent="PreToolUse",
                   blockingError="a blocking error given as text"),
        attachment("todo_reminder", "h5", content=[]),
        attachment("some_future_attachment", "h6"),
        {"type": "system", "subtype": "turn_duration", "durationMs": 5},
        {"type": "user", "uuid": "u2", "message": {"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": "t1", "content": "done", "is_error": False}]}},
    ])
    records, report = imported(tmp_path, source, capsys)
    assert hook_shape(records) == [
        ("user", None, "Go.", None, "u1"),
        ("assistant", None, "Editing.", None, "a1"),
        ("assistant", "Edit", "", None, "t1"),
        ("tool", "PreToolUse:Edit", "checked\n", None, "h1"),
        ("tool", "SessionStart", "one\ntwo", None, "h3"),
        ("tool", "PreToolUse", "a blocking error given as text", True, "h4"),
        ("tool", None, "done", None, "t1"),  # is_error false: no field
    ]
    assert ("skipped 4 records that hold no conversation: 3 attachment (hook_success 1, other 1, todo_reminder 1), "
            "1 system (turn_duration 1)\n") in report
    assert "some_future_attachment" not in report and "lines of" not in report


def test_claude_code_only_a_true_is_error_marks_a_result(tmp_path, capsys):
    source = write_lines(tmp_path / "session.jsonl", [
        user("Go."),
        {"type": "user", "uuid": "u2", "message": {"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": f"t{i}", "content": "x", "is_error": value}
            for i, value in enumerate([True, False, None, "true", 1])]}},
    ])
    records, _ = imported(tmp_path, source, capsys)
    assert [r.get("is_error") for r in records[1:]] == [True, None, None, None, None]


def test_claude_code_token_counts_keep_whole_numbers_only(tmp_path, capsys):
    """What a usage object holds that is no count of tokens is left out, never guessed
    at; a reply left with none has no usage. The last line's counts are the reply's."""
    def reply(usage, uuid, message_id, model="claude-test"):
        record = assistant([{"type": "text", "text": uuid}], uuid, message_id)
        record["message"].update(model=model, usage=usage)
        return record

    source = write_lines(tmp_path / "session.jsonl", [
        user("Go."),
        reply({"input_tokens": 3, "output_tokens": 1}, "a1", "msg_1"),
        reply({"input_tokens": 3, "output_tokens": 9, "cache_creation": {"ephemeral_5m_input_tokens": 2},
               "service_tier": "standard", "negative": -1, "fraction": 1.5, "flag": True, "Odd Name": 4,
               "huge": 2**64}, "a2", "msg_1"),
        user("Again.", "u2"),
        reply({"service_tier": "standard", "cache_creation": {"x": 1}}, "a3", "msg_2", model=""),
        user("Once more.", "u3"),
        reply("not an object", "a4", "msg_3", model=None),
    ])
    records, _ = imported(tmp_path, source, capsys)
    replies = [(r.get("model"), r.get("usage")) for r in records if r["speaker"] == "assistant"]
    assert replies == [("claude-test", {"input_tokens": 3, "output_tokens": 9}), (None, None), (None, None)]


def test_claude_code_text_of_the_log_in_new_fields_is_redacted(tmp_path, capsys):
    """A hook's name, its output and a model's name are text from the log: redacted."""
    record = assistant([{"type": "text", "text": "Hi."}])
    record["message"]["model"] = f"model {TOKEN}"
    source = write_lines(tmp_path / "session.jsonl", [
        user("Go."),
        attachment("hook_non_blocking_error", hookName=f"Stop {TOKEN}", stderr=f"leaked {TOKEN}"),
        record,
    ])
    records, report = imported(tmp_path, source, capsys)
    hook, reply = records[1], records[2]
    assert hook["hook"] == "Stop [REDACTED: github-token]" and hook["is_error"] is True
    assert hook["text"] == "leaked [REDACTED: github-token]"
    assert reply["model"] == "model [REDACTED: github-token]"
    assert "msg 2 hook: github-token" in report and "msg 3 model: github-token" in report
    assert TOKEN not in (tmp_path / "transcript.jsonl").read_text(encoding="utf-8")


# --- Codex CLI ------------------------------------------------------------------------

def envelope(record_type, payload, second=0):
    return {"timestamp": f"2026-01-01T00:00:{second:02d}.000Z", "type": record_type, "payload": payload}


def item(payload, second=0):
    return envelope("response_item", payload, second)


def say(role, text):
    kind = "output_text" if role == "assistant" else "input_text"
    return item({"type": "message", "role": role, "content": [{"type": kind, "text": text}]})


def test_codex_records_and_items_that_hold_no_message(tmp_path, capsys):
    source = write_lines(tmp_path / "rollout.jsonl", [
        envelope("session_meta", {"id": "s1", "cwd": "/work"}),
        envelope("turn_context", {"cwd": "/work", "model": "gpt-5"}),
        item({"type": "message", "role": "developer", "content": [{"type": "input_text", "text": "Rules."}]}),
        item({"type": "message", "role": "system", "content": "More rules."}),
        say("user", "Go."),
        envelope("event_msg", {"type": "user_message", "message": "Go."}),
        envelope("event_msg", {"type": "token_count", "info": None}),
        envelope("event_msg", {"type": "some_future_event"}),
        item({"type": "ghost_snapshot", "ghost_commit": {"id": "abc"}}),
        envelope("compacted", {"message": "summary", "replacement_history": []}),
        item({"type": "compaction", "encrypted_content": "..."}),
        item({"type": "compaction_summary", "encrypted_content": "..."}),
        say("assistant", "Done."),
    ])
    records, report = imported(tmp_path, source, capsys)
    assert [(r["speaker"], r["text"]) for r in records] == [("user", "Go."), ("assistant", "Done.")]
    assert ("skipped 11 records that hold no conversation: 1 compacted, 1 compaction, 1 compaction_summary, "
            "1 developer message, 1 event_msg other, 1 event_msg token_count, 1 event_msg user_message, "
            "1 ghost_snapshot, 1 session_meta, 1 system message, 1 turn_context\n") in report
    assert "lines of" not in report and "some_future_event" not in report


@pytest.mark.parametrize("output, failed", [
    ("Chunk ID: 1\nWall time: 0.1 seconds\nProcess exited with code 1\nOutput:\nboom", True),
    ("Chunk ID: 1\nWall time: 0.1 seconds\nProcess exited with code 0\nOutput:\nfine", None),
    ("Chunk ID: 1\nProcess running with session ID 7\nOutput:\n", None),
    ("Exit code: 2\nWall time: 0.2 seconds\nOutput:\nno such file", True),
    ("Exit code: 0\nWall time: 0.2 seconds\nOutput:\n", None),
    ('{"output": "boom", "metadata": {"exit_code": 1, "duration_seconds": 0.1}}', True),
    ('{"output": "fine", "metadata": {"exit_code": 0, "duration_seconds": 0.1}}', None),
    # What a command printed is not its status.
    ("Exit code: 0\nOutput:\nExit code: 1\nProcess exited with code 3", None),
    ("The tests said: Exit code: 1", None),
    ("write_stdin failed: stdin is closed for this session", None),
    ({"content": "boom", "success": False}, True),
    ({"content": "fine", "success": True}, None),
])
def test_codex_output_that_states_a_failed_command_is_an_error(tmp_path, output, failed):
    source = write_lines(tmp_path / "rollout.jsonl", [
        say("user", "Go."),
        item({"type": "function_call", "name": "shell", "arguments": "{}", "call_id": "c1"}),
        item({"type": "function_call_output", "call_id": "c1", "output": output}),
    ])
    records = import_sample(tmp_path, source)
    assert records[2]["speaker"] == "tool" and records[2].get("is_error") is failed


def test_codex_token_counts_go_to_the_reply_they_follow(tmp_path):
    """A count that follows no reply (a repeated event, one before the first reply) and
    an event without counts give none; a reply followed by no count has none."""
    def count(input_tokens):
        usage = {"input_tokens": input_tokens, "output_tokens": 2, "detail": {"x": 1}}
        return envelope("event_msg", {"type": "token_count", "info": {
            "last_token_usage": usage, "total_token_usage": {"input_tokens": 999}}})

    source = write_lines(tmp_path / "rollout.jsonl", [
        envelope("turn_context", {"model": "gpt-test"}),
        count(1),
        say("user", "Go."),
        item({"type": "reasoning", "summary": [{"type": "summary_text", "text": "Plan."}]}),
        item({"type": "function_call", "name": "ls", "arguments": "{}", "call_id": "c1"}),
        item({"type": "function_call", "name": "ls", "arguments": "{}", "call_id": "c2"}),
        count(10),
        count(10),
        item({"type": "function_call_output", "call_id": "c1", "output": "a"}),
        envelope("event_msg", {"type": "token_count", "info": None}),
        item({"type": "reasoning", "summary": [{"type": "summary_text", "text": "Think."}]}),
        count(20),
        envelope("turn_context", {"model": "gpt-other"}),
        say("assistant", "Done."),
    ])
    records = import_sample(tmp_path, source)
    assert [(r["speaker"], r.get("thinking"), r.get("model"), r.get("usage")) for r in records] == [
        ("user", None, None, None),
        ("assistant", "Plan.", "gpt-test", {"input_tokens": 10, "output_tokens": 2}),
        ("assistant", None, "gpt-test", None),
        ("assistant", None, "gpt-test", None),
        ("tool", None, None, None),
        ("assistant", "Think.", "gpt-test", {"input_tokens": 20, "output_tokens": 2}),
        ("assistant", None, "gpt-other", None),
    ]


def test_codex_tool_calls_of_every_item_type(tmp_path):
    """local_shell_call and web_search_call are calls named after their type, with their
    `action`; an output given as {"content": [...]} is its content's text."""
    source = write_lines(tmp_path / "rollout.jsonl", [
        say("user", "Look."),
        item({"type": "local_shell_call", "call_id": "ls1", "status": "completed",
              "action": {"type": "exec", "command": ["ls"]}}),
        item({"type": "function_call_output", "call_id": "ls1",
              "output": {"content": [{"type": "input_text", "text": "a.txt"}], "success": True}}),
        item({"type": "web_search_call", "id": "ws1", "status": "completed",
              "action": {"type": "search", "query": "jsonl"}}),
        item({"type": "custom_tool_call_output", "call_id": "ws1", "output": "found"}),
    ])
    records = import_sample(tmp_path, source)
    assert shape(records) == [
        ("user", None, "Look.", None, None),
        ("assistant", "local_shell", "", None, "ls1"),
        ("tool", None, "a.txt", None, "ls1"),
        ("assistant", "web_search", "", None, "ws1"),
        ("tool", None, "found", None, "ws1"),
    ]
    assert records[1]["tool_input"] == {"type": "exec", "command": ["ls"]}
    assert records[3]["tool_input"] == {"type": "search", "query": "jsonl"}


def test_codex_reasoning_that_is_not_followed_by_a_reply(tmp_path):
    """Reasoning given as `content` (no summary) is thinking too. Reasoning followed by
    more reasoning, or ending the log, is a reply of thinking alone."""
    def reasoning(text, second):
        return item({"type": "reasoning", "id": f"rs_{second}", "summary": [],
                     "content": [{"type": "reasoning_text", "text": text}]}, second)

    source = write_lines(tmp_path / "rollout.jsonl", [
        say("user", "Think."),
        reasoning("First thought.", 1),
        reasoning("Second thought.", 2),
        say("assistant", "Answer."),
        reasoning("Afterthought.", 4),
    ])
    assert shape(import_sample(tmp_path, source)) == [
        ("user", None, "Think.", None, None),
        ("assistant", None, "", "First thought.", "rs_1"),
        ("assistant", None, "Answer.", "Second thought.", "rs_2"),
        ("assistant", None, "", "Afterthought.", "rs_4"),
    ]


def test_codex_lines_that_cannot_be_messages_are_skipped_by_line(tmp_path, capsys):
    source = write_lines(tmp_path / "rollout.jsonl", [
        say("user", "Go."),
        envelope("response_item", "not an object"),
        item({"type": "future_item", "data": 1}),
        envelope("future_record", {}),
        [1, 2],
        {"record_type": "future_state"},
    ])
    records, report = imported(tmp_path, source, capsys)
    assert len(records) == 1
    assert "1 x a response_item without a payload object (line 2)" in report
    assert f"1 x {codex.UNKNOWN_ITEM} (line 3)" in report
    assert f"1 x {codex.UNKNOWN_RECORD} (line 4)" in report
    assert "1 x not a log record (a JSON value that is not an object) (line 5)" in report
    assert "skipped 1 record that holds no conversation: 1 other record\n" in report
    assert "future" not in report


# --- OpenAI chat messages -------------------------------------------------------------

def test_openai_message_shapes(tmp_path, capsys):
    """`reasoning` as well as `reasoning_content`; a tool call without the `function`
    wrapper; the legacy `function_call` and `function` role; a role of no known kind."""
    source = write_document(tmp_path / "chat.json", '{"model": "gpt-4o", "messages": ', [
        {"role": "developer", "content": "Rules."},
        {"role": "user", "content": [{"type": "text", "text": "Go."}, {"type": "image_url", "image_url": {}}]},
        {"role": "assistant", "content": "Thinking aloud.", "reasoning": "Plan."},
        {"role": "assistant", "content": None, "tool_calls": [
            {"id": "c1", "type": "function", "name": "ls", "arguments": '{"path": "."}'}]},
        {"role": "tool", "tool_call_id": "c1", "content": "a.txt"},
        {"role": "assistant", "content": None, "function_call": {"name": "cat", "arguments": '{"file": "a.txt"}'}},
        {"role": "function", "name": "cat", "content": "hello"},
        {"role": "critic", "content": "Hm."},
        {"content": "no role"},
        "not an object",
    ], "}")
    records, report = imported(tmp_path, source, capsys)
    assert shape(records) == [
        ("user", None, "Go.\n\n[image]", None, None),
        ("assistant", None, "Thinking aloud.", "Plan.", None),
        ("assistant", "ls", "", None, "c1"),
        ("tool", None, "a.txt", None, "c1"),
        ("assistant", "cat", "", None, None),
        ("tool", None, "hello", None, None),
        ("unknown", None, "Hm.", None, None),
    ]
    assert records[2]["tool_input"] == {"path": "."} and records[4]["tool_input"] == {"file": "a.txt"}
    assert "2 x not a chat message (no 'role') (lines 10, 11)" in report
    assert "1 x an image block without its data (line 3)" in report
    assert "skipped 1 record that holds no conversation: 1 developer message\n" in report
    assert "critic" not in report


def test_openai_object_without_messages(tmp_path):
    source = tmp_path / "chat.json"
    source.write_text('{"model": "gpt-4o", "choices": []}\n', encoding="utf-8")
    with pytest.raises(import_transcript.LogError, match=r":1: a JSON object without a 'messages' list"):
        import_transcript.import_log(str(source), str(tmp_path / "t.jsonl"), "openai", None)


# --- ShareGPT -------------------------------------------------------------------------

@pytest.mark.parametrize("layout", ["conversation", "conversation in 'conversation'", "conversation in 'items'",
                                    "bare turns", "one turn"])
def test_sharegpt_layouts(tmp_path, layout):
    turns = [{"from": "human", "value": "Hi."}, {"from": "gpt", "value": "Hello."}]
    document = {"conversation": {"id": "c1", "conversations": turns},
                "conversation in 'conversation'": {"id": "c1", "conversation": turns},
                "conversation in 'items'": {"id": "c1", "items": turns},
                "bare turns": turns, "one turn": turns[0]}
    source = tmp_path / "chat.json"
    source.write_text(json.dumps(document[layout]), encoding="utf-8")
    with open(source, "rb") as file:
        assert detect(file, str(source)).format == "sharegpt"
    records = import_sample(tmp_path, source)
    in_conversation = [("user", "Hi.", "c1#0"), ("assistant", "Hello.", "c1#1")]
    expected = {"bare turns": [("user", "Hi.", None), ("assistant", "Hello.", None)],
                "one turn": [("user", "Hi.", None)]}.get(layout, in_conversation)
    assert [(r["speaker"], r["text"], r.get("source_id")) for r in records] == expected


def test_sharegpt_speakers_tool_calls_and_bad_turns(tmp_path, capsys):
    senders = ("human", "user", "gpt", "assistant", "chatgpt", "bard", "bing", "model", "observation", "tool",
               "function_response", "Human")
    turns: list[dict] = [{"from": sender, "value": sender} for sender in senders]
    turns += [
        {"from": "tool_call", "value": '["no", "name"]'},
        {"from": "function_call", "value": {"name": "f", "arguments": {"x": 1}}},
        {"from": "narrator", "value": {"not": "text"}},
        {"value": "no sender"},
    ]
    source = write_document(tmp_path / "chat.json", '{"conversations": ', turns, "}")
    records, report = imported(tmp_path, source, capsys)
    speakers = [r["speaker"] for r in records]
    assert speakers[:12] == ["user", "user"] + ["assistant"] * 6 + ["tool"] * 3 + ["user"]
    assert (records[12]["tool_name"], records[12]["tool_input"]) == ("tool_call", ["no", "name"])
    assert (records[13]["tool_name"], records[13]["tool_input"]) == ("f", {"x": 1})
    assert (records[14]["speaker"], records[14]["text"]) == ("unknown", '{"not": "text"}')
    assert "1 x a turn without 'from' (line 17)" in report
    assert "narrator" not in report


def test_sharegpt_lists_with_things_that_are_not_conversations(tmp_path, capsys):
    source = write_document(tmp_path / "chat.json", "", [
        {"conversations": [{"from": "human", "value": "Hi."}]},
        "a string",
        {"title": "neither"},
    ])
    records, report = imported(tmp_path, source, capsys)
    assert len(records) == 1
    assert "1 x neither a conversation nor a turn (line 3)" in report
    assert "1 x an object with neither 'conversations' nor 'from' (line 4)" in report


# --- Gemini CLI -----------------------------------------------------------------------

SESSION_HEAD = '{"sessionId": "s1", "projectHash": "p1", "startTime": "2025-12-01T00:00:00.000Z", "messages": '


def test_gemini_detected_by_its_messages_whatever_the_key_order(tmp_path):
    """A `messages` list is a Gemini CLI session's when the session keys come before it,
    or when its first element has a Gemini CLI `type` and no `role`; otherwise, OpenAI."""
    elements = [{"id": "m1", "timestamp": "t", "type": "user", "content": "Hi."}]
    cases = {
        "session keys first": (SESSION_HEAD, elements, "}", "gemini"),
        "session keys after": ('{"messages": ', elements, ', "sessionId": "s1", "projectHash": "p1"}', "gemini"),
        "only messages": ('{"messages": ', elements, "}", "gemini"),
        "an info notice first": ('{"messages": ', [{"type": "info", "content": "Hi."}], "}", "gemini"),
        "openai with a type": ('{"messages": ', [{"type": "message", "role": "user", "content": "Hi."}], "}",
                               "openai"),
        "openai": ('{"model": "m", "messages": ', [{"role": "user", "content": "Hi."}], "}", "openai"),
    }
    for name, (head, items, tail, expected) in cases.items():
        source = write_document(tmp_path / "log.json", head, items, tail)
        with open(source, "rb") as file:
            assert detect(file, str(source)).format == expected, name


def test_gemini_message_shapes(tmp_path, capsys):
    """Content as a list of parts (a thought part is thinking; an image is a marker); a
    call cancelled before it ran (no result: the call alone); a call that failed (its
    error); a result with a part beside the function response; a reply with nothing."""
    def call(call_id, result, status="success"):
        return {"id": call_id, "name": "run_shell_command", "args": {"command": "ls"}, "result": result,
                "status": status, "timestamp": "2025-12-01T00:00:02.000Z"}

    def response(call_id, body):
        return {"functionResponse": {"id": call_id, "name": "run_shell_command", "response": body}}

    source = write_document(tmp_path / "session.json", SESSION_HEAD, [
        {"id": "u1", "timestamp": "2025-12-01T00:00:00.000Z", "type": "user",
         "content": [{"text": "What is this?"}, {"inlineData": {"mimeType": "image/png", "data": "iVBORw0KGgo"}}]},
        {"id": "g1", "timestamp": "2025-12-01T00:00:01.000Z", "type": "gemini",
         "content": [{"text": "Weighing it.", "thought": True}, {"text": "Let me look."}],
         "thoughts": [{"subject": "Looking", "description": "At the image.", "timestamp": "t"}],
         "toolCalls": [
             call("c1", None, "cancelled"),
             call("c2", [response("c2", {"error": "Command failed: exit 1"})], "error"),
             call("c3", [response("c3", {"output": "a.txt"}), {"text": "(1 file)"}]),
         ]},
        {"id": "g2", "timestamp": "2025-12-01T00:00:03.000Z", "type": "gemini", "content": ""},
    ], "}")
    records, report = imported(tmp_path, source, capsys)
    assert shape(records) == [
        ("user", None, "What is this?\n\n[image]", None, "u1"),
        ("assistant", None, "Let me look.", "Looking\n\nAt the image.\n\nWeighing it.", "g1"),
        ("assistant", "run_shell_command", "", None, "c1"),
        ("assistant", "run_shell_command", "", None, "c2"),
        ("tool", None, "Command failed: exit 1", None, "c2"),
        ("assistant", "run_shell_command", "", None, "c3"),
        ("tool", None, "a.txt\n\n(1 file)", None, "c3"),
        ("assistant", None, "", None, "g2"),
    ]
    assert records[2]["tool_input"] == {"command": "ls"}
    assert records[2]["timestamp"] == "2025-12-01T00:00:02.000Z"
    assert "iVBORw0KGgo" not in (tmp_path / "transcript.jsonl").read_text(encoding="utf-8")
    assert "1 x not valid base64 (line 2)" in report and "iVBORw0KGgo" not in report  # cut short
    assert "skipped" not in report


def test_gemini_failed_and_cancelled_calls_model_and_token_counts(tmp_path):
    """A call whose status is error or cancelled has a result marked an error; the
    reply's model is on its calls, its token counts on its first message only."""
    def call(call_id, status):
        return {"id": call_id, "name": "run_shell_command", "args": {}, "status": status,
                "result": [{"functionResponse": {"id": call_id, "response": {"output": status}}}]}

    source = write_document(tmp_path / "session.json", SESSION_HEAD, [
        {"id": "u1", "type": "user", "content": "Go."},
        {"id": "g1", "type": "gemini", "content": "", "model": "gemini-test",
         "tokens": {"input": 5, "output": 1, "cached": 0, "total": 6, "rate": 0.5, "detail": {"x": 1}},
         "toolCalls": [call("c1", "error"), call("c2", "cancelled"), call("c3", "success")]},
        {"id": "g2", "type": "gemini", "content": "Done.", "tokens": "not an object"},
    ], "}")
    records = import_sample(tmp_path, source)
    assert [(r["speaker"], r["text"], r.get("is_error"), r.get("model"), r.get("usage")) for r in records] == [
        ("user", "Go.", None, None, None),
        ("assistant", "", None, "gemini-test", {"input": 5, "output": 1, "cached": 0, "total": 6}),
        ("tool", "error", True, None, None),
        ("assistant", "", None, "gemini-test", None),
        ("tool", "cancelled", True, None, None),
        ("assistant", "", None, "gemini-test", None),
        ("tool", "success", None, None, None),
        ("assistant", "Done.", None, None, None),
    ]


def test_gemini_elements_that_are_not_messages(tmp_path, capsys):
    """Each is skipped, named by its line; notices are passed over, counted by type."""
    source = write_document(tmp_path / "session.json", SESSION_HEAD, [
        {"id": "u1", "timestamp": "t", "type": "user", "content": "Hi."},
        42,
        {"id": "x1", "content": "no type"},
        {"id": "x2", "type": TOKEN, "content": "a type of no known kind"},
        {"id": "i1", "type": "info", "content": "Request cancelled."},
        {"id": "e1", "type": "error", "content": "API error."},
        {"id": "w1", "type": "warning", "content": "Slow."},
        {"id": "x3", "type": "gemini", "content": 5},
        {"id": "g1", "type": "gemini", "content": "Hello."},
    ], "}")
    records, report = imported(tmp_path, source, capsys, "--no-redact")
    assert [(r["speaker"], r["text"]) for r in records] == [("user", "Hi."), ("assistant", "Hello.")]
    assert "skipped 4 lines of" in report
    assert f"1 x {gemini.NOT_A_MESSAGE} (line 3)" in report
    assert f"1 x {gemini.NO_TYPE} (line 4)" in report
    assert f"1 x {gemini.UNKNOWN_TYPE} (line 5)" in report
    assert f"1 x {gemini.BAD_CONTENT} (line 9)" in report
    assert ("skipped 3 records that hold no conversation: 1 error message, 1 info message, "
            "1 warning message\n") in report
    assert TOKEN not in report


def test_gemini_session_without_messages(tmp_path):
    source = tmp_path / "session.json"
    source.write_text('{"sessionId": "s1", "projectHash": "p1"}\n', encoding="utf-8")
    with pytest.raises(import_transcript.LogError, match=r":1: a JSON object without a 'messages' list"):
        import_transcript.import_log(str(source), str(tmp_path / "t.jsonl"), "gemini", None)


# --- The report never prints a value from the log --------------------------------------

HOSTILE_LOGS: dict[str, tuple[str, Any]] = {
    # (file name, the records of a JSON Lines log or a JSON document): the token where a
    # name belongs.
    "claude-code record type": ("s.jsonl", [user("Go."), {"type": TOKEN, "uuid": "x"}]),
    "claude-code content block type": ("s.jsonl", [user("Go."), assistant([{"type": TOKEN}])]),
    "claude-code attachment type": ("s.jsonl", [user("Go."), {"type": "attachment", "attachment": {"type": TOKEN}}]),
    "claude-code system subtype": ("s.jsonl", [user("Go."), {"type": "system", "subtype": TOKEN}]),
    "codex record type": ("r.jsonl", [say("user", "Go."), envelope(TOKEN, {})]),
    "codex response item type": ("r.jsonl", [say("user", "Go."), item({"type": TOKEN})]),
    "codex event type": ("r.jsonl", [say("user", "Go."), envelope("event_msg", {"type": TOKEN})]),
    "codex message role": ("r.jsonl", [say("user", "Go."), item({"type": "message", "role": TOKEN})]),
    "codex state record": ("r.jsonl", [say("user", "Go."), {"record_type": TOKEN}]),
    "openai role": ("c.json", [{"role": "user", "content": "Go."}, {"role": TOKEN, "content": "x"}]),
    "sharegpt sender": ("c.json", {"conversations": [{"from": "human", "value": "Go."}, {"from": TOKEN}]}),
    "gemini message type": ("g.json", {"sessionId": "s", "projectHash": "p", "messages": [
        {"type": "user", "content": "Go."}, {"type": TOKEN, "content": "x"}]}),
}


@pytest.mark.parametrize("case", sorted(HOSTILE_LOGS))
@pytest.mark.parametrize("redact", [True, False])
def test_the_report_never_prints_a_value_from_the_log(tmp_path, capsys, case, redact):
    """A token put where the log should hold a name of a known kind (a record type, a
    role, a sender) is in neither the standard error nor the report, redacted or not,
    with redaction on or off."""
    name, log = HOSTILE_LOGS[case]
    source = tmp_path / name
    if name.endswith(".jsonl"):
        write_lines(source, log)
    else:
        source.write_text(json.dumps(log), encoding="utf-8")
    report = tmp_path / "report.txt"
    options = [] if redact else ["--no-redact"]
    assert import_transcript.main([str(source), "-o", str(tmp_path / "t.jsonl"), "--report", str(report),
                                   *options]) == 0
    for shown in (report.read_text(encoding="utf-8"), capsys.readouterr().err):
        assert TOKEN not in shown and "[REDACTED" not in shown
        assert "redacted no secrets" in shown


def test_gemini_memory_does_not_grow_with_the_session(tmp_path):
    """A Gemini CLI session is one JSON document, read one message at a time: peak
    memory importing one 8 times larger stays about the same."""
    body = "All work and no play makes a long session. " * 40
    peaks = []
    for pairs in (500, 4000):
        source = tmp_path / f"session-{pairs}.json"
        with open(source, "w", encoding="utf-8") as file:
            file.write('{"sessionId": "s1", "projectHash": "p1", "messages": [\n')
            for i in range(pairs):
                question = {"id": f"u{i}", "timestamp": "t", "type": "user", "content": body}
                answer = {"id": f"g{i}", "timestamp": "t", "type": "gemini", "content": body,
                          "thoughts": [{"subject": "Thinking", "description": body, "timestamp": "t"}]}
                file.write(("" if i == 0 else ",\n") + json.dumps(question) + ",\n" + json.dumps(answer))
            file.write("\n]}\n")
        tracemalloc.start()
        try:
            result = import_transcript.import_log(str(source), str(tmp_path / "t.jsonl"), "auto", None)
            result.close()
            peaks.append(tracemalloc.get_traced_memory()[1])
        finally:
            tracemalloc.stop()
        assert result.messages == 2 * pairs and result.format_name == "gemini"
    small, large = peaks
    assert large < small * 1.5 + 256 * 1024, peaks
