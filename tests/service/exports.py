"""Exports of worked battles and the ways a file can be tampered with, shared by the verifier, import and
command-line tests."""

from __future__ import annotations

import json
import secrets
from collections.abc import Callable
from typing import Any

from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from bench.scenarios import pathfinder_rounds
from eventstore.canonical import canonical_json
from eventstore.chain import GENESIS_HASH, entry_hash
from eventstore.records import Projection, StoredEntry
from replay.export_format import ENTRY_FIELDS, read_line
from rules.fold import CONCLUDE as CONCLUDE_TYPE
from service.access.tokens import GM, mint
from tests.eventstore.helpers import importing
from tests.fixtures.redis_server import Backend
from tests.service.helpers import CLIMB_FIGHT, WALL, accepted, create_battle, fold

Lines = list[bytes]
NDJSON = "application/x-ndjson"
ASSAULT = 10  # the version of CLIMB_FIGHT's assault, whose dice come from the battle's stream
CONCLUDE = 11
PLAYS: dict[str, Callable[[], list[dict[str, Any]]]] = {
    "epic": lambda: list(CLIMB_FIGHT),
    "pathfinder": lambda: list(pathfinder_rounds(2)),
}


def played(client: FlaskClient, store: Backend, ruleset: str = "epic", *, conclude: bool = True) -> str:
    battle_id = create_battle(client, ruleset=ruleset)
    for command in [*PLAYS[ruleset](), *([{"type": "conclude"}] if conclude else [])]:
        accepted(client, battle_id, command)
    fold(store, battle_id)
    return battle_id


# walls cancelled by undos, then more commands: each applied undo makes a verifier fold the file again up to
# an earlier version while its main pass is still reading it; the second of two undos in a row cancels the
# command before the first's, a later undo's rewind folds an earlier undo again, and an undo with nothing
# left to cancel is rejected
UNDONE: dict[str, str] = {
    "one_undo": "WUW",
    "two_undos_in_a_row": "WWUUW",
    "undo_after_an_undo": "WWUWUW",
    "nothing_left_to_undo": "UWUUW",
    "nested_rewinds": "WWUWWUUWU",  # with a cache of one state, an undo's rewind needs nested ones
}


def undone(case: str) -> list[dict[str, Any]]:
    """UNDONE[case] as commands: W a new wall, U an undo."""
    walls = ({**WALL, "id": f"W{n}"} for n in range(len(UNDONE[case])))
    return [next(walls) if c == "W" else {"type": "undo"} for c in UNDONE[case]]


def played_undos(client: FlaskClient, store: Backend, case: str) -> str:
    """An epic battle of UNDONE[case], concluded and folded; at least one of its undos is applied."""
    battle_id = create_battle(client)
    commands = undone(case)
    versions = [accepted(client, battle_id, command) for command in [*commands, {"type": "conclude"}]]
    fold(store, battle_id)
    applied = [
        client.get(f"/battles/{battle_id}/events/{v}").get_json()["outcome"]["status"] == "applied"
        for v, command in zip(versions, commands, strict=False)
        if command["type"] == "undo"
    ]
    assert any(applied), applied
    return battle_id


def exported(client: FlaskClient, battle_id: str, **headers: str) -> Lines:
    answer = client.get(f"/battles/{battle_id}/export", headers=headers)
    assert answer.status_code == 200, answer.get_data(as_text=True)
    assert answer.mimetype == "application/x-ndjson"
    return answer.get_data().splitlines(keepends=True)


def imported(client: FlaskClient, lines: Lines, **headers: str) -> TestResponse:
    return client.post("/battles/import", data=b"".join(lines), content_type=NDJSON, headers=headers)


def event(lines: Lines, version: int) -> dict[str, Any]:
    found: dict[str, Any] = json.loads(lines[version - 1])
    return found


