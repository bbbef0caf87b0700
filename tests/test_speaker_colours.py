"""Speakers told apart at a glance: each entry carries its speaker's class, and the site's
colours for speakers and errors reach AA contrast (4.5:1, as text) against Material's
backgrounds in its light and slate schemes, read from the theme's own stylesheets."""

from __future__ import annotations

import colorsys
import re
from pathlib import Path

import material  # type: ignore[import-untyped]  # Material ships no type hints
import pytest

from conftest import ROOT, selected
from session_pages import imported, layout_of, page

CSS = (ROOT / "docs" / "assets" / "essay.css").read_text(encoding="utf-8")
THEME_CSS = "".join(path.read_text(encoding="utf-8")
                    for path in (Path(material.__file__).parent / "templates" / "assets" / "stylesheets").glob("*.css"))
COLOURS = ("user", "assistant", "tool", "work", "error")


def declared(block_selector: str) -> dict[str, str]:
    """The --msg-*-color values essay.css declares in the rule of `block_selector`."""
    block = re.search(re.escape(block_selector) + r" \{([^}]*)\}", CSS)
    assert block is not None, block_selector
    return dict(re.findall(r"--msg-([a-z]+)-color: (#[0-9a-f]{6});", block.group(1)))


def luminance(rgb: tuple[float, float, float]) -> float:
    linear = [v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4 for v in rgb]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(a: tuple[float, float, float], b: tuple[float, float, float]) -> float:
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def rgb(hex_colour: str) -> tuple[float, float, float]:
    return (int(hex_colour[1:3], 16) / 255, int(hex_colour[3:5], 16) / 255, int(hex_colour[5:7], 16) / 255)


def slate_background() -> tuple[float, float, float]:
    hue = re.search(r"--md-hue:\s*(\d+)deg", THEME_CSS)
    background = re.search(r"--md-default-bg-color:\s*hsla\(var\(--md-hue\),\s*(\d+)%,\s*(\d+)%,\s*1\)", THEME_CSS)
    assert hue and background
    return colorsys.hls_to_rgb(int(hue.group(1)) / 360, int(background.group(2)) / 100,
                               int(background.group(1)) / 100)


@pytest.mark.parametrize("scheme, selector", [("light", ":root"), ("slate", '[data-md-color-scheme="slate"]')])
def test_each_speakers_colour_and_the_errors_reach_aa_contrast(scheme, selector):
    assert "--md-default-bg-color:#fff" in THEME_CSS.replace(" ", "")
    background = (1.0, 1.0, 1.0) if scheme == "light" else slate_background()
    colours = declared(selector)
    assert sorted(colours) == sorted(COLOURS)
    ratios = {name: round(contrast(rgb(value), background), 2) for name, value in colours.items()}
    assert min(ratios.values()) >= 4.5, ratios


def test_each_speaker_class_has_its_rule_and_its_label():
    for speaker in ("user", "assistant", "tool", "work"):
        assert f".md-typeset .msg-entry--{speaker} {{ --msg-rule-color: var(--msg-{speaker}-color); }}" in CSS
    for speaker in ("user", "assistant", "tool"):
        assert (f".md-typeset .msg-item:has(> .msg-entry--{speaker}) .msg-speaker "
                f"{{ color: var(--msg-{speaker}-color); }}") in CSS


def test_every_entry_of_a_real_session_carries_its_speakers_class(tmp_path):
    transcript = imported(tmp_path, "claude-code-log_ide_wrappers_errors.jsonl")
    soup = page(layout_of(transcript))
    items = soup.select(".msg-item")
    assert len(items) == len(transcript)
    seen = set()
    for item in items:
        speaker = selected(item, ".msg-speaker").get_text()
        classes = selected(item, ".msg-entry")["class"]
        assert f"msg-entry--{speaker}" in classes, (speaker, classes)
        seen.add(speaker)
    assert seen == {"user", "assistant", "tool"}
