"""Every reason the pathfinder rules refuse a command for, with what it means (spec §2, §3)."""

from __future__ import annotations

REASONS: dict[str, str] = {
    # §2: checked for every command, and by the fold around every ruleset
    "invalid_field": (
        "A field is invalid only given the battle's state, e.g. ram fields on a non-ram engine (§2)."
    ),
    "unknown_entity": "An id names no creature, engine or structure of the kind its field needs (§2).",
    "duplicate_id": "The new id is already in use (§2).",
    "dice_value_out_of_range": "A supplied die value lies outside 1 to the die's size (PF-GEN-06).",
    "dice_count_mismatch": (
        "A supplied dice slot holds more or fewer values than the command draws from it (PF-GEN-06)."
    ),
    "creature_down": "The creature is down (hp 0 or less) and can no longer act (PF-GEN-10).",
    "creature_busy": "The creature is busy with a long task (assembly, disabling, repair) (PF-TIME-04).",
    "action_unavailable": "The creature has not got the needed action left this round (PF-TIME-02).",
    "engine_destroyed": "The engine is destroyed and can no longer be used (PF-DEF-06).",
    "engine_not_assembled": (
        "The engine is not assembled: it cannot be loaded, aimed, fired, driven or used to assault "
        "(PF-ASSEMBLE-05)."
    ),
    "engine_busy": "The engine is busy being assembled or repaired (PF-TIME-04).",
    "engine_disabled": (
        "The engine is disabled: it cannot be loaded, aimed, fired or used to assault (PF-DISABLE-03)."
    ),
    "no_crew": "The engine has no crew (PF-CREW-03).",
    "crew_insufficient": (
        "The crew is too small: under 1 Medium equivalent, or short of a full crew to move (PF-CREW-03, "
        "PF-CREW-04)."
    ),
    "battle_concluded": "The battle has been concluded; it accepts no further command.",
    "nothing_to_undo": "`undo` found no applied command left to cancel.",
    "unknown_command": "The command type is not one the pathfinder ruleset knows.",
    # §3.2 add_creature (and §3.3 move_creature)
    "feat_prerequisite_missing": "The creature lacks a prerequisite of one of its feats (PF-FEAT-01).",
    "tower_full": "The siege tower already holds as many creatures as its size allows (PF-ASSAULT-10).",
    # §3.4 place_engine
    "unknown_engine": "The catalog_id names no engine in the catalog.",
    "engine_not_supported": "The catalog marks this engine as not supported by the service (PF-ENGINE-01).",
    "not_masterwork": (
        "An enhancement bonus needs a masterwork engine, an armor enhancement masterwork armor (PF-MAGIC-02)."
    ),
    "cannot_be_armored": "Escalade ladders and the corvus cannot wear armor (PF-DEF-03).",
    "missing_engine_stat": (
        "The catalog lacks a stat of this engine (springals: targeting DC, hardness, hp); "
        "stat_overrides must supply it (PF-DEF-02)."
    ),
    # §3.5 add_structure
    "missing_structure_stat": (
        "The material has no default hardness or hp; stat_overrides must supply them (PF-STRUCT-04)."
    ),
    # §3.6 assign_crew
    "leader_not_in_crew": "The crew leader is not one of the listed crew members.",
    "already_crewing": "The creature already crews another engine (PF-CREW-01).",
    # §3.9 assemble
    "already_assembled": "The engine is already assembled (PF-ASSEMBLE-05).",
    "assembly_in_progress": (
        "An assembly of the engine is under way, or the hour after a failed one has not passed "
        "(PF-ASSEMBLE-03)."
    ),
    "too_few_workers": "Fewer than half the workers the engine's size requires are listed (PF-ASSEMBLE-01).",
    "untrained_cannot_take_10": (
        "A worker with no ranks in Craft (siege engine) cannot take 10 (PF-ASSEMBLE-02)."
    ),
    # §3.10 move_engine
    "cannot_be_carried": "Trebuchets and the heavy bombard cannot be carried on a vehicle (PF-MOVE-05).",
    "immobile": "The engine has speed 0 and cannot move on its own (PF-MOVE-02).",
    "exceeds_speed": "The destination is farther away than the engine's speed (PF-MOVE-01).",
    # §3.11 load
    "not_a_ranged_engine": "Only ranged engines can be loaded, aimed or fired (PF-LOAD-01).",
    "already_loaded": "The engine is already loaded (PF-LOAD-02).",
    "incompatible_ammunition": "That ammunition cannot be used with this engine (PF-LOAD-03).",
    "ammunition_mismatch": "The loading under way uses a different ammunition (PF-LOAD-03).",
    "not_crew": "A contributor is not in this engine's crew (PF-LOAD-02).",
    "too_many_actions": (
        "A contributor offers 2 actions without a Master Siege Engineer leading the crew (PF-LOAD-02)."
    ),
    "exceeds_remaining": "More progress is offered than the engine or gate still needs (PF-LOAD-02).",
    # §3.12 aim
    "no_aim_needed": "The engine has no aiming step (aim 0): fire names its target instead (PF-AIM-03).",
    "target_kind_invalid": (
        "The target is the wrong kind for this engine, e.g. a creature for indirect fire (PF-AIM-01)."
    ),
    "target_destroyed": "The target has been destroyed and cannot be targeted (PF-DEF-06).",
    "below_minimum_range": "The target is closer than the engine's minimum range (PF-AIM-05).",
    "out_of_range": (
        "The target is beyond the maximum range, or an entangling bolt's first increment (PF-AIM-05)."
    ),
    "already_aimed": "The engine is already aimed at that target (PF-AIM-04).",
    # §3.13 fire
    "cannot_fire_in_tornado": "No siege engine can fire in a tornado (PF-GEN-12).",
    "not_loaded": "The engine must be loaded before it fires (PF-LOAD-01).",
    "target_required": "An engine with no aiming step must name its target when it fires (PF-AIM-03).",
    "not_aimed": "The engine has no aim target, or its aim progress is short of the requirement (PF-AIM-02).",
    "target_has_total_cover": "The target has total cover and cannot be attacked directly (PF-DIRECT-04).",
    "target_size_invalid": (
        "An entangling bolt needs a creature target within one size of the ballista's (PF-AMMO-09)."
    ),
    "target_out_of_area": (
        "A listed target is outside the blast shot's 30 ft or the gout's line or cone (PF-AMMO-07, "
        "PF-ENGINE-03)."
    ),
    "not_a_siege_mage": "Only a crew leader with the siege_mage feature can empower a shot (PF-MAGIC-05).",
    # §3.14 observe
    "nothing_to_report": "The engine has no unseen misses for the observer to report (PF-INDIRECT-06).",
    # §3.15 repair
    "engine_not_broken": "The engine is not broken by a mishap, so there is nothing to mend (PF-REPAIR-01).",
    "engine_not_disabled": "The engine is neither disabled nor sabotaged (PF-REPAIR-03).",
    "feat_required": "A field repair needs the Field Repair feat (PF-REPAIR-02).",
    "untrained_skill": "The check needs at least 1 rank in its skill (PF-GEN-13).",
    # §3.16 disable
    "already_disabled": "The engine is already disabled or sabotaged (PF-DISABLE-01).",
    # §3.17 ram
    "not_a_ram": "The engine is not a ram.",
    # §3.18 break
    "structure_destroyed": "The structure has been destroyed.",
    "no_break_dc": "The structure has no break DC, so it cannot be broken by Strength (PF-STRUCT-07).",
    # §3.19 operate_gate
    "not_a_gate": "The structure is not a gate.",
    "gate_breached": "A breached gate cannot be opened or closed (PF-STRUCT-08).",
    "too_many_contributors": (
        "Too many creatures this round: at most 3 on a gate, 4 on an assault bridge (PF-STRUCT-08, "
        "PF-ASSAULT-05)."
    ),
    # §3.20 raise_bridge
    "not_a_bridge": "The engine is not an assault bridge.",
    "bridge_already_raised": "The assault bridge is already raised.",
    # §3.21 use_corvus
    "not_a_corvus": "The engine is not a corvus.",
    "corvus_already_deployed": "The corvus is already deployed.",
    "corvus_needs_reset": "The corvus failed its drop and must be reset first (PF-ASSAULT-06).",
    "nothing_to_reset": "The corvus does not need a reset.",
    # §3.22 dislodge_corvus
    "corvus_not_deployed": "The corvus is not deployed, so there is nothing to dislodge.",
    # §3.23 crush
    "not_a_crushing_wheel": "The engine is not a crushing wheel.",
}
