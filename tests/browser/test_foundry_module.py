"""The Foundry VTT module's logic (clients/foundry/scripts/logic, everything but the adapter on Foundry's
globals) in headless Chromium against the live service: the files served are the ones `make foundry-module`
zips, and a page plays a Foundry world in miniature around them (a shared chat log, world and client
settings, each user's own panel). A GM and two side players play the east wall (EX-EP-01) and a scattered
catapult shot (EX-PF-09) through the panels' forms, previews and cards, in English and French; no token ever
travels in a URL, and each card is posted once and drawn in each user's own view."""

from __future__ import annotations

import subprocess
import urllib.request
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.browser.sites import Site, static_site
from tests.fixtures.processes import LiveService
from tests.processes.client import call, send

pytestmark = [
    pytest.mark.slow,
    pytest.mark.xdist_group("processes"),
    pytest.mark.timeout(300),
    pytest.mark.usefixtures("chromium"),
]

ROOT = Path(__file__).resolve().parents[2]
HARNESS = Path(__file__).parent / "foundry_module" / "index.html"
ADAPTER = {"scripts/main.js", "scripts/foundry/panel-app.js"}  # Foundry's globals: never loaded here


@dataclass(frozen=True, slots=True)
class Module:
    site: Site
    names: frozenset[str]  # every file of the zip


@pytest.fixture(scope="module")
def module(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Module]:
    """`make foundry-module` into a temp dir; its zip unpacked and served beside the test's page."""
    out = tmp_path_factory.mktemp("foundry")
    subprocess.run(
        ["make", "--no-print-directory", "foundry-module", f"FOUNDRY_OUT={out}"],
        cwd=ROOT,
        check=True,
        timeout=120,
    )
    unpacked = out / "unpacked"
    with zipfile.ZipFile(out / "siege-foundry.zip") as archive:
        archive.extractall(unpacked)
        names = frozenset(archive.namelist())
    files = {f"/{name}": unpacked / name for name in names}
    with static_site({"/": HARNESS, **files}) as site:
        yield Module(site, names)


@dataclass
class Browsed:
    urls: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)


def opened(page: Page, module: Module) -> Browsed:
    seen = Browsed()
    page.on("request", lambda request: seen.urls.append(request.url))
    page.on("pageerror", lambda error: seen.errors.append(str(error)))
    response = page.goto(f"{module.site.origin}/", wait_until="load")
    assert response is not None and response.status == 200
    page.wait_for_function("() => window.ready === true")
    return seen


def world(page: Page, users: list[tuple[str, bool, str]]) -> None:
    """The users join (name, GM or not, language); the first GM is Foundry's active GM, the one who posts."""
    page.evaluate(
        """async (users) => {
            for (const [name, isGM, language] of users) join(name, { isGM, language });
            world.activeGM = users.find(([, isGM]) => isGM)[0];
            for (const user of Object.values(world.users)) await user.relink();
        }""",
        users,
    )


def settle(page: Page) -> None:
    page.evaluate("settle()")


def panel(page: Page, user: str) -> str:
    return f'[data-user="{user}"] [data-panel]'


def fill(page: Page, scope: str, values: dict[str, str]) -> None:
    """Type into a form's inputs by name, choosing in selects (a variant's kind first draws its members)."""
    for name, value in values.items():
        found = page.locator(f'{scope} [name="{name}"]')
        more = found.locator("xpath=ancestor::details[1]")
        if more.count() and not more.evaluate("(details) => details.open"):
            more.locator("summary").click()  # "More fields", "Dice", as a user opens them
        if found.evaluate("(element) => element.tagName") == "SELECT":
            found.select_option(value)
        else:
            found.fill(value)


def offers(page: Page, user: str, entity: str) -> list[str]:
    row = page.locator(f'{panel(page, user)} [data-entity="{entity}"]')
    expect(row).to_have_count(1)  # the user's panel has drawn the entity: its offers are read after that
    buttons = row.locator("button[data-action=open]")
    return [str(b.get_attribute("data-type")) for b in buttons.all()]


