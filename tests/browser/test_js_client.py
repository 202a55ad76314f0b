"""clients/js/siege.js in headless Chromium, from a page on another origin than the API: a real gunicorn + RQ
worker stack whose CORS allows that origin only, so every call with a token or a JSON body goes through a
real preflight; a page on a third origin is refused."""

from __future__ import annotations

import contextlib
import dataclasses
import json
import os
import secrets
import signal
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlsplit

import pytest
from playwright.sync_api import Page

from eventstore.config import connect
from launcher import commands
from launcher.probes import answers_200, free_port
from tests.browser.sites import Site, static_site
from tests.fixtures.processes import LiveService, launched, with_db_offset
from tests.processes.client import call, create_battle, eventually

pytestmark = [
    pytest.mark.slow,
    pytest.mark.xdist_group("processes"),
    pytest.mark.timeout(180),
    pytest.mark.usefixtures("chromium"),
]

DB_OFFSET = 11  # clear of the tests' databases and of the other process tests' (8, 9, 12, 13, 14)
ROOT = Path(__file__).resolve().parents[2]
FILES = {"/": Path(__file__).parent / "js_client" / "index.html", "/siege.js": ROOT / "clients/js/siege.js"}
WAIT_S = 5
SEND_WITHIN_S = 60  # a bound on retries while the API's workers restart, not a speed asserted


@dataclass(frozen=True, slots=True)
class Origins:
    allowed: Site  # SIEGE_CORS_ORIGINS names it
    foreign: Site  # the API sends it no CORS grant


@pytest.fixture(scope="module")
def sites() -> Iterator[Origins]:
    """Two static sites serving the same page and module, each on a port (so an origin) of its own."""
    with static_site(FILES) as allowed, static_site(FILES) as foreign:
        yield Origins(allowed, foreign)


@pytest.fixture(scope="module")
def api(redis_url: str, tmp_path_factory: pytest.TempPathFactory, sites: Origins) -> Iterator[LiveService]:
    url = with_db_offset(redis_url, DB_OFFSET)
    connect(url).flushdb()
    settings = {
        "SIEGE_CORS_ORIGINS": sites.allowed.origin,
        "SIEGE_RATE_LIMIT": "off",
        "SIEGE_STREAM_HEARTBEAT_S": "1",  # a revoked token's stream ends within about a second
    }
    with launched(url, url, tmp_path_factory.mktemp("js-client"), settings=settings) as live:
        yield live


def opened(page: Page, site: Site) -> list[str]:
    """The page at `site`, its module loaded; the list collects the page's script errors."""
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    response = page.goto(f"{site.origin}/", wait_until="load")
    assert response is not None and response.status == 200
    page.wait_for_function("() => window.siege !== undefined && window.settled !== undefined")
    return errors


def gm_session(page: Page, api: LiveService) -> dict[str, Any]:
    """Create a battle with the service key, mint an observer token, send commands as the GM: the wait met,
    an idempotent repeat, one without a wait."""
    session: dict[str, Any] = page.evaluate(
        """async ({base, key, wait}) => {
            const { SiegeClient } = window.siege;
            const { battle, client: gm } = await SiegeClient.createBattle({
                baseUrl: base, apiKey: key, ruleset: "epic", name: "East wall", language: "en" });
            const minted = await gm.mintToken("observer", { expiresIn: 3600 });
            const wall = { type: "add_fortification", id: "E1", kind: "wall" };
            const first = await gm.send(wall, { idempotencyKey: "wall-E1", wait });
            const repeat = await gm.send(wall, { idempotencyKey: "wall-E1", wait });
            const goff = { type: "add_stand", id: "goff", stand_type: "infantry", side: "defender",
                caf: 2, speed_cm: 10, location: { kind: "on", section_id: "E1" } };
            const stand = await gm.send(goff, { wait });
            const later = await gm.send({ type: "add_fortification", id: "E2", kind: "wall" }, { wait: 0 });
            return { battle, minted, first, repeat, stand, later };
        }""",
        {"base": api.base_url, "key": api.api_key, "wait": WAIT_S},
    )
    return session


def bearer(token: str, language: str = "en") -> dict[str, str]:
    return {"Authorization": f"Bearer {token}", "Accept-Language": language}


def log_entries(api: LiveService, battle_id: str, token: str) -> list[dict[str, Any]]:
    reply = call("GET", f"{api.base_url}/battles/{battle_id}/events", headers=bearer(token))
    assert reply.status == 200, reply.body
    return list(reply.body)


