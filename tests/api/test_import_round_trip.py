"""Property: any battle that concludes, undos, rejections and client dice included, exports, verifies and
imports, and its copy, folded by the workers' fold, re-exports the very same bytes but for `source`, the
one attribute that names the battle (`id` is the entry's hash, `time` its `recorded_at`, and the outcomes
the fold gives again carry nothing of the battle's id)."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bench.scenarios import pathfinder_rounds
from eventstore.protocol import EventStore
from rules.registry import get_ruleset
from service.verifying import verify
from tests.api.exports import Lines, exported, imported
from tests.api.helpers import CLIMB_FIGHT, accepted, bearer, create_battle, fold

EXAMPLES = 30  # each plays, folds, verifies and imports a battle (a few to ~170 commands): ~0.35 s each
Command = dict[str, Any]
WORKED: dict[str, list[Command]] = {"epic": list(CLIMB_FIGHT), "pathfinder": list(pathfinder_rounds(1))}
UNDO: Command = {"type": "undo"}
CONCLUDE: Command = {"type": "conclude"}
GHOST = "ghost"  # an id no worked battle uses: a command naming it is rejected by the rules


@st.composite
def sent(draw: st.DrawFn, command: Command, ruleset: str) -> list[Command]:
    """A worked battle's command as sent: as it is, naming an unknown id, with client dice (of a slot the
    ruleset knows, whether or not the command rolls it or the values fit), or sent twice."""
    refs = sorted(k for k, v in command.items() if k.endswith("_id") and isinstance(v, str))
    how = draw(st.sampled_from(["as_is", "as_is", "unknown_id", "client_dice", "twice"]))
    if how == "unknown_id" and refs:
        return [{**command, draw(st.sampled_from(refs)): GHOST}]
    if how == "client_dice":
        slot = draw(st.sampled_from(sorted(get_ruleset(ruleset).slots)))
        return [{**command, "dice": {slot: draw(st.lists(st.integers(1, 20), min_size=1, max_size=3))}}]
    return [command, command] if how == "twice" else [command]


@st.composite
def battles(draw: st.DrawFn) -> tuple[str, list[Command]]:
    """A ruleset and a concluding sequence: a prefix of its worked battle with undos anywhere (first, in
    a row, last), then `conclude`, and perhaps a command the concluded battle rejects."""
    ruleset = draw(st.sampled_from(sorted(WORKED)))
    worked = WORKED[ruleset]
    undos = st.sampled_from([0, 0, 0, 1, 2])
    commands: list[Command] = []
    for command in worked[: draw(st.integers(0, len(worked)))]:
        commands += [UNDO] * draw(undos)
        commands += draw(sent(command, ruleset))
    commands += [UNDO] * draw(undos)
    return ruleset, [*commands, CONCLUDE, *draw(st.sampled_from([[], [UNDO], [CONCLUDE]]))]


def with_source(line: bytes, original: str, copy: str) -> bytes:
    """The line as the copy's export writes it: `source` names the copy; the id appears nowhere else."""
    before, after = f'"source": "/battles/{original}"'.encode(), f'"source": "/battles/{copy}"'.encode()
    assert line.count(before) == 1 and line.count(original.encode()) == 1, line
    return line.replace(before, after)


def seen(lines: Lines) -> Counter[str]:
    """What a battle's export exercised, so the run can show it covered undos, rejections and dice."""
    found: Counter[str] = Counter()
    for raw in lines:
        data = json.loads(raw)["data"]
        status = (data["outcome"] or {}).get("status")
        found[f"{data['type']}:{status}" if data["type"] in ("undo", "conclude") else str(status)] += 1
        found["client dice"] += bool(data["dice"])
    return found


def test_any_concluded_battle_exports_verifies_imports_and_re_exports_the_same_bytes(
    client: FlaskClient, redis_store: EventStore
) -> None:
    covered: Counter[str] = Counter()

    @settings(
        max_examples=EXAMPLES,
        derandomize=True,  # the same battles on every run: CI cannot flake on a new one
        database=None,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )
    @given(battles())
    def round_trip(battle: tuple[str, list[Command]]) -> None:
        ruleset, commands = battle
        original = create_battle(client, ruleset=ruleset)
        for command in commands:
            accepted(client, original, command)
        fold(redis_store, original)
        lines = exported(client, original)
        assert len(lines) == 1 + len(commands)
        report = verify(lambda: iter(lines))
        assert report.status == "verified" and report.server_seed is not None, report.wire()

        answer = imported(client, lines)

        assert answer.status_code == 201, answer.get_json()
        copy = answer.get_json()["id"]
        fold(redis_store, copy)  # what the workers do with the job the import scheduled
        again = exported(client, copy, **bearer(answer.get_json()["gm_token"]))
        assert verify(lambda: iter(again)).status == "verified"
        assert again == [with_source(line, original, copy) for line in lines]
        covered.update(seen(lines) + Counter({ruleset: 1}))

    round_trip()
    for what in ("epic", "pathfinder", "undo:applied", "undo:rejected", "rejected", "client dice"):
        assert covered[what], (what, covered)
