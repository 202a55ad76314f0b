"""Hidden orders (EP-ORDER-05, spec v1.2; DESIGN §4.10): until the `advance_phase` that reveals them, a
`give_order` is shown whole only to the GM and to the side that gave it; every other reader gets its version,
type, actor, time and hashes, so the chain still links, and the state without the orders it does not own.
Once revealed the whole entry is served, and it hashes to the hash every reader held. The log, the outcomes
and the fold are the same for everyone; only the views differ. Real store, real app, every read path."""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass
from typing import Any

import pytest
import redis
from flask import Flask

from eventstore.chain import entry_hash
from eventstore.records import StoredEntry
from eventstore.redis_store import RedisEventStore
from replay.export import export_lines
from service.app import create_app
from service.deps import EXTENSION, Services
from service.reading.hiding import POLICIES, SALT
from tests.fixtures.app import GmClient, config_for
from tests.fixtures.redis_server import Backend
from tests.service.exports import exported, imported
from tests.service.helpers import (
    CSM,
    GOFF,
    WALL,
    accepted,
    assert_problem,
    bearer,
    create_battle,
    fold,
    mint,
    send,
)
from tests.service.test_stream import stream

pytestmark = pytest.mark.rule("EP-ORDER-05")

GATE = {"type": "add_fortification", "id": "G1", "kind": "gate"}
READERS = ("gm", "attacker", "defender", "observer")
# the orders each side gives, at versions 6, 7 and 8, and what a reader must never find while they are hidden
ORDERS = {
    6: ("attacker", {"type": "give_order", "stand_id": "csm", "order": "charge"}),
    7: ("defender", {"type": "give_order", "stand_id": "goff", "order": "first_fire"}),
    8: ("defender", {"type": "give_order", "gate_id": "G1", "order": "advance"}),
}
WORDS = {  # the order as JSON, and as every summary says it (en, fr)
    "charge": ('"charge"', "Charge"),
    "first_fire": ('"first_fire"', "First Fire", "Tir Appuyé"),
    "advance": ('"advance"', "Advance", "Avance"),
}
HIDDEN_FROM = {"gm": set(), "attacker": {7, 8}, "defender": {6}, "observer": {6, 7, 8}}
REVEAL = 9
ENTRY_FIELDS = (
    "version", "type", "data", "schema_version", "actor", "idempotency_key", "recorded_at", "dice",
    "prev_hash", "hash",
)  # fmt: skip
KEPT = ("version", "type", "schema_version", "actor", "recorded_at", "prev_hash", "hash")


@dataclass
class Battle:
    client: GmClient
    store: Backend
    id: str
    headers: dict[str, dict[str, str]]  # by reader

    def get(self, reader: str, path: str, **headers: str) -> Any:
        return self.client.get(f"/battles/{self.id}{path}", headers={**self.headers[reader], **headers})

    def events(self, reader: str, **headers: str) -> list[dict[str, Any]]:
        read = self.get(reader, "/events", **headers)
        assert read.status_code == 200, read.get_json()
        events: list[dict[str, Any]] = read.get_json()
        return events

    def reveal(self) -> None:
        assert accepted(self.client, self.id, {"type": "advance_phase"}) == REVEAL
        fold(self.store, self.id)


def ordered(client: GmClient, store: Backend, *, gate_order: str = "advance") -> Battle:
    """A wall, a gate and a stand a side; each side orders its own (the defender its gate too), with side
    tokens; folded, orders phase, nothing revealed."""
    battle_id = create_battle(client)
    for command in (WALL, GATE, CSM, GOFF):
        accepted(client, battle_id, command)
    headers = {"gm": bearer(client.gm_tokens[battle_id])}
    headers |= {
        name: bearer(mint(client, battle_id, f"side:{name}")["token"]) for name in ("attacker", "defender")
    }
    headers["observer"] = bearer(mint(client, battle_id, "observer")["token"])
    for version, (side, order) in ORDERS.items():
        order = {**order, "order": gate_order} if "gate_id" in order else order
        posted = send(client, battle_id, order, headers=headers[side])
        assert posted.status_code == 202 and posted.get_json()["version"] == version, posted.get_json()
    fold(store, battle_id)
    return Battle(client, store, battle_id, headers)


@pytest.fixture
def battle(client: GmClient, redis_store: RedisEventStore) -> Battle:
    return ordered(client, redis_store)


