"""Rebuilding derived keys reproduces them byte for byte; verify names the first version that drifted."""

from __future__ import annotations

import json

import pytest

from eventstore.canonical import canonical_json
from eventstore.errors import UnknownBattle
from eventstore.records import Projection
from eventstore.redis_store import RedisEventStore
from tests.workers.logs import fresh_state, new_battle
from workers.projection import BATCH, SNAPSHOT_EVERY, project_battle
from workers.replay import BattleBusy, rebuild, verify


def all_outcomes(store: RedisEventStore, battle_id: str) -> list[tuple[int, str]]:
    return store.outcomes(battle_id, limit=10_000)


def projected(store: RedisEventStore, commands: int) -> str:
    battle_id = new_battle(store, commands=commands)
    project_battle(store, store, battle_id)
    return battle_id


def test_rebuild_reproduces_the_live_projection_byte_for_byte(redis_store: RedisEventStore) -> None:
    battle_id = projected(redis_store, BATCH + 40)  # more than one batch, and snapshots on the way
    state, outcomes = redis_store.projection(battle_id), all_outcomes(redis_store, battle_id)
    snapshot = redis_store.snapshot_at_or_before(battle_id, SNAPSHOT_EVERY)

    rebuilt = rebuild(redis_store, redis_store, battle_id)

    assert (rebuilt.from_version, rebuilt.to_version) == (0, BATCH + 41)
    assert redis_store.projection(battle_id) == state
    assert all_outcomes(redis_store, battle_id) == outcomes
    assert redis_store.snapshot_at_or_before(battle_id, SNAPSHOT_EVERY) == snapshot
    assert state is not None and state.state == fresh_state(redis_store, battle_id)


def test_verify_accepts_an_untouched_projection(redis_store: RedisEventStore) -> None:
    battle_id = projected(redis_store, 12)

    verdict = verify(redis_store, redis_store, battle_id)

    assert (verdict.ok, verdict.projected_version, verdict.first_difference) == (True, 13, None)


def test_verify_reports_a_tampered_state_at_its_version(redis_store: RedisEventStore) -> None:
    battle_id = projected(redis_store, 12)
    saved = redis_store.projection(battle_id)
    assert saved is not None
    tampered = {**json.loads(saved.state), "concluded": True}
    _rewrite(redis_store, battle_id, Projection(version=saved.version, state=canonical_json(tampered)))

    verdict = verify(redis_store, redis_store, battle_id)

    assert (verdict.ok, verdict.first_difference, verdict.what) == (False, 13, "state")


def test_verify_reports_the_first_tampered_outcome(redis_store: RedisEventStore) -> None:
    battle_id = projected(redis_store, 12)
    outcomes = all_outcomes(redis_store, battle_id)
    outcomes[4] = (5, canonical_json({**json.loads(outcomes[4][1]), "summary": "rewritten"}))
    saved = redis_store.projection(battle_id)
    assert saved is not None
    _rewrite(redis_store, battle_id, saved, outcomes)

    verdict = verify(redis_store, redis_store, battle_id)

    assert (verdict.ok, verdict.first_difference, verdict.what) == (False, 5, "outcome")


def test_verify_reports_a_tampered_snapshot(redis_store: RedisEventStore) -> None:
    battle_id = projected(redis_store, SNAPSHOT_EVERY + 3)
    saved = redis_store.projection(battle_id)
    snapshot = redis_store.snapshot_at_or_before(battle_id, SNAPSHOT_EVERY)
    assert saved is not None and snapshot is not None
    forged_state = canonical_json({**json.loads(snapshot.state), "concluded": True})
    forged = Projection(version=SNAPSHOT_EVERY, state=forged_state)
    _rewrite(redis_store, battle_id, saved, snapshots=[forged])

    verdict = verify(redis_store, redis_store, battle_id)

    assert (verdict.ok, verdict.first_difference, verdict.what) == (False, SNAPSHOT_EVERY, "snapshot")


def test_a_rebuild_waits_for_the_folder_that_holds_the_battle_and_deletes_nothing_meanwhile(
    redis_store: RedisEventStore,
) -> None:
    battle_id = projected(redis_store, 3)
    assert redis_store.try_lock(battle_id, "a-busy-worker", 10_000)

    with pytest.raises(BattleBusy):
        rebuild(redis_store, redis_store, battle_id, wait_s=0.1)

    assert redis_store.projection(battle_id) is not None


def test_replaying_an_unknown_battle_is_refused(redis_store: RedisEventStore) -> None:
    with pytest.raises(UnknownBattle):
        rebuild(redis_store, redis_store, "no-such-battle")


def _rewrite(
    store: RedisEventStore,
    battle_id: str,
    state: Projection,
    outcomes: list[tuple[int, str]] | None = None,
    snapshots: list[Projection] | None = None,
) -> None:
    """Tamper through the store's own write path: drop the derived keys, write a forged projection."""
    kept = outcomes if outcomes is not None else all_outcomes(store, battle_id)
    store.delete_derived(battle_id)
    assert store.save_projection(battle_id, state=state, outcomes=kept, snapshots=snapshots or [])
