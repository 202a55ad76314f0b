"""The audit's dice check: once `conclude` reveals the seed, it must match the commitment made
at creation and recompute every `source: stream` roll of every stored outcome."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from eventstore.paging import iter_outcomes
from eventstore.records import StoredEntry
from rules.dice import MAX_STREAM_FACES, commitment, stream_die, stream_key
from rules.fold import CONCLUDE

if TYPE_CHECKING:  # the in-browser verifier imports this module without the store's roles
    from eventstore.roles import Log

MAX_LISTED = 100  # mismatches listed in one answer; the first ones tell an auditor where to look


@dataclass(frozen=True, slots=True, kw_only=True)
class Revealed:
    """The seed a `conclude` outcome revealed, as its result states it."""

    version: int
    server_seed: str
    client_seed: str

    @classmethod
    def of(cls, version: int, result: Any) -> Revealed:
        found = result if isinstance(result, dict) else {}
        return cls(
            version=version,
            server_seed=str(found.get("server_seed") or ""),
            client_seed=str(found.get("client_seed") or ""),
        )


def check_dice(
    store: Log, battle_id: str, created: StoredEntry, fresh: Revealed | None, upto: int
) -> dict[str, Any]:
    """`fresh` is the replay's reveal; the stored `conclude` outcome, once projected, is what clients saw."""
    if fresh is None:
        return {"ok": True, "verifiable": False, "commitment_ok": None, "checked_rolls": 0, "mismatches": []}
    revealed = _stored_reveal(store, battle_id, fresh.version) or fresh
    seed = parse_seed(revealed.server_seed)
    committed = str(created.data.get("dice_commitment") or "")
    commitment_ok = seed is not None and commitment(seed) == committed
    checked, mismatches = 0, list[dict[str, Any]]()
    if seed is not None:
        key = stream_key(seed, revealed.client_seed)
        checked, mismatches = _check_rolls(store, battle_id, key, upto)
    return {
        "ok": commitment_ok and not mismatches,
        "verifiable": True,
        "commitment_ok": commitment_ok,
        "checked_rolls": checked,
        "mismatches": mismatches[:MAX_LISTED],
    }


def _check_rolls(store: Log, battle_id: str, key: bytes, upto: int) -> tuple[int, list[dict[str, Any]]]:
    checked, mismatches = 0, list[dict[str, Any]]()
    for version, text in iter_outcomes(store, battle_id, upto):
        stream = [roll for roll in json.loads(text).get("rolls") or [] if roll.get("source") == "stream"]
        for n, roll in enumerate(stream):  # the n-th stream die of a version is the n-th drawn
            checked += 1
            expected = expected_roll(key, version, n, roll.get("die"))
            if roll.get("value") != expected and len(mismatches) < MAX_LISTED:
                mismatches.append(
                    {"version": version, "slot": str(roll.get("slot")), "n": n, "die": str(roll.get("die")),
                     "value": roll.get("value"), "expected": expected}
                )  # fmt: skip
    return checked, mismatches


def expected_roll(key: bytes, version: int, n: int, die: Any) -> int | None:
    """None when the stored die is no `d<faces>` at all: a mismatch however the value reads."""
    faces = str(die).removeprefix("d")
    if not str(die).startswith("d") or not (faces.isascii() and faces.isdigit()):
        return None
    if not 1 <= int(faces) <= MAX_STREAM_FACES:  # a byte per draw: a bigger die would be drawn forever
        return None
    return stream_die(key, version, n, int(faces))


def stored_conclusion(store: Log, battle_id: str, upto: int) -> Revealed | None:
    """The seed the first applied `conclude` among the stored outcomes revealed: where the dice check starts
    when the battle is not replayed (a replay finds it itself)."""
    for version, text in iter_outcomes(store, battle_id, upto):
        outcome = json.loads(text)
        if outcome.get("type") == CONCLUDE and outcome.get("status") == "applied":
            return Revealed.of(version, outcome.get("result"))
    return None


def _stored_reveal(store: Log, battle_id: str, version: int) -> Revealed | None:
    text = store.outcome(battle_id, version)
    return Revealed.of(version, json.loads(text).get("result")) if text else None


def parse_seed(hex_seed: str) -> bytes | None:
    try:
        return bytes.fromhex(hex_seed) if hex_seed else None
    except ValueError:
        return None
