"""/docs in a real browser: Swagger UI loads from our own assets, renders /openapi.json and runs a request."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import pytest
from playwright.sync_api import Locator, Page, expect

from schemas.commands import command_schemas
from schemas.registry import schema_rulesets
from tests.fixtures.processes import LiveService

# the live stack is shared with the other process tests, so the group keeps them on one xdist worker;
# `chromium` comes first so a machine without it skips (or fails) before the stack is started
pytestmark = [
    pytest.mark.slow,
    pytest.mark.xdist_group("processes"),
    pytest.mark.timeout(180),
    pytest.mark.usefixtures("chromium"),
]

TITLE = "Siege rules service"
SOME_OPERATIONS = [
    ("post", "/battles"),
    ("post", "/battles/{battle_id}/commands"),
    ("get", "/battles/{battle_id}/state"),
    ("get", "/rulesets"),
]
EXAMPLES = sum(len(command_schemas(ruleset)) for ruleset in schema_rulesets())  # one per command type
# the banner Swagger UI shows when it cannot fetch the spec ("Failed to load API definition") or resolve it
ERROR_BANNERS = ".errors-wrapper"


@dataclass
class PageLog:
    requests: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    def elsewhere(self, base_url: str) -> list[str]:
        return [url for url in self.requests if not url.startswith(f"{base_url}/")]


def open_docs(page: Page, live: LiveService) -> PageLog:
    """Open /docs, recording every request the page makes and every script error or failed load."""
    log = PageLog()
    page.on("request", lambda request: log.requests.append(request.url))
    page.on("pageerror", lambda error: log.errors.append(str(error)))
    page.on("requestfailed", lambda request: log.errors.append(f"{request.url}: {request.failure}"))
    response = page.goto(f"{live.base_url}/docs", wait_until="load")
    assert response is not None and response.status == 200
    return log


def operation(method: str, path: str) -> str:
    return f".opblock-{method}:has(.opblock-summary-path[data-path='{path}'])"


def opened(page: Page, method: str, path: str) -> Locator:
    """The operation's block, expanded. The click does not wait for the deep link's hash change to settle:
    on a loaded machine Swagger UI's render of the commands' body kept that wait past the step's 20 s; the
    expectations on the block wait for what the test reads instead."""
    block = page.locator(operation(method, path))
    block.locator(".opblock-summary").first.click(no_wait_after=True)
    return block


def test_swagger_ui_renders_the_operations_from_our_own_assets(
    live_service: LiveService, page: Page, tmp_path: Path
) -> None:
    log = open_docs(page, live_service)

    expect(page.locator(operation("post", "/battles"))).to_be_visible()
    page.screenshot(path=tmp_path / "docs.png", full_page=True)

    expect(page.locator(".info .title")).to_contain_text(TITLE)
    for method, path in SOME_OPERATIONS:
        expect(page.locator(operation(method, path))).to_have_count(1)
    expect(page.locator(ERROR_BANNERS)).to_have_count(0)
    assert log.errors == []
    # no CDN: the page, its scripts and styles and the spec all come from the service itself
    assert log.elsewhere(live_service.base_url) == []
    assert f"{live_service.base_url}/openapi.json" in log.requests
    assert f"{live_service.base_url}/docs/assets/swagger-ui-bundle.js" in log.requests


def test_try_it_out_on_get_rulesets_shows_the_200_answer(
    live_service: LiveService, page: Page, tmp_path: Path
) -> None:
    log = open_docs(page, live_service)
    rulesets = opened(page, "get", "/rulesets")

    rulesets.locator(".try-out__btn").click()
    rulesets.locator(".execute").click()

    answer = rulesets.locator(".live-responses-table .response")
    expect(answer.locator(".response-col_status")).to_have_text("200")
    rulesets.screenshot(path=tmp_path / "try-it-out.png")
    body = answer.locator(".response-col_description")
    expect(body).to_contain_text('"name": "epic"')
    expect(body).to_contain_text('"name": "pathfinder"')
    expect(page.locator(ERROR_BANNERS)).to_have_count(0)
    assert log.errors == []
    assert f"{live_service.base_url}/rulesets" in log.requests  # the spec's server is the service itself
    assert log.elsewhere(live_service.base_url) == []


def test_the_command_body_shows_a_working_example_of_every_command_type(
    live_service: LiveService, page: Page, tmp_path: Path
) -> None:
    log = open_docs(page, live_service)
    commands = opened(page, "post", "/battles/{battle_id}/commands")

    body = commands.locator(".opblock-section-request-body")
    expect(body).to_contain_text('"type": "advance_phase"')  # the first example, selected
    chooser = body.locator(".examples-select select")
    expect(chooser.locator("option")).to_have_count(EXAMPLES)
    chooser.select_option("epic.climb")
    expect(body).to_contain_text('"stand_id": "csm"')
    commands.screenshot(path=tmp_path / "command-examples.png")
    expect(page.locator(ERROR_BANNERS)).to_have_count(0)
    assert log.errors == []