def with_event(lines: Lines, version: int, edit: Callable[[dict[str, Any]], None]) -> Lines:
    changed = event(lines, version)
    edit(changed)
    return [*lines[: version - 1], json.dumps(changed).encode() + b"\n", *lines[version:]]


def rechained(lines: Lines) -> Lines:
    """The lines with every hash recomputed, as a forger would: the chain holds again."""
    prev_hash, out = GENESIS_HASH, []
    for raw in lines:
        changed = json.loads(raw)
        fields = {name: changed["data"][name] for name in ENTRY_FIELDS}
        entry = StoredEntry(**{**fields, "prev_hash": prev_hash})
        digest = entry_hash(entry.version, entry, prev_hash)
        changed["data"].update(prev_hash=prev_hash, hash=digest)
        changed["id"] = prev_hash = digest
        out.append(json.dumps(changed).encode() + b"\n")
    return out


def first_stream_roll(lines: Lines) -> tuple[int, dict[str, Any]]:
    for version in range(1, len(lines) + 1):
        rolls = event(lines, version)["data"]["outcome"]["rolls"]
        stream = [roll for roll in rolls if roll["source"] == "stream"]
        if stream:
            return version, stream[0]
    raise AssertionError("the battle drew no stream die")


def _edit_die(lines: Lines) -> Lines:
    version, roll = first_stream_roll(lines)

    def bump(changed: dict[str, Any]) -> None:
        for found in changed["data"]["outcome"]["rolls"]:
            if found == roll:
                found["value"] = roll["value"] % int(roll["die"].removeprefix("d")) + 1
                return

    return with_event(lines, version, bump)


def _spoiled_roll(member: str, value: Any) -> Callable[[Lines], Lines]:
    """The first stream roll with one member replaced (outcomes are outside the hash: the chain holds)."""

    def tamper(lines: Lines) -> Lines:
        version, roll = first_stream_roll(lines)

        def spoil(changed: dict[str, Any]) -> None:
            for found in changed["data"]["outcome"]["rolls"]:
                if found == roll:
                    found[member] = value
                    return

        return with_event(lines, version, spoil)

    return tamper


def _wrong_seed(lines: Lines) -> Lines:
    conclude = len(lines)

    def swap(changed: dict[str, Any]) -> None:
        changed["data"]["outcome"]["result"]["server_seed"] = "ab" * 32

    return with_event(lines, conclude, swap)


# each tamper kind: how to make it, the version it is found at (given the file) and the kind reported
TAMPERS: dict[str, tuple[Callable[[Lines], Lines], Callable[[Lines], int], str]] = {
    "edited_data": (
        lambda ls: with_event(ls, 3, lambda e: e["data"]["data"].update(caf=9)),
        lambda ls: 3,
        "chain",
    ),
    "edited_client_die": (
        lambda ls: with_event(ls, 4, lambda e: e["data"]["dice"].update(extra=[6])),
        lambda ls: 4,
        "chain",
    ),
    "edited_stream_die": (_edit_die, lambda ls: first_stream_roll(ls)[0], "dice"),
    "deleted_entry": (lambda ls: [*ls[:4], *ls[5:]], lambda ls: 5, "missing"),
    "reordered_entries": (lambda ls: [*ls[:4], ls[5], ls[4], *ls[6:]], lambda ls: 5, "order"),
    "duplicated_entry": (lambda ls: [*ls[:5], ls[4], *ls[5:]], lambda ls: 5, "duplicate"),
    "wrong_seed": (_wrong_seed, len, "dice"),
    # the fold cannot read the value, but the dice are checked first (docs/export-format.md §7.2)
    "stream_die_not_a_number": (_spoiled_roll("value", "six"), lambda ls: first_stream_roll(ls)[0], "dice"),
    # no stream die has more faces than a byte has values: such a die is a mismatch, never an endless draw
    "stream_die_of_257_faces": (_spoiled_roll("die", "d257"), lambda ls: first_stream_roll(ls)[0], "dice"),
    "stream_die_of_odd_digits": (
        _spoiled_roll("die", "d\u00b2"),
        lambda ls: first_stream_roll(ls)[0],
        "dice",
    ),
    "dropped_outcome": (
        lambda ls: with_event(ls, 6, lambda e: e["data"].update(outcome=None)),
        lambda ls: 6,
        "missing",
    ),
    "edited_outcome": (
        lambda ls: with_event(ls, 6, lambda e: e["data"]["outcome"].update(status="rejected")),
        lambda ls: 6,
        "outcome",
    ),
}


