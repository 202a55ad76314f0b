"""`POST /battles/import` takes only what the API takes (docs/export-format.md §7.5): a self-consistent file
(its chain, outcomes and dice hold, as a forger holding the seed would write it) whose entries carry a
name, option, command, id, actor or key the API refuses, or a forged `recorded_at`, is a 422
`import-invalid` of kind `refused` naming the entry's version and line, and creates nothing."""

from __future__ import annotations

import json
import secrets
from collections.abc import Callable
from dataclasses import replace
from datetime import UTC, datetime, timedelta, timezone
from typing import Any

import pytest
from flask.testing import FlaskClient

from eventstore.chain import GENESIS_HASH, entry_hash
from eventstore.records import StoredEntry
from eventstore.redis_store import RedisEventStore
from replay.export_format import ENTRY_FIELDS
from replay.verify import verify
from rules.fold import CONCLUDE
from service.access.tokens import GM, mint
from tests.eventstore.helpers import importing
from tests.fixtures.redis_server import Backend
from tests.service.exports import Lines, exported, imported, played, rechained, with_event
from tests.service.helpers import assert_problem, fold

Entries = list[dict[str, Any]]  # each line's log entry, as the file carries it
# CLIMB_FIGHT's versions (tests/service/helpers.py): 1 battle_created, 2 the wall, 3 and 4 its stands,
# 5 an order, 6 to 9 phases and the climb, 10 the assault, 11 conclude
WALL, STAND, ORDER, LAST = 2, 3, 5, 11
TOKEN_ID = "tok_0123456789abcdef"
NEIGHBOURS = [f"W{n}" for n in range(3000)]  # ids the schema takes, in a body over the test app's 16 KiB


def forged(client: FlaskClient, store: Backend, lines: Lines, edit: Callable[[Entries], None]) -> Lines:
    """The battle of `lines` with its entries edited, chained again and folded by the workers' fold under
    its own seed: an export that verifies, as a forger holding the seed would make it."""
    carried = [json.loads(raw)["data"] for raw in lines]
    conclusion = next(d["outcome"] for d in carried if d["type"] == CONCLUDE)
    entries = [{name: d[name] for name in ENTRY_FIELDS} for d in carried]
    edit(entries)
    chained, prev = [], GENESIS_HASH
    for fields in entries:
        entry = StoredEntry(**{**fields, "prev_hash": prev, "hash": ""})
        prev = entry_hash(entry.version, entry, prev)
        chained.append(replace(entry, hash=prev))
    battle_id, token = secrets.token_hex(12), mint(GM)
    store.import_battle(
        importing(battle_id, iter(chained), conclusion["result"]["server_seed"], token=token.record)
    )
    fold(store, battle_id)
    return exported(client, battle_id, Authorization=f"Bearer {token.secret}")


def at(version: int, **fields: Any) -> Callable[[Entries], None]:
    return lambda entries: entries[version - 1].update(fields)


def in_data(version: int, **fields: Any) -> Callable[[Entries], None]:
    return lambda entries: entries[version - 1]["data"].update(fields)


def in_options(**options: Any) -> Callable[[Entries], None]:
    return lambda entries: entries[0]["data"]["options"].update(options)


def shifted(version: int, delta: timedelta) -> Callable[[Entries], None]:
    """`recorded_at` of `version` moved by `delta` from the one of the version before."""

    def edit(entries: Entries) -> None:
        before = datetime.fromisoformat(entries[version - 2]["recorded_at"].replace("Z", "+00:00"))
        entries[version - 1]["recorded_at"] = _iso(before + delta)

    return edit


def rewritten(version: int, how: Callable[[str], str]) -> Callable[[Entries], None]:
    """`recorded_at` of `version` written otherwise (the same instant: the envelope's `time` still agrees)."""

    def edit(entries: Entries) -> None:
        entries[version - 1]["recorded_at"] = how(entries[version - 1]["recorded_at"])

    return edit


def in_paris(recorded_at: str) -> str:
    moment = datetime.fromisoformat(recorded_at.replace("Z", "+00:00"))
    return moment.astimezone(timezone(timedelta(hours=1))).isoformat(timespec="milliseconds")