def command(
    page: Page,
    user: str,
    type_: str,
    entity: str | None = None,
    values: dict[str, str] | None = None,
    *,
    preview: bool = False,
) -> dict[str, str]:
    """Open a command from an entity's offers (or the battle's), type its fields, preview it when asked, send
    it; the odds and the panel's message after."""
    where = f'[data-entity="{entity}"]' if entity else "[data-collection=battle]"
    page.locator(f'{panel(page, user)} {where} button[data-action=open][data-type="{type_}"]').click()
    form = f"{panel(page, user)} form[data-form=command]"
    fill(page, form, values or {})
    odds = ""
    if preview:
        page.locator(f"{form} button[data-action=preview]").click()
        settle(page)
        odds = page.locator(f"{form} .siege-odds").inner_text()
    page.locator(f"{form} button[type=submit]").click()
    settle(page)
    return {"odds": odds, "message": message(page, user)}


def message(page: Page, user: str) -> str:
    found = page.locator(f"{panel(page, user)} .siege-message")
    return found.inner_text() if found.count() else ""


def create(page: Page, live: LiveService, ruleset: str, name: str) -> None:
    scope = f"{panel(page, 'gm')} form[data-form=create]"
    page.locator(f'{scope} [name="serviceUrl"]').fill(live.base_url)
    page.locator(f'{scope} [name="serviceUrl"]').dispatch_event(
        "change"
    )  # the rulesets come from the service
    page.wait_for_function(
        f"""() => document.querySelector('{scope} select[name=ruleset] option[value="{ruleset}"]') !== null"""
    )
    fill(page, scope, {"ruleset": ruleset, "apiKey": live.api_key, "name": name})
    page.locator(f"{scope} button[type=submit]").click()
    settle(page)


def hand_pass(page: Page, player: str, side: str) -> str:
    """The GM mints a side pass in their panel and the player enters it in theirs; the pass."""
    scope = f"{panel(page, 'gm')} form[data-form=mint]"
    page.locator(f'{scope} [name="side"]').fill(side)
    page.locator(f"{scope} button[type=submit]").click()
    settle(page)
    minted = page.locator(
        f'{panel(page, "gm")} .siege-pass[data-side="{side}"] input[name=minted]'
    ).input_value()
    form = f"{panel(page, player)} form[data-form=pass]"
    page.locator(f'{form} [name="pass"]').fill(minted)
    page.locator(f"{form} button[type=submit]").click()
    settle(page)
    return minted


def settings(page: Page) -> dict[str, Any]:
    found: dict[str, Any] = page.evaluate("snapshot()")
    return found


def cards(page: Page, user: str) -> dict[int, dict[str, Any]]:
    """Each card this user's client drew, by version: its summary, checks, dice and dice mode."""
    page.wait_for_function("(user) => allDrawn(user)", arg=user)
    assert page.evaluate("(user) => failedCards(user)", user) == []
    drawn: list[dict[str, Any]] = page.evaluate("(user) => cardsOf(user)", user)
    by_version = {card["version"]: card for card in drawn}
    assert len(by_version) == len(drawn), "a card drawn twice"
    return by_version


def served(live: LiveService, battle_id: str, version: int, token: str, language: str) -> dict[str, Any]:
    headers = {"Authorization": f"Bearer {token}", "Accept-Language": language}
    reply = call("GET", f"{live.base_url}/battles/{battle_id}/events/{version}", None, headers)
    assert reply.status == 200, reply.body
    entry: dict[str, Any] = reply.body
    return entry


def check_cards_once_and_per_reader(
    page: Page, live: LiveService, readers: dict[str, tuple[str, str]], head: int
) -> dict[str, dict[int, dict[str, Any]]]:
    """One chat message per version, posted from the observer's view; each user's cards are the service's
    view for that user's token, in that user's language."""
    state = settings(page)
    battle_id, observer = state["world"]["battleId"], state["world"]["observerToken"]
    chat: list[int] = page.evaluate("() => world.chat.map((m) => m.flags[MODULE_ID].version)")
    assert chat == list(range(1, head + 1))  # every outcome once, in order, however many users joined
    posted: list[str] = page.evaluate("() => world.chat.map((m) => m.content)")
    drawn = {}
    for user, (token, language) in readers.items():
        mine = cards(page, user)
        assert sorted(mine) == list(range(1, head + 1))
        for version, card in mine.items():
            entry = served(live, battle_id, version, token, language)
            assert card["summary"] == entry["outcome"]["summary"], (user, version)
            assert card["lang"] == language
            assert card["viewer"] == f"{live.base_url}/viewer/{battle_id}"  # no token in the link itself
        drawn[user] = mine
    for version, content in enumerate(posted, start=1):  # as the observer read it, in the poster's language
        entry = served(live, battle_id, version, observer, readers["gm"][1])
        if "data-hidden" in content:  # hidden when posted: the shared message never held the order
            assert entry["type"] == "give_order" and entry["data"]["order"] not in content
        else:
            assert _text(entry["outcome"]["summary"]) in content
    return drawn


