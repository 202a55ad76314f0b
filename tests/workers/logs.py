"""Battles written straight into a store, as the API would, for tests that need a log but no HTTP."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime

from eventstore.canonical import canonical_json
from eventstore.records import NewEntry
from replay.folds import replay_states
from rules.dice import commitment
from rules.fold import BATTLE_CREATED, encode_battle
from rules.registry import get_ruleset
from tests.eventstore.helpers import appending
from tests.fixtures.redis_server import Backend

SERVER_SEED = "5e" * 32
RULESET = "epic"
FILLER = "advance_phase"  # an epic command with no fields and no dice: cheap to write, real to fold


def new_battle(store: Backend, *, commands: int = 0, ruleset: str = RULESET) -> str:
    battle_id = uuid.uuid4().hex
    store.create_battle(battle_id, _entry(BATTLE_CREATED, _created_data(ruleset)), SERVER_SEED)
    append(store, battle_id, commands)
    return battle_id


def append(store: Backend, battle_id: str, count: int, kind: str = FILLER) -> None:
    for _ in range(count):
        store.append(appending(battle_id, _entry(kind, {})))


def projected_version(store: Backend, battle_id: str) -> int:
    projection = store.projection(battle_id)
    return projection.version if projection else 0


def fresh_state(store: Backend, battle_id: str) -> str:
    """The canonical JSON of the state a replay from version 1 reaches at the log head."""
    last = None
    for battle, _outcome in replay_states(store, store, battle_id):
        last = battle
    assert last is not None
    return canonical_json(encode_battle(last))


def _created_data(ruleset: str) -> dict[str, object]:
    return {
        "ruleset": ruleset,
        "rules_version": get_ruleset(RULESET).rules_version,
        "options": {},
        "dice_commitment": commitment(bytes.fromhex(SERVER_SEED)),
        "client_seed": "",
        "name": None,
    }


def _entry(kind: str, data: dict[str, object]) -> NewEntry:
    return NewEntry(
        type=kind,
        data=data,
        schema_version=1,
        actor="test",
        idempotency_key=None,
        recorded_at=datetime.now(UTC).isoformat(),
        dice={},
    )
