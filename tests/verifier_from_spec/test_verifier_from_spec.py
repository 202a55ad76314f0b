"""The verifier written from docs/export-format.md alone against the project's own (replay/verify.py):
it imports nothing of ours, it computes the spec's worked examples, it verifies honest exports of both
rulesets and the golden corpus, and it finds every tampering it can see where the project's verifier does.
What it cannot see (an `outcome`, the rules version) the project's verifier does, and it says verified."""

from __future__ import annotations

import ast
import re
import sys
from collections.abc import Callable
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient
from hypothesis import given
from hypothesis import strategies as st

from eventstore.canonical import canonical_json
from eventstore.chain import entry_hash
from eventstore.records import StoredEntry
from eventstore.redis_store import RedisEventStore
from replay.export_format import event_line
from replay.verify import Report as ProjectReport
from replay.verify import verify
from rules.dice import commitment, stream_die, stream_key
from tests.service.exports import (
    ASSAULT,
    TAMPERS,
    UNUSABLE,
    UNUSABLE_LINES,
    Lines,
    event,
    exported,
    first_stream_roll,
    line_of,
    played,
    rechained,
    with_event,
)
from tests.service.helpers import CLIMB_FIGHT, accepted, create_battle, fold
from tests.verifier_from_spec import verifier
from tests.verifier_from_spec.verifier import Report, verify_lines

ROOT = Path(__file__).parents[2]
SPEC = (ROOT / "docs" / "export-format.md").read_text(encoding="utf-8")
GOLDEN_DIR = ROOT / "tests" / "golden"
# the exports of tests/golden/<rules_version>/ (the recorded logs beside them are no exports)
GOLDEN_GLOB = "*/**/*.jsonl"
GOLDEN = sorted(path.relative_to(ROOT).as_posix() for path in GOLDEN_DIR.glob(GOLDEN_GLOB))
MADE = ["made:epic", "made:pathfinder"]  # exports the service makes now: the corpus is never empty
IN_REACH = {"chain", "dice", "missing", "order", "duplicate", "unusable"}  # what needs no rules (spec §7.4)
RULES_ONLY_UNUSABLE = {"unknown_rules_version"}  # only a verifier with the rules knows its rules versions
_MADE: dict[str, Lines] = {}  # one played battle per ruleset for the whole module: the lines are plain bytes


@pytest.fixture
def made(client: FlaskClient, redis_store: RedisEventStore) -> Callable[[str], Lines]:
    def export_of(ruleset: str) -> Lines:
        if ruleset not in _MADE:
            _MADE[ruleset] = exported(client, played(client, redis_store, ruleset))
        return list(_MADE[ruleset])

    return export_of


def theirs(lines: Lines) -> ProjectReport:
    return verify(lambda: iter(lines))


def first(report: Report | ProjectReport) -> tuple[str, int] | None:
    found = report.finding
    return None if found is None else (found.kind, found.version)


def found_at(report: Report | ProjectReport) -> tuple[str, int, int] | None:
    """The first finding's kind, version and the line it names (spec §7.3)."""
    found = report.finding
    return None if found is None else (found.kind, found.version, found.line)


def test_the_verifier_imports_only_the_standard_library() -> None:
    tree = ast.parse(Path(verifier.__file__).read_text(encoding="utf-8"))
    imported = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            imported |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            assert node.level == 0, "a relative import reaches into the project"
            imported.add(str(node.module))
    tops = {name.split(".")[0] for name in imported}

    assert {"hashlib", "hmac", "json"} <= tops  # the parse saw the imports it has
    assert tops - {"__future__"} <= set(sys.stdlib_module_names), tops - set(sys.stdlib_module_names)


# --- the spec's worked examples (§4.3, §5.4), read from the document itself ----------------------------


def _quoted(pattern: str) -> str:
    found = re.search(pattern, SPEC, re.S)
    assert found is not None, f"the spec no longer has {pattern!r}"
    return found.group(1)


