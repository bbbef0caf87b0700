"""The redaction seal: written by the importer, checked when a line is read,
and trusted by the build's redaction for its own rules only. Real files throughout."""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

import pytest

import import_transcript
from conftest import build, entry_of, message_in, soup
from sitebuild.between_builds import LastTranscript
from transcript.reader import IndexedTranscript, TranscriptError, load_transcript
from transcript.redact import RedactedTranscript, Redactor
from transcript.schema import message_from_record, record_of
from transcript.seal import seal_of, sealed
from transcript.secret_patterns import BUILTIN_PATTERNS, compile_flags, compiled

KEY = "sk-ant-" + "api03-" + "q" * 40  # a secret the build redacts as an anthropic key
TAIL = re.compile(rb',"redaction_seal":"([0-9a-f]{32})"\}\r?\n?\Z')


def record(n: int, text: str) -> dict:
    return {"n": n, "speaker": "tool", "provenance": "verbatim", "text": text}


def sealed_line(rec: dict, rules: Redactor | None = None) -> str:
    """The line the importer writes for `rec`, sealed under `rules` (the defaults if None)."""
    return sealed((rules or Redactor()).fingerprint, json.dumps(rec, ensure_ascii=False)) + "\n"


def write(path: Path, lines) -> str:
    path.write_bytes("".join(lines).encode("utf-8"))
    return str(path)


def verified(transcript: IndexedTranscript) -> set[int]:
    """The messages whose line carries a seal made with the transcript's key, each read."""
    return {message.n for message in transcript if transcript.seal_verified(message.n)}


def shown(path: str, redactor: Redactor, reports: list | None = None) -> RedactedTranscript:
    """The transcript at `path` as the build shows it: loaded with the redactor's fingerprint."""
    loaded = load_transcript(path, "t.jsonl", seal_key=redactor.fingerprint)
    return RedactedTranscript(loaded, redactor, lambda n, kinds: reports.append(n) if reports is not None else None)


# --- The fingerprint -------------------------------------------------------------------

def test_the_fingerprint_is_the_same_for_the_same_rules_and_changes_with_any_rule():
    base = Redactor({"order-id": r"ORDER-\d+"}, ["b", "a"])
    assert base.fingerprint == Redactor({"order-id": r"ORDER-\d+"}, ["a", "b"]).fingerprint
    assert isinstance(base.fingerprint, bytes) and len(base.fingerprint) == 32
    others = [
        Redactor(),
        Redactor({"order-id": r"ORDER-\d+"}, ["a"]),
        Redactor({"order-id": r"ORDER-\d+"}, ["a", "b", "c"]),
        Redactor({"order-ref": r"ORDER-\d+"}, ["a", "b"]),
        Redactor({"order-id": r"ORDER-\d*"}, ["a", "b"]),
        Redactor({"order-id": r"ORDER-(?P<secret>\d+)"}, ["a", "b"]),  # another group
        Redactor({"order-id": r"ORDER-\d+", "x": "y"}, ["a", "b"]),
    ]
    assert len({base.fingerprint, *(other.fingerprint for other in others)}) == len(others) + 1


def test_the_fingerprint_is_derived_from_the_code_of_the_rules(monkeypatch, tmp_path):
    """A change to any file of the redaction's code, or to the second opinion's rules,
    changes the fingerprint: no version number has to be raised by hand."""
    from transcript import disguise, redact, second_opinion, secret_names, secret_patterns

    modules = (redact, secret_names, secret_patterns, disguise, second_opinion)
    assert set(redact.RULES_CODE) == {*(Path(module.__file__ or "") for module in modules), second_opinion.CONFIG}
    before = Redactor().fingerprint
    for n, path in enumerate(redact.RULES_CODE):
        changed = tmp_path / f"{n}-{path.name}"
        changed.write_bytes(path.read_bytes() + b"\n# one more line\n")
        monkeypatch.setattr(redact, "RULES_CODE", tuple(changed if p == path else p for p in redact.RULES_CODE))
        assert Redactor().fingerprint != before, path
        monkeypatch.undo()
    monkeypatch.setattr(second_opinion, "IDENTITY", "betterleaks 0.0.1")
    assert Redactor().fingerprint != before