def line_of(lines: Lines, version: int) -> int:
    """The line a finding about `version` names (docs/api.md, "Export, import"): the last line holding it (the
    second copy of a duplicate), or, when no line does, the line where it was due: the first holding a
    later version."""
    held = [json.loads(raw)["data"]["version"] for raw in lines]
    holding = [n for n, found in enumerate(held, 1) if found == version]
    return holding[-1] if holding else next(n for n, found in enumerate(held, 1) if found > version)


# files that cannot be verified at all: exit 2, or a 422 naming the line
UNUSABLE: dict[str, Callable[[Lines], Lines]] = {
    "truncated_line": lambda ls: [*ls[:-1], ls[-1][: len(ls[-1]) // 2]],
    "not_json_lines": lambda ls: [b"<html>not an export</html>\n"],
    "empty": lambda ls: [],
    # an entry member left out (null would be allowed): no entry of ours, not a crash of the verifier
    "member_left_out": lambda ls: with_event(ls, 3, lambda e: e["data"].pop("idempotency_key")),
}
# the line each unusable file is refused at: where its first unreadable or unjudgeable line is, line 1
# where version 1 was due in a file with no events at all
UNUSABLE_LINES: dict[str, Callable[[Lines], int]] = {
    "truncated_line": len,
    "not_json_lines": lambda ls: 1,
    "empty": lambda ls: 1,
    "member_left_out": lambda ls: 3,
}
# version 1's pins of battles of rules this release does not fold: `unsupported` (exit 2), never tampered
UNSUPPORTED: dict[str, dict[str, str]] = {
    "unknown_rules_version": {"rules_version": "epic-0"},
    "unknown_ruleset": {"ruleset": "chess", "rules_version": "chess-1"},
}


def repinned(lines: Lines, pins: dict[str, str]) -> Lines:
    """The battle as a release with other rules would have written it: version 1 pins them, and every hash,
    in the chain and in the outcomes, is the one such a release would have computed."""

    def pin(created: dict[str, Any]) -> None:
        created["data"]["data"].update(pins)
        created["data"]["outcome"]["result"].update(pins)

    out = []
    for raw in rechained(with_event(lines, 1, pin)):
        changed = json.loads(raw)
        if changed["data"]["outcome"] is not None:
            changed["data"]["outcome"]["hash"] = changed["data"]["hash"]
        out.append(json.dumps(changed).encode() + b"\n")
    return out


def written_by_another_release(
    store: Backend, lines: Lines, *, outcomes: bool = True, state: str | None = None, role: str = GM
) -> tuple[str, str]:
    """The battle of `lines` in `store` as another release sharing it wrote it there: its log, its seed and
    (`outcomes`) the outcomes and `state` its workers folded; the battle's id and a token of `role`."""
    events = [read_line(raw, n, n) for n, raw in enumerate(lines, 1)]
    conclusion = next(e.outcome for e in events if e.entry.type == CONCLUDE_TYPE and e.outcome)
    seed = str(conclusion["result"]["server_seed"])
    battle_id, token = secrets.token_hex(12), mint(role)
    store.import_battle(importing(battle_id, (e.entry for e in events), seed, token=token.record))
    if outcomes:
        written = [(e.entry.version, canonical_json(e.outcome)) for e in events]
        folded = Projection(version=len(events), state=state or canonical_json({"by": "another release"}))
        assert store.save_projection(battle_id, state=folded, outcomes=written)
    return battle_id, token.secret
