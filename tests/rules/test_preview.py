"""Previews: a command's odds over its possible dice, against probabilities worked out by hand."""

from __future__ import annotations

import hashlib
from fractions import Fraction
from typing import Any

import pytest

from rules.codec import encode
from rules.fold import Entry
from rules.preview import (
    EXHAUSTIVE_LEAVES,
    ORDERED_LEAVES,
    SAMPLE_KEY,
    SAMPLES,
    WALK_BELOW_PATHS,
    Draws,
    Sampler,
    _orders,
    _spread,
    _walk,
    answer,
    decider,
    preview,
)
from tests.examples.test_epic_examples import defended_east_wall
from tests.harness import RulesTable
from tests.rules.epic.given import advance_to, order, section, stand
from tests.rules.pathfinder.given import (
    PROFICIENT,
    aimed_engine,
    at,
    creature,
    crew,
    engine,
    setup,
    skill,
    who,
)

LASCANNON = {"id": "lascannon", "to_hit": 2, "save_modifier": -2}
TWO_D6 = {total: Fraction(6 - abs(total - 7), 36) for total in range(2, 13)}  # ways to roll 2..12 of 36


def close(answer: float, expected: Fraction | int) -> bool:
    return abs(answer - float(expected)) < 1e-9


def odds(table: RulesTable, command: dict[str, Any]) -> dict[str, Any]:
    body = {k: v for k, v in command.items() if k != "type"}
    answer: dict[str, Any] = preview(table.battle, command["type"], body, table.at).to_wire()
    return answer


def defended_wall() -> RulesTable:
    """EX-EP-01 steps 1–4: csm (caf 3) climbs onto the Goffs' (caf 2) wall; the assault is next."""
    table = defended_east_wall(RulesTable)
    assert isinstance(table, RulesTable)
    return table


@pytest.mark.example("EX-EP-01")
def test_an_epic_assault_is_2d6_plus_3_against_2d6_plus_8_over_all_121_pairs_of_sums() -> None:
    """Each side's 2d6 is read as its sum: 11 × 11 branches stand for the 1,296 rolls."""
    answer = odds(defended_wall(), {"type": "assault", "stand_id": "csm", "section_id": "E1"})
    wins = sum(TWO_D6[a] * TWO_D6[d] for a in TWO_D6 for d in TWO_D6 if a + 3 > d + 8)
    ties = sum(TWO_D6[a] * TWO_D6[d] for a in TWO_D6 for d in TWO_D6 if a + 3 == d + 8)
    assert (answer["exact"], answer["samples"]) == (True, 11 * 11)
    result = answer["fields"]["result"]["p"]
    assert close(result["attacker_wins"], wins) and close(result["tie"], ties)
    assert close(result["defender_wins"], 1 - wins - ties)
    total = answer["fields"]["attacker.total"]
    assert (total["min"], total["max"], total["kind"]) == (5, 15, "numeric")
    assert close(total["mean"], Fraction(10))
    assert len(total["histogram"]) == 11
    assert answer["status"] == {"applied": pytest.approx(1.0), "rejected": 0.0}


@pytest.mark.example("EX-EP-11")
def test_an_epic_shot_hits_on_a_d6_and_a_wall_saves_on_2d6_minus_2_of_3_or_more() -> None:
    t = RulesTable("epic")
    section(t, "S")
    stand(t, "a1")
    order(t, "a1", "first_fire")
    advance_to(t, "first_fire")
    command = {"type": "fire", "stand_id": "a1", "weapon": LASCANNON, "target": {"section_id": "S"}}
    answer = odds(t, command)
    hit = Fraction(5, 6)  # to_hit 2: a d6 of 2 or more
    saved = sum(p for total, p in TWO_D6.items() if total - 2 >= 3)
    assert saved == Fraction(30, 36)  # the example's own odds per save at -2 on a wall
    assert answer["exact"] is True
    assert close(answer["fields"]["to_hit.hit"]["p"]["true"], hit)
    assert close(answer["fields"]["save.success"]["p"]["true"], hit * saved)
    assert close(answer["fields"]["save.success"]["p"]["false"], hit * (1 - saved))