SEED = bytes.fromhex(_quoted(r"`server_seed` = the bytes .*?\(hex `([0-9a-f]{64})`\)"))
CREATED = StoredEntry(
    version=1,
    type="battle_created",
    data={
        "ruleset": "epic",
        "rules_version": "epic-2",
        "options": {},
        "client_seed": "",
        "dice_commitment": commitment(SEED),
        "name": "Siège\t☃",
    },
    schema_version=1,
    actor="anonymous",
    idempotency_key=None,
    recorded_at="2026-12-01T17:11:15.572Z",
    dice={},
    prev_hash="0" * 64,
    hash="",
)


def _entry_dict(entry: StoredEntry, digest: str) -> dict[str, Any]:
    return {name: getattr(entry, name) for name in verifier.FIELDS if name != "hash"} | {"hash": digest}


V1_HASH = _quoted(r"hash\(v1\) = ([0-9a-f]{64})")
WALL = StoredEntry(
    version=2,
    type="add_fortification",
    data={"id": "W1", "kind": "wall"},
    schema_version=1,
    actor="gm/tok_0123456789abcdef",
    idempotency_key="k-1",
    recorded_at="2026-12-01T17:11:16.000Z",
    dice={},
    prev_hash=V1_HASH,
    hash="",
)
V2_HASH = _quoted(r"`hash\(v2\) = ([0-9a-f]{64})`")
HASH_EXAMPLES = {
    "v1": (CREATED, "0" * 64, V1_HASH, r"Its body in canonical JSON.*?```\n(.*?)\n```"),
    "v2": (WALL, V1_HASH, V2_HASH, r"has `prev_hash` = hash\(v1\), canonical body\n\n```\n(.*?)\n```"),
}


@pytest.mark.parametrize("example", sorted(HASH_EXAMPLES))
def test_the_worked_hash_examples_of_the_spec(example: str) -> None:
    entry, prev, digest, block = HASH_EXAMPLES[example]
    body = {k: v for k, v in _entry_dict(entry, digest).items() if k != "hash"}

    assert verifier.canonical(body) == canonical_json(body) == _quoted(block)
    assert (
        verifier.entry_hash(_entry_dict(entry, digest), prev)
        == entry_hash(entry.version, entry, prev)
        == digest
    )


def test_the_bytes_the_spec_lists_are_the_ones_hashed() -> None:
    body = {k: v for k, v in _entry_dict(CREATED, V1_HASH).items() if k != "hash"}
    hashed = ("0" * 64 + verifier.canonical(body)).encode()
    body_bytes, all_bytes = (
        _quoted(r"followed by those (\d+) bytes: \d+ bytes in all"),
        _quoted(r"(\d+) bytes in all"),
    )
    listed = _quoted(r"from `Si` on are `([0-9a-f ]+)`")
    start = hashed.index(b"Si")

    assert (len(hashed) - 64, len(hashed)) == (int(body_bytes), int(all_bytes))
    assert hashed[start : start + len(listed.split())].hex(" ") == listed


def test_the_worked_export_line_of_the_spec() -> None:
    line = _quoted(r"is written as:\n\n```\n(.*?)\n```")
    stored = StoredEntry(**{**_entry_dict(WALL, V2_HASH), "version": 2})

    assert event_line("/battles/b1", stored, None).decode() == line + "\n"
    assert verifier._link_fault(verifier.read_event(line.encode()), "/battles/b1", V1_HASH) is None


def test_the_worked_dice_examples_of_the_spec() -> None:
    assert commitment(SEED) == verifier.commitment(SEED) == _quoted(r"`dice_commitment` = `([0-9a-f]{64})`")
    for client_seed, pattern in (("", r"Client seed `\"\"`: `key` = `([0-9a-f]{64})`"),
                                 ("tavern-é", r"`\"tavern-é\"`.*?`key` =\s+`([0-9a-f]{64})`")):  # fmt: skip
        key = stream_key(SEED, client_seed)
        assert key == verifier.stream_key(SEED, client_seed) == bytes.fromhex(_quoted(pattern))
    key = stream_key(SEED, "")
    rows = re.findall(r"^\| (\d) \| `10:\d` \|.*?\*\*(\d+)\*\*.*?\*\*(\d+)\*\* \|$", SPEC, re.M)
    assert len(rows) == 3
    for n, d6, d20 in rows:
        assert stream_die(key, 10, int(n), 6) == verifier.stream_die(key, 10, int(n), 6) == int(d6)
        assert stream_die(key, 10, int(n), 20) == verifier.stream_die(key, 10, int(n), 20) == int(d20)
    seeded = stream_key(SEED, "tavern-é")
    told = int(_quoted(r"a d6 gives 7 mod 6 \+ 1 = \*\*(\d)\*\*"))
    assert stream_die(seeded, 10, 0, 6) == verifier.stream_die(seeded, 10, 0, 6) == told