def data_of(command: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in command.items() if k != "type"}


def hidden_versions(events: list[dict[str, Any]]) -> set[int]:
    return {e["version"] for e in events if e.get("hidden")}


def leaks(body: str, reader: str) -> list[str]:
    """Every word of an order hidden from `reader` found in what it was sent."""
    hidden = {ORDERS[v][1]["order"] for v in HIDDEN_FROM[reader]} - {
        ORDERS[v][1]["order"] for v in ORDERS if v not in HIDDEN_FROM[reader]
    }
    return [word for order in hidden for word in WORDS[order] if word in body]


def recomputed(event: dict[str, Any]) -> str:
    entry = StoredEntry(**{name: event[name] for name in ENTRY_FIELDS})
    return entry_hash(entry.version, entry, entry.prev_hash)


def verified(events: list[dict[str, Any]]) -> dict[int, str]:
    """Walk the chain as a reader can: every entry links to the one before, and every whole one hashes to its
    `hash`; answers the hashes the reader could not recompute (the hidden entries')."""
    prev = "0" * 64
    unchecked = {}
    for event in events:
        assert event["prev_hash"] == prev, event["version"]
        if event.get("hidden"):
            unchecked[event["version"]] = event["hash"]
        else:
            assert recomputed(event) == event["hash"], event["version"]
        prev = event["hash"]
    return unchecked


@pytest.mark.parametrize("reader", READERS)
def test_until_the_reveal_an_order_is_whole_only_for_the_gm_and_the_side_that_gave_it(
    battle: Battle, reader: str
) -> None:
    events = battle.events(reader)

    assert hidden_versions(events) == HIDDEN_FROM[reader]
    for event in events:
        if event["version"] in ORDERS and not event.get("hidden"):
            assert event["data"] == data_of(ORDERS[event["version"]][1])
            assert event["outcome"]["result"]["order"] == event["data"]["order"]


def test_a_hidden_entry_keeps_version_type_actor_time_and_hashes_and_nothing_else(battle: Battle) -> None:
    whole = {e["version"]: e for e in battle.events("gm")}

    for event in battle.events("observer"):
        if event["version"] not in ORDERS:
            assert event == whole[event["version"]]
            continue
        assert {k: event[k] for k in KEPT} == {k: whole[event["version"]][k] for k in KEPT}
        assert (event["hidden"], event["data"], event["dice"], event["idempotency_key"]) == (
            True,
            None,
            None,
            None,
        )
        outcome = event["outcome"]
        assert outcome["hidden"] is True and outcome["hash"] == event["hash"]
        assert (outcome["version"], outcome["type"]) == (event["version"], "give_order")
        assert [outcome[k] for k in ("status", "reason", "detail", "result", "changes")] == [None] * 5
        assert outcome["rolls"] == []
        assert outcome["summary"] == "An order was given, hidden until the orders are revealed"


@pytest.mark.parametrize("language", ["en", "fr"])
@pytest.mark.parametrize("reader", READERS[1:])
def test_nothing_hidden_leaks_through_events_one_event_the_state_or_a_summary(
    battle: Battle, reader: str, language: str
) -> None:
    lang = {"Accept-Language": language}
    paths = ["/events", "/events?after=5&limit=2", "/state", "/state?at=7", "/state?at=8", ""]
    paths += [f"/events/{v}" for v in ORDERS]
    for path in paths:
        answered = battle.get(reader, path, **lang)
        assert answered.status_code == 200, (path, answered.get_json())
        assert leaks(answered.get_data(as_text=True), reader) == [], path
    for event in battle.events(reader, **lang):
        if event.get("hidden"):  # its target too: the ids themselves are public, from their add_* entries
            shown = str(event)
            assert not [i for i in ("csm", "goff", "G1", "stand_id", "gate_id") if i in shown], shown


@pytest.mark.parametrize("reader", READERS)
def test_the_chain_verifies_from_what_each_reader_receives_and_the_revealed_entries_hash_as_promised(
    battle: Battle, reader: str
) -> None:
    promised = verified(battle.events(reader))
    assert set(promised) == HIDDEN_FROM[reader]

    battle.reveal()
    revealed = battle.events(reader)

    assert verified(revealed) == {}  # every entry whole, and each hashes to its hash
    assert {e["version"]: recomputed(e) for e in revealed if e["version"] in promised} == promised