def _text(summary: str) -> str:
    return (
        summary.replace("&", "&#38;")
        .replace("<", "&#60;")
        .replace(">", "&#62;")
        .replace('"', "&#34;")
        .replace("'", "&#39;")
    )


def no_token_in_a_url(page: Page, seen: Browsed, tokens: list[str]) -> None:
    assert all(tokens) and len(tokens) >= 4
    for url in seen.urls:
        for token in tokens:
            assert token not in url, url
    assert any("/stream?ticket=" in url for url in seen.urls)  # the streams took tickets instead
    posted = " ".join(page.evaluate("() => world.chat.map((m) => m.content)"))
    assert not any(token in posted for token in tokens)


def loaded_only_the_logic(module: Module, seen: Browsed) -> None:
    paths = {u.removeprefix(module.site.origin + "/") for u in seen.urls if u.startswith(module.site.origin)}
    assert {"scripts/siege.js", "scripts/terms.js", "lang/en.json", "lang/fr.json"} <= paths
    logic = {name for name in module.names if name.startswith("scripts/logic/")}
    assert logic and logic <= paths  # every logic module ran
    assert not paths & ADAPTER
    assert paths - {""} <= module.names  # nothing but the zip's files
    # the module's client is the project's own, vendored at build time
    with urllib.request.urlopen(f"{module.site.origin}/scripts/siege.js") as answer:
        assert answer.read() == (ROOT / "clients/js/siege.js").read_bytes()


