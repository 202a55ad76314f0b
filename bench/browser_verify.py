"""The in-browser verifier's rate beside `siege verify`'s: one export of a concluded battle of busy epic
turns, checked by `replay.verify.verify` in this process and by GET /verify in headless Chromium
(Pyodide in a worker), each timed from the bytes read to the report, the best of a few alternated runs of
each side, the page's start-up told apart."""

from __future__ import annotations

import base64
import itertools
import shutil
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench.measures import Row, _timed_fold, create_battles
from bench.scenarios import epic_turns
from bench.stack import Bench
from eventstore.config import connect
from eventstore.redis_store import RedisEventStore
from replay.export import export_lines
from replay.verify import file_lines, verify

ROUNDS = 3  # runs of each side, alternated
START_TIMEOUT_MS = 120_000
VERIFY_TIMEOUT_MS = 600_000
# the export's bytes to the page's verifier: its report's status and the milliseconds the worker took
VERIFY_IN_PAGE = """async (b64) => {
  const { browserVerifier } = await import("/verify/static/verifier.js");
  const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
  const { report, ms } = await browserVerifier().verify(bytes.buffer);
  return { status: report.status, entries: report.entries, ms };
}"""
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]


def measure(bench: Bench, entries: int, work_dir: Path) -> list[Row]:
    target = _exported(bench, entries, work_dir / "browser-verify.jsonl")
    label = "the same export checked in the browser (GET /verify: Pyodide in headless Chromium"
    chromium = shutil.which("chromium")
    if chromium is None:
        return [Row(f"{label})", "not measured: no chromium here (`make install` installs it as root)")]
    native: list[tuple[float, str]] = []  # each in-process run's rate and status

    def in_process() -> None:
        start = time.perf_counter()
        report = verify(file_lines(target, lambda read: None))
        native.append((report.entries / (time.perf_counter() - start), report.status))

    found = _in_browser(chromium, bench.service_url, target.read_bytes(), in_process)
    (server_rate, status), browser_rate = max(native), max(found["rates"])
    return [
        Row(
            f"siege verify's verifier in-process, {entries:,} entries of epic turns ({status}), "
            f"best of {ROUNDS}",
            f"{server_rate:,.0f} entries/s",
        ),
        Row(
            f"{label}, {found['status']}; the page's start-up {found['start_s']:.1f} s), best of {ROUNDS} "
            "alternated with the in-process runs",
            f"{browser_rate:,.0f} entries/s, {browser_rate / server_rate:.0%} of siege verify's",
            "≥ 50 % of siege verify's",
        ),
    ]


def _exported(bench: Bench, entries: int, target: Path) -> Path:
    ((battle_id, _token),) = create_battles(bench, 1)
    played = itertools.islice(epic_turns(entries), max(entries - 2, 0))
    commands = itertools.chain(played, [{"type": "conclude"}])
    _timed_fold(bench, battle_id, commands)
    store = RedisEventStore(connect(bench.redis_url))
    with target.open("wb") as out:
        out.writelines(export_lines(store, battle_id))
    return target


def _in_browser(
    chromium: str, service_url: str, data: bytes, in_process: Callable[[], None]
) -> dict[str, Any]:
    """The page's rate for the export, ROUNDS times, each run followed by one of `in_process` (one timed run
    of either side moves by half on a busy machine: the best of a few alternated runs is the figure)."""
    from playwright.sync_api import expect, sync_playwright

    rates: list[float] = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page()
            began = time.perf_counter()
            page.goto(f"{service_url}/verify")
            ready = page.locator("#code-status")
            expect(ready).to_have_text("Ready: the verifier runs in this browser.", timeout=START_TIMEOUT_MS)
            start_s = time.perf_counter() - began
            page.set_default_timeout(VERIFY_TIMEOUT_MS)
            encoded = base64.b64encode(data).decode()
            for _ in range(ROUNDS):
                found: dict[str, Any] = page.evaluate(VERIFY_IN_PAGE, encoded)
                rates.append(float(found["entries"]) / (float(found["ms"]) / 1000))
                in_process()
        finally:
            browser.close()
    return {"status": found["status"], "rates": rates, "start_s": start_s}
