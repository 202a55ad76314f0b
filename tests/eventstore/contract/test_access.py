"""Access's contract, on every backend: tokens by digest (live caps, revocation), stream tickets taken once,
rate budgets, a command key's recorded response, and the Idempotency-Keys of webhook operations."""

from __future__ import annotations

import dataclasses
import time

import pytest

from eventstore.errors import IdempotencyInFlight, TooManyTokens, UnknownBattle
from eventstore.records import RequestRecord, TicketRecord
from tests.eventstore.contract.builders import BUDGET, token
from tests.eventstore.helpers import SEED, appending, battle, command, created, eventually
from tests.fixtures.redis_server import Backend


def test_a_battle_is_created_with_its_first_token(store: Backend) -> None:
    store.create_battle("b1", created(), SEED, token=token())
    assert store.token("b1", "d" * 64) == token()
    assert store.tokens("b1") == [token()]


def test_tokens_are_found_by_digest_and_belong_to_one_battle(store: Backend) -> None:
    battle(store, "b1")
    battle(store, "b2")
    side = token("a" * 64, "tok-2", role="side", scope="attacker", expires_at="2030-01-01T00:00:00.000Z")
    store.add_token("b1", side)
    assert store.token("b1", "a" * 64) == side
    assert store.token("b2", "a" * 64) is None
    assert store.token("b1", "b" * 64) is None
    assert store.tokens("b2") == []


def test_tokens_are_listed_oldest_first(store: Backend) -> None:
    battle(store)
    later = token("a" * 64, "tok-a", created_at="2026-03-02T00:00:00.000Z")
    earlier = token("b" * 64, "tok-b", role="observer", created_at="2026-03-01T00:00:00.000Z")
    store.add_token("b1", later)
    store.add_token("b1", earlier)
    assert store.tokens("b1") == [earlier, later]


def test_a_token_for_an_unknown_battle_is_refused(store: Backend) -> None:
    with pytest.raises(UnknownBattle):
        store.add_token("nope", token())
    assert store.token("nope", "d" * 64) is None and store.tokens("nope") == []


def test_a_token_past_the_live_cap_is_refused_and_revoked_or_expired_ones_do_not_count(
    store: Backend,
) -> None:
    battle(store)
    now = "2026-03-01T12:00:00.000Z"
    store.add_token("b1", token("a" * 64, "tok-a"), live_cap=2, now=now)
    store.add_token(
        "b1", token("b" * 64, "tok-b", expires_at="2026-03-01T12:00:01.000Z"), live_cap=2, now=now
    )
    with pytest.raises(TooManyTokens) as full:
        store.add_token("b1", token("c" * 64, "tok-c"), live_cap=2, now=now)
    assert full.value.live == 2 and store.token("b1", "c" * 64) is None
    later = "2026-03-01T12:00:01.000Z"  # tok-b expires at this very moment: no longer live
    store.add_token("b1", token("c" * 64, "tok-c"), live_cap=2, now=later)
    store.revoke_token("b1", "tok-a")
    store.add_token("b1", token("d" * 64, "tok-d"), live_cap=2, now=later)
    with pytest.raises(TooManyTokens):
        store.add_token("b1", token("e" * 64, "tok-e"), live_cap=2, now=later)
    store.add_token("b1", token("e" * 64, "tok-e"))  # no cap given: none applies
    assert len(store.tokens("b1")) == 5


def test_a_revoked_token_stays_listed_as_revoked(store: Backend) -> None:
    battle(store)
    store.add_token("b1", token())
    store.add_token("b1", token("e" * 64, "tok-2"))
    revoked = store.revoke_token("b1", "tok-1")
    assert revoked == dataclasses.replace(token(), revoked=True)
    assert store.token("b1", "d" * 64) == revoked
    assert store.token("b1", "e" * 64) == token("e" * 64, "tok-2")
    assert store.revoke_token("b1", "tok-9") is None
    assert store.revoke_token("nope", "tok-1") is None


