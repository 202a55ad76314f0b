"""The battle viewer in a real browser against the live stack: the east-wall assault and a scattered shot,
stepped through with the buttons and the keys, read off the screen; the token stays out of every URL."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Locator, Page, Route, ViewportSize, expect

from replay.export import export_lines
from replay.in_browser import bundle
from rules.registry import get_ruleset
from service.access.tokens import OBSERVER
from tests.browser.battles import (
    EAST_WALL,
    EAST_WALL_ASSAULT,
    EAST_WALL_REJECTED,
    FORTRESS,
    SCATTERED_SHOT,
    SHOT_VERSION,
    Played,
    play,
    send_waiting,
)
from tests.browser.conftest import STEP_TIMEOUT_MS
from tests.browser.verify_page import START_TIMEOUT_MS as START_MS
from tests.browser.verify_page import axe_violations, require_verifier
from tests.fixtures.processes import LiveService
from tests.service.exports import repinned, written_by_another_release

pytestmark = [
    pytest.mark.slow,
    pytest.mark.xdist_group("processes"),
    pytest.mark.timeout(240),
    pytest.mark.usefixtures("chromium"),
]

DESKTOP = ViewportSize(width=1280, height=800)
RULES_VERSION = ", ".join(get_ruleset("epic").rules_versions)
PHONE = ViewportSize(width=390, height=844)


@dataclass
class PageLog:
    urls: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)


@pytest.fixture(scope="module")
def east_wall(live_service: LiveService) -> Played:
    return play(live_service, "epic", "East wall", EAST_WALL)


@pytest.fixture(scope="module")
def fortress(live_service: LiveService) -> Played:
    return play(live_service, "epic", "Fortress", FORTRESS)


@pytest.fixture(scope="module")
def scattered(live_service: LiveService) -> Played:
    return play(live_service, "pathfinder", "Scattered shot", SCATTERED_SHOT)


@pytest.fixture(scope="session")
def artifacts(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Screenshots go to SIEGE_TEST_ARTIFACTS when set (CI uploads it), else to a temp dir; printed."""
    given = os.environ.get("SIEGE_TEST_ARTIFACTS")
    directory = Path(given) / "viewer" if given else tmp_path_factory.mktemp("viewer-screenshots")
    directory.mkdir(parents=True, exist_ok=True)
    print(f"viewer screenshots: {directory}")
    return directory


def viewer_page(browser: Browser, viewport: ViewportSize, locale: str) -> Iterator[Page]:
    context = browser.new_context(viewport=viewport, locale=locale)
    page = context.new_page()
    page.set_default_timeout(STEP_TIMEOUT_MS)
    try:
        yield page
    finally:
        context.close()


@pytest.fixture
def desktop_en(browser: Browser) -> Iterator[Page]:
    yield from viewer_page(browser, DESKTOP, "en-GB")


@pytest.fixture
def phone_fr(browser: Browser) -> Iterator[Page]:
    yield from viewer_page(browser, PHONE, "fr-FR")


def open_viewer(page: Page, live: LiveService, played: Played) -> PageLog:
    log = PageLog()
    page.on("request", lambda request: log.urls.append(request.url))
    page.on("pageerror", lambda error: log.errors.append(str(error)))
    response = page.goto(f"{live.base_url}/viewer/{played.battle_id}#token={played.observer_token}")
    assert response is not None and response.status == 200
    expect(page.locator("#log li[data-version]")).to_have_count(played.head)
    return log


def version_shown(page: Page, version: int, head: int) -> None:
    expect(page.locator("#version")).to_have_value(str(version))
    expect(page.locator(f'#log li[data-version="{version}"]')).to_have_attribute("aria-current", "step")


