"""The build benchmark's parts, on tiny sizes: the benchmark itself runs outside the tests."""

import pytest

import benchmark
from msgref.tags import TAG_RE
from msgref.transcript import load_transcript
from perf import project, report, synthetic
from perf.measure import PageStats, Run


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
    tags = [int(n) for text in essay.pages.values() for n in TAG_RE.findall(text)]
    assert len(tags) == 200 and tags == essay.cited and all(1 <= n <= 500 for n in tags)
    # Each page has one tag alone on its line, shown as a block quote.
    assert all(any(TAG_RE.fullmatch(block) for block in text.split("\n\n")) for text in essay.pages.values())


def test_plain_links_replace_the_tags():
    assert project.with_plain_links("See [msg 5], [msg 12].") == (
        "See [msg 5](transcript/index.md#msg-5), [msg 12](transcript/index.md#msg-12).")


def test_a_synthetic_site_has_a_hook_and_a_plain_variant(tmp_path):
    transcript = tmp_path / "t.jsonl"
    synthetic.write_transcript(transcript, 20)
    sites = project.synthetic_site(tmp_path, {"a.md": "# A\n\n[msg 3]\n"}, transcript, {"context": 0})
    hook = (sites["hook"] / "mkdocs.yml").read_text()
    plain = (sites["plain"] / "mkdocs.yml").read_text()
    assert "mkdocs_hook.py" in hook and "context: 0" in hook and "mkdocs_hook.py" not in plain
    assert (sites["plain"] / "docs" / "a.md").read_text() == "# A\n\n[msg 3](transcript/index.md#msg-3)\n"


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
    for argv in (["--sizes", "ten"], ["--sizes", "0"], ["--set", "context"], ["--pages", "3", "--references", "2"]):
        with pytest.raises(SystemExit) as raised:
            benchmark.parse_args(argv)
        assert raised.value.code == 2
        assert ": error: " in capsys.readouterr().err.strip().splitlines()[-1]


def test_quick_runs_are_small():
    args = benchmark.parse_args(["--quick", "--set", "context=all"])
    assert args.sizes == [200, 1000] and args.repeat == 1 and args.touches == 1
    assert args.settings == {"context": "all"}
    assert benchmark.parse_args([]).sizes == [1000, 10000, 100000]
