"""GET /verify in headless Chromium against the live stack: Pyodide runs the zip of this checkout's own rules/
and verifier, and its verdict on every golden battle, on each tampered copy the verifier tests make and on a
10,000-entry battle is the one `siege verify` gives, byte for byte; nothing leaves the origin, the page's
policy is the viewer's plus WebAssembly only, and axe-core finds nothing serious on it."""

from __future__ import annotations

import itertools
import json
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient
from playwright.sync_api import Browser, expect

from bench.biglog import extend
from bench.scenarios import epic_turns
from eventstore.config import connect
from replay.export import export_lines
from replay.in_browser import bundle
from rules.registry import folded_versions, ruleset_names
from service import pyodide_runtime as runtime
from service.endpoints.verify import WASM_CSP
from service.endpoints.viewer import CSP
from tests.browser.verify_page import (
    VERIFY_TIMEOUT_MS,
    VerifyPage,
    axe_violations,
    open_verify_page,
    report_of,
    server_report,
    without_parser_words,
)
from tests.fixtures.processes import LiveService
from tests.processes.client import create_battle
from tests.referee import folding
from tests.service.exports import (
    TAMPERS,
    UNSUPPORTED,
    UNUSABLE,
    UNUSABLE_LINES,
    exported,
    first_stream_roll,
    line_of,
    played,
    repinned,
)
from workers.projection import project_battle

pytestmark = [
    pytest.mark.slow,
    pytest.mark.xdist_group("processes"),
    pytest.mark.timeout(600),
    pytest.mark.usefixtures("chromium"),
]

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
FILES = sorted(GOLDEN.glob("*/*.jsonl"))
# concluded, with stream dice, long enough for every tamper of tests/service/exports.py
TAMPERED_FROM = GOLDEN / "epic-2" / "epic-extra-climb-fight-client-seed-undo-unknown-command.jsonl"
BIG = 10_000
POLICED = (
    "/verify",
    "/verify/static/verify.js",
    "/verify/static/worker.js",
    "/verify/static/pyodide/pyodide.mjs",
)


@pytest.fixture(scope="module")
def verify_page(browser: Browser, live_service: LiveService) -> Iterator[VerifyPage]:
    """One page for the module: Pyodide starts once, every export goes to the same worker."""
    yield from open_verify_page(browser, live_service.base_url)


def policy_of(url: str) -> str:
    with urllib.request.urlopen(url, timeout=30) as served:
        return str(served.headers["Content-Security-Policy"])


def lines_of(path: Path) -> list[bytes]:
    return path.read_bytes().splitlines(keepends=True)


def test_the_page_runs_the_zip_built_from_these_sources_and_shows_its_digest(verify_page: VerifyPage) -> None:
    about = verify_page.about()
    expected = bundle.digest()  # the zip these sources give, built again here

    assert about["sha256"] == about["published"] == expected
    assert about["rules"] == {name: list(folded_versions(name)) for name in ruleset_names()}
    code = verify_page.page.locator("#code")
    expect(code).to_contain_text(expected)
    expect(code).to_contain_text("epic epic-1, epic-2; pathfinder pathfinder-1, pathfinder-2")
    expect(code).to_contain_text(f"Pyodide {about['pyodide']}")
    ((wheel, wheel_sha256),) = runtime.pinned().wheels.items()
    assert about["wheels"] == {wheel: wheel_sha256}  # computed in the worker from the bytes it unpacked
    expect(code).to_contain_text(f"{wheel} sha256 {wheel_sha256}")
    # every module of ours and the stand-in came out of that zip, the stand-in's msgspec out of the pinned
    # wheel (its compiled core too), none from anywhere else
    modules: dict[str, str] = about["modules"]
    assert modules["rules.fold"] == "/siege/rules/fold.py" and modules["orjson"] == "/siege/orjson.py"
    assert modules["replay.verify"] == "/siege/replay/verify.py"  # the verifier itself, from the zip too
    assert modules["msgspec._core"].startswith("/wheels/msgspec/_core.cpython-314-wasm32-emscripten")
    elsewhere = {m: file for m, file in modules.items() if not file.startswith("/siege/")}
    assert elsewhere and {m.split(".")[0] for m in elsewhere} == {"msgspec"}
    assert all(file.startswith("/wheels/msgspec/") for file in elsewhere.values())
    assert sum(1 for m in modules if m.startswith("rules.")) > 50


def test_every_golden_battle_gets_the_very_report_siege_verify_gives(verify_page: VerifyPage) -> None:
    files = [path.read_bytes() for path in FILES]
    assert {path.parent.name for path in FILES} == {"epic-1", "epic-2", "pathfinder-1", "pathfinder-2"}

    reports = verify_page.verify_all(files)

    for path, data, got in zip(FILES, files, reports, strict=True):
        assert got == server_report(data), path.name
        assert report_of(got)["status"] == "verified", path.name