def assert_fits_the_width(page: Page) -> None:
    """Nothing wider than the viewport: no sideways scrolling on a phone."""
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def assert_token_kept_out(page: Page, log: PageLog, played: Played, base_url: str) -> None:
    # the fragment is gone from the address bar, and no request line ever carried the token
    assert page.evaluate("location.hash") == ""
    assert played.observer_token not in page.url
    assert [url for url in log.urls if played.observer_token in url] == []
    assert [url for url in log.urls if not url.startswith(f"{base_url}/")] == []
    assert log.errors == []


def test_the_east_wall_assault_steps_through_its_versions(
    live_service: LiveService, east_wall: Played, desktop_en: Page, artifacts: Path
) -> None:
    page = desktop_en
    log = open_viewer(page, live_service, east_wall)
    version_shown(page, east_wall.head, east_wall.head)
    wall = page.locator('#map g.section[data-entity-id="E1"]')
    expect(wall.locator(".section-status")).to_have_text("intact")
    expect(page.locator("#map-caption")).to_have_text("Turn 1 · close combat")
    expect(page.locator('#map g.stand[data-entity-id="goff"]')).to_have_class(
        "stand side-defender type-infantry destroyed"
    )

    page.get_by_role("button", name="Previous version").click()
    page.get_by_role("button", name="Previous version").click()
    version_shown(page, EAST_WALL_ASSAULT - 1, east_wall.head)
    # before the assault: goff holds E1, csm waits at its foot
    expect(page.locator('#map g.stand[data-entity-id="goff"]')).not_to_have_class("destroyed")
    expect(page.locator('#map g.stand[data-entity-id="csm"]')).to_have_attribute(
        "aria-label", "csm (infantry, Attacker, caf 3)"
    )
    page.keyboard.press("ArrowRight")
    version_shown(page, EAST_WALL_ASSAULT, east_wall.head)
    expect(page.locator('#map g.stand[data-entity-id="goff"] .cross')).to_have_count(1)
    assault = page.locator(f'#log li[data-version="{EAST_WALL_ASSAULT}"]')
    expect(assault.locator(".summary")).to_have_text(
        "Assault of csm against goff on E1: the attacker wins (15 vs 11); destroyed: goff"
    )
    expect(assault.locator('[data-check="attacker"] .check-text')).to_have_text("[6, 6] + 3 CAF = 15 vs 11")
    expect(assault.locator('[data-check="defender"] .check-text')).to_have_text(
        "[1, 2] + 2 CAF + 6 fortification VA = 11 vs 15"
    )
    expect(assault.locator(".die")).to_have_text(
        ["attacker d6 6 client", "attacker d6 6 client", "defender d6 1 client", "defender d6 2 client"]
    )
    page.keyboard.press("Home")
    version_shown(page, 1, east_wall.head)
    expect(page.locator("#map g[data-entity-id]")).to_have_count(0)
    page.keyboard.press("End")
    version_shown(page, east_wall.head, east_wall.head)
    page.locator("#version").fill(str(EAST_WALL_REJECTED))  # the slider, dragged there
    version_shown(page, EAST_WALL_REJECTED, east_wall.head)
    expect(page.locator('#map g.stand[data-entity-id="csm"]')).to_have_count(1)
    page.keyboard.press("End")
    version_shown(page, east_wall.head, east_wall.head)

    rejected = page.locator(f'#log li[data-version="{EAST_WALL_REJECTED}"]')
    expect(rejected).to_have_class("entry rejected")
    expect(rejected.locator(".entry-status")).to_have_text("rejected")
    expect(rejected.locator(".summary")).to_have_text(
        "csm cannot climb in the orders phase: only in the movement phase"
    )
    expect(rejected.locator(".reason code")).to_have_text("wrong_phase")
    badge = page.locator("#audit")
    expect(badge).to_have_class("badge ok")
    expect(badge).to_contain_text("Audit passed")
    expect(badge).to_contain_text("chain intact")
    expect(badge).to_contain_text("seed revealed and matches its commitment")
    page.screenshot(path=artifacts / "viewer-epic-1280x800.png")
    page.set_viewport_size(PHONE)
    expect(wall.locator(".section-status")).to_be_visible()
    assert_fits_the_width(page)
    page.screenshot(path=artifacts / "viewer-epic-390x844.png", full_page=True)
    assert_token_kept_out(page, log, east_wall, live_service.base_url)


