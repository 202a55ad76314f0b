"""The catalog is the shipped JSON, loaded whole (PF-ENGINE-01), and GET /rulesets/pathfinder serves it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rules.describe import describe
from rules.pathfinder.catalog import AMMUNITION, ENGINES, DiceExpr, raw_catalog
from rules.registry import get_ruleset

# the read-only contract folder sits beside the repository root (CI lays it there too)
SPEC = Path(__file__).resolve().parents[4] / "shared" / "spec" / "pathfinder-engines.json"
pytestmark = pytest.mark.rule("PF-ENGINE-01")


def test_every_engine_and_ammunition_of_the_json_is_loaded() -> None:
    raw = raw_catalog()
    assert list(ENGINES) == [e["id"] for e in raw["engines"]]
    assert list(AMMUNITION) == [a["id"] for a in raw["ammunition_types"]]


def test_the_packaged_catalog_is_the_spec_file_unchanged() -> None:
    if not SPEC.exists():
        pytest.skip("spec folder not mounted")
    assert raw_catalog() == json.loads(SPEC.read_text())


def test_guess_markers_are_kept() -> None:
    assert AMMUNITION["smoke_shot"].compatibility_is_a_guess
    assert not AMMUNITION["bomb"].compatibility_is_a_guess


def test_derived_fields_are_read_as_printed() -> None:
    gate_breaker = ENGINES["ballista_gate_breaker"]
    assert gate_breaker.damage == DiceExpr(count=6, sides=8)
    assert (gate_breaker.threat_range_min, gate_breaker.critical_multiplier) == (19, 2)
    assert ENGINES["bombard_light"].misfire_max == 2
    assert ENGINES["springal_arrow"].hp is None
    assert ENGINES["crb_ballista"].supported is False


def test_engine_families_name_the_rules_they_follow() -> None:
    families = {eid: spec.family for eid, spec in ENGINES.items()}
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
    assert described["catalog"]["engines"] == raw_catalog()["engines"]
    assert described["catalog"]["ammunition"] == raw_catalog()["ammunition_types"]
    json.dumps(described)