@pytest.mark.parametrize("reader", READERS)
def test_after_the_reveal_every_reader_reads_every_order_whole(battle: Battle, reader: str) -> None:
    battle.reveal()

    events = battle.events(reader)
    assert hidden_versions(events) == set()
    assert [events[v - 1]["data"] for v in ORDERS] == [data_of(order) for _, order in ORDERS.values()]
    revealed = events[REVEAL - 1]["outcome"]["result"]["revealed_orders"]
    assert revealed == {"csm": "charge", "goff": "first_fire", "G1": "advance"}
    for v in ORDERS:
        one = battle.get(reader, f"/events/{v}")
        assert one.get_json() == events[v - 1] and "hidden" not in one.headers["ETag"]


def orders_in(state: dict[str, Any]) -> dict[str, Any]:
    game = state["game"]
    return {e["id"]: e["order"] for e in game["stands"] + game["sections"] if e["id"] != "W1"}


@pytest.mark.parametrize(
    "reader, shown",
    [
        ("gm", {"csm": "charge", "goff": "first_fire", "G1": "advance"}),
        ("attacker", {"csm": "charge", "goff": "hidden", "G1": "hidden"}),
        ("defender", {"csm": "hidden", "goff": "first_fire", "G1": "advance"}),
        ("observer", {"csm": "hidden", "goff": "hidden", "G1": "hidden"}),
    ],
)
def test_the_state_withholds_every_order_the_reader_does_not_own_until_the_reveal(
    battle: Battle, reader: str, shown: dict[str, str]
) -> None:
    before = battle.get(reader, "/state")
    assert orders_in(before.get_json()) == shown
    assert orders_in(battle.get(reader, "/state?at=7").get_json()) == {
        k: v if k != "G1" else (None if v != "hidden" else "hidden") for k, v in shown.items()
    }
    assert orders_in(battle.get(reader, "/state?at=5").get_json())["csm"] is None  # before any order: none
    assert "Authorization" in before.headers["Vary"]

    battle.reveal()

    whole = {"csm": "charge", "goff": "first_fire", "G1": "advance"}
    assert orders_in(battle.get(reader, "/state?at=8").get_json()) == whole
    assert orders_in(battle.get(reader, "/state").get_json()) == whole


def test_each_view_has_its_own_etag_so_no_cache_hands_one_readers_view_to_another(battle: Battle) -> None:
    def tags(path: str) -> dict[str, str]:
        return {reader: battle.get(reader, path).headers["ETag"] for reader in READERS}

    paths = ("/events", "/events/6", "/events/8", "/state")
    before = {path: tags(path) for path in paths}
    for path, tag in before.items():
        shown = {r: battle.get(r, path).get_data() for r in READERS}
        for a, b in itertools.combinations(READERS, 2):  # another body, another tag
            assert (tag[a] == tag[b]) == (shown[a] == shown[b]), (path, a, b)
    gm_tag = before["/events/6"]["gm"]
    crossed = battle.get("defender", "/events/6", **{"If-None-Match": gm_tag})
    assert crossed.status_code == 200 and crossed.get_json()["hidden"] is True
    assert (
        battle.get("defender", "/events/6", **{"If-None-Match": before["/events/6"]["defender"]}).status_code
        == 304
    )

    battle.reveal()

    kept = battle.get("defender", "/events/6", **{"If-None-Match": before["/events/6"]["defender"]})
    assert kept.status_code == 200 and "hidden" not in kept.get_json()  # revealed: a new representation
    assert battle.get("defender", "/events/6", **{"If-None-Match": gm_tag}).status_code == 304


def test_a_rejected_order_stays_hidden_with_its_reason_until_the_reveal(battle: Battle) -> None:
    refused = send(
        battle.client, battle.id, {"type": "give_order", "gate_id": "W1", "order": "charge"},
        headers=battle.headers["defender"],
    )  # fmt: skip
    fold(battle.store, battle.id)
    version = refused.get_json()["version"]
    assert battle.get("gm", f"/events/{version}").get_json()["outcome"]["reason"] == "not_a_gate"

    shown = battle.get("attacker", f"/events/{version}")
    assert shown.get_json()["outcome"]["status"] is None
    assert not [w for w in ("not_a_gate", "W1", "not a gate") if w in shown.get_data(as_text=True)]
    assert battle.get("defender", f"/events/{version}").get_json()["outcome"]["reason"] == "not_a_gate"


