"""The verify page driven from the tests: one page, its worker and Pyodide started once per module, the
exports sent to it as bytes; what it loaded, what it asked for, and the policy it ran under, recorded."""

from __future__ import annotations

import base64
import json
import os
import re
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, Worker, expect

from eventstore.canonical import canonical_json
from replay.verify import verify
from tests.browser.conftest import STEP_TIMEOUT_MS

ROOT = Path(__file__).resolve().parents[2]
AXE = ROOT / ".venv" / "node" / "node_modules" / "axe-core" / "axe.min.js"
START_TIMEOUT_MS = 120_000  # Pyodide's first start: a few seconds here, more on a loaded CI machine
VERIFY_TIMEOUT_MS = 300_000
BATCH = 16  # exports sent to the page in one call
# every export of the list as bytes to the page's verifier, one after the other; the reports' canonical JSON
VERIFY_ALL = """async (files) => {
  const { browserVerifier } = await import("/verify/static/verifier.js");
  const out = [];
  for (const b64 of files) {
    const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
    out.push((await browserVerifier().verify(bytes.buffer)).json);
  }
  return out;
}"""
AXE_RUN = """async () => {
  const found = await axe.run(document, { resultTypes: ["violations"] });
  const nodes = (v) => v.nodes.map((n) => n.target.join(" "));
  return found.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: nodes(v) }));
}"""
SERIOUS = ("serious", "critical")


@dataclass
class PageLog:
    urls: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    console: list[str] = field(default_factory=list)

    def elsewhere(self, base_url: str) -> list[str]:
        return [url for url in self.urls if not url.startswith(f"{base_url}/")]

    def refused_by_policy(self) -> list[str]:
        return [line for line in self.console if "Content Security Policy" in line]


@dataclass
class VerifyPage:
    page: Page
    log: PageLog
    base_url: str

    @property
    def worker(self) -> Worker:
        workers = [w for w in self.page.workers if w.url.endswith("/verify/static/worker.js")]
        assert len(workers) == 1, [w.url for w in self.page.workers]
        return workers[0]

    def about(self) -> dict[str, Any]:
        found: dict[str, Any] = self.worker.evaluate("self.siege.about")
        return found

    def verify_all(self, files: list[bytes]) -> list[str]:
        """The canonical JSON of each export's report, as the browser's verifier gives it."""
        out: list[str] = []
        for start in range(0, len(files), BATCH):
            encoded = [base64.b64encode(data).decode() for data in files[start : start + BATCH]]
            out += self.page.evaluate(VERIFY_ALL, encoded)
        return out

    def python(self, source: str, call: str, argument: str) -> str:
        """Run `source` in the worker's Pyodide, then `call(argument)` (text in, text out)."""
        script = "([source, call, argument]) => { const py = self.siege.pyodide; py.runPython(source); "
        script += "return py.globals.get(call)(argument); }"
        result: str = self.worker.evaluate(script, [source, call, argument])
        return result


def require_verifier(base_url: str) -> None:
    """The zip and the runtime the service serves: a stale zip fails (the sources changed since `make
    install`); a runtime missing fails on CI and skips elsewhere (no npm here to fetch it)."""
    with urllib.request.urlopen(f"{base_url}/verify/static/verifier.json", timeout=30) as answer:
        status = json.loads(answer.read())
    stale, missing = status["bundle"]["problem"], status["pyodide"]["problem"]
    if stale:
        pytest.fail(stale)
    if missing and os.environ.get("CI"):
        pytest.fail(f"CI must test the in-browser verifier: {missing}")
    if missing:
        pytest.skip(missing)


def open_verify_page(browser: Browser, base_url: str, fragment: str = "") -> Iterator[VerifyPage]:
    require_verifier(base_url)
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-GB")
    page = context.new_page()
    page.set_default_timeout(STEP_TIMEOUT_MS)
    log = PageLog()
    page.on("request", lambda request: log.urls.append(request.url))
    page.on("pageerror", lambda error: log.errors.append(str(error)))
    page.on("console", lambda message: log.console.append(message.text))
    page.on("worker", lambda worker: worker.on("console", lambda message: log.console.append(message.text)))
    try:
        response = page.goto(f"{base_url}/verify{fragment}")
        assert response is not None and response.status == 200
        expect(page.locator("#code-status")).to_have_text(
            "Ready: the verifier runs in this browser.", timeout=START_TIMEOUT_MS
        )
        yield VerifyPage(page, log, base_url)
    finally:
        context.close()


def server_report(data: bytes) -> str:
    """What `siege verify` reports on the same bytes, in the same canonical JSON."""
    lines = data.splitlines(keepends=True)
    return canonical_json(verify(lambda: iter(lines)).wire())


# the parser's own words in the reason of a line no JSON parser reads: orjson's on the server, json's in the
# browser (replay/in_browser/orjson.py); the verdict, version, line and the rest of the reason are compared
PARSER_WORDS = re.compile(r"(is not a CloudEvents 1\.0 JSON event) \(.*?\)(\"|$)")


def without_parser_words(report: str) -> str:
    return PARSER_WORDS.sub(r"\1 (…)\2", report)


def axe_violations(page: Page) -> list[dict[str, Any]]:
    """axe-core's serious and critical findings on the page as it is now (injected past the page's policy,
    as a reader's own extension would be: the page never loads it)."""
    if not AXE.is_file():
        pytest.fail(f"no axe-core at {AXE}: run `make install` (npm installs it)")
    if not page.evaluate("typeof axe !== 'undefined'"):
        page.evaluate(AXE.read_text())
    found: list[dict[str, Any]] = page.evaluate(AXE_RUN)
    return [v for v in found if v["impact"] in SERIOUS]


def report_of(text: str) -> dict[str, Any]:
    found: dict[str, Any] = json.loads(text)
    return found
