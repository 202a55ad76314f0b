"""The catalog is the shipped JSON, loaded whole (PF-ENGINE-01), and GET /rulesets/pathfinder serves it.

The records are built here by `catalog.load` from the JSON, each field checked against the JSON itself:
the module's own ENGINES and AMMUNITION are that function's result at import, which no mutation test sees."""

from __future__ import annotations

import dataclasses
import hashlib
import json
import re
from pathlib import Path
from typing import Any

import pytest

from rules.describe import describe
from rules.pathfinder.catalog import (
    AMMUNITION,
    CATALOG_VERSION,
    ENGINES,
    DiceExpr,
    family_of,
    load,
    raw_catalog,
)
from rules.pathfinder.repair import field_repair_class
from rules.registry import get_ruleset

# the read-only contract folder sits beside the repository root (CI lays it there too)
SPEC = Path(__file__).resolve().parents[4] / "shared" / "spec" / "pathfinder-engines.json"
pytestmark = pytest.mark.rule("PF-ENGINE-01")


# what the repository carries
SHIPPED = Path(__file__).resolve().parents[3] / "rules/pathfinder/data/engines.json"
LOADED = load(json.loads(SHIPPED.read_text()))


def test_every_engine_and_ammunition_of_the_json_is_loaded() -> None:
    raw = raw_catalog()
    loaded = load(raw)
    assert list(loaded.engines) == [e["id"] for e in raw["engines"]] == list(ENGINES)
    assert list(loaded.ammunition) == [a["id"] for a in raw["ammunition_types"]] == list(AMMUNITION)
    assert loaded.version == raw["catalog_version"] == CATALOG_VERSION == 1
    assert loaded == LOADED and loaded.engines == ENGINES and loaded.ammunition == AMMUNITION


# sha256 of the spec's pathfinder-engines.json (catalog_version 1) as published: the repository carries the
# data and its digest, so a clone without the spec folder checks the shipped file all the same
SPEC_CATALOG_SHA256 = "e14dec4c979d8b51cb7a8010c5dc1b0422f4d8d1750ec2979a05a8e32f8036c0"


def test_the_shipped_catalog_is_the_spec_s_byte_for_byte() -> None:
    assert hashlib.sha256(SHIPPED.read_bytes()).hexdigest() == SPEC_CATALOG_SHA256
    assert raw_catalog() == json.loads(SHIPPED.read_text())
    if SPEC.exists():  # where the spec folder sits beside the repository (CI), the two agree as well
        assert SHIPPED.read_bytes() == SPEC.read_bytes()


@pytest.mark.parametrize("raw", raw_catalog()["engines"], ids=lambda raw: str(raw["id"]))
def test_every_engine_record_holds_its_catalog_entry_field_for_field(raw: dict[str, Any]) -> None:
    """Read against the JSON itself, not against the loader: a field read from the wrong key fails here."""
    spec = load(raw_catalog()).engines[raw["id"]]
    derived = {"damage", "ammunition", "rule_ids", "stats_verified", "family"}
    for name in (f.name for f in dataclasses.fields(spec) if f.name not in derived):
        assert getattr(spec, name) == raw[name], name
    printed = re.fullmatch(r"(\d+)d(\d+)", raw["damage"] or "")
    assert spec.damage == (DiceExpr(count=int(printed[1]), sides=int(printed[2])) if printed else None)
    assert [dataclasses.asdict(a) for a in spec.ammunition] == raw["ammunition"]
    repair = raw.get("field_repair_class")  # not loaded: the repair derives it from the size (PF-REPAIR-02)
    if repair is not None:
        assert field_repair_class(spec, raw["size"]) == (repair["kind"], repair["weight"])
    assert spec.rule_ids == tuple(raw.get("rule_ids") or ()) and spec.stats_verified == raw.get(
        "stats_verified"
    )
    assert spec.family == family_of(raw["id"]) and spec == ENGINES[raw["id"]]


@pytest.mark.parametrize("raw", raw_catalog()["ammunition_types"], ids=lambda raw: str(raw["id"]))
def test_every_ammunition_record_holds_its_catalog_entry(raw: dict[str, Any]) -> None:
    kind = load(raw_catalog()).ammunition[raw["id"]]
    assert kind == AMMUNITION[raw["id"]] and kind.id == raw["id"]
    assert kind.damage_type == raw.get("damage_type") and kind.rule_ids == tuple(raw.get("rule_ids") or ())
    assert (kind.cost_gp, kind.weight_lb, kind.damage_text) == (
        raw.get("cost_gp"),
        raw.get("weight_lb"),
        raw.get("damage"),
    )
    compatible = raw.get("compatible")
    assert kind.compatible == (tuple(compatible) if isinstance(compatible, list) else None)
    assert kind.compatibility_is_a_guess is bool(raw.get("compatibility_is_a_guess", False))
    printed = re.fullmatch(r"(\d+)d(\d+)", raw.get("damage") or "")
    assert kind.damage == (DiceExpr(count=int(printed[1]), sides=int(printed[2])) if printed else None)