def test_an_applied_conclude_reveals_every_order(battle: Battle) -> None:
    accepted(battle.client, battle.id, {"type": "conclude"})
    fold(battle.store, battle.id)

    for reader in READERS:
        assert hidden_versions(battle.events(reader)) == set()
        assert orders_in(battle.get(reader, "/state").get_json())["goff"] == "first_fire"


def test_a_rejected_advance_phase_reveals_nothing(client: GmClient, redis_store: RedisEventStore) -> None:
    battle_id = create_battle(client)
    for command in (WALL, GATE, CSM):  # the gate has no order: leaving the orders phase is refused
        accepted(client, battle_id, command)
    attacker = bearer(mint(client, battle_id, "side:attacker")["token"])
    observer = bearer(mint(client, battle_id, "observer")["token"])
    send(client, battle_id, {"type": "give_order", "stand_id": "csm", "order": "charge"}, headers=attacker)
    accepted(client, battle_id, {"type": "advance_phase"})
    fold(redis_store, battle_id)

    events = client.get(f"/battles/{battle_id}/events", headers=observer).get_json()
    assert events[-1]["outcome"]["reason"] == "gate_without_order"
    assert hidden_versions(events) == {5}


def test_an_export_is_whole_so_it_waits_for_the_reveal_unless_the_gm_asks(battle: Battle) -> None:
    for reader in READERS[1:]:
        problem = assert_problem(battle.get(reader, "/export"), 409, "orders-hidden")
        assert "GM" in problem["detail"]
    exported = battle.get("gm", "/export").get_data(as_text=True)
    assert exported == b"".join(export_lines(battle.store, battle.id)).decode()
    assert '"first_fire"' in exported and '"charge"' in exported

    battle.reveal()

    for reader in READERS:
        assert battle.get(reader, "/export").status_code == 200


def test_a_hidden_order_sent_without_a_key_hides_a_salt_so_its_hash_cannot_be_guessed(battle: Battle) -> None:
    whole = battle.get("gm", "/events/7").get_json()
    hidden = battle.get("attacker", "/events/7").get_json()
    assert re.fullmatch(SALT + "[0-9a-f]{32}", whole["idempotency_key"])

    # what the attacker can try: every stand or gate id it knows, every order, no key, no dice
    for target, order in itertools.product(("csm", "goff", "G1", "W1"), WORDS):
        for field in ("stand_id", "gate_id"):
            guess = {**hidden, "data": {field: target, "order": order}, "dice": {}, "idempotency_key": None}
            assert recomputed(guess) != hidden["hash"]
    assert recomputed(whole) == hidden["hash"]


def test_a_key_sent_with_a_hidden_order_is_recorded_as_sent(battle: Battle) -> None:
    order = {"type": "give_order", "stand_id": "csm", "order": "advance"}
    posted = send(
        battle.client, battle.id, order, headers={**battle.headers["attacker"], "Idempotency-Key": "k-1"}
    )
    version = posted.get_json()["version"]

    assert battle.get("gm", f"/events/{version}").get_json()["idempotency_key"] == "k-1"
    assert battle.get("defender", f"/events/{version}").get_json()["idempotency_key"] is None
    again = send(
        battle.client, battle.id, order, headers={**battle.headers["attacker"], "Idempotency-Key": "k-1"}
    )
    assert again.get_json()["version"] == version  # replayed, as any keyed command


def test_other_commands_are_never_hidden(battle: Battle) -> None:
    whole = battle.events("gm")
    for reader in READERS[1:]:
        shown = battle.events(reader)
        assert [e for e in shown if e["version"] not in ORDERS] == [
            e for e in whole if e["version"] not in ORDERS
        ]


# --- the stream -------------------------------------------------------------------------------------------


@pytest.fixture
def stream_client(redis_store: RedisEventStore, redis_client: redis.Redis[Any], redis_url: str) -> GmClient:
    app = create_app(
        config_for(redis_url, stream_heartbeat_s=0.05), store=redis_store, queue_redis=redis_client
    )
    app.testing = True
    return GmClient(app, app.response_class, use_cookies=False)