def test_a_gm_and_two_sides_play_the_east_wall(page: Page, module: Module, live_service: LiveService) -> None:
    seen = opened(page, module)
    world(page, [("gm", True, "en"), ("ana", False, "fr"), ("dan", False, "en")])
    create(page, live_service, "epic", "East wall")
    state = settings(page)
    assert state["world"]["battleId"] and state["world"]["ruleset"] == "epic"
    gm_token = state["clients"]["gm"]["gmToken"]
    assert gm_token and gm_token not in state["world"].values()  # the GM's token stays in the GM's browser
    ana = hand_pass(page, "ana", "attacker")
    dan = hand_pass(page, "dan", "defender")
    assert (
        page.locator(f"{panel(page, 'ana')} .siege-role").inner_text() == "Vous commandez le camp attacker."
    )

    command(page, "gm", "add_fortification", values={"id": "E1", "kind": "wall"})
    stand = {"stand_type": "infantry", "speed_cm": "10", "location": "on", "location.section_id": "E1"}
    command(page, "gm", "add_stand", values={**stand, "id": "goff", "side": "defender", "caf": "2"})
    stand.update({"location": "at_foot", "location.section_id": "E1"})
    command(page, "gm", "add_stand", values={**stand, "id": "csm", "side": "attacker", "caf": "3"})

    # orders: each side is offered its own stand's order, nothing else, and nothing of the other side's
    assert offers(page, "ana", "csm") == ["give_order"] and offers(page, "ana", "goff") == []
    assert offers(page, "dan", "goff") == ["give_order"] and offers(page, "dan", "csm") == []
    assert (
        page.locator(f"{panel(page, 'gm')} [data-collection=battle] button[data-type=advance_phase]").count()
        == 1
    )
    assert (
        page.locator(f"{panel(page, 'ana')} [data-collection=battle] button[data-type=advance_phase]").count()
        == 0
    )
    ordered = command(page, "ana", "give_order", "csm", {"order": "charge"}, preview=True)
    assert ordered["odds"] == "Rien à estimer : le résultat est certain."
    assert ordered["message"].startswith("v5 · ")
    # the order is hidden from the other side until the phase ends (EP-ORDER-05): dan's card says only that
    settle(page)
    hidden = cards(page, "dan")[5]
    assert (
        hidden["summary"]
        == served(live_service, state["world"]["battleId"], 5, dan.split(":", 1)[1], "en")["outcome"][
            "summary"
        ]
    )
    assert "charge" not in hidden["summary"].lower() and "csm" not in hidden["summary"]
    assert page.evaluate("() => world.chat[4].content").count("data-hidden") == 1
    assert "charge" in cards(page, "ana")[5]["summary"].lower() + cards(page, "gm")[5]["summary"].lower()
    assert "hidden" in page.locator(f'{panel(page, "dan")} [data-entity="csm"]').inner_text()
    command(page, "gm", "advance_phase")
    # ana's panel hears of the GM's command through its own stream: read her offers once it has (a settled
    # page may not have received it yet, and the csm row is drawn already, so `offers` alone would not wait)
    expect(page.locator(f"{panel(page, 'ana')} [data-phase=movement]")).to_have_count(1)
    assert "climb" in offers(page, "ana", "csm") and "give_order" not in offers(page, "ana", "csm")
    command(page, "ana", "climb", "csm", {"section_id": "E1"})
    command(page, "gm", "advance_phase")
    command(page, "gm", "advance_phase")

    # the assault with Foundry's rolls: the world's dice mode, the rolls the table made
    page.evaluate(
        """async () => {
            world.settings.diceMode = "foundry";
            world.rolls["2d6"] = [[6, 6], [1, 2], [6, 6], [1, 2]];
            for (const user of Object.values(world.users)) await user.relink();
        }"""
    )
    assault = command(page, "ana", "assault", "csm", {"section_id": "E1"}, preview=True)
    for told in (
        "l'attaquant l'emporte 5 %",
        "le défenseur l'emporte 90 %",
        "égalité 4 %",
        "détruit csm 90 %",
        "détruit goff 5 %",
    ):
        assert told in assault["odds"], assault["odds"]
    assert assault["message"] == (
        "v10 · Assaut de csm contre goff sur E1 : l'attaquant l'emporte (15 contre 11) ; détruit : goff"
    )
    assert page.evaluate("world.rolled") == [
        {"formula": "2d6", "values": [6, 6]},
        {"formula": "2d6", "values": [1, 2]},
    ]

    # undo, then the same assault again; then conclude
    page.locator(f"{panel(page, 'gm')} button[data-action=undo]").click()
    settle(page)
    assert message(page, "gm").startswith("v11 · ")
    assert command(page, "ana", "assault", "csm", {"section_id": "E1"})["message"].startswith(
        "v12 · Assaut de csm"
    )
    page.locator(f"{panel(page, 'gm')} [data-confirm=conclude]").check()
    page.locator(f"{panel(page, 'gm')} button[data-action=conclude]").click()
    settle(page)
    for user in ("gm", "ana", "dan"):
        assert page.locator(f"{panel(page, user)} [data-concluded]").count() == 1
        assert page.locator(f"{panel(page, user)} button[data-action=open]").count() == 0

    drawn = check_cards_once_and_per_reader(
        page,
        live_service,
        {"gm": (gm_token, "en"), "ana": (ana.split(":", 1)[1], "fr"), "dan": (dan.split(":", 1)[1], "en")},
        13,
    )
    french, english = drawn["ana"][12], drawn["dan"][12]
    assert french["checks"]["attacker"] == "attaquant [6, 6] + 3 CAF = 15 contre 11"
    assert english["checks"]["defender"] == "defender [1, 2] + 2 CAF + 6 fortification VA = 11 vs 15"
    assert french["mode"] == english["mode"] == "foundry"
    assert french["modeText"] == "Dés : jets de Foundry, envoyés comme dés du client."
    assert english["dice"][0] == ["attacker", "client", "attacker d6 6"]
    assert drawn["gm"][13]["mode"] is None  # conclude rolls nothing
    link = page.evaluate("() => world.users.ana.viewerLink(12)")
    assert "#token=" not in link["href"] and link["opened"].endswith(f"#token={ana.split(':', 1)[1]}")
    # revealed since: drawn again whole for dan too
    assert "charge" in drawn["dan"][5]["summary"].lower() and drawn["dan"][5]["summary"] != hidden["summary"]

    no_token_in_a_url(
        page, seen, [gm_token, state["world"]["observerToken"], ana.split(":", 1)[1], dan.split(":", 1)[1]]
    )
    loaded_only_the_logic(module, seen)
    assert seen.errors == []


def creature(page: Page, cid: str, side: str, x: int, y: int, **more: str) -> None:
    base = {
        "id": cid,
        "size": "M",
        "ac": "10",
        "hp": "10",
        "position.x": str(x),
        "position.y": str(y),
        "side": side,
    }
    command(page, "gm", "add_creature", values={**base, **more})