@pytest.mark.example("EX-PF-30")
def test_an_entangling_bolt_hits_touch_ac_12_on_a_d20_of_6_or_more_all_20_paths_walked() -> None:
    """EX-PF-30 battle C step 3, previewed: the bolt draws no damage and no critical (PF-AMMO-09), so the
    attack d20 is the whole tree and the walk is exact.

    By hand: the attack is d20 + 6 (bab +3, dex +3; the first range increment, no penalty) against the
    wolf's touch AC 12. A natural 20 always hits, a natural 1 always misses (PF-GEN-07); otherwise
    natural + 6 >= 12, i.e. naturals 6..19 hit. Hits: 14 + 1 = 15 of 20 faces, p = 3/4; misses: the
    naturals 1..5, p = 1/4. A natural 1 is also a mishap (a ballista, and eb is no Siege Engineer):
    p = 1/20. The total is uniform on 7..26, mean 16.5."""
    t = RulesTable("pathfinder")
    setup(
        t,
        creature("eb", bab=3, dex_mod=3, skills={"knowledge_engineering": skill(1, 1)}, **PROFICIENT),
        aimed_engine("lb", "ballista_light", ammunition="entangling_bolt"),
        crew("lb", "eb"),
        creature("wolf", touch_ac=12, y=20),
    )
    answer = odds(t, {"type": "fire", "engine_id": "lb", "target": who("wolf")})
    assert (answer["exact"], answer["samples"]) == (True, 20)
    assert answer["status"] == {"applied": pytest.approx(1.0), "rejected": 0.0}
    hit = answer["fields"]["hit"]["p"]
    assert close(hit["true"], Fraction(15, 20)) and close(hit["false"], Fraction(5, 20))
    assert close(answer["fields"]["mishap"]["p"]["true"], Fraction(1, 20))
    total = answer["fields"]["roll.total"]
    assert (total["min"], total["max"]) == (7, 26) and close(total["mean"], Fraction(33, 2))
    assert close(answer["fields"]["roll.target_number"]["mean"], Fraction(12))
    assert "damage.total" not in answer["fields"]  # no path drew a damage die
    assert "se" not in answer["fields"]["hit"] and "mean_se" not in total  # walked: no error to state


def rammed_gate() -> RulesTable:
    """EX-PF-22: a large ram (lead bab +3, str +2, nonproficient; four crew of str +2) against a wood gate."""
    t = RulesTable("pathfinder")
    setup(
        t,
        engine("lr", "ram_large"),
        creature("lead", bab=3, str_mod=2),
        *(creature(f"k{n}", str_mod=2) for n in range(1, 5)),
        crew("lr", "lead", "k1", "k2", "k3", "k4"),
        {
            "type": "add_structure",
            "id": "lg",
            "kind": "gate",
            "material": "wood",
            "size": "L",
            "position": at(0, 1),
        },
    )
    return t


@pytest.mark.example("EX-PF-22")
def test_a_ram_hits_a_gate_of_ac_4_on_a_d20_of_3_or_more_sampled_with_its_standard_error() -> None:
    t = rammed_gate()
    answer = odds(t, {"type": "ram", "engine_id": "lr", "target": {"structure_id": "lg"}, "charging": True})
    # 2d6 a sum, and 6d6 on a confirmed crit two: 4,369 paths (a 6d6 critical of 46,656 orders)
    assert (answer["exact"], answer["samples"]) == (False, SAMPLES)
    hit, se = answer["fields"]["hit"]["p"]["true"], answer["fields"]["hit"]["se"]["true"]
    assert abs(hit - 18 / 20) < 4 * se  # total d20 + 1 against AC 4; a natural 1 misses
    damage = answer["fields"]["damage.total"]
    assert damage["min"] >= 2 + 10 and "mean_se" in damage