def streamed(battle: Battle, reader: str, after: int, count: int) -> list[dict[str, Any]]:
    with stream(battle.client, battle.id, f"?after={after}", headers=battle.headers[reader]) as events:
        return [e.json() for e in events.outcomes(count)]


@pytest.mark.parametrize("reader", READERS)
def test_the_stream_sends_each_reader_the_outcomes_as_events_serves_them_to_it(
    stream_client: GmClient, redis_store: RedisEventStore, reader: str
) -> None:
    battle = ordered(stream_client, redis_store)

    sent = streamed(battle, reader, after=5, count=3)

    assert sent == [battle.get(reader, f"/events/{v}").get_json()["outcome"] for v in ORDERS]
    assert {o["version"] for o in sent if o.get("hidden")} == HIDDEN_FROM[reader]
    for outcome in sent:
        if outcome.get("hidden"):
            assert leaks(str(outcome), reader) == [] and outcome["result"] is None

    battle.reveal()
    assert [o.get("hidden") for o in streamed(battle, reader, after=5, count=4)] == [None] * 4


def test_live_streams_of_several_readers_share_no_rendered_frame_across_views(
    stream_client: GmClient, redis_store: RedisEventStore
) -> None:
    """The process renders each outcome once per language and view: the GM's whole frame, rendered first,
    must never reach the defender or the observer, whose streams read the very same hub batch."""
    battle = ordered(stream_client, redis_store)
    opened = {
        r: stream(battle.client, battle.id, f"?after={REVEAL - 1}", headers=battle.headers[r])
        for r in READERS
    }
    readers = {r: s.__enter__() for r, s in opened.items()}
    try:
        for reader in readers.values():  # each caught up and waiting on the hub: what comes next is shared
            reader.until(lambda frame: bool(frame.comments))
        posted = send(
            battle.client,
            battle.id,
            {"type": "give_order", "stand_id": "csm", "order": "advance"},
            headers=battle.headers["attacker"],
        )
        fold(redis_store, battle.id)
        live = {r: reader.outcomes(1)[0] for r, reader in readers.items()}
    finally:
        for s in opened.values():
            s.__exit__(None, None, None)

    version = posted.get_json()["version"]
    assert {r: int(e.id or 0) for r, e in live.items()} == dict.fromkeys(READERS, version)
    assert {r: e.json().get("hidden", False) for r, e in live.items()} == {
        "gm": False, "attacker": False, "defender": True, "observer": True,
    }  # fmt: skip
    assert live["defender"].data == live["observer"].data  # one hidden frame for every hidden reader
    assert '"advance"' not in str(live["defender"].data)


# --- previews ---------------------------------------------------------------------------------------------


TITAN = {
    "type": "add_stand",
    "id": "titan",
    "stand_type": "war_engine",
    "side": "attacker",
    "caf": 2,
    "has_cc_weapon": True,
    "speed_cm": 10,
    "location": {"kind": "at_foot", "section_id": "G1"},
}
STORM = {"type": "assault", "stand_id": "titan", "section_id": "G1"}  # 2D6 + caf > the gate's VA_eff


def before_the_storm(client: GmClient, store: Backend, gate_order: str, *, folded: bool) -> Battle:
    """A titan on Charge at the gate's foot, in the close-combat phase; unless `folded`, the advance_phases
    out of the orders phase are logged but not folded yet, so no reveal is stored: the gate's order is still
    hidden from the attacker, though the state at the head is past the orders phase."""
    battle = ordered(client, store, gate_order=gate_order)
    accepted(client, battle.id, TITAN)
    order = {"type": "give_order", "stand_id": "titan", "order": "charge"}
    assert send(client, battle.id, order, headers=battle.headers["attacker"]).status_code == 202
    for _ in range(3):  # movement, first_fire, close_combat
        accepted(client, battle.id, {"type": "advance_phase"})
    if folded:
        fold(store, battle.id)
    return battle


def previews(battle: Battle) -> dict[str, Any]:
    return {
        reader: battle.client.post(
            f"/battles/{battle.id}/previews", json=STORM, headers=battle.headers[reader]
        ).get_json()
        for reader in ("gm", "attacker")
    }