def ticket(digest: str = "t" * 64, **fields: object) -> TicketRecord:
    values: dict[str, object] = {"token_digest": "d" * 64, "token_id": "tok-1", "role": "side", **fields}
    return TicketRecord(digest=digest, **values)  # type: ignore[arg-type]


def test_a_ticket_is_taken_once(store: Backend) -> None:
    battle(store)
    store.add_ticket("b1", ticket(scope="attacker"), ttl_s=30)

    assert store.take_ticket("b1", "t" * 64) == ticket(scope="attacker")
    assert store.take_ticket("b1", "t" * 64) is None


def test_a_ticket_belongs_to_its_battle(store: Backend) -> None:
    battle(store, "b1")
    battle(store, "b2")
    store.add_ticket("b1", ticket(), ttl_s=30)

    assert store.take_ticket("b2", "t" * 64) is None
    assert store.take_ticket("b1", "u" * 64) is None
    assert store.take_ticket("b1", "t" * 64) == ticket()


def test_a_ticket_expires(store: Backend) -> None:
    battle(store)
    store.add_ticket("b1", ticket(), ttl_s=0.05)
    store.add_ticket("b1", ticket("v" * 64), ttl_s=30)

    time.sleep(0.2)

    assert store.take_ticket("b1", "t" * 64) is None
    assert store.take_ticket("b1", "v" * 64) == ticket("v" * 64)


def test_spend_counts_the_same_budget_as_appends(store: Backend) -> None:
    battle(store)
    store.append(appending("b1", command(), budget=BUDGET))

    spent = store.spend("b1", BUDGET)

    assert spent.left == 0 and not spent.breached
    assert store.spend("b1", BUDGET).breached
    other = dataclasses.replace(BUDGET, owner="token:t2")
    assert store.spend("b1", other).left == 1  # each owner its own counters
    assert store.head("b1").version == 1 + 1


def test_a_response_is_recorded_only_for_the_version_its_key_answered(store: Backend) -> None:
    battle(store)
    store.append(appending("b1", command(key="k"), fingerprint="f", lease_s=30))
    assert not store.record_response("b1", "k", 3, "{}")
    assert not store.record_response("b1", "other", 2, "{}")
    assert not store.record_response("nope", "k", 2, "{}")
    with pytest.raises(IdempotencyInFlight):
        store.append(appending("b1", command(key="k"), fingerprint="f", lease_s=30))


def test_an_idempotency_key_is_held_then_answered_or_released(store: Backend) -> None:
    battle(store)
    assert store.hold_request("b1", "key 1", "fp-a", 30_000) is None
    assert store.hold_request("b1", "key 1", "fp-a", 30_000) == RequestRecord(fingerprint="fp-a")
    assert store.hold_request("b2", "key 1", "fp-a", 30_000) is None  # keys are per battle

    store.answer_request("b1", "key 1", "fp-a", '200 {"id": "wh_1"}', 30_000)
    answered = RequestRecord(fingerprint="fp-a", answer='200 {"id": "wh_1"}')
    assert store.hold_request("b1", "key 1", "fp-b", 30_000) == answered
    store.release_request("b1", "key 1", "fp-a")  # an answered key is kept
    assert store.hold_request("b1", "key 1", "fp-a", 30_000) == answered

    assert store.hold_request("b1", "key 2", "fp-c", 30_000) is None
    store.release_request("b1", "key 2", "fp-other")  # another request's release frees nothing
    assert store.hold_request("b1", "key 2", "fp-c", 30_000) == RequestRecord(fingerprint="fp-c")
    store.release_request("b1", "key 2", "fp-c")
    assert store.hold_request("b1", "key 2", "fp-d", 50) is None
    assert eventually(lambda: store.hold_request("b1", "key 2", "fp-e", 30_000) is None)  # the lease lapsed