@pytest.mark.example("EX-PF-22")
def test_a_rams_2d6_damage_averages_as_computed_by_hand_within_its_standard_error() -> None:
    """The ram hits on a d20 of 3+ (18/20). A 20 threatens and confirms on 3+ (d20 + 1 against AC 4): 6d6 +
    3 × 10, mean 51, with odds 1/20 × 18/20 = 0.045; every other hit is 2d6 + 10, mean 17, with odds
    17/20 + 1/20 × 2/20 = 0.855. So the mean damage of a hit is (0.855 × 17 + 0.045 × 51) / 0.9 = 18.7,
    and one hit in 20 is a critical (0.045 / 0.9)."""
    t = rammed_gate()
    answer = odds(t, {"type": "ram", "engine_id": "lr", "target": {"structure_id": "lg"}, "charging": True})
    damage = answer["fields"]["damage.total"]
    assert abs(damage["mean"] - 18.7) < 4 * damage["mean_se"]
    assert damage["max"] <= 36 + 30  # 6d6 + 30 at most
    critical = sum(bucket["p"] for bucket in damage["histogram"] if bucket["from"] > 22)
    assert abs(damage["p"] - 0.9) < 0.03  # damage is drawn on every hit
    assert abs(critical / damage["p"] - 0.05) < 0.015  # only a critical passes 2d6 + 10 = 22


@pytest.mark.example("EX-PF-22")
def test_each_paths_result_is_tallied_off_its_record_as_its_encoded_json_would_be() -> None:
    """The 2,000 sampled rams (a hit, its critical, its damage) answered with each path's result left a
    record, and again with each encoded as the fold stores it: the same answer, to the last digit."""
    t = rammed_gate()
    body = {"engine_id": "lr", "target": {"structure_id": "lg"}, "charging": True}
    decide = decider(t.battle, Entry(version=t.battle.version + 1, type="ram", data=body, dice={}), t.at)

    def encoded(dice: Any) -> dict[str, Any]:
        outcome = decide(dice)
        return {**outcome, "result": encode(outcome["result"])}

    as_records, as_json = answer(decide).to_wire(), answer(encoded).to_wire()
    assert as_records["samples"] == SAMPLES and "damage.total" in as_records["fields"]
    assert as_records == as_json


@pytest.mark.example("EX-PF-22")
def test_sampled_previews_do_not_depend_on_the_battles_seed() -> None:
    command = {"engine_id": "lr", "target": {"structure_id": "lg"}, "charging": True}
    one, other = rammed_gate(), rammed_gate()
    other.seeds = type(other.seeds)(server_seed=bytes(32), client_seed="someone else's")
    assert preview(one.battle, "ram", command).to_wire() == preview(other.battle, "ram", command).to_wire()


@pytest.mark.example("EX-PF-19")
def test_disabling_draws_2d4_rounds_and_a_d20_check_all_140_paths_walked() -> None:
    """The 2d4 rounds are read as their sum: 7 branches (2..8) of 1 to 4 ways in 16, then the d20."""
    t = RulesTable("pathfinder")
    setup(t, creature("rogue", skills={"disable_device": skill(4, 10)}), engine("lc", "catapult_light"))
    answer = odds(t, {"type": "disable", "engine_id": "lc", "by": "rogue", "mode": "inoperable"})
    assert (answer["exact"], answer["samples"]) == (True, 7 * 20)
    assert close(answer["fields"]["rounds"]["histogram"][3]["p"], Fraction(4, 16))  # 5 rounds: 4 of 16 ways
    assert close(answer["fields"]["success"]["p"]["true"], Fraction(11, 20))  # d20 + 10 against DC 20


def test_a_command_whose_tree_is_small_is_walked_whole_and_a_rejection_has_no_fields() -> None:
    t = RulesTable("epic")
    answer = odds(t, {"type": "assault", "stand_id": "nobody", "section_id": "E1"})
    assert answer == {
        "exact": True,
        "samples": 1,
        "status": {"applied": 0.0, "rejected": 1.0},
        "reasons": {"unknown_entity": 1.0},
        "fields": {},
    }
    assert (EXHAUSTIVE_LEAVES, ORDERED_LEAVES) == (2000, 5000)


