"""A long fold's writes: each batch's write is sent once the batch is folded and answered once the next one
is, so the store writes while the fold goes on; a write another folder got to first stops the fold."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from prometheus_client import REGISTRY

from eventstore import keys
from eventstore.paging import history
from eventstore.records import Projection
from eventstore.redis_in_flight import InFlight
from eventstore.redis_store import RedisEventStore
from tests.workers.logs import fresh_state, new_battle, projected_version
from workers.projection import BATCH, fold_unsaved, project_battle


def count(name: str, **labels: str) -> float:
    return REGISTRY.get_sample_value(name, labels) or 0.0


def test_a_long_fold_stores_every_batch_and_tallies_each_once(redis_store: RedisEventStore) -> None:
    applied = {"ruleset": "epic", "type": "advance_phase", "status": "applied"}
    before, lags = count("siege_commands_total", **applied), count("siege_projection_lag_seconds_count")
    battle_id = new_battle(redis_store, commands=2 * BATCH + 249)

    folded = project_battle(redis_store, redis_store, battle_id)

    assert (folded.from_version, folded.to_version) == (0, 2 * BATCH + 250)
    assert projected_version(redis_store, battle_id) == 2 * BATCH + 250
    assert [v for v, _ in redis_store.outcomes(battle_id, limit=5_000)] == list(range(1, 2 * BATCH + 251))
    projection = redis_store.projection(battle_id)
    assert projection is not None and projection.state == fresh_state(redis_store, battle_id)
    assert count("siege_commands_total", **applied) == before + 2 * BATCH + 249  # each batch reported once
    assert count("siege_projection_lag_seconds_count") >= lags + 3  # a batch, another, the last write


class Rival(RedisEventStore):
    """The real store, where another folder stores this fold's first batch just before this fold's own write
    of it arrives (a fold lock that lapsed)."""

    sent = 0
    first = 0  # the version the first write brings the projection to

    def send_projection(
        self,
        battle_id: str,
        *,
        state: Projection,
        outcomes: Sequence[tuple[int, str]],
        snapshots: Sequence[Projection] = (),
    ) -> InFlight[bool]:
        self.sent += 1
        if self.sent == 1:
            self.first = state.version
            self.save_projection(battle_id, state=state, outcomes=outcomes, snapshots=snapshots)
        return super().send_projection(battle_id, state=state, outcomes=outcomes, snapshots=snapshots)


def test_a_fold_whose_write_another_folder_made_first_stops_there(redis_store: RedisEventStore) -> None:
    battle_id = new_battle(redis_store, commands=3 * BATCH)
    rival = Rival(redis_store.client)

    fold = fold_unsaved(redis_store, rival, battle_id, None, history(redis_store, battle_id, read_ahead=True))

    assert rival.sent == 1 and fold.write is None and fold.written == 0  # guarded out: nothing more sent
    assert fold.last is not None and rival.first < fold.last.version < 3 * BATCH + 1  # a batch ahead, no more
    assert projected_version(redis_store, battle_id) == rival.first  # the other folder's write stands, once
    assert [v for v, _ in redis_store.outcomes(battle_id, limit=5_000)] == list(range(1, rival.first + 1))
    assert fold.settle(False).to_version == 0


def test_a_fold_that_raises_still_settles_the_write_it_sent(redis_store: RedisEventStore) -> None:
    applied = {"ruleset": "epic", "type": "advance_phase", "status": "applied"}
    before = count("siege_commands_total", **applied)
    battle_id = new_battle(redis_store, commands=2 * BATCH)
    gap = BATCH + 100  # a log with an entry missing: the fold raises there, a batch's write in flight
    redis_store.client.xdel(keys.log(battle_id), f"0-{gap}")

    with pytest.raises(ValueError, match=f"expected version {gap}"):
        project_battle(redis_store, redis_store, battle_id)

    stored = projected_version(redis_store, battle_id)
    assert 0 < stored < gap  # the write sent before the fold raised ran in the store
    # ... and it is counted once, as stored: its commands are not folded again by the next fold
    assert count("siege_commands_total", **applied) == before + stored - 1
    assert redis_store.client.echo("clean") == b"clean"  # no reply of it left for another caller