# --- canonical JSON (§4.1) is the project's ------------------------------------------------------------

JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=12,
)


@given(JSON_VALUES)
def test_canonical_json_as_the_spec_states_it_is_the_projects(value: Any) -> None:
    assert verifier.canonical(value) == canonical_json(value)


TIES = [276804372109801.375, 33486829419802.1875, -1902194947760.84375]  # exactly between two shortest


def test_floats_at_every_power_of_two_and_the_layout_boundaries_render_as_the_project_does() -> None:
    edges = [2.0**k for k in range(-1074, 1024)] + [
        x * 10.0**k for k in range(-8, 20) for x in (1.0, 9.5, 1.25)
    ]
    numbers = [*edges, *(-x for x in edges), 0.0, -0.0, 0.1 + 0.2, 1234567890123456.0, 1e16, 5e-324, *TIES]
    assert [verifier.canonical_float(x) for x in numbers] == [canonical_json(x) for x in numbers]


# --- honest exports ------------------------------------------------------------------------------------


@pytest.mark.parametrize("ruleset", ["epic", "pathfinder"])
def test_an_honest_export_verifies_with_every_stream_die(made: Callable[[str], Lines], ruleset: str) -> None:
    lines = made(ruleset)

    ours, reference = verify_lines(lines), theirs(lines)

    assert reference.status == "verified", reference.wire()
    assert ours.status == "verified", ours.finding
    assert (
        (ours.entries, ours.head_hash)
        == (reference.entries, reference.head_hash)
        == (len(lines), ours.head_hash)
    )
    assert ours.dice_verifiable and ours.checked_rolls == reference.dice["checked_rolls"] > 0


def test_a_client_seed_mixed_dice_and_escaped_text_verify(
    client: FlaskClient, redis_store: RedisEventStore
) -> None:
    """The key of a client seed (UTF-8), client dice that do not advance n, strings canonical JSON escapes."""
    name = 'Siège\t\x01 \x7f \u2028 ☃ 🎲 "quoted" back\\slash'
    battle_id = create_battle(client, name=name, client_seed="tavern-é-🎲")
    plays = [*CLIMB_FIGHT[:-1], {**CLIMB_FIGHT[-1], "dice": {"attacker": [3, 4]}}, {"type": "conclude"}]
    for command in plays:
        accepted(client, battle_id, command)
    fold(redis_store, battle_id)
    lines = exported(client, battle_id)
    sources = {roll["slot"]: roll["source"] for roll in event(lines, ASSAULT)["data"]["outcome"]["rolls"]}
    assert sources == {"attacker": "client", "defender": "stream"}  # the assault drew from both

    ours = verify_lines(lines)

    assert theirs(lines).status == ours.status == "verified", ours.finding
    assert ours.checked_rolls == 2
    # the same file rechained with another client seed: the chain holds, the stream dice are not that key's
    other = _a_client_seed_whose_stream_die_differs(lines)
    unseeded = rechained(with_event(lines, 1, lambda e: e["data"]["data"].update(client_seed=other)))
    # (the project's verifier sees version 1's outcome first, no longer the rules': spec §7.4)
    assert found_at(verify_lines(unseeded)) == ("dice", ASSAULT, line_of(unseeded, ASSAULT))


def _a_client_seed_whose_stream_die_differs(lines: Lines) -> str:
    """A client seed under which the assault's stream die is not the recorded one (a d6 agrees 1 in 6)."""
    conclusion = event(lines, len(lines))["data"]["outcome"]["result"]
    seed = bytes.fromhex(conclusion["server_seed"])
    roll = verifier.stream_rolls(event(lines, ASSAULT)["data"]["outcome"])[0]  # the first stream die: n = 0
    for client_seed in ("", *(f"another seed {i}" for i in range(64))):
        key = verifier.stream_key(seed, client_seed)
        if verifier.expected_die(key, ASSAULT, 0, roll["die"]) != roll["value"]:
            return client_seed
    raise AssertionError("64 client seeds all gave the recorded die")