def test_a_tree_of_exactly_ordered_leaves_paths_is_walked_whole_and_one_more_is_not() -> None:
    """Two dice of 20 and 250 faces, no sum: 5,000 paths, the most a walk took before sums merged (251 faces:
    too many); the walk is judged on `decide` alone, so a bare one stands in for a command."""

    def two_dice(second: int) -> Any:
        def decide(dice: Any) -> dict[str, Any]:
            first, other = dice.roll("a", 20)[0], dice.roll("b", second)[0]
            return {"status": "applied", "reason": None, "result": {"high": first + other > 200}}

        return decide

    assert ORDERED_LEAVES == 20 * 250 > EXHAUSTIVE_LEAVES
    walked = _walk(Sampler(two_dice(250)))
    assert walked is not None and walked.exact and walked.samples == ORDERED_LEAVES
    assert walked.tally.fields["high"][True] == pytest.approx(
        sum(1 for a in range(1, 21) for b in range(1, 251) if a + b > 200) / 5000
    )
    assert _walk(Sampler(two_dice(251))) is None


def test_a_tree_of_exactly_exhaustive_leaves_sums_is_walked_whole_and_one_more_is_not() -> None:
    """A d20 then 3d34 read as a sum (3..102): 2,000 paths standing for 786,080 orders, walked as a sampled
    answer's 2,000 samples would cost; a d20 then 2d51 (2..102): 2,020 paths, sampled."""

    def summed(count: int, sides: int) -> Any:
        def decide(dice: Any) -> dict[str, Any]:
            first, total = dice.roll("a", 20)[0], sum(dice.roll("b", sides, count, summed=(count,)))
            return {"status": "applied", "reason": None, "result": {"high": first + total > 100}}

        return decide

    assert EXHAUSTIVE_LEAVES == SAMPLES == 20 * 100
    walked = _walk(Sampler(summed(3, 34)))
    assert walked is not None and walked.exact and walked.samples == EXHAUSTIVE_LEAVES
    ways = {t: 0 for t in range(3, 103)}
    for a in range(1, 35):
        for b in range(1, 35):
            for c in range(1, 35):
                ways[a + b + c] += 1
    high = sum(ways[t] for first in range(1, 21) for t in ways if first + t > 100)
    assert walked.tally.fields["high"][True] == pytest.approx(high / (20 * 34**3))
    assert _walk(Sampler(summed(2, 51))) is None


def test_the_previews_own_dice_are_the_documented_stream_and_never_the_battles() -> None:
    """Draws: the bytes of SHA-256(SAMPLE_KEY ‖ block number, 8 bytes big-endian), each die by byte rejection
    (a d6 refuses bytes from 252 up), one block after another; the sampled previews are repeatable."""

    def expected(sides: int, count: int) -> list[int]:
        limit, block = 256 - 256 % sides, 0
        values: list[int] = []
        while len(values) < count:
            digest = hashlib.sha256(SAMPLE_KEY + block.to_bytes(8, "big")).digest()
            values += [b % sides + 1 for b in digest if b < limit]
            block += 1
        return values[:count]

    draws = Draws()
    assert [draws.randint(1, 6) for _ in range(100)] == expected(6, 100)  # past the first block's 32 bytes
    # enough draws to meet the bytes at each die's limit (251 is a d6's last, 239 a d20's)
    six, twenty = Draws(), Draws()
    assert [six.randint(1, 6) for _ in range(2000)] == expected(6, 2000)
    assert [twenty.randint(1, 20) for _ in range(2000)] == expected(20, 2000)
    assert [Draws().randint(1, 20) for _ in range(1)] == expected(20, 1)
    assert [Draws().randint(5, 5)] == [5] and Draws().randint(0, 255) == hashlib.sha256(
        SAMPLE_KEY + bytes(8)
    ).digest()[0]
    with pytest.raises(AssertionError):
        Draws().randint(1, 257)  # a byte per draw