def test_create_mint_send_and_read_from_another_origin(api: LiveService, page: Page, sites: Origins) -> None:
    errors = opened(page, sites.allowed)
    session = gm_session(page, api)

    battle, gm = session["battle"], session["battle"]["gm_token"]
    assert session["minted"]["role"] == "observer" and session["minted"]["token"]
    first = session["first"]
    assert first["status"] == "applied" and first["type"] == "add_fortification" and first["summary"]
    assert session["repeat"] == first  # the same key and body: the original answer, appended once
    assert session["stand"]["status"] == "applied" and session["stand"]["version"] == first["version"] + 1
    later = session["later"]
    assert later["status"] == "accepted" and later["version"] == session["stand"]["version"] + 1
    entries = log_entries(api, battle["id"], gm)
    assert [e["version"] for e in entries] == list(range(1, later["version"] + 1))
    assert [e["idempotency_key"] for e in entries].count("wall-E1") == 1
    assert entries[first["version"] - 1]["outcome"] == first  # the wait's outcome is what the log serves
    eventually(
        lambda: log_entries(api, battle["id"], gm)[-1]["outcome"] is not None, 30, "the 202 command's outcome"
    )

    reads = page.evaluate(
        """async ({base, id, token}) => {
            const { SiegeClient } = window.siege;
            const observer = new SiegeClient({ baseUrl: base, battleId: id, token, language: "en" });
            const french = new SiegeClient({ baseUrl: base, battleId: id, token, language: "fr-CA" });
            const pages = [];
            for (let after = 0; after !== null; ) {
                const page = await observer.events({ after, limit: 2 });
                pages.push({ versions: page.events.map((e) => e.version), next: page.next });
                after = page.next;
            }
            const all = [];
            for await (const entry of observer.allEvents({ limit: 3 })) all.push(entry);
            return {
                battle: await observer.battle(),
                state: await observer.state(),
                stateAt: await observer.state({ at: 2 }),
                pages,
                all,
                event: await observer.event(2),
                frenchEvent: await french.event(2),
                audit: await observer.audit(),
                rulesets: await observer.rulesets(),
                epic: await observer.ruleset("epic"),
            };
        }""",
        {"base": api.base_url, "id": battle["id"], "token": session["minted"]["token"]},
    )

    head = later["version"]
    assert reads["battle"]["id"] == battle["id"] and reads["battle"]["version"] == head
    assert reads["state"]["version"] == head and "E2" in json.dumps(reads["state"]["game"])
    assert reads["stateAt"]["version"] == 2 and "E2" not in json.dumps(reads["stateAt"]["game"])
    # pages of two, each `next` read from the Link header, the last page's null
    assert [p["versions"] for p in reads["pages"]] == [[1, 2], [3, 4]]
    assert [p["next"] for p in reads["pages"]] == [2, None]
    assert reads["all"] == log_entries(api, battle["id"], gm)
    events_url = f"{api.base_url}/battles/{battle['id']}/events/2"
    assert reads["event"] == call("GET", events_url, headers=bearer(gm)).body
    french = call("GET", events_url, headers=bearer(gm, "fr")).body
    assert reads["frenchEvent"] == french
    assert french["outcome"]["summary"] != reads["event"]["outcome"]["summary"]
    assert reads["audit"]["ok"] is True and reads["audit"]["head_version"] == head
    assert reads["rulesets"] == call("GET", f"{api.base_url}/rulesets").body
    assert reads["epic"] == call("GET", f"{api.base_url}/rulesets/epic", headers=bearer(gm)).body
    assert errors == []


