#!/usr/bin/env python3
"""Keep the essay as it stands as the edition mkdocs.yml names, and make the next one current.

    SITE_URL=https://your.host/path/ .venv/bin/python scripts/new_edition.py [--date YYYY-MM-DD] [--pdf]

The site is built as a copy of its own, at SITE_URL/editions/N/, with its own citations
(naming edition N and that address) and its transcript as this edition cites it, into
docs/editions/N/; beside it, docs/editions/N.json records its date and the hash of each
of its files, which every later build checks it against. With --pdf (or PRINT_PDF=true)
the copy gets its PDF too, printed as scripts/essay_pdf.py prints the site's. mkdocs.yml
then names edition N+1, dated --date (today by default): every later build publishes the
kept copy at editions/N/, and a page of what changed since it.
"""

from __future__ import annotations

import argparse
import datetime
import json
import logging
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from mkdocs.commands.build import build
from mkdocs.config import load_config
from mkdocs.exceptions import MkDocsException

from sitebuild.config_file import read_config
from sitebuild.editions import EDITIONS_FOLDER, LEFT_OUT_SUFFIXES, kept_files, record_path
from sitebuild.files import replaced_when_done
from sitebuild.settings import SettingsError, is_address
from sitebuild.site_config import read_site_config

LOCAL_HOSTS = ("127.0.0.1", "localhost", "::1", "0.0.0.0")


class EditionError(Exception):
    """A failure to report as one line, without a traceback."""


def settings_line(text: str, name: str, value: object) -> re.Match[str]:
    """The one line of mkdocs.yml that sets extra.essay's `name` to `value`, to be rewritten."""
    found = list(re.finditer(rf"^([ \t]+{name}:[ \t]*)({re.escape(str(value))})([ \t]*(?:#.*)?)$", text, re.M))
    if len(found) != 1:
        raise EditionError(f"extra.essay.{name}: expected one line `{name}: {value}` under extra.essay to "
                           f"rewrite, found {len(found)}")
    return found[0]


def next_edition_settings(text: str, edition: int, published: datetime.date, date: datetime.date) -> str:
    """The text of mkdocs.yml naming edition `edition + 1`, dated `date`, and nothing else changed."""
    for name, old, new in (("edition", edition, edition + 1), ("published", published.isoformat(), date.isoformat())):
        line = settings_line(text, name, old)
        text = text[: line.start(2)] + str(new) + text[line.end(2):]
    return text


def build_copy(config_path: Path, url: str, site_dir: str, print_pdf: bool) -> None:
    """The site built strictly as the kept copy of its current edition, at `url`, into `site_dir`."""
    config = load_config(str(config_path), site_url=url, site_dir=site_dir, strict=True)
    config.extra["essay"]["kept_copy"] = True
    if print_pdf:
        config.extra["essay"]["pdf_printed"] = True
    config.plugins.on_startup(command="build", dirty=False)
    try:
        build(config)
    finally:
        config.plugins.on_shutdown()


def keep(config_path: Path, date: datetime.date | None, pdf: bool) -> str:
    """Keeps the current edition, makes the next current, and says what it did."""
    config = read_config(config_path)
    site = read_site_config(config, str(config_path.parent))
    if site.essay is None:
        raise EditionError("extra.essay: not set, so the site is no essay with editions")
    meta, settings = site.essay.meta, site.essay.settings
    if urlsplit(meta.url).hostname in LOCAL_HOSTS:
        raise EditionError(f"site_url: {meta.url} is this machine's, and the kept copy's citations would name it "
                           "for good: give the address the site is published at, as SITE_URL=https://your.host/path/")
    given = f"--date {date}" if date else f"today, {datetime.date.today()} (--date gives another)"
    date = date or datetime.date.today()
    if date < meta.published:
        raise EditionError(f"the next edition's date, {given}, is earlier than edition {meta.edition}'s, "
                           f"{meta.published}")
    folder = Path(site.docs_path) / EDITIONS_FOLDER / str(meta.edition)
    record = Path(record_path(site.docs_path, meta.edition))
    if folder.exists() or record.exists():
        raise EditionError(f"{folder}: edition {meta.edition} is kept already")
    text = config_path.read_text(encoding="utf-8")
    renamed = next_edition_settings(text, meta.edition, meta.published, date)  # before building: fails early
    print_pdf = settings.pdf is not None and not is_address(settings.pdf) and (pdf or settings.pdf_printed)
    if pdf and not print_pdf:
        raise EditionError("--pdf: extra.essay.pdf names no PDF of the site to print")

    with tempfile.TemporaryDirectory(prefix="edition-") as temporary:
        copy = os.path.join(temporary, "site")
        build_copy(config_path, f"{meta.url}{EDITIONS_FOLDER}/{meta.edition}/", copy, print_pdf)
        if print_pdf and settings.pdf:
            printer = [sys.executable, str(Path(__file__).with_name("essay_pdf.py")), copy, "-o",
                       os.path.join(copy, settings.pdf)]
            if subprocess.run(printer, check=False).returncode:
                raise EditionError("the copy's PDF could not be printed (see above); nothing was kept")
        for root, _, names in os.walk(copy):
            for name in names:
                if name.endswith(LEFT_OUT_SUFFIXES):
                    os.remove(os.path.join(root, name))
        files = kept_files(copy)
        folder.parent.mkdir(parents=True, exist_ok=True)
        shutil.copytree(copy, folder)
    kept: dict[str, Any] = {"edition": meta.edition, "published": meta.published.isoformat(),
                            "kept": datetime.date.today().isoformat(),
                            "files": {path: {"sha256": file.sha256, "bytes": file.size}
                                      for path, file in files.items()}}
    record.write_text(json.dumps(kept, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    with replaced_when_done(config_path) as temporary_config:
        Path(temporary_config).write_text(renamed, encoding="utf-8")
    size = sum(file.size for file in files.values())
    return (f"Kept edition {meta.edition} ({meta.published}) in {folder}: {len(files)} files, "
            f"{size / 1e6:.1f} MB, recorded in {record}.\n"
            f"{config_path.name} now names edition {meta.edition + 1}, dated {date}: edit the essay and build; "
            f"the site publishes edition {meta.edition} at {EDITIONS_FOLDER}/{meta.edition}/ and lists what "
            "changed since it.")


def _date(text: str) -> datetime.date:
    try:
        return datetime.date.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a date such as 2027-01-31, got {text!r}") from None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Keep the essay's current edition and make the next one current.")
    parser.add_argument("--date", type=_date, help="the next edition's date, YYYY-MM-DD (default: today)")
    parser.add_argument("--pdf", action="store_true", help="print the kept copy's PDF (extra.essay.pdf)")
    parser.add_argument("-f", "--config-file", type=Path, default=Path("mkdocs.yml"),
                        help="the site's configuration (default: mkdocs.yml)")
    args = parser.parse_args(argv)
    logging.basicConfig(format="%(levelname)s - %(message)s", level=logging.WARNING)
    try:
        print(keep(args.config_file, args.date, args.pdf))
    except (EditionError, SettingsError) as error:
        print(f"new_edition: {args.config_file}: {error}", file=sys.stderr)
        return 1
    except MkDocsException as error:
        print(f"new_edition: the build of the copy to keep failed, so nothing was kept: {error}", file=sys.stderr)
        return 1
    except OSError as error:
        print(f"new_edition: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