def test_guess_markers_are_kept() -> None:
    loaded = load(raw_catalog()).ammunition
    assert loaded["smoke_shot"].compatibility_is_a_guess
    assert not loaded["bomb"].compatibility_is_a_guess


def test_a_minimal_entry_takes_the_defaults_of_the_keys_it_leaves_out() -> None:
    """An ammunition entry needs only its id; a missing list or damage is none, a missing marker false."""
    [kind] = load(
        {"catalog_version": 2, "engines": [], "ammunition_types": [{"id": "stone"}]}
    ).ammunition.values()
    assert (kind.cost_gp, kind.weight_lb, kind.compatible, kind.damage, kind.damage_text) == (None,) * 5
    assert (kind.damage_type, kind.compatibility_is_a_guess, kind.rule_ids) == (None, False, ())
    guessed = {"id": "x", "compatible": "all", "compatibility_is_a_guess": True, "rule_ids": ["PF-AMMO-01"]}
    [kind] = load({"catalog_version": 2, "engines": [], "ammunition_types": [guessed]}).ammunition.values()
    assert (kind.compatible, kind.compatibility_is_a_guess, kind.rule_ids) == (None, True, ("PF-AMMO-01",))


@pytest.mark.parametrize(
    ("printed", "parsed"),
    [("3d8", (3, 8)), ("1d6", (1, 6)), ("10d10", (10, 10)), ("6d8", (6, 8))],
)
def test_a_damage_expression_is_its_count_and_its_die(printed: str, parsed: tuple[int, int]) -> None:
    assert DiceExpr.parse(printed) == DiceExpr(count=parsed[0], sides=parsed[1])


@pytest.mark.parametrize(
    "printed",
    [None, "", "d8", "3d", "xd6", "3dx", "2D6", "3d8+2", "1 d6", "half the engine's dice", "engine damage"],
)
def test_what_is_no_damage_expression_reads_as_none(printed: str | None) -> None:
    """The catalog prints `special` or nothing where an engine deals no dice of its own."""
    assert DiceExpr.parse(printed) is None


def test_derived_fields_are_read_as_printed() -> None:
    gate_breaker = ENGINES["ballista_gate_breaker"]
    assert gate_breaker.damage == DiceExpr(count=6, sides=8)
    assert (gate_breaker.threat_range_min, gate_breaker.critical_multiplier) == (19, 2)
    assert ENGINES["bombard_light"].misfire_max == 2
    assert ENGINES["springal_arrow"].hp is None
    assert ENGINES["crb_ballista"].supported is False


@pytest.mark.parametrize(
    ("engine_id", "family"),
    [
        ("ballista_gate_breaker", "ballista_gate_breaker"),  # listed before `ballista`, which it starts with
        ("ballista_heavy", "ballista"),
        ("springal_rocket", "springal_rocket"),
        ("springal_arrow", "springal"),
        ("firewyrm", "firewyrm"),
        ("firedrake", "firedrake"),
        ("crushing_wheel", "crushing_wheel"),
        ("crb_ballista", "legacy"),
        ("crb_cannon", "legacy"),  # the Core Rulebook's come first, whatever they start with after
        ("mangonel", "other"),
        ("", "other"),
    ],
)
def test_an_engine_id_names_its_family_by_its_longest_prefix(engine_id: str, family: str) -> None:
    assert family_of(engine_id) == family


def test_engine_families_name_the_rules_they_follow() -> None:
    families = {eid: spec.family for eid, spec in load(raw_catalog()).engines.items()}
    assert families["ballista_gate_breaker"] == "ballista_gate_breaker"
    assert families["cannon_fiends_mouth"] == "cannon"
    assert families["springal_rocket"] == "springal_rocket"
    assert families["ladder_escalade_huge"] == "ladder_escalade"
    assert families["crb_ram"] == "legacy"


def test_the_description_serves_commands_dice_options_and_the_whole_catalog() -> None:
    described = describe(get_ruleset("pathfinder"))
    assert len(described["commands"]) == 23 + 2  # spec §3, and conclude (DESIGN §3.4) and undo
    fire = described["commands"]["fire"]["body"]
    assert "engine_id" in fire["required"] and fire["properties"]["line_of_sight"]["default"] is True
    assert fire["properties"]["crew_sees_landing"]["description"] == "default: line_of_sight"
    assert described["dice_slots"]["scatter_direction"]["die"] == "d8"
    assert described["options"]["max_range_increments"]["default"] == 10
    shipped = json.loads(SHIPPED.read_text())
    assert described["catalog"] == {
        "catalog_version": shipped["catalog_version"],
        "conventions": shipped["conventions"],
        "engines": shipped["engines"],
        "ammunition": shipped["ammunition_types"],
    }
    json.dumps(described)