def test_a_gm_and_two_sides_play_a_scattered_catapult_shot(
    page: Page, module: Module, live_service: LiveService
) -> None:
    """EX-PF-09: c1 (proficient) and c2 crew a light catapult aimed at (0, 40); the shot with the table's dice
    misses and strays 7 squares north to (0, 47); undone, it is fired again with the service's dice."""
    seen = opened(page, module)
    world(page, [("gm", True, "fr"), ("bea", False, "en"), ("gus", False, "fr")])
    create(page, live_service, "pathfinder", "Scattered shot")
    state = settings(page)
    gm_token = state["clients"]["gm"]["gmToken"]
    bea = hand_pass(page, "bea", "besiegers")
    gus = hand_pass(page, "gus", "garrison")

    creature(page, "c1", "besiegers", 0, 0, proficiencies="siege_engines")
    creature(page, "c2", "besiegers", 1, 0)
    creature(page, "orc", "garrison", 3, 44, hp="20")
    gate = {
        "id": "g1",
        "kind": "gate",
        "material": "wood",
        "size": "H",
        "position.x": "-3",
        "position.y": "44",
    }
    command(page, "gm", "add_structure", values=gate)
    engine = {
        "id": "lc",
        "catalog_id": "catapult_light",
        "position.x": "0",
        "position.y": "0",
        "side": "besiegers",
    }
    aimed = {"state.loaded": "true", "state.aimed_at.square.x": "0", "state.aimed_at.square.y": "40"}
    placed = command(page, "gm", "place_engine", values={**engine, **aimed})
    assert placed["message"].startswith("v6 · "), placed
    crewed = command(page, "bea", "assign_crew", "lc", {"creature_ids": "c1, c2", "leader_id": "c1"})
    assert crewed["message"].startswith("v7 · "), crewed

    # the besiegers' engine: its commands for bea, none for gus (the garrison), every one for the GM
    assert "fire" in offers(page, "bea", "lc") and offers(page, "gus", "lc") == []
    assert offers(page, "gus", "orc") and offers(page, "bea", "orc") == []
    # a structure has no side: the commands against it are offered to both, the service judges who acts
    assert offers(page, "bea", "g1") == offers(page, "gus", "g1") == ["break", "operate_gate"]
    # gus cannot even preview the besiegers' shot: the service refuses the other side's units
    page.evaluate("() => world.users.gus.panel.open('fire', { engine_id: 'lc' })")
    page.locator(f"{panel(page, 'gus')} form[data-form=command] button[data-action=preview]").click()
    settle(page)
    assert message(page, "gus").startswith("403 ")

    dice = {
        "dice.targeting": "5",
        "dice.scatter_direction": "5",
        "dice.scatter_distance": "3, 4",
        "dice.damage": "1, 2, 3, 4",
    }
    shot = command(page, "bea", "fire", "lc", dice, preview=True)
    # sampled (a d20, then scatter or damage dice): the preview's own stream, the same odds every time
    assert shot["odds"] == "hit 20 %, mishap 5 % (over 2000 samples)"
    assert shot["message"] == "v8 · lc misses; the shot strays 7 squares north and lands at (0, 47)"

    page.locator(f"{panel(page, 'gm')} button[data-action=undo]").click()
    settle(page)
    assert message(page, "gm").startswith("v9 · ")
    again = command(page, "bea", "fire", "lc")
    assert again["message"].startswith("v10 · lc ")
    page.locator(f"{panel(page, 'gm')} [data-confirm=conclude]").check()
    page.locator(f"{panel(page, 'gm')} button[data-action=conclude]").click()
    settle(page)

    drawn = check_cards_once_and_per_reader(
        page,
        live_service,
        {"gm": (gm_token, "fr"), "bea": (bea.split(":", 1)[1], "en"), "gus": (gus.split(":", 1)[1], "fr")},
        11,
    )
    typed, french = drawn["bea"][8], drawn["gus"][8]
    assert typed["checks"]["roll"] == "roll [5] − 2 range increments = 3 vs 15 (failure)"
    assert french["checks"]["roll"] == "jet [5] − 2 facteur de portée = 3 contre 15 (échec)"
    assert typed["mode"] == "typed" and [d[:2] for d in typed["dice"]][:3] == [
        ["targeting", "client"],
        ["scatter_direction", "client"],
        ["scatter_distance", "client"],
    ]
    service = drawn["bea"][10]
    assert service["mode"] == "service" and {d[1] for d in service["dice"]} == {"stream"}
    assert service["modeText"] == "Dice: the service's, verifiable once the battle is concluded."
    assert drawn["gus"][10]["modeText"] == "Dés : ceux du service, vérifiables une fois la bataille conclue."

    # a scene token named after an entity, or flagged with it, selects it in the panel
    names = [
        {"flag": "lc", "name": "Catapult"},
        {"flag": None, "name": "C1"},
        {"flag": None, "name": "Goblin"},
    ]
    found = page.evaluate("([user, names]) => tokensFor(user, names)", ["bea", names])
    page.evaluate("() => world.users.bea.panel.select('lc')")
    assert found == ["lc", "c1", None]
    assert page.locator(f'{panel(page, "bea")} .siege-selected[data-entity="lc"]').count() == 1

    no_token_in_a_url(
        page, seen, [gm_token, state["world"]["observerToken"], bea.split(":", 1)[1], gus.split(":", 1)[1]]
    )
    loaded_only_the_logic(module, seen)
    assert seen.errors == []