@pytest.mark.parametrize("source", [
    *(pattern.source for pattern in BUILTIN_PATTERNS),
    *(pattern.hint_source for pattern in BUILTIN_PATTERNS if pattern.hint_source),
    r"(?i)ORDER-\d+", "(?a)x", "(?ai)x", "(?x) a b ", "(?i)(?s).", "(?u)x", "a(?i:b)", "(?m)^x$",
])
def test_the_fingerprint_reads_each_pattern_s_flags_as_compiling_it_would(source):
    assert compile_flags(source) == re.compile(source).flags


def test_sealed_messages_are_read_and_shown_without_compiling_a_pattern(tmp_path):
    compiled.cache_clear()
    redactor = Redactor({"order-id": r"ORDER-\d+"})  # checked as it is given: compiled
    transcript = shown(write(tmp_path / "t.jsonl", [sealed_line(record(1, "ORDER-12"), redactor)]), redactor)
    message = transcript.get(1)
    assert message is not None and message.text == "ORDER-12"  # sealed: taken as the importer redacted it
    assert compiled.cache_info().currsize == 1
    assert Redactor().redact_text(f"key {KEY}") == ("key [REDACTED: anthropic-key]", ["anthropic-key"])
    assert compiled.cache_info().currsize > 1  # compiled when first tried


# --- The importer writes seals --------------------------------------------------------

def _log(path: Path) -> None:
    records = [
        {"type": "user", "uuid": "u1", "message": {"role": "user", "content": f"export ANTHROPIC_API_KEY={KEY}"}},
        {"type": "user", "uuid": "u2", "message": {"role": "user", "content": "caf\u00e9, half \\ud83d emoji"}},
    ]
    text = "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records)
    path.write_text(text.replace("\\\\ud83d", "\\ud83d"), encoding="utf-8")


def test_the_importer_seals_every_line_as_the_format_says(tmp_path):
    log, output = tmp_path / "session.jsonl", tmp_path / "transcript.jsonl"
    _log(log)
    assert import_transcript.main([str(log), "-o", str(output), "--report", str(tmp_path / "r.txt")]) == 0
    fingerprint = Redactor().fingerprint
    raw_lines = output.read_bytes().splitlines(keepends=True)
    assert len(raw_lines) == 2
    for raw in raw_lines:
        found = TAIL.search(raw)
        assert found, raw
        body = raw[: found.start()] + b"}"
        assert found.group(1).decode() == hashlib.blake2b(fingerprint + b"\0" + body, digest_size=16).hexdigest()
        assert json.loads(body)["text"]  # the line without its seal is the record the importer redacted
    assert b"[REDACTED: anthropic-key]" in raw_lines[0] and KEY.encode() not in raw_lines[0]
    assert "caf\u00e9, half \ufffd emoji".encode() in raw_lines[1]  # written as before, sealed over those bytes
    loaded = load_transcript(str(output), seal_key=fingerprint)
    assert verified(loaded) == {1, 2}
    assert verified(load_transcript(str(output), seal_key=Redactor(allow=["x"]).fingerprint)) == frozenset()
    assert verified(load_transcript(str(output))) == frozenset()


def test_the_importer_seals_under_its_own_rules(tmp_path):
    log, output = tmp_path / "session.jsonl", tmp_path / "transcript.jsonl"
    _log(log)
    options = ["--allow", "nothing-here", "--redact-pattern", r"emoji=emoji"]
    assert import_transcript.main([str(log), "-o", str(output), *options]) == 0
    rules = Redactor({"emoji": "emoji"}, ["nothing-here"])
    assert verified(load_transcript(str(output), seal_key=rules.fingerprint)) == {1, 2}
    assert verified(load_transcript(str(output), seal_key=Redactor().fingerprint)) == frozenset()


def test_no_redact_writes_no_seal(tmp_path):
    log, output = tmp_path / "session.jsonl", tmp_path / "transcript.jsonl"
    _log(log)
    assert import_transcript.main([str(log), "-o", str(output), "--no-redact"]) == 0
    written = output.read_text(encoding="utf-8")
    assert KEY in written
    assert all("redaction_seal" not in json.loads(line) for line in written.splitlines())
    assert verified(load_transcript(str(output), seal_key=Redactor().fingerprint)) == frozenset()


# --- The build's redaction trusts a matching seal, and only that ------------------------