# --- tampered and unusable copies ----------------------------------------------------------------------


@pytest.mark.parametrize("ruleset", ["epic", "pathfinder"])
@pytest.mark.parametrize("tamper", sorted(TAMPERS))
def test_each_tampered_copy_is_found_as_the_project_finds_it_or_left_to_the_rules(
    made: Callable[[str], Lines], tamper: str, ruleset: str
) -> None:
    make, version, kind = TAMPERS[tamper]
    lines = make(made(ruleset))

    ours, reference = verify_lines(lines), theirs(lines)

    assert found_at(reference) == (kind, version(lines), line_of(lines, version(lines))), reference.wire()
    if kind in IN_REACH:
        assert ours.status == "tampered" and found_at(ours) == found_at(reference), ours.finding
    else:  # an outcome: only the rules can tell (spec §7.4)
        assert kind == "outcome" and ours.status == "verified", ours.finding


@pytest.mark.parametrize("case", sorted(UNUSABLE))
def test_each_unusable_file_is_unusable_at_the_same_version_or_left_to_the_rules(
    made: Callable[[str], Lines], case: str
) -> None:
    lines = UNUSABLE[case](made("epic"))

    ours, reference = verify_lines(lines), theirs(lines)

    assert reference.status == "unusable" and reference.finding is not None
    assert reference.finding.line == UNUSABLE_LINES[case](lines), reference.wire()
    if case in RULES_ONLY_UNUSABLE:
        assert ours.status == "verified", ours.finding
        return
    assert ours.status == "unusable" and found_at(ours) == found_at(reference), ours.finding


def _set(path: str, value: Any) -> Callable[[dict[str, Any]], None]:
    """An edit of the event at a dotted path; the value None removes the member."""

    def edit(changed: dict[str, Any]) -> None:
        *parents, last = path.split(".")
        for name in parents:
            changed = changed[name]
        if value is None:
            changed.pop(last)
        else:
            changed[last] = value

    return edit


def _pending(changed: dict[str, Any]) -> None:
    changed["data"]["outcome"] = None


def _not_created(changed: dict[str, Any]) -> None:
    changed["type"], changed["data"]["type"] = "siege.command.x", "x"


# the spec's other conditions (§2, §7.1), made on line 3 unless named: (edit, version, expected finding)
SPEC_CASES: dict[str, tuple[Callable[[Lines], Lines], tuple[str, int] | None]] = {
    "another_source": (lambda ls: with_event(ls, 3, _set("source", "/battles/other")), ("chain", 3)),
    "sequence_an_integer": (lambda ls: with_event(ls, 3, _set("sequence", 3)), ("chain", 3)),
    "event_type_of_another_command": (
        lambda ls: with_event(ls, 3, _set("type", "siege.command.undo")),
        ("chain", 3),
    ),
    "id_not_the_hash": (lambda ls: with_event(ls, 3, _set("id", "f" * 64)), ("chain", 3)),
    "time_of_another_instant": (
        lambda ls: with_event(ls, 3, _set("time", "2020-01-01T00:00:00Z")),
        ("chain", 3),
    ),
    "time_absent": (lambda ls: with_event(ls, 3, _set("time", None)), ("chain", 3)),
    "time_the_same_instant_elsewhere": (
        lambda ls: with_event(ls, 3, lambda e: e.update(time=_shifted(e["data"]["recorded_at"]))),
        None,
    ),
    "time_not_a_timestamp": (lambda ls: with_event(ls, 3, _set("time", "yesterday")), ("unusable", 3)),
    "an_outcome_after_a_pending_one": (lambda ls: with_event(ls, 3, _pending), ("missing", 3)),
    "pending_at_the_end": (lambda ls: with_event(ls, len(ls), _pending), None),
    "version_zero": (lambda ls: with_event(ls, 3, _set("data.version", 0)), ("duplicate", 0)),
    "version_a_boolean": (lambda ls: with_event(ls, 3, _set("data.version", True)), ("unusable", 3)),
    "first_entry_not_a_creation": (lambda ls: rechained(with_event(ls, 1, _not_created)), ("unusable", 1)),
    "an_extension_of_a_bad_name": (lambda ls: with_event(ls, 3, _set("Bad_Name", 1)), ("unusable", 3)),
    "specversion_0_3": (lambda ls: with_event(ls, 3, _set("specversion", "0.3")), ("unusable", 3)),
    "a_blank_line": (lambda ls: [*ls[:3], b"\n", *ls[3:]], ("unusable", 4)),
    "the_first_line_missing": (lambda ls: ls[1:], ("missing", 1)),
    "a_lone_surrogate": (lambda ls: with_event(ls, 3, _set("data.data.id", "\ud800")), ("unusable", 3)),
}