def test_an_outcome_arriving_while_the_gm_types_keeps_the_form_as_it_was(
    page: Page, module: Module, live_service: LiveService
) -> None:
    """The panel is drawn again whenever an outcome arrives; the command being typed keeps its values, its
    opened "More fields", the focus and the caret (a redraw once closed them under a typing user), and a
    command opened next starts afresh."""
    seen = opened(page, module)
    world(page, [("gm", True, "en")])
    create(page, live_service, "pathfinder", "Typing")
    state = settings(page)
    battle_id, gm_token = state["world"]["battleId"], state["clients"]["gm"]["gmToken"]
    battle = f"{panel(page, 'gm')} [data-collection=battle]"
    page.locator(f'{battle} button[data-action=open][data-type="add_creature"]').click()
    form = f"{panel(page, 'gm')} form[data-form=command]"
    fill(page, form, {"id": "c1"})
    typing = page.locator(f'{form} [name="proficiencies"]')
    more = typing.locator("xpath=ancestor::details[1]")  # "More fields"
    more.locator("summary").click()
    typing.click()
    page.keyboard.type("sege")
    for _ in range(3):
        page.keyboard.press("ArrowLeft")  # the caret after the first letter: "s|ege"

    def streaming() -> bool:
        return any("/stream?ticket=" in url for url in seen.urls)

    for _ in range(400):  # the panel follows the battle before the outcome below is written
        if streaming():
            break
        page.wait_for_timeout(50)
    assert streaming()
    elsewhere = {
        "type": "add_creature",
        "id": "c9",
        "size": "M",
        "ac": 10,
        "hp": 10,
        "position": {"x": 5, "y": 5},
        "side": "garrison",
    }
    assert send(live_service, battle_id, gm_token, elsewhere).status == 202
    expect(page.locator(f'{panel(page, "gm")} [data-entity="c9"]')).to_have_count(1)  # drawn again

    assert more.evaluate("(details) => details.open")
    expect(typing).to_be_focused()
    page.keyboard.type("i")  # lands where the caret was
    assert typing.input_value() == "siege"
    assert page.locator(f'{form} [name="id"]').input_value() == "c1"

    page.locator(f"{form} button[data-action=close-form]").click()
    page.locator(f'{battle} button[data-action=open][data-type="add_structure"]').click()
    fresh = page.locator(f'{form}[data-type="add_structure"] details').first
    expect(fresh).to_have_count(1)
    assert not fresh.evaluate("(details) => details.open")

    side = page.locator(f'{panel(page, "gm")} form[data-form=mint] [name="side"]')  # a form drawn anew
    side.click()
    page.keyboard.type("garson")
    for _ in range(3):
        page.keyboard.press("ArrowLeft")  # "gar|son"
    assert send(live_service, battle_id, gm_token, {**elsewhere, "id": "c8"}).status == 202
    expect(page.locator(f'{panel(page, "gm")} [data-entity="c8"]')).to_have_count(1)  # drawn again
    expect(side).to_be_focused()
    page.keyboard.type("ri")
    assert side.input_value() == "garrison"
    assert seen.errors == []