def test_a_sealed_line_is_shown_as_the_importer_wrote_it_and_an_edited_one_is_redacted(tmp_path):
    # The seal says the importer already redacted the line: a line sealed over a key is
    # trusted as it stands. The same line with one character of its text changed is not.
    good = sealed_line(record(1, f"key {KEY}"))
    edited = good.replace("key ", "kez ", 1)
    other_rules = sealed_line(record(3, f"key {KEY}"), Redactor(allow=["unrelated"]))
    path = write(tmp_path / "t.jsonl", [good, edited.replace('"n": 1', '"n": 2'), other_rules])
    reports: list[int] = []
    view = shown(path, Redactor(), reports)
    assert message_in(view, 1).text == f"key {KEY}"
    # The seal covers n too, so this is an edit anyway.
    assert message_in(view, 2).text == "kez [REDACTED: anthropic-key]"
    assert message_in(view, 3).text == "key [REDACTED: anthropic-key]"
    assert reports == [2, 3]


def test_a_seal_with_one_character_of_text_changed_does_not_match(tmp_path):
    line = sealed_line(record(1, f"key {KEY}"))
    path = write(tmp_path / "t.jsonl", [line.replace("key ", "kez ", 1)])
    assert message_in(shown(path, Redactor()), 1).text == "kez [REDACTED: anthropic-key]"


def test_a_transcript_loaded_without_the_key_or_for_another_redactor_is_redacted(tmp_path):
    path = write(tmp_path / "t.jsonl", [sealed_line(record(1, f"key {KEY}"))])
    plain = load_transcript(path, "t.jsonl")
    assert message_in(RedactedTranscript(plain, Redactor()), 1).text == "key [REDACTED: anthropic-key]"
    loaded_for_other = load_transcript(path, "t.jsonl", seal_key=Redactor(allow=["x"]).fingerprint)
    assert message_in(RedactedTranscript(loaded_for_other, Redactor()), 1).text == "key [REDACTED: anthropic-key]"
    # Sealed under the defaults, verified for them, but read by a redactor with other rules.
    loaded = load_transcript(path, "t.jsonl", seal_key=Redactor().fingerprint)
    assert verified(loaded) == {1}
    other = Redactor({"word": "key(?= )"})
    assert message_in(RedactedTranscript(loaded, other), 1).text == "[REDACTED: word] [REDACTED: anthropic-key]"


def test_the_seal_may_end_with_crlf_but_must_be_written_exactly(tmp_path):
    line = sealed_line(record(1, f"key {KEY}"))
    spaced = line.replace(',"redaction_seal":"', ', "redaction_seal": "')
    upper = re.sub(r'[0-9a-f]{32}(?="\}$)', lambda m: m.group(0).upper(), line.rstrip("\n")) + "\n"
    path = write(tmp_path / "t.jsonl", [
        line.replace("\n", "\r\n"),
        spaced.replace('"n": 1', '"n": 2'),
        upper.replace('"n": 1', '"n": 3'),
    ])
    assert verified(load_transcript(path, seal_key=Redactor().fingerprint)) == {1}


@pytest.mark.parametrize(
    "seal",
    ["0" * 32, "abc", "0" * 64, "z" * 32, ""],
    ids=["wrong-digest", "short", "long", "not-hex", "empty"],
)
def test_a_seal_that_does_not_verify_is_only_not_trusted(tmp_path, seal):
    line = json.dumps(record(1, f"key {KEY}"))[:-1] + f',"redaction_seal":"{seal}"}}\n'
    path = write(tmp_path / "t.jsonl", [line])
    view = shown(path, Redactor())
    assert message_in(view, 1).text == "key [REDACTED: anthropic-key]"
    assert message_in(view, 1).redaction_seal == seal


@pytest.mark.parametrize("value, found", [("5", "an integer"), ("null", "null"), ('["x"]', "a list")])
def test_a_seal_that_is_not_a_string_is_an_error_naming_file_and_line(tmp_path, value, found):
    bad = json.dumps(record(2, "x"))[:-1] + f', "redaction_seal": {value}}}\n'
    path = write(tmp_path / "t.jsonl", [sealed_line(record(1, "x")), bad])
    with pytest.raises(TranscriptError) as error:
        load_transcript(path, "docs/t.jsonl", seal_key=Redactor().fingerprint)
    assert str(error.value) == f"docs/t.jsonl:2: field 'redaction_seal' must be a string, found {found}"