def test_dice_read_only_as_sums_are_walked_as_their_sums_with_the_odds_of_each() -> None:
    """Merging the orders of a sum changes no answer: 3d6 read as a sum walks 16 branches (3..18) where
    3d6 read die by die walks 216 paths, and every tallied probability is the same; a group of sums is
    split as `summed` says (a critical's first two dice apart from the rest)."""

    def fortune(summed: tuple[int, ...]) -> Any:
        def decide(dice: Any) -> dict[str, Any]:
            values = dice.roll("damage", 6, 3, summed=summed)
            first = sum(values[:1]) if summed == (1, 2) else None
            return {"status": "applied", "reason": None, "result": {"total": sum(values), "first": first}}

        return decide

    merged, each = _walk(Sampler(fortune((3,)))), _walk(Sampler(fortune(())))
    assert merged is not None and each is not None
    assert (merged.samples, each.samples) == (16, 216)
    assert merged.tally.fields["total"] == pytest.approx(each.tally.fields["total"])
    ways_of_10 = sum(1 for a in range(1, 7) for b in range(1, 7) for c in range(1, 7) if a + b + c == 10)
    assert merged.tally.fields["total"][10] == pytest.approx(ways_of_10 / 216)
    split = _walk(Sampler(fortune((1, 2))))
    assert split is not None and split.samples == 6 * 11  # the first die, then the sum of the other two
    assert split.tally.fields["first"] == pytest.approx({face: 1 / 6 for face in range(1, 7)})
    assert split.tally.fields["total"] == pytest.approx(each.tally.fields["total"])


def test_summed_changes_no_die_the_battle_draws() -> None:
    """`summed` only tells a preview how the rules read the values: the fold's dice draw the same faces,
    from the stream and from a client's supply alike, so no stored outcome changes."""
    from rules.dice import Dice

    key = hashlib.sha256(b"a battle's key").digest()
    plain = Dice(key=key, version=7, supplied={}).roll("damage", 6, 6)
    assert Dice(key=key, version=7, supplied={}).roll("damage", 6, 6, summed=(2, 4)) == plain
    supplied = Dice(key=key, version=7, supplied={"damage": [1, 2, 3, 4, 5, 6]})
    assert supplied.roll("damage", 6, 6, summed=(6,)) == [1, 2, 3, 4, 5, 6]


def plain(*sides: int) -> Any:
    """A bare `decide` drawing one die of each of `sides`, its result every face by position."""

    def decide(dice: Any) -> dict[str, Any]:
        faces = {f"d{n}": dice.roll(f"d{n}", count)[0] for n, count in enumerate(sides)}
        return {"status": "applied", "reason": None, "result": faces}

    return decide


def test_a_tree_of_4000_paths_without_sums_is_answered_whole_as_before_sums_merged() -> None:
    """d20 × d200: 4,000 paths, past EXHAUSTIVE_LEAVES but within ORDERED_LEAVES, so walked."""
    walked = answer(plain(20, 200))
    assert (walked.exact, walked.samples) == (True, 4000)
    assert walked.tally.fields["d0"][20] == pytest.approx(1 / 20)  # (the d200's first 50 faces are kept)


def test_a_tree_of_800_sums_of_54880_orders_is_answered_whole() -> None:
    """d20 then 3d14 read as a sum (3..42): estimated at about 800 paths, below WALK_BELOW_PATHS (1,000)."""

    def summed(dice: Any) -> dict[str, Any]:
        first, total = dice.roll("a", 20)[0], sum(dice.roll("b", 14, 3, summed=(3,)))
        return {"status": "applied", "reason": None, "result": {"total": first + total}}

    assert WALK_BELOW_PATHS == EXHAUSTIVE_LEAVES // 2
    walked = answer(summed)
    assert (walked.exact, walked.samples) == (True, 20 * 40)
    assert walked.tally.fields["total"][4] == pytest.approx(1 / 20 / 14**3)  # 1, then 1 + 1 + 1


def test_a_sampled_answer_draws_every_die_of_a_path_at_random_not_only_those_the_tree_knew() -> None:
    """Three d20s: 8,000 paths, sampled. Each face's mean is 10.5; were the dice past the known part of
    the tree left on face 1, the last die's mean would fall near 1."""
    sampled = answer(plain(20, 20, 20))
    assert (sampled.exact, sampled.samples) == (False, SAMPLES)
    for field in ("d0", "d1", "d2"):
        mean = sum(face * p for face, p in sampled.tally.fields[field].items())
        assert abs(mean - 10.5) < 4 * (399 / 12 / SAMPLES) ** 0.5  # 4 standard errors of a d20's mean


