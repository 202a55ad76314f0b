"""Auditing a stored battle (the API's audit and `siege audit`): the hash chain, a fresh replay against the
stored outcomes, and (after `conclude`) every stream roll, each one pass over the log or the outcomes, read
in batches.

A battle pinned to rules this release does not fold is not replayed (its outcomes could only differ from
other rules' outcomes): `status: unsupported` names the rules version it needs and those this release folds;
its chain and its dice, which depend on no rules version, are checked all the same."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from typing import Any

from eventstore.chain import verify_chain
from eventstore.clock import iso
from eventstore.paging import history
from eventstore.records import HeadRegression, StoredEntry
from eventstore.roles import Log
from replay.audit_dice import Revealed, check_dice, stored_conclusion
from replay.drift import compare_outcomes
from replay.folds import fold_afresh
from replay.supported_rules import unsupported
from rules.fold import UNDO
from rules.registry import folded_versions

MAX_ENTRIES = 100_000  # versions one audit checks unless told otherwise (SIEGE_AUDIT_MAX_ENTRIES)


@dataclass(frozen=True, slots=True, kw_only=True)
class ReplayCheck:
    """`first_difference` is the first version whose fresh outcome is not the stored one, byte for byte."""

    compared: int
    pending: int
    first_difference: dict[str, Any] | None
    revealed: Revealed | None  # what the `conclude` folded within the audited range revealed
    undos: tuple[tuple[int, int], ...] = ()  # (the undo's version, the version it cancelled), applied ones
    skipped: bool = False  # not replayed: the battle's rules are not this release's

    def wire(self) -> dict[str, Any]:
        return {
            "ok": self.first_difference is None and not self.skipped,
            "compared": self.compared,
            "pending": self.pending,
            "first_difference": self.first_difference,
            "skipped": self.skipped,
        }


def audit(store: Log, battle_id: str, created: StoredEntry, max_entries: int) -> dict[str, Any]:
    head = store.head(battle_id).version
    upto = min(head, max_entries)
    chain = verify_chain(history(store, battle_id, upto=upto))
    refused = unsupported(created.data)
    if refused is None:
        replay = check_replay(store, battle_id, created, upto)
    else:  # the seed as the stored conclusion revealed it: the dice are checked without the rules
        revealed = stored_conclusion(store, battle_id, upto)
        replay = ReplayCheck(compared=0, pending=0, first_difference=None, revealed=revealed, skipped=True)
    dice = check_dice(store, battle_id, created, replay.revealed, upto)
    chain_wire = {"ok": chain.ok, **asdict(chain)}
    ok = chain.ok and replay.first_difference is None and dice["ok"]
    pinned = created.data.get("rules_version")
    regressions = [_regression(lost) for lost in store.head_regressions(battle_id)]
    return {
        "ok": ok and refused is None and not regressions,
        # a broken chain or a forged die is wrong under any rules; otherwise other rules are only unknown
        "status": _status(ok, bool(regressions), refused is not None),
        "ruleset": str(created.data.get("ruleset")),
        "rules_version": pinned if isinstance(pinned, str) else None,
        "supported": list(folded_versions(str(created.data.get("ruleset")))),
        "head_version": head,
        "audited_upto": upto,
        "truncated": upto < head,
        "chain": chain_wire,
        "replay": replay.wire(),
        "dice": {key: value for key, value in dice.items() if key != "ok"},
        "undos": [_undo(store, battle_id, version, undone) for version, undone in replay.undos],
        "regressions": regressions,
    }


def _status(checks_hold: bool, regressed: bool, unsupported: bool) -> str:
    if not checks_hold:
        return "failed"
    return "regressed" if regressed else "unsupported" if unsupported else "ok"


def _regression(lost: HeadRegression) -> dict[str, Any]:
    return {
        "acknowledged_version": lost.acknowledged.version,
        "acknowledged_hash": lost.acknowledged.hash,
        "found_version": lost.found.version,
        "found_hash": lost.found.hash,
        "at": iso(datetime.fromtimestamp(lost.at_ms / 1000, UTC)),
    }


def _undo(store: Log, battle_id: str, version: int, undone: int) -> dict[str, Any]:
    """An undo and the rolls it threw away, as the undone outcome recorded them: a referee fishing for
    rolls shows here (None while that outcome is not projected)."""
    recorded = store.outcome(battle_id, undone)
    rolls = json.loads(recorded).get("rolls") if recorded is not None else None
    return {"version": version, "undone_version": undone, "discarded_rolls": rolls}


def check_replay(store: Log, battle_id: str, created: StoredEntry, upto: int) -> ReplayCheck:
    """Fold 1..upto afresh and compare each outcome with the stored one; unprojected ones are pending."""
    fresh = fold_afresh(store, battle_id, created, upto)  # out of the try: no finding about the log
    compared = pending = version = 0
    first: dict[str, Any] | None = None
    revealed: Revealed | None = None
    undos: list[tuple[int, int]] = []
    try:  # on past a difference: the `conclude` further on still reveals the seed the dice check needs
        for battle, outcome, match in compare_outcomes(store, battle_id, upto, fresh):
            version = battle.version
            if battle.concluded and revealed is None:
                revealed = Revealed.of(version, outcome.get("result"))
            if outcome.get("type") == UNDO and outcome.get("status") == "applied":
                undos.append((version, int(outcome["result"]["undone_version"])))
            if match == "pending":
                pending += 1
                continue
            compared += 1
            if match != "same":
                first = first or {"version": version, "what": match}
    except Exception as error:  # a tampered log can break the fold anywhere; the audit reports, never a 500
        first = first or {"version": version + 1, "what": f"fold_failed: {error!r}"}
    return ReplayCheck(
        compared=compared, pending=pending, first_difference=first, revealed=revealed, undos=tuple(undos)
    )
