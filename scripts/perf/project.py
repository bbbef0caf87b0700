"""Throwaway MkDocs projects for the benchmark, each in two variants.

The "hook" variant builds with the site's hook; the "plain" variant has the same pages
with every `[msg N]` tag already written as a plain Markdown link (and, for the
synthetic sites, no hook of the site's: only one that caches the theme's compiled
templates, as the site's hook does). Both use the site's own theme and Markdown settings.
"""

from __future__ import annotations

import compileall
import shutil
from collections.abc import Mapping
from pathlib import Path

import yaml

from msgref.tags import TAG_RE, cited_range, link_text
from sitebuild.config_file import read_config
from sitebuild.settings import TranscriptSettings, read_settings

ROOT = Path(__file__).resolve().parents[2]
HOOK = ROOT / "hooks" / "mkdocs_hook.py"
TEMPLATE_CACHE_HOOK = Path(__file__).with_name("template_cache_hook.py")


def site_config() -> dict:
    """The site's mkdocs.yml as a dict, its `!ENV` values resolved."""
    return read_config(ROOT / "mkdocs.yml")


def transcript_settings(overrides: Mapping[str, object] | None = None) -> TranscriptSettings:
    """The site's `extra.transcript` settings with `overrides` (the benchmark's --set)
    applied, as a build reads them; SettingsError names a bad one."""
    values = (site_config().get("extra") or {}).get("transcript") or {}
    return read_settings(TranscriptSettings, {**values, **(overrides or {})}, "extra.transcript")


def compile_hooks() -> None:
    """Write the hooks' bytecode, as pip does for installed packages: where Python does
    not write it (PYTHONDONTWRITEBYTECODE), every build would compile them again."""
    compileall.compile_dir(ROOT / "hooks", quiet=1)


def with_plain_links(markdown: str, transcript_page: str = "transcript/index.md") -> str:
    """The same Markdown with every `[msg N]` tag written as a plain link."""
    # "&#32;" shows as a space: the link reads "msg N" without being a tag or a near miss.
    return TAG_RE.sub(lambda m: f"[{link_text(*cited_range(m)).replace(' ', '&#32;')}]"
                                f"({transcript_page}#msg-{m.group('first')})", markdown)


def write_config(folder: Path, config: dict) -> None:
    # The plain pages link to transcript pages that only the hook makes: not a problem here.
    config.setdefault("validation", {})["not_found"] = "info"
    theme = config.get("theme")
    if isinstance(theme, dict) and theme.get("custom_dir"):
        theme["custom_dir"] = str(ROOT / theme["custom_dir"])
    with open(folder / "mkdocs.yml", "w", encoding="utf-8") as file:
        yaml.safe_dump(config, file, allow_unicode=True, sort_keys=False)


def shipped_site(work: Path) -> dict[str, Path]:
    """The site as shipped, and its plain variant: the same site, built by the same hook,
    with every `[msg N]` written as a plain link. What the two differ by is the cost of
    the message citations (their links, snippets and "Cited in" lists); the rest of the
    build (the transcript pages, the citable essay) is in both."""
    config = site_config()
    hooks = [str((ROOT / hook).resolve()) for hook in config.get("hooks", [])]
    projects = {}
    for variant in ("hook", "plain"):
        folder = work / f"shipped-{variant}"
        shutil.copytree(ROOT / "docs", folder / "docs")
        variant_config = {**config, "hooks": hooks}
        if variant == "plain":
            for page in (folder / "docs").rglob("*.md"):
                page.write_text(with_plain_links(page.read_text(encoding="utf-8")), encoding="utf-8")
            # With no tag left, only `all` shows the messages (every one is cited in the other variant).
            extra = variant_config["extra"] = {**config["extra"]}
            extra["transcript"] = {**extra.get("transcript", {}), "context": "all"}
        write_config(folder, variant_config)
        projects[variant] = folder
    return projects


def synthetic_site(work: Path, pages: dict[str, str], transcript: Path,
                   settings: dict | None = None) -> dict[str, Path]:
    """A site of the given essay pages citing `transcript`, and its plain variant.

    `settings` override the site's `extra.transcript` settings in the hook variant.
    """
    projects = {}
    for variant in ("hook", "plain"):
        folder = work / f"{transcript.stem}-{variant}"
        config = site_config()
        config["nav"] = list(pages) + (["transcript/index.md"] if variant == "hook" else [])
        config["hooks"] = [str(HOOK) if variant == "hook" else str(TEMPLATE_CACHE_HOOK)]
        extra = config.setdefault("extra", {})
        extra["transcript"] = {**extra.get("transcript", {}), **(settings or {}), "source": str(transcript)}
        extra.pop("essay", None)  # the pages cite messages; they are not the citable essay
        (folder / "docs").mkdir(parents=True)
        for name, text in pages.items():
            text = text if variant == "hook" else with_plain_links(text)
            (folder / "docs" / name).write_text(text, encoding="utf-8")
        write_config(folder, config)
        projects[variant] = folder
    return projects
