"""How Redis holds what is derived from a battle's log (outcomes stream, state, snapshots; all rebuilt from
the log): save_projection.lua's keys and arguments, and an outcome read back from its stream."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from eventstore import keys
from eventstore.config import RedisClient
from eventstore.records import Projection
from eventstore.roles.folds import require_consecutive
from eventstore.stream_fields import text

OUTCOME_FIELD = "outcome"


def save_call(
    battle_id: str, state: Projection, outcomes: Sequence[tuple[int, str]], snapshots: Sequence[Projection]
) -> tuple[list[str], list[str | int]]:
    """The keys and arguments of save_projection.lua (its reply: 1 saved, 0 guarded out, -1 no battle)."""
    require_consecutive(outcomes)
    args: list[str | int] = [state.version, state.state, len(outcomes)]
    for version, outcome in outcomes:
        args += [version, outcome]
    for snapshot in snapshots:
        args += [snapshot.version, snapshot.state]
    script_keys = [
        keys.outcomes(battle_id),
        keys.state(battle_id),
        keys.snapshots(battle_id),
        keys.snapshot_versions(battle_id),
        keys.log(battle_id),
    ]
    return script_keys, args


def read_outcome(client: RedisClient, battle_id: str, version: int) -> str | None:
    """The outcome of `version`, None while it is not folded (the log's `outcome`, and what a wait reads
    first)."""
    if version < 1:
        return None
    rows = client.xrange(keys.outcomes(battle_id), f"0-{version}", f"0-{version}")
    return outcome_of(rows[0]) if rows else None


def outcome_of(row: tuple[Any, Any]) -> str:
    fields = {text(k): v for k, v in row[1].items()}
    return text(fields[OUTCOME_FIELD])