def in_the_future(entries: Entries) -> None:
    entries[-1]["recorded_at"] = _iso(datetime.now(UTC) + timedelta(hours=1))


def nested(depth: int) -> Any:
    return [nested(depth - 1)] if depth else []


def _iso(moment: datetime) -> str:
    return moment.isoformat(timespec="milliseconds").replace("+00:00", "Z")


# each hostile file: its edit, the version refused (its line too) and the reason code
HOSTILE: dict[str, tuple[Callable[[Entries], None], int, str]] = {
    "a_300000_character_name": (in_data(1, name="n" * 300_000), 1, "battle_refused"),
    "an_option_the_api_refuses": (in_options(default_section_capacity=-5), 1, "battle_refused"),
    "an_option_of_no_ruleset": (in_options(house_rule_of_mine=True), 1, "battle_refused"),
    "a_creation_member_the_api_never_writes": (in_data(1, payload="x" * 1000), 1, "battle_refused"),
    "a_257_character_client_seed": (in_data(1, client_seed="s" * 257), 1, "battle_refused"),
    "dice_on_the_creation": (at(1, dice={"d": [6]}), 1, "battle_refused"),
    "a_5000_character_id": (in_data(WALL, id="W" * 5000), WALL, "command_refused"),
    "a_field_the_command_lacks": (in_data(WALL, script="<script>alert(1)</script>"), WALL, "command_refused"),
    "a_caf_out_of_range": (in_data(STAND, caf=10**6), STAND, "command_refused"),
    "a_type_member_in_the_data": (in_data(WALL, type="add_fortification"), WALL, "command_refused"),
    "a_command_type_the_ruleset_lacks": (at(ORDER, type="summon_titan"), ORDER, "command_refused"),
    "a_creation_in_the_middle": (at(ORDER, type="battle_created"), ORDER, "command_refused"),
    "a_die_the_api_refuses": (at(ORDER, dice={"slot": [0]}), ORDER, "command_refused"),
    "an_integer_no_json_client_reads_back": (at(ORDER, dice={"attacker": [2**60]}), ORDER, "command_refused"),
    "a_body_nested_deeper_than_the_api_reads": (in_data(WALL, deep=nested(40)), WALL, "command_refused"),
    "a_command_over_the_body_cap": (in_data(WALL, adjacent=NEIGHBOURS), WALL, "command_refused"),
    "a_100000_character_key": (at(STAND, idempotency_key="k" * 100_000), STAND, "idempotency_key_refused"),
    "a_key_with_crlf": (at(STAND, idempotency_key="k\r\nX-Evil: 1"), STAND, "idempotency_key_refused"),
    "a_key_on_the_creation": (at(1, idempotency_key="k-1"), 1, "idempotency_key_refused"),
    "a_script_actor": (at(ORDER, actor="<script>alert(1)</script>"), ORDER, "actor_refused"),
    "a_crlf_actor": (at(ORDER, actor=f"gm/{TOKEN_ID}\r\nX-Evil: 1"), ORDER, "actor_refused"),
    "a_side_epic_has_not": (at(ORDER, actor=f"side:orcs/{TOKEN_ID}"), ORDER, "actor_refused"),
    "a_token_id_mint_never_draws": (at(ORDER, actor="gm/tok_" + "0" * 5000), ORDER, "actor_refused"),
    "a_time_without_milliseconds": (rewritten(STAND, lambda t: t[:19] + "Z"), STAND, "recorded_at_malformed"),
    "a_time_with_an_offset": (rewritten(STAND, in_paris), STAND, "recorded_at_malformed"),
    "a_time_going_backwards": (shifted(ORDER, -timedelta(minutes=6)), ORDER, "recorded_at_backwards"),
    "a_time_in_the_future": (in_the_future, LAST, "recorded_at_future"),
}  # fmt: skip


# what the refusal says where the reason code alone does not tell the check apart
SAYS = {
    "an_integer_no_json_client_reads_back": "is beyond ±(2^53 - 1)",
    "a_body_nested_deeper_than_the_api_reads": "nested deeper than 32 levels",
    "a_command_over_the_body_cap": "over the API's body cap of 16384",
    "a_5000_character_id": "Length must be between 1 and 128.",
}


