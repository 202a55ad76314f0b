"""The wire form of a battle's summary: what version 1 pinned, plus where the log and the projection are."""

from __future__ import annotations

from typing import Any

from eventstore.records import Head, StoredEntry
from service.deps import Services


def battle_summary(deps: Services, battle_id: str, created: StoredEntry, head: Head) -> dict[str, Any]:
    return {
        "id": battle_id,
        "ruleset": created.data["ruleset"],
        "rules_version": created.data["rules_version"],
        "name": created.data.get("name"),
        "options": created.data["options"],
        "dice_commitment": created.data["dice_commitment"],
        "created_at": created.recorded_at,
        "version": head.version,
        "head_hash": head.hash,
        "projected_version": deps.store.projected_version(battle_id),
    }