@pytest.mark.parametrize("ruleset", ["epic", "pathfinder"])
def test_each_tampered_copy_gets_the_verdict_kind_version_and_line_siege_verify_gives(
    verify_page: VerifyPage, ruleset: str, request: pytest.FixtureRequest
) -> None:
    lines = lines_of(TAMPERED_FROM) if ruleset == "epic" else pathfinder_export(request)
    copies = {name: make(lines) for name, (make, _, _) in TAMPERS.items()}
    copies |= {f"unusable:{name}": make(lines) for name, make in UNUSABLE.items()}
    copies |= {f"unsupported:{name}": repinned(lines, pins) for name, pins in UNSUPPORTED.items()}

    reports = dict(zip(copies, verify_page.verify_all([b"".join(c) for c in copies.values()]), strict=True))

    for name, copy in copies.items():
        expected = server_report(b"".join(copy))
        assert without_parser_words(reports[name]) == without_parser_words(expected), name
    for name, (_, version, kind) in TAMPERS.items():
        finding = report_of(reports[name])["finding"]
        at = version(copies[name])
        wanted = {"kind": kind, "version": at, "line": line_of(copies[name], at)}
        assert {k: finding[k] for k in wanted} == wanted, name
    for name, line in UNUSABLE_LINES.items():
        found = report_of(reports[f"unusable:{name}"])
        assert (found["status"], found["finding"]["line"]) == ("unusable", line(copies[f"unusable:{name}"]))
    for name in UNSUPPORTED:
        assert report_of(reports[f"unsupported:{name}"])["status"] == "unsupported"


def pathfinder_export(request: pytest.FixtureRequest) -> list[bytes]:
    """A concluded pathfinder battle with stream dice, as the verifier's own tests tamper with it (the golden
    pathfinder files supply every die themselves)."""
    client: FlaskClient = request.getfixturevalue("client")
    lines = exported(client, played(client, request.getfixturevalue("redis_store"), "pathfinder"))
    assert first_stream_roll(lines)[0] > 0
    return lines


def test_the_browser_folds_the_golden_corpus_to_the_same_outcomes_and_states_as_the_server(
    verify_page: VerifyPage,
) -> None:
    """One referee: the browser is a third build of rules/ (tests/referee), its outcome and state after every
    entry of every golden battle the same bytes as this process's pure Python."""
    source = Path(folding.__file__).read_text()
    for path in FILES:
        events = [json.loads(line)["data"] for line in lines_of(path)]
        entries = json.dumps([{k: e[k] for k in ("version", "type", "data", "dice")} for e in events])

        browser = verify_page.python(source, "digests", entries)

        assert json.loads(browser) == json.loads(folding.digests(entries)), path.name


def test_a_file_chosen_on_the_page_shows_the_verdict_siege_verify_prints_with_progress_and_time(
    verify_page: VerifyPage, tmp_path: Path
) -> None:
    page = verify_page.page
    make, version, kind = TAMPERS["edited_outcome"]
    copy = make(lines_of(TAMPERED_FROM))
    file = tmp_path / "tampered.jsonl"
    file.write_bytes(b"".join(copy))
    finding = report_of(server_report(file.read_bytes()))["finding"]

    page.set_input_files("#file", str(file))

    expect(page.locator("#elapsed")).to_contain_text("Checked in this browser in", timeout=VERIFY_TIMEOUT_MS)
    expect(page.locator("#verdict")).to_have_text(f"TAMPERED {finding['summary']}")
    assert finding["summary"].startswith(f"version {version(copy)}: {kind}: ")
    expect(page.locator("#verdict")).to_have_class("tampered")
    expect(page.locator("#details")).to_contain_text(f"line {finding['line']} of the file")
    expect(page.locator("#details")).to_contain_text("this browser")
    assert page.locator("#progress").evaluate("bar => bar.value") == 1

    page.set_input_files("#file", str(TAMPERED_FROM))
    expect(page.locator("#verdict")).to_have_text("VERIFIED", timeout=VERIFY_TIMEOUT_MS)
    expect(page.locator("#details")).to_contain_text("14 re-folded and equal, 0 pending")
    expect(page.locator("#details")).to_contain_text("matches its commitment")