def test_the_fortress_shows_sections_by_adjacency_stands_everywhere_a_jammed_gate_and_a_failed_save(
    live_service: LiveService, fortress: Played, desktop_en: Page, artifacts: Path
) -> None:
    page = desktop_en
    log = open_viewer(page, live_service, fortress)
    sections = page.locator("#map g.section")
    expect(sections).to_have_count(3)
    # G1 is adjacent to both W1 and T1, so it stands between them, whatever the creation order
    assert [sections.nth(i).get_attribute("data-entity-id") for i in range(3)] == ["W1", "G1", "T1"]
    wall = page.locator('#map g.section[data-entity-id="W1"]')
    expect(wall.locator(".section-status")).to_have_text("intact · 1 failed save")
    expect(page.locator('#map g.section[data-entity-id="G1"] .gate-state')).to_have_text("closed · jammed")
    lev = page.locator('#map g.stand[data-entity-id="lev"]')
    expect(lev.locator('g.passenger[data-entity-id="tac"]')).to_have_count(1)
    for stand_id in ["goff", "nob", "boyz", "grot", "d1", "csm"]:
        expect(page.locator(f'#map g.stand[data-entity-id="{stand_id}"]')).to_have_count(1)
    shot = page.locator(f'#log li[data-version="{fortress.head}"]')
    expect(shot.locator('[data-check="to_hit"] .check-text')).to_have_text("[4] vs 4+ (success)")
    expect(shot.locator('[data-check="save"] .check-text')).to_have_text("[1, 1] = 2 vs 3 (failure)")
    page.screenshot(path=artifacts / "viewer-fortress-1280x800.png")

    for _ in range(3):
        page.keyboard.press("ArrowLeft")
    version_shown(page, fortress.head - 3, fortress.head)
    # before the jam and the shot: the gate is only closed, the wall has failed nothing
    expect(page.locator('#map g.section[data-entity-id="G1"] .gate-state')).to_have_text("closed")
    expect(wall.locator(".section-status")).to_have_text("intact")
    page.set_viewport_size(PHONE)
    assert_fits_the_width(page)
    page.screenshot(path=artifacts / "viewer-fortress-390x844.png", full_page=True)
    assert_token_kept_out(page, log, fortress, live_service.base_url)


def test_the_scattered_shot_shows_its_landing_square_in_french_on_a_phone(
    live_service: LiveService, scattered: Played, phone_fr: Page, artifacts: Path
) -> None:
    page = phone_fr
    log = open_viewer(page, live_service, scattered)
    expect(page.locator("h1")).to_contain_text("Visionneuse de bataille")
    expect(page.locator("#map-caption")).to_have_text("Round 1 · vent calme")
    landing = page.locator('#map g.landing[data-square="0,47"]')
    expect(landing).to_have_count(1)
    expect(page.locator("#map .scatter-path")).to_have_count(1)
    expect(page.locator('#map-notes li[data-entity-id="lc"]')).to_have_text(
        f"v{SHOT_VERSION} lc: case visée (0, 40) → point d'impact (0, 47) · N 7"
    )
    shot = page.locator(f'#log li[data-version="{SHOT_VERSION}"]')
    expect(shot.locator(".summary")).to_contain_text("(0, 47)")
    expect(shot.locator('[data-check="roll"] .check-text')).to_have_text(
        "[5] − 2 facteur de portée = 3 contre 15 (échec)"
    )
    expect(shot.locator('[data-check="damage"] .check-text')).to_have_text("[1, 2, 3, 4] = 10")
    expect(shot.locator('.die[data-slot="scatter_distance"]')).to_have_text(
        ["scatter_distance d4 3 client", "scatter_distance d4 4 client"]
    )
    assert_fits_the_width(page)
    page.screenshot(path=artifacts / "viewer-pathfinder-390x844.png", full_page=True)

    page.get_by_role("button", name="Version précédente").click()
    version_shown(page, SHOT_VERSION - 1, scattered.head)
    # before the shot: the engine is loaded and aimed at (0, 40); nothing has landed
    expect(page.locator("#map g.landing")).to_have_count(0)
    expect(page.locator('#map g.aim[data-entity-id="lc"]')).to_have_attribute("data-square", "0,40")
    expect(page.locator('#map g.engine[data-entity-id="lc"]')).to_have_class("engine loaded aimed")
    expect(page.locator('#map g.structure[data-entity-id="g1"] .hp-bar')).to_have_count(1)
    expect(page.locator('#map g.creature.crew[data-entity-id="c1"]')).to_have_count(1)
    page.get_by_role("button", name="Dernière version").click()
    version_shown(page, scattered.head, scattered.head)
    expect(page.locator("#audit")).to_contain_text("graine pas encore révélée")
    page.set_viewport_size(DESKTOP)
    expect(landing).to_be_visible()
    page.screenshot(path=artifacts / "viewer-pathfinder-1280x800.png")
    assert_token_kept_out(page, log, scattered, live_service.base_url)


