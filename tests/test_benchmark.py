"""The build benchmark's parts, on tiny sizes: the benchmark itself runs outside the tests."""

import dataclasses

import pytest

import benchmark
from conftest import message_in
from msgref.tags import TAG_RE, tagged
from perf import claude_log, kept_editions, project, report, search_index, synthetic, whole_session
from perf.measure import PageStats, Run
from transcript.reader import load_transcript


def test_a_synthetic_transcript_loads_and_has_the_size_mix(tmp_path):
    path = tmp_path / "t.jsonl"
    size = synthetic.write_transcript(path, 300, seed=3)
    transcript = load_transcript(str(path))
    assert len(transcript) == 300 and size == path.stat().st_size
    lines = path.read_bytes().splitlines()
    large = [line for line in lines if len(line) > 100_000]
    assert len(large) == 3  # 1%
    small = sorted(len(line) for line in lines if len(line) <= 100_000)
    assert 150 < small[len(small) // 2] < 1000  # most a few hundred bytes
    assert synthetic.write_transcript(tmp_path / "again.jsonl", 300, seed=3) == size


def test_the_essay_has_the_requested_pages_and_references():
    essay = synthetic.make_essay(500, pages=10, references=200)
    assert len(essay.pages) == 10
    tags = [first for text in essay.pages.values() for first, _ in tagged(text)]
    assert len(tags) == 200 and tags == essay.cited and all(1 <= n <= 500 for n in tags)
    # Each page has one tag alone on its line, shown as a block quote.
    assert all(any(TAG_RE.fullmatch(block) for block in text.split("\n\n")) for text in essay.pages.values())


def test_plain_links_replace_the_tags():
    assert project.with_plain_links("See [msg 5], [msg 12].") == (
        "See [msg&#32;5](transcript/index.md#msg-5), [msg&#32;12](transcript/index.md#msg-12).")


def test_a_synthetic_site_has_a_hook_and_a_plain_variant(tmp_path):
    transcript = tmp_path / "t.jsonl"
    synthetic.write_transcript(transcript, 20)
    sites = project.synthetic_site(tmp_path, {"a.md": "# A\n\n[msg 3]\n"}, transcript, {"context": 0})
    hook = (sites["hook"] / "mkdocs.yml").read_text()
    plain = (sites["plain"] / "mkdocs.yml").read_text()
    assert "mkdocs_hook.py" in hook and "context: 0" in hook and "mkdocs_hook.py" not in plain
    assert (sites["plain"] / "docs" / "a.md").read_text() == "# A\n\n[msg&#32;3](transcript/index.md#msg-3)\n"


def test_the_transcript_settings_are_the_sites_with_the_overrides():
    site = project.transcript_settings()  # whatever the site's mkdocs.yml sets
    pages = site.messages_per_page + 1
    overridden = project.transcript_settings({"messages_per_page": pages, "context": "all"})
    assert (overridden.folder, overridden.messages_per_page, overridden.context) == (site.folder, pages, None)


def row(messages, hook_seconds, plain_seconds, added_mb=1, file_mb=10, load_seconds=0.05):
    return report.Row(f"{messages} messages", file_mb * 10**6, Run(hook_seconds, (40 + added_mb) * 10**6, ""),
                      Run(plain_seconds, 40 * 10**6, ""), messages, 1.0, True, load_seconds, PageStats(1, 300, 1000))


def test_budgets_pass_and_fail_on_the_measured_figures():
    shipped = report.Row("shipped site", 1500, Run(1.05, 1, ""), Run(1.0, 1, ""))
    results = report.budgets(shipped, [row(10_000, 1.4, 1.0)], per_page=500)
    assert all(passed for passed, _ in results)
    results = report.budgets(shipped, [row(10_000, 1.6, 1.0, added_mb=25, load_seconds=0.2)], per_page=500)
    failed = [text for passed, text in results if passed is False]
    assert [text.split(":")[0] for text in failed] == [
        "with 10,000 messages the build takes at most 1.5x the build without the hook",
        "10000 messages", "10000 messages"]  # loading at 50 MB/s, and 25 MB added to a 10 MB file
    assert "50 MB/s" in failed[1] and "twice the transcript file" in failed[2]
    lines = report.budget_lines(report.budgets(None, [row(1000, 1.0, 1.0)], per_page=500))
    assert lines[0].startswith("SKIP  with 10,000 messages")


def test_bad_arguments_are_one_line_errors(capsys):
    for argv in (["--sizes", "ten"], ["--sizes", "0"], ["--set", "context"], ["--set", "contxt=all"],
                 ["--set", "messages_per_page=0"], ["--pages", "3", "--references", "2"]):
        with pytest.raises(SystemExit) as raised:
            benchmark.parse_args(argv)
        assert raised.value.code == 2
        assert ": error: " in capsys.readouterr().err.strip().splitlines()[-1]


def test_quick_runs_are_small():
    args = benchmark.parse_args(["--quick", "--set", "context=all"])
    assert args.sizes == [200, 1000] and args.repeat == 1 and args.touches == 1
    assert args.settings == {"context": "all"}
    assert benchmark.parse_args([]).sizes == [1000, 10000, 100000]


def test_a_generated_claude_code_log_imports_to_exactly_its_messages(tmp_path):
    log, transcript = tmp_path / "session.jsonl", tmp_path / "transcript.jsonl"
    stats = claude_log.write_log(log, 300, seed=3)
    assert stats.messages == 300 and stats.bytes == log.stat().st_size
    whole_session.import_log(log, transcript)  # the site's own importer
    messages = load_transcript(str(transcript))
    assert len(messages) == 300 and list(messages.numbers) == list(range(1, 301))
    shown = [message_in(messages, n) for n in messages.numbers]
    assert sum(len(m.text) > 100_000 for m in shown) == 3  # 1%
    assert {m.speaker for m in shown} == {"user", "assistant", "tool"}
    assert any(m.tool_name and m.tool_input for m in shown) and any(m.thinking for m in shown)
    assert claude_log.write_log(tmp_path / "again.jsonl", 300, seed=3) == stats


def whole(every, cited, peer, peak_mb=150, messages=6000, single=None, rebuilds=(0.6, 0.5), log_peer=None,
          page=(500_000, 90_000)):
    """A whole-session row; `peer` and `log_peer` are the seconds of claude-code-transcripts
    and claude-code-log (None: not measured)."""
    peers = {name: Run(seconds, 80 * 2**20, "") for name, seconds in
             (("claude-code-transcripts", peer), ("claude-code-log", log_peer)) if seconds is not None}
    return whole_session.WholeRow(messages, 40 * 10**6, 20 * 10**6, Run(every, peak_mb * 10**6, ""),
                                  Run(single or every * 1.25, 1, ""), Run(cited, 1, ""), peers,
                                  PageStats(12, 500, *page), *rebuilds)


def test_whole_session_budgets_pass_fail_and_skip():
    assert all(passed for passed, _ in report.whole_budgets([whole(2.0, 1.2, 6.5)]))
    slow = whole(3.0, 1.2, 6.0, peak_mb=250, single=3.2, rebuilds=(1.6, 0.5), page=(700_000, 90_000))
    failed = [text for passed, text in report.whole_budgets([slow]) if passed is False]
    assert [text.split(": ")[1] for text in failed] == [
        "the build takes at most 2x the build of the cited messages",
        "the worker process saves at least 15% of the build in one process",
        "at least 3x faster than claude-code-transcripts",
        "a page of 500 messages at most 600 KB, 100 KB compressed", "peak memory under 200 MB",
        "a serve rebuild after an essay page is edited takes at most 1.5x the rebuild of the cited messages"]
    assert failed[1].endswith(": 6% (3.00 s against 3.20 s)")
    assert failed[3].endswith(": 700 KB, 90 KB")
    assert failed[5].endswith(": 3.20x (1.60 s against 0.50 s)")
    heavy = whole(2.0, 1.2, 6.5, page=(500_000, 120_000))
    assert [text for passed, text in report.whole_budgets([heavy]) if passed is False] == [
        "6,000 messages, every message shown: a page of 500 messages at most 600 KB, 100 KB compressed: 500 KB, 120 KB"]
    skipped = [text for passed, text in report.whole_budgets([whole(2.0, 1.2, None)]) if passed is None]
    assert len(skipped) == 1 and "not installed" in skipped[0]
    # The budgets are for sessions of up to 10,000 messages; a larger one is measured, not judged.
    [(passed, text)] = report.whole_budgets([whole(9.0, 1.2, None, peak_mb=600, messages=100_000)])
    assert passed is None and text == ("100,000 messages, every message shown: no budget past 10,000 messages "
                                       "(9.00 s, peak memory 600 MB)")
    table = report.whole_table([whole(2.0, 1.0, 6.0, log_peer=3.0), whole(2.0, 1.0, None)])
    assert "| claude-code-transcripts (time, peak RSS) | Times faster | claude-code-log (time, peak RSS) " in table[0]
    assert all(line.count("|") == table[0].count("|") for line in table)
    assert "| 2.00 s | 2.50 s | 20% | 1.00 s | 2.00x | 6.00 s, 80 MiB | 3.0x | 3.00 s, 80 MiB | 1.5x |" in table[2]
    assert "| not measured | – | not measured | – |" in table[3]
    assert table[2].endswith("| 0.60 s / 0.50 s (1.20x) |")


def test_claude_code_log_is_reported_not_judged():
    # Slower than the site's build by less than 3x, it fails no budget; without
    # claude-code-transcripts, the one budget on a peer is skipped.
    assert all(passed for passed, _ in report.whole_budgets([whole(2.0, 1.2, 6.5, log_peer=2.5)]))
    skipped = [text for passed, text in report.whole_budgets([whole(2.0, 1.2, None, log_peer=2.5)])
               if passed is None]
    assert len(skipped) == 1 and "claude-code-transcripts" in skipped[0]
    table = report.whole_table([whole(2.0, 1.0, None, log_peer=2.5)])
    assert "| not measured | – | 2.50 s, 80 MiB | 1.2x |" in table[2]


def test_the_peer_sentence_names_each_peer(monkeypatch):
    versions = {"claude-code-transcripts": "0.6", "claude-code-log": "1.7.0"}
    monkeypatch.setattr(whole_session, "peer_version", versions.get)
    assert benchmark.peer_sentence(left_out=False) == (
        "claude-code-transcripts 0.6 and claude-code-log 1.7.0 render the same log.")
    assert benchmark.peer_sentence(left_out=True) == "claude-code-transcripts and claude-code-log left out (--no-peer)."
    del versions["claude-code-log"]
    assert benchmark.peer_sentence(left_out=False) == (
        "claude-code-transcripts 0.6 renders the same log; claude-code-log not installed.")
    versions.clear()
    assert benchmark.peer_sentence(left_out=False) == "claude-code-transcripts and claude-code-log not installed."


def test_the_peers_write_only_in_their_own_folder(tmp_path):
    log, out = tmp_path / "session.jsonl", tmp_path / "peer"
    for peer in whole_session.PEERS:
        command = whole_session.peer_command(peer, peer.name, log, out)
        assert command[:3] == ["env", f"HOME={out}", peer.name]
        written = command[command.index("-o") + 1]
        assert written == str(out) or written.startswith(str(out) + "/")
    log_peer = next(peer for peer in whole_session.PEERS if peer.name == "claude-code-log")
    assert "--no-cache" in log_peer.arguments(log, out)


def test_whole_session_sizes():
    assert benchmark.parse_args([]).whole_sizes == [6000, 10000]
    assert benchmark.parse_args(["--quick"]).whole_sizes == [1000]
    assert benchmark.parse_args(["--whole-sizes", ""]).whole_sizes == []


def test_the_search_index_of_a_small_whole_session_is_measured(capsys, tmp_path):
    assert search_index.main(["--sizes", "60"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[1].startswith("60 messages: built in ") and lines[2].startswith("  index: ")
    assert "a query of one word loads at most" in lines[4] and "largest transcript page" in lines[5]
    for argv in (["--sizes", "six"], ["--hooks", str(tmp_path)]):
        with pytest.raises(SystemExit) as raised:
            search_index.main(argv)
        assert raised.value.code == 2 and ": error: " in capsys.readouterr().err.strip().splitlines()[-1]


def test_kept_editions_are_measured_against_a_site_with_none(tmp_path):
    cost = kept_editions.measure_editions(tmp_path, repeat=1, count=2)
    assert cost.editions == 2 and cost.files > 0 and cost.size > 0
    assert cost.none > 0 and cost.kept > 0 and cost.copy > 0
    assert len(list((tmp_path / "editions-kept" / "docs" / "editions").glob("*.json"))) == 2
    assert not (tmp_path / "editions-none" / "docs" / "editions").exists()
    passed, text = kept_editions.budget(dataclasses.replace(cost, kept=cost.none + 2 * cost.copy))
    assert passed is False and "2 kept editions add to the build at most what copying them takes" in text