def test_a_line_changed_after_indexing_to_another_length_stops_the_build(tmp_path):
    path = write(tmp_path / "t.jsonl", [sealed_line(record(1, "nothing secret"))])
    view = shown(path, Redactor())
    line = json.dumps(record(1, f"key {KEY}"))[:-1] + ',"redaction_seal":"' + "0" * 32 + '"}\n'
    write(tmp_path / "t.jsonl", [line])
    with pytest.raises(TranscriptError, match="the file changed while the site was being built"):
        view.get(1)


def test_a_sealed_line_changed_after_indexing_into_another_sealed_line_is_still_checked(tmp_path):
    # The seal matches, but it is no signature: the line is checked as any other.
    before = sealed_line(record(1, "hello"))
    path = write(tmp_path / "t.jsonl", [before])
    view = shown(path, Redactor())
    after = sealed_line({**record(1, "hello"), "speaker": "bot!"})
    assert len(after) == len(before)
    write(tmp_path / "t.jsonl", [after])
    with pytest.raises(TranscriptError, match="the file changed while the site was being built"):
        view.get(1)


def test_a_sealed_line_changed_after_indexing_to_the_same_length_is_redacted_not_trusted(tmp_path):
    before = sealed_line(record(1, "x" * 60))
    path = write(tmp_path / "t.jsonl", [before])
    view = shown(path, Redactor())
    after = before.replace("x" * 60, f"key {KEY}".ljust(60))
    assert len(after) == len(before)
    write(tmp_path / "t.jsonl", [after])
    expected = "key [REDACTED: anthropic-key]".ljust(60 - len(KEY) + len("[REDACTED: anthropic-key]"))
    assert message_in(view, 1).text == expected


def test_the_transcript_kept_between_builds_is_the_one_read_under_the_same_rules(tmp_path):
    path = write(tmp_path / "t.jsonl", [sealed_line(record(1, "x"))])
    kept = LastTranscript()
    defaults, reused = kept.read(path, "t.jsonl", Redactor(), lambda n, kinds: None)
    assert not reused and kept.read(path, "t.jsonl", Redactor(), lambda n, kinds: None) == (defaults, True)
    other, reused = kept.read(path, "t.jsonl", Redactor(allow=["x"]), lambda n, kinds: None)
    assert not reused and other is not defaults
    unredacted, reused = kept.read(path, "t.jsonl", None, lambda n, kinds: None)
    assert not reused and message_in(unredacted, 1).text == "x"


def test_a_record_written_again_leaves_its_old_seal_behind(tmp_path):
    line = sealed_line(record(1, "x"))
    message = message_from_record(json.loads(line), 1)
    assert message.redaction_seal == json.loads(line)["redaction_seal"]
    assert "redaction_seal" not in record_of(message)


def test_seal_of_is_over_the_fingerprint_and_the_bytes():
    assert seal_of(b"k", b"{}") == hashlib.blake2b(b"k\0{}", digest_size=16).hexdigest()
    assert sealed(b"k", '{"n": 1}') == '{"n": 1,"redaction_seal":"' + seal_of(b"k", b'{"n": 1}') + '"}'


# --- The real build ---------------------------------------------------------------------

def test_the_site_shows_a_sealed_line_as_imported_and_redacts_edited_or_foreign_ones(project, tmp_path):
    transcript = project / "docs" / "transcript.jsonl"
    trusted = sealed_line(record(9001, f"trusted {KEY}"))
    edited = sealed_line(record(9002, f"trusted {KEY}")).replace("trusted", "edited!", 1)
    foreign = sealed_line(record(9003, f"foreign {KEY}"), Redactor(allow=["something"]))
    transcript.write_text(transcript.read_text() + trusted + edited + foreign)
    page = project / "docs" / "conclusion.md"
    page.write_text(page.read_text() + "\n\n[msg 9001] [msg 9002] [msg 9003]\n")

    result = build(project, tmp_path / "site")
    assert result.returncode == 0, result.stderr
    redacted = re.findall(r"Redacted in docs/transcript\.jsonl, message (\d+)", result.stderr)
    assert "9001" not in redacted and {"9002", "9003"} <= set(redacted)
    document = soup(tmp_path / "site" / "transcript" / "index.html")

    def body(n: int) -> str:
        return entry_of(document, n).get_text()

    assert f"trusted {KEY}" in body(9001)
    assert "edited! [REDACTED: anthropic-key]" in body(9002) and KEY not in body(9002)
    assert "foreign [REDACTED: anthropic-key]" in body(9003) and KEY not in body(9003)