# a check as an older battle may hold it: one label the rules know, one no catalog has a word for
OLD_LABEL = """async () => {
  const { describeCheck } = await import("/viewer/static/log.js");
  const { labels } = await import("/viewer/static/i18n.js");
  const modifiers = [{ label: "bab", value: 1 }, { label: "retired_label", value: -1 }];
  const check = { slot: "attack", natural: 5, modifiers, total: 5, target_number: 15, success: false };
  return describeCheck("roll", check, {}, labels("fr"), "pathfinder").text;
}"""


def test_the_scattered_shot_reads_its_modifiers_in_english_and_an_unknown_label_as_its_code(
    live_service: LiveService, scattered: Played, desktop_en: Page
) -> None:
    page = desktop_en
    log = open_viewer(page, live_service, scattered)
    shot = page.locator(f'#log li[data-version="{SHOT_VERSION}"]')
    expect(shot.locator('[data-check="roll"] .check-text')).to_have_text(
        "[5] − 2 range increments = 3 vs 15 (failure)"
    )

    # a label the catalogs have no word for is shown as its code, so an older battle still reads
    assert page.evaluate(OLD_LABEL) == "[5] + 1 BBA − 1 retired_label = 5 contre 15 (échec)"
    assert_token_kept_out(page, log, scattered, live_service.base_url)


def test_live_mode_shows_new_outcomes_as_they_land(
    live_service: LiveService, desktop_en: Page, artifacts: Path
) -> None:
    played = play(live_service, "epic", "Live", EAST_WALL[:3])
    page = desktop_en
    log = open_viewer(page, live_service, played)
    page.get_by_label("Follow live").check()
    expect(page.locator("#live-status")).to_have_text("Live: following the battle")  # the stream is open

    ordered = send_waiting(live_service, played.battle_id, played.gm_token, EAST_WALL[4])
    order = page.locator(f'#log li[data-version="{ordered["version"]}"]')
    expect(order).to_have_count(1)
    version_shown(page, ordered["version"], ordered["version"])
    # an order is hidden from the observer until it is revealed (EP-ORDER-05): nothing of it on the page
    expect(order).to_have_class("entry hidden")
    expect(order.locator(".entry-status")).to_have_text("hidden until the orders are revealed")
    expect(order.locator(".summary")).to_have_text("An order was given, hidden until the orders are revealed")
    assert "Charge" not in page.locator("body").inner_text()
    undo = send_waiting(live_service, played.battle_id, played.gm_token, {"type": "undo"})

    # the undone entry stays in the log, marked with the undo that cancelled it
    version_shown(page, undo["version"], undo["version"])
    expect(order).to_have_class("entry hidden undone")
    expect(order.locator(".entry-undone")).to_have_text(f" · undone by v{undo['version']}")
    concluded = send_waiting(live_service, played.battle_id, played.gm_token, {"type": "conclude"})

    # the stream's end: live mode stops by itself and the audit, checked again, finds the seed revealed
    version_shown(page, concluded["version"], concluded["version"])
    expect(page.locator("#live-status")).to_have_text("The battle is concluded.")
    expect(page.get_by_label("Follow live")).not_to_be_checked()
    # the conclusion revealed the order: the viewer read it again, whole
    expect(order).to_have_class("entry applied undone")
    expect(order.locator(".summary")).to_have_text("csm takes the order Charge")
    expect(page.locator("#audit")).to_contain_text("seed revealed and matches its commitment")
    page.screenshot(path=artifacts / "viewer-live-1280x800.png")
    assert_token_kept_out(page, log, played, live_service.base_url)