def test_refusals_are_siege_errors_carrying_the_problem(api: LiveService, page: Page, sites: Origins) -> None:
    errors = opened(page, sites.allowed)
    session = gm_session(page, api)
    battle, observer = session["battle"], session["minted"]["token"]
    head = session["later"]["version"]

    refused = page.evaluate(
        """async ({base, id, gm, observer}) => {
            const { SiegeClient } = window.siege;
            const client = (token, battleId = id) => new SiegeClient({ baseUrl: base, battleId, token });
            const wall = { type: "add_fortification", id: "E9", kind: "wall" };
            return {
                invalid: await settled(client(gm).send({ type: "climb", stand_id: "goff", sectionid: "E1" })),
                forbidden: await settled(client(observer).send(wall)),
                unauthorized: await settled(client("not-a-token").state()),
                unknownBattle: await settled(client(gm, "no-such-battle").battle()),
                stale: await settled(client(gm).send(wall, { ifMatch: 1 })),
                reused: await settled(client(gm).send(wall, { idempotencyKey: "wall-E1" })),
                noVersion: await settled(client(gm).event(999)),
                noKey: await settled(SiegeClient.createBattle({ baseUrl: base, ruleset: "epic" })),
                badRuleset: await settled(client(gm).ruleset("chess")),
            };
        }""",
        {"base": api.base_url, "id": battle["id"], "gm": battle["gm_token"], "observer": observer},
    )

    expected = {
        "invalid": (422, "validation"),
        "forbidden": (403, "forbidden"),
        "unauthorized": (401, "unauthorized"),
        "unknownBattle": (404, "battle-not-found"),
        "stale": (412, "stale-version"),
        "reused": (422, "idempotency-key-reused"),
        "noVersion": (404, "version-not-found"),
        "noKey": (401, "unauthorized"),
        "badRuleset": (404, "ruleset-not-found"),
    }
    for name, (status, slug) in expected.items():
        error = refused[name]["error"]
        assert error["isSiegeError"] and error["name"] == "SiegeError", name
        assert error["status"] == status and error["problem"]["status"] == status, (name, error)
        assert error["problem"]["type"] == f"https://siege.example/problems/{slug}" and error["type"] == slug
        assert error["message"], name
    assert set(refused["invalid"]["error"]["problem"]["errors"]) == {"section_id", "sectionid"}
    assert refused["stale"]["error"]["problem"]["current_version"] == head
    # nothing refused was appended
    assert len(log_entries(api, battle["id"], battle["gm_token"])) == head
    assert errors == []


def test_a_page_on_an_origin_the_api_does_not_allow_gets_no_answer(
    api: LiveService, page: Page, sites: Origins
) -> None:
    errors = opened(page, sites.foreign)

    refused = page.evaluate(
        """async ({base, key}) => {
            const { SiegeClient } = window.siege;
            const client = new SiegeClient({ baseUrl: base, battleId: "b", token: "t" });
            const battle = { baseUrl: base, apiKey: key, ruleset: "epic" };
            return {
                create: await settled(SiegeClient.createBattle(battle)),
                rulesets: await settled(client.rulesets()),
            };
        }""",
        {"base": api.base_url, "key": api.api_key},
    )

    for name in ("create", "rulesets"):
        error = refused[name]["error"]
        assert error["isSiegeError"] and error["status"] == 0 and error["problem"] is None, (name, error)
    # the API itself answers (the same calls without an Origin): only the browser's CORS check refused
    assert call("GET", f"{api.base_url}/rulesets").status == 200
    assert errors == []


def test_calls_with_a_token_or_a_json_body_were_preflighted(
    api: LiveService, page: Page, sites: Origins
) -> None:
    opened(page, sites.allowed)
    battle = gm_session(page, api)["battle"]

    lines = [_access(line) for line in api.log_path.read_text(errors="replace").splitlines()]
    preflights = {(http["path"], http["status"]) for http in lines if http and http["method"] == "OPTIONS"}
    for path in ("/battles", f"/battles/{battle['id']}/tokens", f"/battles/{battle['id']}/commands"):
        assert (path, 200) in preflights, (path, sorted(preflights))


def _access(line: str) -> dict[str, Any] | None:
    """The `http` member of one gunicorn access line (JSON), else None."""
    try:
        record = json.loads(line)
    except ValueError:
        return None
    return record.get("http") if isinstance(record, dict) and record.get("logger") == "siege.access" else None


def test_subscribe_delivers_every_outcome_once_across_a_dropped_connection(
    api: LiveService, page: Page, sites: Origins
) -> None:
    errors = opened(page, sites.allowed)
    streams = stream_requests(page)
    battle_id, gm = created(api)
    observer = mint(api, battle_id, gm, "observer")
    subscribe(page, api, battle_id, observer, language="fr")
    page.wait_for_function("() => window.opens === 1")

    first = [send_once(api, battle_id, gm, wall(n)) for n in range(3)]
    page.wait_for_function(f"() => window.received.length === {len(first)}")
    drop_the_api_workers(api)  # gunicorn's master forks new ones; the page's stream is cut mid-way
    second = [send_once(api, battle_id, gm, wall(n)) for n in range(3, 6)]
    concluded = send_once(api, battle_id, gm, {"type": "conclude"})
    page.wait_for_function("() => window.ended !== null", timeout=60_000)

    received = page.evaluate("window.received")
    sent = [*first, *second, concluded]
    assert [o["version"] for o in received] == sent  # nothing lost, nothing twice, in version order
    for outcome in received:  # each exactly as GET .../events/{v} serves it, told in the client's language
        served = call(
            "GET", f"{api.base_url}/battles/{battle_id}/events/{outcome['version']}", None, bearer(gm, "fr")
        )
        assert outcome == served.body["outcome"]
    assert page.evaluate("window.ended") == {"version": concluded, "reason": "concluded"}
    assert page.evaluate("window.opens") >= 2
    dropped = page.evaluate("window.streamErrors")
    assert dropped and all(error["willRetry"] for error in dropped)  # the client saw the drop, and came back
    # each connection took a fresh ticket; the first one after the drop resumed after the last outcome seen
    tickets = [query(url)["ticket"] for url in streams]
    assert len(tickets) == len(set(tickets)) >= 2
    assert query(streams[0])["after"] == "1" and query(streams[0])["lang"] == "fr"
    resumed = [query(url)["after"] for url in streams[1:]]
    assert resumed[0] == str(first[-1]) and all(int(after) >= first[-1] for after in resumed)
    assert page.evaluate("window.subscription.lastVersion()") == concluded
    assert errors == []