def test_the_knuth_estimate_of_a_tree_is_its_size_in_paths_and_in_orders() -> None:
    """Every path of d20 × d6 has probability 1/120: one sample estimates 120 paths exactly; d20 then 2d6
    read as a sum has 20 × 11 paths of 20 × 36 orders, the orders exact on every path."""
    assert Sampler(plain(20, 6)).probe(1) == (120.0, 120.0)
    assert Sampler(plain(20, 6)).probe(300) == (120.0, 120.0)

    def summed(dice: Any) -> dict[str, Any]:
        dice.roll("a", 20)
        return {"status": "applied", "reason": None, "result": {"b": sum(dice.roll("b", 6, 2, summed=(2,)))}}

    paths, orders = Sampler(summed).probe(SAMPLES)
    assert orders == 720.0 and abs(paths - 220) < 20  # 20 × E[36 / ways], sd about 3 here


def test_orders_multiply_the_ways_of_each_sum_and_spread_gives_faces_of_the_die_adding_up() -> None:
    assert _orders([(7, 6, 2), (3, 4, 2), (5, 20, 1)]) == 6 * 2  # 2d6 = 7 six ways, 2d4 = 3 two
    for total in range(3, 19):
        faces = _spread(total, 6, 3)
        assert sum(faces) == total and all(1 <= face <= 6 for face in faces) and len(faces) == 3


@pytest.mark.example("EX-EP-01")
def test_a_command_the_fold_refuses_before_any_die_and_an_undo_are_answered_by_the_whole_step() -> None:
    """An unknown type and an unparsable field are the fold's refusals; `undo` is the fold's own command:
    each is one path, the step's answer, and the undo names the head it would cancel."""
    table = defended_wall()
    assert odds(table, {"type": "fly"})["reasons"] == {"unknown_command": 1.0}
    assert odds(table, {"type": "assault", "stand_id": 3})["reasons"] == {"invalid_field": 1.0}
    undone = odds(table, {"type": "undo"})
    assert (undone["exact"], undone["samples"], undone["status"]["applied"]) == (True, 1, 1.0)
    assert undone["fields"]["undone_version"]["mean"] == table.battle.version


def test_an_answer_s_probabilities_are_rounded_to_12_decimals() -> None:
    """Path probabilities sum with float noise below the 12th decimal; a d3's thirds read 0.333333333333."""
    third = answer(plain(3)).to_wire()["fields"]["d0"]
    assert [bucket["p"] for bucket in third["histogram"]] == [0.333333333333] * 3


@pytest.mark.rule("PF-CRIT-03", "PF-GEN-07")
def test_a_ballista_shot_hitting_on_a_natural_20_alone_walks_its_damage_as_sums_921_paths() -> None:
    """A light ballista (3d8, 19-20/×2) against AC 40: only a natural 20 hits (PF-GEN-07), and it threatens;
    the confirmation, d20 + 0 against 40, succeeds on its own natural 20 alone.

    By hand: 19 misses draw nothing more (19 paths); the hit draws the confirmation d20: 19 failures each
    draw 3d8 read as one sum of 3..24 (19 × 22 paths), the confirmed one draws 6d8 read as two sums of three
    dice, the first the base (PF-CRIT-03; 22 × 22 paths): 19 + 418 + 484 = 921 paths, walked whole. The base
    is 3d8 whichever branch, mean 13.5; the total is 3d8 on 19 of 20 hits and 6d8 on the 20th, mean
    13.5 × 21/20 = 14.175."""
    t = RulesTable("pathfinder")
    setup(
        t,
        creature("eb", skills={"knowledge_engineering": skill(1, 1)}, **PROFICIENT),
        aimed_engine("lb", "ballista_light"),
        crew("lb", "eb"),
        creature("ogre", ac=40, hp=200, y=4),
    )
    answer = odds(t, {"type": "fire", "engine_id": "lb", "target": who("ogre")})
    assert (answer["exact"], answer["samples"]) == (True, 19 + 19 * 22 + 22 * 22)
    hit = answer["fields"]["hit"]["p"]
    assert close(hit["true"], Fraction(1, 20)) and close(hit["false"], Fraction(19, 20))
    base, total = answer["fields"]["damage.base"], answer["fields"]["damage.total"]
    assert (base["min"], base["max"], total["min"], total["max"]) == (3, 24, 3, 48)
    assert close(base["mean"], Fraction(27, 2)) and close(total["mean"], Fraction(27, 2) * Fraction(21, 20))