FOCUSED = """(() => {
  const e = document.activeElement;
  return e.id || e.getAttribute("aria-label") || e.textContent.trim();
})()"""


def test_the_controls_are_named_and_reached_in_reading_order(
    live_service: LiveService, east_wall: Played, desktop_en: Page
) -> None:
    page = desktop_en
    open_viewer(page, live_service, east_wall)
    page.keyboard.press("Home")
    version_shown(page, 1, east_wall.head)
    for role, name in [("button", "Next version"), ("button", "Latest version"), ("slider", "Version")]:
        expect(page.get_by_role(role, name=name)).to_be_enabled()  # type: ignore[arg-type]
    expect(page.get_by_role("checkbox", name="Follow live")).to_be_visible()
    page.locator("body").focus()

    reached = []
    for _ in range(8):
        page.keyboard.press("Tab")
        reached.append(page.evaluate(FOCUSED))

    # at version 1, first and previous are disabled, so out of the tab order
    assert reached[:6] == ["Skip to the log", "verify-here", "version", "next", "last", "live"]
    assert reached[6:] == ["v1 battle_created applied", "v2 add_fortification applied"]


def test_without_a_token_the_page_says_how_to_open_it(
    live_service: LiveService, east_wall: Played, desktop_en: Page
) -> None:
    response = desktop_en.goto(f"{live_service.base_url}/viewer/{east_wall.battle_id}")
    assert response is not None and response.status == 200
    expect(desktop_en.locator("#status")).to_contain_text("#token=")


def test_a_battle_of_rules_this_release_does_not_fold_is_badged_unsupported_not_failed(
    live_service: LiveService, east_wall: Played, desktop_en: Page
) -> None:
    store = live_service.store()
    lines = repinned(list(export_lines(store, east_wall.battle_id)), {"rules_version": "epic-0"})
    folded = store.projection(east_wall.battle_id)
    assert folded is not None  # its state as the other release's workers folded it, pinned like its log
    current = get_ruleset("epic").rules_version
    state = folded.state.replace(f'"rules_version":"{current}"', '"rules_version":"epic-0"')
    battle_id, token = written_by_another_release(store, lines, state=state, role=OBSERVER)
    played = Played(battle_id, "", token, len(lines))
    page = desktop_en
    log = open_viewer(page, live_service, played)

    badge = page.locator("#audit")
    expect(badge).to_have_class("badge unsupported")
    expect(badge).to_contain_text("Rules not supported here")
    expect(badge).to_contain_text(f"not replayed: it needs rules epic-0, this release folds {RULES_VERSION}")
    expect(badge).to_contain_text("chain intact")
    expect(badge).not_to_contain_text("differs")
    assert_token_kept_out(page, log, played, live_service.base_url)


def test_axe_finds_no_serious_or_critical_violation_on_the_viewer(
    live_service: LiveService, fortress: Played, desktop_en: Page
) -> None:
    page = desktop_en
    open_viewer(page, live_service, fortress)
    expect(page.locator("#audit")).to_contain_text("chain intact")  # the audit's badge is shown too

    assert axe_violations(page) == []