def _shifted(recorded_at: str) -> str:
    """The same instant written with a +01:00 offset and microseconds (the next day's date, after 23:00)."""
    instant = datetime.fromisoformat(recorded_at.replace("Z", "+00:00"))
    return instant.astimezone(timezone(timedelta(hours=1))).isoformat(timespec="microseconds")


@pytest.mark.parametrize("case", sorted(SPEC_CASES))
def test_the_other_conditions_of_the_spec_agree_with_the_project(
    made: Callable[[str], Lines], case: str
) -> None:
    make, expected = SPEC_CASES[case]
    lines = make(made("epic"))

    ours, reference = verify_lines(lines), theirs(lines)

    assert first(reference) == expected, reference.wire()
    assert first(ours) == expected, ours.finding
    assert found_at(ours) == found_at(reference), ours.finding  # and the same line (spec §7.3)


def test_where_the_project_compares_dice_leniently_the_spec_is_strict(made: Callable[[str], Lines]) -> None:
    """Spec §9: a stream die written 5.0 passes the project's dice check (its outcome check then fails); a
    die of more than 256 faces is no die of the seed's (the project's draw never ends on it: not run)."""
    lines = made("epic")
    version, roll = first_stream_roll(lines)

    def rewrite(**changes: Any) -> Lines:
        def edit(changed: dict[str, Any]) -> None:
            for found in changed["data"]["outcome"]["rolls"]:
                if found == roll:
                    found.update(changes)
                    return

        return with_event(lines, version, edit)

    as_float = rewrite(value=float(roll["value"]))
    assert found_at(theirs(as_float)) == ("outcome", version, line_of(as_float, version))
    assert found_at(verify_lines(as_float)) == ("dice", version, line_of(as_float, version))
    assert first(verify_lines(rewrite(die="d257"))) == ("dice", version)
    # a line without its idempotency_key member is unusable (spec §9: the project raises a KeyError on it)
    unkeyed = with_event(lines, 3, _set("data.idempotency_key", None))
    assert first(verify_lines(unkeyed)) == ("unusable", 3)


# --- the golden corpus and the exports made now --------------------------------------------------------


def _corpus_lines(name: str, made: Callable[[str], Lines]) -> Lines:
    if name.startswith("made:"):
        return made(name.removeprefix("made:"))
    return (ROOT / name).read_bytes().splitlines(keepends=True)


@pytest.mark.parametrize("name", [*GOLDEN, *MADE])
def test_every_export_of_the_corpus_verifies(made: Callable[[str], Lines], name: str) -> None:
    lines = _corpus_lines(name, made)

    ours, reference = verify_lines(lines), theirs(lines)

    assert ours.status == "verified", ours.finding
    assert ours.entries == len(lines) > 0
    if reference.status == "verified":
        assert (ours.head_hash, ours.checked_rolls) == (reference.head_hash, reference.dice["checked_rolls"])
    else:  # the one judgement that needs the rules: a rules version this release cannot fold
        assert reference.finding is not None and (reference.finding.kind, reference.finding.version) == (
            "unusable",
            1,
        ), reference.wire()


def test_the_corpus_is_every_golden_export_and_the_exports_made_now() -> None:
    """Never silently empty: the parametrized corpus is what the glob finds now, plus the made exports."""
    found = sorted(path.relative_to(ROOT).as_posix() for path in GOLDEN_DIR.glob(GOLDEN_GLOB))

    assert found == GOLDEN
    assert len([*GOLDEN, *MADE]) >= len(MADE) >= 1
