"""Helpers of the browser tests: building the site, listing its pages, opening pages that
record what went wrong (console errors, failed requests, requests to other hosts)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from playwright.sync_api import Browser, BrowserContext, ConsoleMessage, Page, Response, ViewportSize

from author_project import author_project, this_project
from conftest import ESSAY

ROOT = Path(__file__).resolve().parents[2]
OUTPUT = Path(os.environ.get("BROWSER_TEST_OUTPUT", ROOT / "test-output")).resolve()
CHROMIUM = os.environ.get("CHROME_PATH", "/usr/bin/chromium")
# Without the background-networking flags Chromium calls Google's services, which a
# closed network refuses; those failures are not the site's.
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-default-apps",
]
AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
DESKTOP: ViewportSize = {"width": 1280, "height": 800}
PHONE: ViewportSize = {"width": 375, "height": 740}
TIMEOUT_MS = 15_000

# The pages of the essay of the tests measured by Lighthouse and photographed: the title
# page, one essay page, the transcript.
KEY_PAGES = {"title": "", "essay": "context/", "transcript": "transcript/"}


def build_site(destination: Path, project: Path, **env_extra: str) -> Path:
    """`project` built into `destination`."""
    if destination.exists():
        shutil.rmtree(destination)
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", **env_extra}
    result = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(destination)],
        cwd=project, env=env, capture_output=True, text=True, timeout=300,
    )
    assert result.returncode == 0, result.stderr
    assert "WARNING" not in result.stderr, result.stderr
    return destination


def essay_project(destination: Path) -> Path:
    """A fresh project of the essay the tests of the tool expect (see tests/conftest.py)."""
    if destination.exists():
        shutil.rmtree(destination)
    return author_project(ESSAY.name, destination)


def this_project_copy(destination: Path) -> Path:
    """A fresh copy of the site in this repository (see tests/author_project.py)."""
    if destination.exists():
        shutil.rmtree(destination)
    return this_project(destination)


def add_essay_pdf(site: Path) -> Path:
    """Print the essay's PDF into the site, as publishing does after the build (pages.yml)."""
    result = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "essay_pdf.py"), str(site), "-o", str(site / "essay.pdf")],
        cwd=ROOT, capture_output=True, text=True, timeout=300,
    )
    assert result.returncode == 0, result.stderr
    return site


def site_paths(site: Path) -> list[str]:
    """Every HTML page of a built site, as URL paths relative to its root ("" is the home page)."""
    paths = []
    for html in sorted(site.rglob("*.html")):
        relative = html.relative_to(site).as_posix()
        paths.append(relative[: -len("index.html")] if relative.endswith("index.html") else relative)
    return paths


@dataclass
class PageProblems:
    """What went wrong while a page was open: console errors, page errors, failed requests."""

    origin: str
    console_errors: list[str] = field(default_factory=list)
    page_errors: list[str] = field(default_factory=list)
    failed_requests: list[str] = field(default_factory=list)
    foreign_requests: list[str] = field(default_factory=list)

    def watch(self, page: Page) -> None:
        page.on("console", self._check_console)
        page.on("pageerror", lambda error: self.page_errors.append(str(error)))
        page.on("requestfailed", self._check_failure)
        page.on("response", self._check_response)
        page.on("request", self._check_origin)

    def _check_console(self, message: ConsoleMessage) -> None:
        if message.type == "error":
            self.console_errors.append(f"{message.text} at {message.location.get('url')}")

    def _check_response(self, response: Response) -> None:
        if response.status >= 400:
            self.failed_requests.append(f"{response.url}: HTTP {response.status}")

    def _check_failure(self, request) -> None:
        # A request still in flight when the test moves to the next page is cancelled
        # (net::ERR_ABORTED): the browser's doing, not the site's.
        if request.failure != "net::ERR_ABORTED":
            self.failed_requests.append(f"{request.url}: {request.failure}")

    def _check_origin(self, request) -> None:
        if not request.url.startswith((self.origin, "data:", "blob:", "about:")):
            self.foreign_requests.append(request.url)

    def all(self) -> list[str]:
        return [*self.console_errors, *self.page_errors, *self.failed_requests,
                *(f"request to another host: {url}" for url in self.foreign_requests)]


def new_page(browser: Browser, viewport: ViewportSize,
             color_scheme: Literal["light", "dark", "no-preference", "null"] = "light", origin: str = "",
             **options: Any) -> tuple[BrowserContext, Page, PageProblems]:
    """A page on a fresh profile and what goes wrong on it; `options` go to the browser
    context (has_touch, is_mobile, java_script_enabled, ...)."""
    context = browser.new_context(viewport=viewport, color_scheme=color_scheme, **options)
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    problems = PageProblems(origin)
    problems.watch(page)
    return context, page, problems


def wait_for_material(page: Page) -> None:
    """Material's script has run: it ends by giving the page its observables (`component$`).
    (Its `no-js` class of <html> is replaced before, in the page's head: main.html.)"""
    page.wait_for_function("window.component$ !== undefined")


# Colour arithmetic for scripts run in a page (the start of a function's body): a CSS
# colour as [r, g, b, a], one colour laid over another as the browser paints it, relative
# luminance, and the contrast of two colours (WCAG 2.2).
COLOURS_JS = """  const rgba = (css) => {
    const probe = document.createElement("canvas").getContext("2d");
    probe.fillStyle = css;
    const value = probe.fillStyle;  // "#rrggbb", or "rgba(r, g, b, a)" when not opaque
    if (value.startsWith("#")) return [1, 3, 5].map(i => parseInt(value.slice(i, i + 2), 16)).concat(1);
    return value.match(/[\\d.]+/g).map(Number);
  };
  const over = ([r, g, b, a], [R, G, B]) => [r * a + R * (1 - a), g * a + G * (1 - a), b * a + B * (1 - a)];
  const luminance = (rgb) => {
    const [r, g, b] = rgb.map(v => { v /= 255; return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const contrast = (a, b) => {
    const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
    return (hi + 0.05) / (lo + 0.05);
  };
"""
