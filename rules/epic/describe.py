"""The public description of the ruleset (GET /rulesets/epic): commands and fields, dice, options, reasons."""

from __future__ import annotations

from rules.codec import JSON
from rules.epic.checks import GATE_PHASES, SHOOTING
from rules.epic.commands import COMMANDS
from rules.epic.tables import DICE_SLOTS, PHASES
from rules.epic.wire import describe_record

OPTIONS: dict[str, JSON] = {
    "tie_rule": {
        "default": "none_destroyed",
        "enum": ["none_destroyed", "both_destroyed"],
        "rule": "EP-ASSAULT-03",
    },
    "half_va_rounding": {"default": "ceil", "enum": ["ceil", "floor"], "rule": "EP-BEHIND-02"},
    "gate_needs_two_failures": {"default": False, "type": "boolean", "rule": "EP-SAVE-04"},
    "occupants_destroyed_with_section": {"default": False, "type": "boolean", "rule": "EP-FORT-07"},
    "natural_six_always_hits": {"default": False, "type": "boolean", "rule": "EP-SHOOT-03"},
    "ta_bonus_only_when_closed": {"default": False, "type": "boolean", "rule": "EP-FORT-03"},
    "default_section_capacity": {"default": 1, "type": "integer", "minimum": 1, "rule": "EP-FORT-02"},
}

# spec §4: dice per roll and the commands that draw from each slot
DICE: dict[str, tuple[int, list[str]]] = {
    "attacker": (2, ["assault"]),
    "defender": (2, ["assault"]),
    "save": (2, ["fire", "barrage"]),
    "to_hit": (1, ["fire", "barrage"]),
    "unit_save": (1, ["fire", "barrage"]),
    "jam": (1, ["operate_gate", "advance_phase"]),
    "repair": (1, ["repair"]),
}

PHASES_OF: dict[str, list[str]] = {
    "give_order": ["orders"],
    **{name: ["movement"] for name in ("move", "embark", "disembark", "climb")},
    "fire": sorted(SHOOTING, key=PHASES.index),
    "barrage": sorted(SHOOTING, key=PHASES.index),
    "assault": ["close_combat"],
    "operate_gate": sorted(GATE_PHASES, key=PHASES.index),
    "repair": ["end"],
}

REASONS: list[str] = sorted(
    [
        "invalid_field",
        "unknown_entity",
        "duplicate_id",
        "dice_value_out_of_range",
        "dice_count_mismatch",
        "wrong_phase",
        "stand_destroyed",
        "gate_without_order",
        "embarked_follows_transport",
        "not_a_gate",
        "section_destroyed",
        "not_infantry",
        "section_full",
        "not_a_transport",
        "transport_full",
        "embarked",
        "climbed_this_turn",
        "already_climbing",
        "order_forbids_move",
        "charge_movers_first",
        "must_climb",
        "blocked_by_fortification",
        "insufficient_movement",
        "not_embarked",
        "not_in_contact",
        "transport_not_on_charge",
        "charge_order_required",
        "one_stand_at_a_time",
        "vehicle_cannot_assault",
        "no_close_combat_weapon",
        "already_assaulted_this_turn",
        "no_pending_climb",
        "defender_choice_required",
        "not_a_defender",
        "order_cannot_shoot",
        "weapon_already_fired",
        "friendly_target",
        "target_destroyed",
        "unsupported_target",
        "cannot_hit",
        "mixed_orders",
        "indirect_needs_first_fire",
        "no_spotter",
        "spotter_invalid",
        "no_order",
        "order_forbids_operation",
        "gate_jammed",
        "gate_already_open",
        "gate_already_closed",
        "already_operated_this_turn",
        "gate_not_jammed",
        "already_repaired_this_turn",
        "battle_concluded",
        "unknown_command",
    ]
)


def describe() -> dict[str, JSON]:
    commands: dict[str, JSON] = {
        name: {**describe_record(record), "phases": PHASES_OF.get(name, list(PHASES))}
        for name, record in COMMANDS.items()
    }
    dice: dict[str, JSON] = {
        slot: {"die": f"d{DICE_SLOTS[slot]}", "per_roll": count, "drawn_by": by}
        for slot, (count, by) in DICE.items()
    }
    return {
        "name": "epic",
        "phases": list(PHASES),
        "commands": commands,
        "dice_slots": dice,
        "options": OPTIONS,
        "reason_codes": REASONS,
    }