def test_nothing_leaves_the_origin_and_the_policy_is_the_viewers_plus_webassembly(
    verify_page: VerifyPage, live_service: LiveService
) -> None:
    log = verify_page.log
    policies = {path: policy_of(f"{live_service.base_url}{path}") for path in POLICED}

    # a dedicated worker runs under the policy its own script was served with: the same one
    assert policies == dict.fromkeys(POLICED, WASM_CSP)
    assert CSP.replace("script-src 'self'", "script-src 'self' 'wasm-unsafe-eval'") == WASM_CSP
    assert log.elsewhere(live_service.base_url) == []
    # the worker fetched Pyodide and the zip from here: the page's own log holds its requests too
    for name in ("pyodide/pyodide.asm.wasm", "pyodide/python_stdlib.zip", bundle.BUNDLE):
        assert f"{live_service.base_url}/verify/static/{name}" in log.urls
    assert log.refused_by_policy() == [] and log.errors == []


def test_axe_finds_no_serious_or_critical_violation_on_the_verify_page(verify_page: VerifyPage) -> None:
    page = verify_page.page
    # a verdict on the page first, whichever tests ran before on it (or none: xdist may run this one alone)
    expect(page.locator("#file")).to_be_enabled(timeout=VERIFY_TIMEOUT_MS)
    page.set_input_files(
        "#file", files=[TAMPERED_FROM]
    )  # an honest file, despite the name: copies are made of it
    expect(page.locator("#verdict")).to_have_text("VERIFIED", timeout=VERIFY_TIMEOUT_MS)
    expect(page.locator("#details dt")).not_to_have_count(0)

    assert axe_violations(verify_page.page) == []


@pytest.fixture(scope="module")
def big_battle(live_service: LiveService) -> tuple[str, str]:
    """A concluded epic battle of BIG entries (busy turns: fire, barrages, assaults, refusals), its log
    written straight to the live store and folded here, as the workers fold it."""
    battle_id, gm = create_battle(live_service)
    store = live_service.store()
    commands = itertools.chain(itertools.islice(epic_turns(BIG), BIG - 2), [{"type": "conclude"}])
    assert extend(connect(live_service.redis_url), store, battle_id, commands) == BIG
    project_battle(store, store, battle_id)
    # the service's own workers may fold it at the same time: a fold that finds its batch written already
    # leaves the rest to the one that wrote it, so the last outcome (`conclude`'s reveal) may still be due
    deadline = time.monotonic() + 120
    while store.projected_version(battle_id) < BIG and time.monotonic() < deadline:
        time.sleep(0.05)
    assert store.projected_version(battle_id) == BIG
    return battle_id, gm


def test_a_10000_entry_battle_fetched_with_the_readers_token_verifies_as_siege_verify_says(
    browser: Browser, live_service: LiveService, big_battle: tuple[str, str]
) -> None:
    battle_id, gm = big_battle
    expected = report_of(server_report(b"".join(export_lines(live_service.store(), battle_id))))
    assert (expected["status"], expected["entries"]) == ("verified", BIG)

    for opened in open_verify_page(browser, live_service.base_url, f"#battle={battle_id}&token={gm}"):
        page = opened.page
        expect(page.locator("#verdict")).to_have_text("VERIFIED", timeout=VERIFY_TIMEOUT_MS)
        expect(page.locator("#details")).to_contain_text(f"{BIG} re-folded and equal, 0 pending")
        expect(page.locator("#details")).to_contain_text(f"{expected['dice']['checked_rolls']} stream dice")
        assert page.evaluate("location.hash") == ""  # the token left the address bar at once
        assert [url for url in opened.log.urls if gm in url] == []
        assert opened.log.elsewhere(live_service.base_url) == []
        print(f"in-browser verify of {BIG} entries: {page.locator('#elapsed').text_content()}")


def test_without_the_runtime_the_page_says_how_to_get_it(browser: Browser, live_service: LiveService) -> None:
    """The status a service without the Pyodide files answers (tests/service/test_verify_page.py), served to a
    fresh page: it says what is missing and how to get it, and loads no runtime file."""
    missing = verify_status(live_service.base_url)
    missing["pyodide"]["problem"] = runtime.how_to_get()
    context = browser.new_context()
    try:
        page = context.new_page()
        urls: list[str] = []
        page.on("request", lambda request: urls.append(request.url))
        page.route("**/verify/static/verifier.json", lambda route: route.fulfill(json=missing))

        page.goto(f"{live_service.base_url}/verify")

        status = page.locator("#code-status")
        expect(status).to_have_text(f"The verifier cannot start here: {runtime.how_to_get()}")
        expect(status).to_contain_text("make install")
        expect(page.locator("#file")).to_be_disabled()
        assert [url for url in urls if "/pyodide/" in url] == []
    finally:
        context.close()


def verify_status(base_url: str) -> dict[str, Any]:
    with urllib.request.urlopen(f"{base_url}/verify/static/verifier.json", timeout=30) as answer:
        found: dict[str, Any] = json.loads(answer.read())
    return found
