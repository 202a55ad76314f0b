"""Every reason the epic rules refuse a command for, with what it means (spec §2, §3)."""

from __future__ import annotations

REASONS: dict[str, str] = {
    # §2: checked first for every command, and by the fold around every ruleset
    "invalid_field": (
        "A field is invalid only in combination with other fields or given the battle's state, "
        "e.g. capacity on a non-transport or a crossing move without via (§2)."
    ),
    "unknown_entity": "An id names no section or stand, or one of the wrong kind for its field (§2).",
    "duplicate_id": "The new id is already used: sections and stands share one namespace (§0).",
    "dice_value_out_of_range": "A supplied die value is above 6 (EP-GEN-03).",
    "wrong_phase": (
        "The command cannot be sent in this phase, or the actor's order does not act in it (EP-TIME-06)."
    ),
    "stand_destroyed": "The acting stand, or a firing stand of a barrage, has been destroyed (EP-GEN-07).",
    "dice_count_mismatch": (
        "A supplied dice slot holds more or fewer values than the command draws from it (EP-GEN-03)."
    ),
    "battle_concluded": "The battle has been concluded; it accepts no further command.",
    "nothing_to_undo": "`undo` found no applied command left to cancel.",
    "unknown_command": "The command type is not one the epic ruleset knows.",
    # §3.1 advance_phase
    "gate_without_order": "The orders phase cannot end while an intact gate has no order (EP-ORDER-03).",
    # §3.3 add_stand
    "not_infantry": "Only infantry can climb onto or occupy a fortification section (EP-CLIMB-01).",
    "section_full": "The section already holds as many stands as its capacity (EP-CLIMB-07).",
    "section_destroyed": (
        "The section is destroyed, a breach: it can no longer be climbed, assaulted, shot at, ordered "
        "or operated (EP-FORT-07)."
    ),
    "not_a_transport": "The stand named as the transport is not a transport war engine (EP-TOWER-01).",
    "transport_full": "The transport already carries as many stands as its capacity (EP-TOWER-01).",
    # §3.4 give_order
    "embarked_follows_transport": (
        "An embarked stand cannot be given an order: it takes its transport's (EP-ORDER-01)."
    ),
    "not_a_gate": "The section named as the gate is not a gate.",
    # §3.5 move
    "embarked": "The stand is embarked, so it cannot move, shoot or embark again (EP-MOVE-02, EP-SHOOT-01).",
    "climbed_this_turn": "The stand took a foothold this turn and cannot move or climb again (EP-CLIMB-08).",
    "already_climbing": (
        "The stand, or a passenger of the transport being moved, already has a pending climb (EP-CLIMB-02)."
    ),
    "order_forbids_move": "The stand's order (First Fire, or none) gives it no movement (EP-MOVE-01).",
    "charge_movers_first": (
        "Charge-order stands can no longer act once an Advance-order stand or gate has moved (EP-MOVE-03)."
    ),
    "must_climb": "Getting onto or, for infantry, across an intact fortification needs climb (EP-MOVE-02).",
    "blocked_by_fortification": (
        "Vehicles and war engines cannot cross an intact section; war engines not even an open gate "
        "(EP-MOVE-02)."
    ),
    "insufficient_movement": "The stand has too little movement left this turn (EP-MOVE-01, EP-CLIMB-02).",
    # §3.6 embark / disembark
    "not_embarked": "The stand to disembark is not embarked.",
    "not_in_contact": "The stand is not in contact with the section or transport it acts on (EP-CLIMB-01).",
    # §3.7 climb
    "transport_not_on_charge": (
        "A passenger can climb from its transport only when the transport is on Charge orders (EP-TOWER-02)."
    ),
    "charge_order_required": (
        "Climbs that need a fight and war-engine assaults need Charge orders (EP-CLIMB-04, EP-WARENGINE-01)."
    ),
    "one_stand_at_a_time": (
        "Another passenger of this transport already has a pending climb: one at a time (EP-TOWER-04)."
    ),
    # §3.8 assault
    "vehicle_cannot_assault": "Vehicles cannot assault fortifications (EP-VEHICLE-01).",
    "no_close_combat_weapon": (
        "The war engine has no close-combat weapon, so it cannot assault a section (EP-WARENGINE-01)."
    ),
    "already_assaulted_this_turn": "The war engine has already assaulted this turn (EP-WARENGINE-01).",
    "no_pending_climb": "The infantry stand has no pending climb on that section to resolve.",
    "defender_choice_required": (
        "The section holds several defenders: the defending player must choose one (EP-ASSAULT-05)."
    ),
    "not_a_defender": "The chosen defender is not an enemy stand on that section (EP-ASSAULT-05).",
    # §3.9 fire
    "order_cannot_shoot": "The stand's order (Charge, or none) does not allow shooting (EP-SHOOT-01).",
    "weapon_already_fired": "That weapon of the stand has already fired this turn (EP-SHOOT-01).",
    "friendly_target": (
        "The target is not an enemy; only the attacker may shoot at sections (EP-SHOOT-02, EP-SHOOT-06)."
    ),
    "target_destroyed": "The target stand has been destroyed and cannot be targeted (EP-GEN-07).",
    "unsupported_target": "War engines and embarked stands cannot be targeted by this service (EP-SHOOT-06).",
    "cannot_hit": "The number needed to hit is above 6, so the shot cannot hit (EP-SHOOT-03).",
    # §3.10 barrage
    "mixed_orders": "All the stands firing a barrage must have the same order (EP-BARRAGE-02).",
    "indirect_needs_first_fire": "An indirect barrage needs First Fire orders (EP-BARRAGE-02).",
    "no_spotter": (
        "An indirect barrage on stands inside or on the fortress needs a spotter; none given (EP-BARRAGE-03)."
    ),
    "spotter_invalid": (
        "The spotter is not a living, non-embarked stand of the firing side (EP-BARRAGE-03)."
    ),
    # §3.11 operate_gate
    "no_order": "The gate has no order this turn, so it cannot be operated (EP-ORDER-03).",
    "order_forbids_operation": "A gate on First Fire orders cannot be opened or closed (EP-GATE-02).",
    "gate_jammed": "The gate is jammed and refuses every operation until repaired (EP-GATE-05).",
    "gate_already_open": "The gate is already open.",
    "gate_already_closed": "The gate is already closed.",
    "already_operated_this_turn": (
        "The gate's order allows no further operation of this kind this turn (EP-GATE-03, EP-GATE-04)."
    ),
    # §3.12 repair
    "gate_not_jammed": "The gate is not jammed, so there is nothing to repair.",
    "already_repaired_this_turn": "A repair of this gate has already been tried this turn (EP-GATE-05).",
}