def test_outcomes_folded_while_the_api_was_down_come_first_on_resume(
    api: LiveService, page: Page, sites: Origins
) -> None:
    errors = opened(page, sites.allowed)
    streams = stream_requests(page)
    battle_id, gm = created(api)
    subscribe(page, api, battle_id, mint(api, battle_id, gm, "observer"))
    page.wait_for_function("() => window.opens === 1")
    before = send_once(api, battle_id, gm, wall(0))
    page.wait_for_function("() => window.received.length === 1")

    # the page's API stops; another API process on the same store takes commands, folded meanwhile
    first = next(child for child in api.stack.children if child.name == "api")
    with another_api(api) as elsewhere:
        first.kill()
        away = [send_once(elsewhere, battle_id, gm, wall(n)) for n in range(1, 4)]
        eventually(lambda: projected(elsewhere, battle_id, gm) == away[-1], 30, "the fold of those sent away")
        page.wait_for_function("() => window.streamErrors.some((error) => error.ticket)")
        api.stack.restart(first)
        eventually(lambda: answers_200(f"{api.base_url}/readyz"), 60, "the page's API back")
    page.wait_for_function(f"() => window.received.length === {1 + len(away)}", timeout=60_000)
    live = send_once(api, battle_id, gm, {"type": "conclude"})
    page.wait_for_function("() => window.ended !== null")

    assert [o["version"] for o in page.evaluate("window.received")] == [before, *away, live]
    # the stream cut, then taking a ticket failed while the API was down (no answer): the client kept trying
    failures = page.evaluate("window.streamErrors")
    assert all(error["willRetry"] and error["status"] == 0 for error in failures)
    assert query(streams[-1])["after"] == str(before)  # the one connection after the outage
    assert errors == []


def test_a_used_ticket_is_refused_and_a_concluded_battle_ends_at_once(
    api: LiveService, page: Page, sites: Origins
) -> None:
    errors = opened(page, sites.allowed)
    streams = stream_requests(page)
    battle_id, gm = created(api)
    concluded = send_once(api, battle_id, gm, {"type": "conclude"})

    subscribe(page, api, battle_id, mint(api, battle_id, gm, "observer"))
    page.wait_for_function("() => window.ended !== null")

    assert page.evaluate("window.ended") == {"version": concluded, "reason": "concluded"}
    assert page.evaluate("window.received") == []
    used = query(streams[0])["ticket"]
    refused = page.evaluate(
        """async (url) => {
            const answer = await fetch(url);
            const type = answer.headers.get("Content-Type");
            return { status: answer.status, type, body: await answer.json() };
        }""",
        f"{api.base_url}/battles/{battle_id}/stream?ticket={used}",
    )
    assert refused["status"] == 401 and refused["type"].startswith("application/problem+json")
    assert refused["body"]["type"] == "https://siege.example/problems/unauthorized"
    assert len(streams) == 1  # the end event stopped it: no reconnection
    assert errors == []


def test_a_revoked_token_ends_the_subscription_without_a_reconnect(
    api: LiveService, page: Page, sites: Origins
) -> None:
    errors = opened(page, sites.allowed)
    streams = stream_requests(page)
    battle_id, gm = created(api)
    minted = call("POST", f"{api.base_url}/battles/{battle_id}/tokens", {"role": "observer"}, bearer(gm))
    assert minted.status == 201, minted.body

    subscribe(page, api, battle_id, minted.body["token"])
    page.wait_for_function("() => window.opens === 1")
    revoked = call(
        "DELETE", f"{api.base_url}/battles/{battle_id}/tokens/{minted.body['id']}", None, bearer(gm)
    )
    page.wait_for_function("() => window.ended !== null")

    assert revoked.status == 204
    assert page.evaluate("window.ended") == {"reason": "token_revoked"}
    assert page.evaluate("window.streamErrors") == []
    assert len(streams) == 1  # the end stopped it: no reconnection, no ticket asked for
    assert errors == []


