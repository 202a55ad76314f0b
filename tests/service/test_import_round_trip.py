"""Property: any battle that concludes, undos, rejections, options and client dice included, exports,
verifies and imports, and its copy, folded by the workers' fold, re-exports the very same bytes but for
`source`, the one attribute that names the battle (`id` is the entry's hash, `time` its `recorded_at`, and
the outcomes the fold gives again carry nothing of the battle's id).

The battles are the referee's (tests/referee/generate.py), played through the HTTP API from the worked
battles of these tests: a command the API refuses (a field out of its schema) is not in the log, as in
play."""

from __future__ import annotations

import json
import random
from collections import Counter

from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bench.scenarios import pathfinder_rounds
from eventstore.redis_store import RedisEventStore
from replay.verify import verify
from rules.registry import get_ruleset
from tests.referee.generate import STEP_KINDS, BattleWriter, Command, Library
from tests.service.exports import Lines, exported, imported
from tests.service.helpers import CLIMB_FIGHT, bearer, fold, send

EXAMPLES = 30  # each plays, folds, verifies and imports a battle of up to ~60 commands: ~0.5 s each
STEPS = 60  # commands drawn before the closing `conclude`
WORKED = Library(logs={"epic": [list(CLIMB_FIGHT)], "pathfinder": [list(pathfinder_rounds(1))]})
KINDS = (*STEP_KINDS, *["undo"] * 8)  # the referee's mix, undos four times as likely: import's hazard
REFUSED = (400, 422)  # the API's answers to a command out of its schema: never logged
AFTER = [[], ["undo"], ["conclude"], ["script"]]  # what may follow `conclude`: rejected, but logged


@st.composite
def battles(draw: st.DrawFn) -> tuple[str, int, list[str]]:
    """A ruleset, the seed of every detail, and the kinds of the commands: any of the referee's steps,
    then `conclude`, then perhaps one more (which the concluded battle rejects)."""
    ruleset = draw(st.sampled_from(sorted(WORKED.logs)))
    length = draw(st.integers(0, STEPS))  # Hypothesis's own lists stay short: most battles would be few
    kinds = draw(st.lists(st.sampled_from(KINDS), min_size=length, max_size=length))
    return ruleset, draw(st.integers(0, 2**32 - 1)), [*kinds, "conclude", *draw(st.sampled_from(AFTER))]


def created(client: FlaskClient, writer: BattleWriter, rnd: random.Random) -> str:
    """A battle with the writer's house rules and client seed; its defaults where the API refuses them."""
    data = writer.created(rnd)
    body = {"ruleset": data["ruleset"], "options": data["options"], "client_seed": data["client_seed"]}
    answer = client.post("/battles", json=body)
    if answer.status_code in REFUSED:
        answer = client.post("/battles", json={**body, "options": {}})
    assert answer.status_code == 201, answer.get_json()
    battle_id: str = answer.get_json()["id"]
    return battle_id


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
        if data["type"] == "battle_created":  # house rules: an option other than its default
            defaults = get_ruleset(data["data"]["ruleset"]).default_options
            found["house rules"] += any(defaults.get(k) != v for k, v in data["data"]["options"].items())
    return found


def test_any_concluded_battle_exports_verifies_imports_and_re_exports_the_same_bytes(
    client: FlaskClient, redis_store: RedisEventStore
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
    def round_trip(battle: tuple[str, int, list[str]]) -> None:
        ruleset, seed, kinds = battle
        rnd = random.Random(seed)
        writer = BattleWriter(ruleset, WORKED, rnd)
        original = created(client, writer, rnd)
        logged: list[Command] = []
        for kind in kinds:
            command = writer.next(kind, rnd)
            answer = send(client, original, command)
            assert answer.status_code in (202, *REFUSED), answer.get_json()
            logged += [command] if answer.status_code == 202 else []
        fold(redis_store, original)
        lines = exported(client, original)
        assert len(lines) == 1 + len(logged)
        report = verify(lambda: iter(lines))
        assert report.status == "verified" and report.server_seed is not None, report.wire()  # concluded

        answer = imported(client, lines)

        assert answer.status_code == 201, answer.get_json()
        copy = answer.get_json()["id"]
        fold(redis_store, copy)  # what the workers do with the job the import scheduled
        again = exported(client, copy, **bearer(answer.get_json()["gm_token"]))
        assert verify(lambda: iter(again)).status == "verified"
        assert again == [with_source(line, original, copy) for line in lines]
        covered.update(seen(lines) + Counter({ruleset: 1}))

    round_trip()
    for what in (
        "epic",
        "pathfinder",
        "undo:applied",
        "undo:rejected",
        "rejected",
        "client dice",
        "house rules",
    ):
        assert covered[what], (what, covered)
