"""The built site in a real browser: Debian's Chromium driven by Playwright.

The site of the essay the tests of the tool expect (tests/conftest.py) is built once with
`mkdocs build --strict` into test-output/site (or $BROWSER_TEST_OUTPUT/site), served by
scripts/static_host.py on 127.0.0.1 with gzip, and visited by Chromium; the site in
this repository, whatever essay it holds, is built into test-output/this-site.
Screenshots and the Lighthouse report go beside the build, in test-output/screenshots and
test-output/lighthouse, for a person to look at.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, sync_playwright

from browser.site_browser import (
    CHROMIUM,
    CHROMIUM_ARGS,
    DESKTOP,
    OUTPUT,
    add_essay_pdf,
    build_site,
    essay_project,
    new_page,
    site_paths,
    this_project_copy,
)
from conftest import PUBLISHING
from static_host import StaticHost


@pytest.fixture(scope="session")
def output_dir() -> Path:
    OUTPUT.mkdir(parents=True, exist_ok=True)
    return OUTPUT


@pytest.fixture(scope="session")
def essay_dir(output_dir) -> Path:
    return essay_project(output_dir / "essay-project")


@pytest.fixture(scope="session")
def site_dir(output_dir, essay_dir) -> Path:
    """The site as published: `mkdocs build --strict`, then the essay's PDF printed into it."""
    return add_essay_pdf(build_site(output_dir / "site", essay_dir, **PUBLISHING))


@pytest.fixture(scope="session")
def offline_site_dir(output_dir, essay_dir) -> Path:
    """The copy that opens from the file system: Material's offline plugin, on with OFFLINE=true."""
    return build_site(output_dir / "offline-site", essay_dir, OFFLINE="true")


@pytest.fixture(scope="session")
def this_site_dir(output_dir) -> Path:
    """The site in this repository, as published."""
    return add_essay_pdf(build_site(output_dir / "this-site", this_project_copy(output_dir / "this-project"),
                                    **PUBLISHING))


@pytest.fixture(scope="session")
def this_host(this_site_dir):
    with StaticHost(this_site_dir) as server:
        yield server


@pytest.fixture(scope="session")
def host(site_dir):
    with StaticHost(site_dir) as server:
        yield server


@pytest.fixture(scope="session")
def all_pages(site_dir) -> list[str]:
    paths = site_paths(site_dir)
    assert "" in paths and "transcript/" in paths, paths
    return paths


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    if not Path(CHROMIUM).exists():
        pytest.fail(f"Chromium not found at {CHROMIUM}: apt-get install chromium")
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser, host):
    """A desktop-sized page on a fresh profile; it fails the test on any console error or failed request."""
    context, page, problems = new_page(browser, DESKTOP, origin=host.url)
    yield page
    context.close()
    assert not problems.all(), problems.all()