def battle_count(store: Backend) -> int:
    return len(list(store.battle_ids()))


@pytest.mark.parametrize("case", sorted(HOSTILE))
def test_a_self_consistent_file_the_api_would_refuse_is_refused_naming_its_line(
    client: FlaskClient, redis_store: RedisEventStore, case: str
) -> None:
    edit, version, reason = HOSTILE[case]
    lines = forged(client, redis_store, exported(client, played(client, redis_store)), edit)
    assert verify(lambda: iter(lines)).status == "verified"  # `siege verify` judges integrity alone
    before = battle_count(redis_store)

    problem = assert_problem(imported(client, lines), 422, "import-invalid")

    assert (problem["kind"], problem["reason"]) == ("refused", reason), problem
    assert (problem["version"], problem["line"]) == (version, version), problem
    assert problem["detail"].startswith(f"version {version}: refused: {reason} ("), problem
    assert len(problem["detail"]) < 1000  # it quotes no 300,000 characters back
    assert SAYS.get(case, "") in problem["detail"], problem
    assert battle_count(redis_store) == before


def test_an_empty_key_which_the_store_cannot_even_hold_is_refused(
    client: FlaskClient, redis_store: RedisEventStore
) -> None:
    """The store keeps no key as "": written, it reads back as none, so the copy's chain would break."""
    lines = exported(client, played(client, redis_store))
    lines = with_outcome_hashes(
        rechained(with_event(lines, STAND, lambda e: e["data"].update(idempotency_key="")))
    )
    assert verify(lambda: iter(lines)).status == "verified"
    before = battle_count(redis_store)

    problem = assert_problem(imported(client, lines), 422, "import-invalid")

    assert (problem["version"], problem["line"], problem["reason"]) == (
        STAND,
        STAND,
        "idempotency_key_refused",
    )
    assert battle_count(redis_store) == before


def with_outcome_hashes(lines: Lines) -> Lines:
    """Each outcome's `hash` made its entry's again, after `rechained` changed them."""
    out = []
    for raw in lines:
        changed = json.loads(raw)
        changed["data"]["outcome"]["hash"] = changed["data"]["hash"]
        out.append(json.dumps(changed).encode() + b"\n")
    return out


def test_the_first_entry_the_api_would_refuse_is_the_one_named(
    client: FlaskClient, redis_store: RedisEventStore
) -> None:
    def two(entries: Entries) -> None:
        at(ORDER, actor="<script>")(entries)
        at(STAND, idempotency_key="k" * 300)(entries)

    lines = forged(client, redis_store, exported(client, played(client, redis_store)), two)

    problem = assert_problem(imported(client, lines), 422, "import-invalid")
    assert (problem["version"], problem["line"], problem["reason"]) == (
        STAND,
        STAND,
        "idempotency_key_refused",
    )


@pytest.mark.parametrize(
    "edit",
    [
        shifted(ORDER, -timedelta(minutes=4)),  # concurrent appends land a little out of clock order
        at(STAND, idempotency_key="~" + "k" * 254),  # 255 printable ASCII characters, as the header allows
        at(ORDER, actor=f"side:attacker/{TOKEN_ID}"),
        at(ORDER, actor="anonymous"),  # before tokens, commands were anonymous
        in_data(1, name=None, client_seed=""),  # no name; an empty seed, as before the service drew one
        in_data(WALL, id="W\u202e\u0000"),  # an id the API takes as it stands (any text of 1 to 128)
    ],
    ids=[
        "a_time_back_within_the_skew",
        "a_255_character_key",
        "a_side_token",
        "anonymous",
        "unnamed",
        "odd_id",
    ],
)
def test_what_the_api_takes_imports(
    client: FlaskClient, redis_store: RedisEventStore, edit: Callable[[Entries], None]
) -> None:
    lines = forged(client, redis_store, exported(client, played(client, redis_store)), edit)

    answer = imported(client, lines)

    assert answer.status_code == 201, answer.get_json()