def test_verify_in_this_browser_refolds_the_export_and_the_badge_says_which_verifier_spoke(
    live_service: LiveService, east_wall: Played, desktop_en: Page
) -> None:
    require_verifier(live_service.base_url)
    page = desktop_en
    log = open_viewer(page, live_service, east_wall)
    refused: list[str] = []
    page.on("worker", lambda w: w.on("console", lambda m: refused.append(m.text)))
    badge = page.locator("#audit")
    expect(badge).to_contain_text("Audit passed")
    expect(badge).to_contain_text("checked by the server")
    expect(badge).to_have_attribute("data-verifier", "server")

    page.get_by_role("button", name="Verify in this browser").click()

    expect(badge).to_have_attribute("data-verifier", "browser")
    expect(badge).to_contain_text(f"Verified · v{east_wall.head} · checked by this browser", timeout=START_MS)
    expect(badge).to_have_class("badge ok")
    expect(badge).to_contain_text(f"{east_wall.head} outcomes re-folded and equal, 0 pending")
    expect(badge).to_contain_text(f"code sha256 {bundle.digest()}")  # the zip these sources give
    expect(page.locator("#verify-progress")).to_be_hidden()
    assert [line for line in refused if "Content Security Policy" in line] == []
    assert_token_kept_out(page, log, east_wall, live_service.base_url)


def viewer_with_route(
    page: Page, live: LiveService, played: Played, pattern: str, handler: Callable[[Route], None]
) -> Locator:
    """The viewer opened with `pattern`'s requests handed to `handler` (the verifier runs here): its badge."""
    require_verifier(live.base_url)
    page.route(pattern, handler)
    open_viewer(page, live, played)
    return page.locator("#audit")


def test_a_server_audit_answered_after_the_browsers_verdict_does_not_overwrite_it(
    live_service: LiveService, east_wall: Played, desktop_en: Page
) -> None:
    """The page's own audit, asked at load, is held back until the reader's browser verify has spoken."""
    page = desktop_en
    held: list[Route] = []
    audit = f"**/battles/{east_wall.battle_id}/audit"
    badge = viewer_with_route(page, live_service, east_wall, audit, lambda route: held.append(route))
    expect(badge).to_contain_text("Checking the audit")
    page.get_by_role("button", name="Verify in this browser").click()
    expect(badge).to_contain_text(f"Verified · v{east_wall.head} · checked by this browser", timeout=START_MS)
    assert len(held) == 1  # the load's audit, still unanswered

    with page.expect_response(audit) as answered:
        held[0].continue_()
    assert answered.value.status == 200
    page.evaluate("new Promise((settled) => setTimeout(settled, 300))")  # the page reads the answer meanwhile

    expect(badge).to_contain_text("checked by this browser")
    expect(badge).not_to_contain_text("checked by the server")
    expect(badge).to_have_attribute("data-verifier", "browser")


def test_a_browser_verify_that_could_not_start_starts_afresh_on_the_next_try(
    live_service: LiveService, east_wall: Played, desktop_en: Page
) -> None:
    """The worker's first look at the runtime's status fails; the reader's second press gets a new worker."""
    page = desktop_en
    asked: list[str] = []

    def first_fails(route: Route) -> None:
        asked.append(route.request.url)
        if len(asked) == 1:
            route.fulfill(status=503, json={"pyodide": {"problem": "held back by the test"}, "bundle": {}})
        else:
            route.continue_()

    badge = viewer_with_route(page, live_service, east_wall, "**/verify/static/verifier.json", first_fails)
    button = page.get_by_role("button", name="Verify in this browser")
    expect(badge).to_contain_text("checked by the server")

    button.click()
    expect(badge).to_contain_text("held back by the test", timeout=START_MS)
    expect(button).to_be_enabled()
    button.click()

    expect(badge).to_contain_text(f"Verified · v{east_wall.head} · checked by this browser", timeout=START_MS)
    assert len(asked) == 2  # a new worker asked again
