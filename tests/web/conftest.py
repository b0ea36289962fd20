"""Fixtures of the web board tests: the app over HTTP (TestClient), a live server, Debian's Chromium.

Browser tests run Playwright against /usr/bin/chromium (Playwright's own browser download is not
available here). They are skipped, with the reason, only when Chromium is missing outside CI; in CI
(`CI` set, as `.ci/run` does) a missing browser is a failure.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
import time
from pathlib import Path

import pytest

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
#: Where the browser tests save their screenshots (test artefacts).
SCREENSHOTS = Path(__file__).resolve().parents[2] / "build" / "screenshots"


@pytest.fixture
def client():
    import warnings
    with warnings.catch_warnings():   # starlette's TestClient asks for httpx2, which is not needed here
        warnings.simplefilter("ignore")
        from fastapi.testclient import TestClient

    from burano_ai.web.app import create_app
    # a loopback name as Host: the app refuses any other (burano serve --allow-host adds names)
    with TestClient(create_app(), raise_server_exceptions=False, base_url="http://127.0.0.1") as c:
        yield c


class LiveServer(str):
    """The base URL of a live server, with its app (`.app.state.games`: the games it holds)."""

    app = None


@pytest.fixture(scope="module")
def live_server():
    """The board served by uvicorn in a thread; yields its base URL (a `LiveServer`)."""
    from burano_ai.web.server import BackgroundServer
    server = BackgroundServer()
    url = LiveServer(server.url)
    url.app = server.app
    yield url
    server.stop()


def _need_browser():
    if not os.path.exists(CHROMIUM) and not os.environ.get("CI"):
        pytest.skip(f"{CHROMIUM} is missing (apt-get install chromium); the browser tests run in CI")
    try:
        import playwright.sync_api
        del playwright
    except ImportError:
        if os.environ.get("CI"):
            raise
        pytest.skip("playwright is not installed (pip install -e '.[test]')")


@pytest.fixture(scope="module")
def playwright_driver():
    """Playwright's driver for the module's browser contexts (one per thread)."""
    _need_browser()
    from playwright.sync_api import sync_playwright
    with sync_playwright() as pw:
        yield pw


@contextlib.contextmanager
def _browser(pw, prefix: str):
    """A Chromium (1280 x 800) with a fresh profile of its own; closed and its profile removed after."""
    profile = tempfile.mkdtemp(prefix=prefix)
    context = pw.chromium.launch_persistent_context(profile, executable_path=CHROMIUM, args=CHROMIUM_ARGS,
                                                    headless=True, viewport={"width": 1280, "height": 800})
    try:
        yield context
    finally:
        context.close()
        shutil.rmtree(profile, ignore_errors=True)


@pytest.fixture(scope="module")
def browser_context(playwright_driver):
    with _browser(playwright_driver, "burano-chromium-") as context:
        yield context


@pytest.fixture
def stranger_page(playwright_driver):
    """A page in a second browser (its own profile): another person, who holds none of the first page's
    tokens."""
    with _browser(playwright_driver, "burano-chromium-stranger-") as context:
        page = context.new_page()
        page.set_default_timeout(15_000)
        yield page


@pytest.fixture
def page(browser_context):
    page = browser_context.new_page()
    page.set_default_timeout(15_000)
    yield page
    page.close()


def wait_until(condition, guard: float = 20.0) -> bool:
    """Poll `condition()` until true or `guard` seconds pass (a guard against hangs, not a timing check)."""
    deadline = time.monotonic() + guard
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.01)
    return condition()


def screenshot(page, name: str) -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    page.screenshot(path=str(path))
    return path