def stream_requests(page: Page) -> list[str]:
    """The URLs of the page's stream requests (the EventSource's, each with its ticket), in order."""
    urls: list[str] = []
    page.on(
        "request",
        lambda request: urls.append(request.url) if request.resource_type == "eventsource" else None,
    )
    return urls


def subscribe(page: Page, api: LiveService, battle_id: str, token: str, language: str = "en") -> None:
    """An observer's subscription in the page: its outcomes, openings, errors and end kept on `window`."""
    page.evaluate(
        """({base, id, token, language}) => {
            const client = new window.siege.SiegeClient({ baseUrl: base, battleId: id, token, language });
            Object.assign(window, { received: [], opens: 0, ended: null, streamErrors: [] });
            window.subscription = client.subscribe({
                onOutcome: (outcome) => window.received.push(outcome),
                onOpen: () => { window.opens += 1; },
                onEnd: (end) => { window.ended = end; },
                onError: (error, { willRetry }) =>
                    window.streamErrors.push({
                        willRetry,
                        status: error.status,
                        ticket: error.message.includes("/stream-tickets"),  // no ticket taken
                    }),
            });
        }""",
        {"base": api.base_url, "id": battle_id, "token": token, "language": language},
    )


def created(api: LiveService) -> tuple[str, str]:
    """A new epic battle, its creation folded (so a subscription starts after version 1)."""
    battle_id, gm = create_battle(api)
    url = f"{api.base_url}/battles/{battle_id}"
    eventually(
        lambda: call("GET", url, None, bearer(gm)).body["projected_version"] == 1, 30, "the first fold"
    )
    return battle_id, gm


def mint(api: LiveService, battle_id: str, gm: str, role: str) -> str:
    reply = call("POST", f"{api.base_url}/battles/{battle_id}/tokens", {"role": role}, bearer(gm))
    assert reply.status == 201, reply.body
    return str(reply.body["token"])


def wall(n: int) -> dict[str, Any]:
    return {"type": "add_fortification", "id": f"W{n}", "kind": "wall"}


def send_once(api: LiveService, battle_id: str, gm: str, command: dict[str, Any]) -> int:
    """Send until answered (the API's workers may be restarting), one Idempotency-Key for every try, so the
    command is appended once; its version."""
    headers = {**bearer(gm), "Idempotency-Key": secrets.token_hex(8), "Prefer": f"wait={WAIT_S}"}
    deadline = time.monotonic() + SEND_WITHIN_S
    while True:
        try:
            reply = call("POST", f"{api.base_url}/battles/{battle_id}/commands", command, headers)
        except OSError:  # reset or refused while gunicorn forks new workers
            assert time.monotonic() < deadline, f"no answer to {command} within {SEND_WITHIN_S}s"
            time.sleep(0.2)
            continue
        assert reply.status in (200, 202), reply.body
        return int(reply.body["version"])


@contextlib.contextmanager
def another_api(api: LiveService) -> Iterator[LiveService]:
    """A second gunicorn on the same store and queue, on a port of its own; stopped after."""
    base_url = f"http://127.0.0.1:{free_port()}"
    child = api.stack.start("api-2", commands.api(base_url.removeprefix("http://")), api.env)
    try:
        eventually(lambda: answers_200(f"{base_url}/readyz"), 60, "the second API")
        yield dataclasses.replace(api, base_url=base_url)
    finally:
        child.stop()
        api.stack.children.remove(child)


def projected(api: LiveService, battle_id: str, token: str) -> int:
    return int(
        call("GET", f"{api.base_url}/battles/{battle_id}", None, bearer(token)).body["projected_version"]
    )


def drop_the_api_workers(api: LiveService) -> None:
    """SIGKILL every gunicorn worker (the master stays and forks new ones): open connections are cut."""
    master = next(child for child in api.stack.children if child.name == "api").process.pid
    workers = Path(f"/proc/{master}/task/{master}/children").read_text().split()
    assert workers, "gunicorn has no workers to drop"
    for pid in workers:
        os.kill(int(pid), signal.SIGKILL)


def query(url: str) -> dict[str, str]:
    return dict(parse_qsl(urlsplit(url).query))
