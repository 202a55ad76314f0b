"""Browser fixtures: Debian's Chromium driven by Playwright, headless, on loopback only."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, expect, sync_playwright

# Playwright cannot download its own browser here, so it drives the system one; these flags keep Chromium
# from dialling out (the closed network refuses it) and from needing a sandbox or a GPU as root in CI.
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
LAUNCH_TIMEOUT_MS = 30_000
STEP_TIMEOUT_MS = 20_000


@pytest.fixture(scope="session")
def chromium() -> str:
    """The system Chromium; a skip only where this machine could not have installed it (`make install`
    does, as root with apt-get), so CI, which is root, fails instead of quietly testing no page."""
    found = shutil.which("chromium")
    if found:
        return found
    if os.geteuid() == 0 and shutil.which("apt-get") is not None:
        pytest.fail("no chromium on PATH although this machine can install it: run `make install`")
    pytest.skip("no chromium on PATH and no root apt-get to install it: `apt-get install chromium`")


@pytest.fixture(scope="session")
def browser(chromium: str) -> Iterator[Browser]:
    # an expectation waits as long as a step: Playwright's own 5 s default failed Swagger UI's first render
    # of the whole document on a loaded CI machine (the other xdist worker and its live stack share two cores)
    expect.set_options(timeout=STEP_TIMEOUT_MS)
    with sync_playwright() as playwright:
        # launch() gives Chromium a new empty --user-data-dir of its own and deletes it on close
        launched = playwright.chromium.launch(
            executable_path=chromium, args=CHROMIUM_ARGS, timeout=LAUNCH_TIMEOUT_MS
        )
        try:
            yield launched
        finally:
            launched.close()


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": 1280, "height": 1600})
    opened = context.new_page()
    opened.set_default_timeout(STEP_TIMEOUT_MS)
    try:
        yield opened
    finally:
        context.close()