def test_a_sides_preview_tells_nothing_of_the_other_sides_hidden_orders(
    client: GmClient, redis_store: RedisEventStore
) -> None:
    first_fire = previews(before_the_storm(client, redis_store, "first_fire", folded=False))
    advance = previews(before_the_storm(client, redis_store, "advance", folded=False))

    assert first_fire["gm"] != advance["gm"]  # the gate's order changes the odds (EP-FORT-03's +2)...
    assert first_fire["attacker"] == advance["attacker"]  # ...not the attacker's, who may not see it yet
    assert first_fire["attacker"] == advance["gm"]  # decided as if the gate had no Tir Appuyé
    assert advance["gm"]["fields"]["result"]["p"]["success"] == pytest.approx(35 / 36)  # 2D6 + 2 > 4
    for preview in (first_fire["attacker"], advance["attacker"]):
        assert leaks(str(preview), "attacker") == []


def test_once_revealed_a_sides_preview_is_the_gms(client: GmClient, redis_store: RedisEventStore) -> None:
    shown = previews(before_the_storm(client, redis_store, "first_fire", folded=True))

    assert shown["attacker"] == shown["gm"]
    assert shown["gm"]["fields"]["result"]["p"]["success"] == pytest.approx(30 / 36)  # 2D6 + 2 > 4 + 2


# --- the per-process memory of reveals --------------------------------------------------------------------


def reveals_of(app: Flask) -> Any:
    services: Services = app.extensions[EXTENSION]
    return services.reveals


def test_another_process_finds_the_last_reveal_however_far_back_it_is(
    client: GmClient, redis_store: RedisEventStore, redis_client: redis.Redis[Any], redis_url: str
) -> None:
    battle_id = create_battle(client)
    for command in (WALL, CSM, GOFF):  # no gate: every turn's orders phase ends, each with a reveal
        accepted(client, battle_id, command)
    for _ in range(130):  # far more than a window of outcomes from the first reveal to the head
        accepted(client, battle_id, {"type": "advance_phase"})
    fold(redis_store, battle_id)
    defender = bearer(mint(client, battle_id, "side:defender")["token"])
    attacker = bearer(mint(client, battle_id, "side:attacker")["token"])
    late = send(
        client, battle_id, {"type": "give_order", "stand_id": "goff", "order": "charge"}, headers=defender
    )
    fresh = GmClient(
        create_app(config_for(redis_url), store=redis_store, queue_redis=redis_client), use_cookies=False
    )

    events = fresh.get(f"/battles/{battle_id}/events?after=0&limit=200", headers=attacker).get_json()

    assert hidden_versions(events) == {late.get_json()["version"]}  # pending, after the last reveal
    secrets = reveals_of(fresh.application).secrets(redis_store, battle_id, POLICIES["epic"])
    leaving = [
        e["version"]
        for e in events
        if (e["outcome"] or {}).get("result", {})
        and e["outcome"]["result"].get("revealed_orders") is not None
    ]
    assert secrets.revealed_upto == leaving[-1] > 100


def test_orders_of_a_battle_that_never_left_its_first_orders_phase_stay_hidden(
    client: GmClient, redis_store: RedisEventStore, redis_client: redis.Redis[Any], redis_url: str
) -> None:
    battle = ordered(client, redis_store)
    for n in range(250):  # a long setup: more than one window back to version 1
        accepted(client, battle.id, {**WALL, "id": f"W{n + 2}"})
    fold(redis_store, battle.id)
    fresh = GmClient(
        create_app(config_for(redis_url), store=redis_store, queue_redis=redis_client), use_cookies=False
    )

    shown = fresh.get(
        f"/battles/{battle.id}/events?after=5&limit=3", headers=battle.headers["observer"]
    ).get_json()

    assert hidden_versions(shown) == {6, 7, 8}


def test_a_battle_with_salted_orders_exports_and_imports_whole(battle: Battle) -> None:
    """The salt rides in `idempotency_key`, which the import checks as the API checks the header: the
    salted keys the service wrote itself must pass, and the copy audits clean."""
    assert accepted(battle.client, battle.id, {"type": "conclude"}) == REVEAL
    fold(battle.store, battle.id)
    lines = exported(battle.client, battle.id)

    copied = imported(battle.client, lines)

    assert copied.status_code == 201, copied.get_json()
    new_id = copied.get_json()["id"]
    fold(battle.store, new_id)
    audit = battle.client.get(f"/battles/{new_id}/audit", headers=bearer(copied.get_json()["gm_token"]))
    assert audit.get_json()["ok"] is True, audit.get_json()
