"""The dice stream is deterministic, unbiased by construction, and supplied dice come first."""

from __future__ import annotations

import hashlib
import hmac
from collections import Counter

import pytest

from rules.dice import Dice, commitment, stream_die, stream_key
from rules.errors import Rejected

KEY = stream_key(bytes(32), "table-7")


def test_stream_key_is_sha256_of_server_seed_then_client_seed() -> None:
    assert stream_key(b"\x01" * 32, "abc") == hashlib.sha256(b"\x01" * 32 + b"abc").digest()


def test_commitment_is_sha256_of_the_server_seed() -> None:
    assert commitment(b"\x02" * 32) == hashlib.sha256(b"\x02" * 32).hexdigest()


def test_stream_die_follows_the_published_derivation() -> None:
    # an auditor recomputes die n of version v from HMAC-SHA256(key, "v:n") with byte rejection
    digest = hmac.new(KEY, b"12:3", hashlib.sha256).digest()
    first_usable = next(b for b in digest if b < 252)
    assert stream_die(KEY, 12, 3, 6) == first_usable % 6 + 1


def _digest(version: int, n: int) -> bytes:
    return hmac.new(KEY, f"{version}:{n}".encode(), hashlib.sha256).digest()


def _first_with(first_byte: int) -> tuple[int, int]:
    """A (version, n) whose digest starts with `first_byte`: one in 256 do, so the search is short."""
    return next((v, n) for v in range(1, 500) for n in range(20) if _digest(v, n)[0] == first_byte)


@pytest.mark.parametrize(("sides", "limit"), [(20, 240), (6, 252), (10, 250)])
def test_a_byte_at_the_limit_is_rejected_and_the_byte_below_it_is_taken(sides: int, limit: int) -> None:
    """export-format §5.3: limit = 256 − (256 mod s), a byte b is taken when b < limit, as (b mod s) + 1."""
    version, n = _first_with(limit)
    second = _digest(version, n)[1:]
    assert stream_die(KEY, version, n, sides) == next(b for b in second if b < limit) % sides + 1
    version, n = _first_with(limit - 1)
    assert stream_die(KEY, version, n, sides) == (limit - 1) % sides + 1


def test_a_die_of_one_face_to_256_faces_is_drawn_and_any_other_is_refused() -> None:
    """256 faces take every byte as it is (+1); the API never asks for more faces, nor for none."""
    assert stream_die(KEY, 3, 0, 256) == _digest(3, 0)[0] + 1
    assert stream_die(KEY, 3, 0, 1) == 1
    for sides in (0, 257, -6):
        with pytest.raises(ValueError, match=f"no stream die has {sides} faces"):
            stream_die(KEY, 3, 0, sides)


def test_stream_is_reproducible_and_covers_every_face() -> None:
    values = [stream_die(KEY, v, n, 20) for v in range(1, 60) for n in range(10)]
    assert values == [stream_die(KEY, v, n, 20) for v in range(1, 60) for n in range(10)]
    assert set(values) == set(range(1, 21))


def test_stream_is_roughly_uniform() -> None:
    counts = Counter(stream_die(KEY, 1, n, 6) for n in range(6000))
    assert all(800 < c < 1200 for c in counts.values())


def test_supplied_slots_are_used_in_order_and_do_not_consume_the_stream() -> None:
    dice = Dice(key=KEY, version=5, supplied={"attacker": [6, 5]})
    assert dice.roll("attacker", 6, 2) == [6, 5]
    drawn = dice.one("defender", 6)
    assert drawn == stream_die(KEY, 5, 0, 6)
    assert [r.to_wire() for r in dice.rolls] == [
        {"slot": "attacker", "die": "d6", "value": 6, "source": "client"},
        {"slot": "attacker", "die": "d6", "value": 5, "source": "client"},
        {"slot": "defender", "die": "d6", "value": drawn, "source": "stream"},
    ]
    assert dice.used() == {"attacker": [6, 5], "defender": [drawn]}


def test_a_bare_integer_counts_as_one_value() -> None:
    dice = Dice(key=KEY, version=1, supplied={"jam": 6})
    assert dice.one("jam", 6) == 6
    dice.check_counts()


def test_short_supply_is_a_count_mismatch() -> None:
    dice = Dice(key=KEY, version=1, supplied={"save": [1]})
    with pytest.raises(Rejected) as refusal:
        dice.roll("save", 6, 2)
    assert refusal.value.reason == "dice_count_mismatch"
    assert refusal.value.detail == {"slot": "save", "expected": 2, "given": 1}


def test_a_supply_that_runs_short_on_a_later_roll_counts_every_die_asked_so_far() -> None:
    dice = Dice(key=KEY, version=1, supplied={"save": [1, 2, 3]})
    assert dice.roll("save", 6, 2) == [1, 2]
    with pytest.raises(Rejected) as refusal:
        dice.roll("save", 6, 2)
    assert (refusal.value.reason, refusal.value.detail) == (
        "dice_count_mismatch",
        {"slot": "save", "expected": 4, "given": 3},
    )


def test_leftover_supply_is_a_count_mismatch_once_resolved() -> None:
    dice = Dice(key=KEY, version=1, supplied={"save": [1, 2, 3]})
    dice.roll("save", 6, 2)
    with pytest.raises(Rejected) as refusal:
        dice.check_counts()
    assert refusal.value.reason == "dice_count_mismatch"
    assert refusal.value.detail == {"slot": "save", "expected": 2, "given": 3}


def test_values_above_the_die_are_out_of_range() -> None:
    dice = Dice(key=KEY, version=1, supplied={"to_hit": [7]})
    with pytest.raises(Rejected) as refusal:
        dice.check_ranges({"to_hit": 6})
    assert refusal.value.reason == "dice_value_out_of_range"


def test_a_supplied_value_above_the_die_drawn_names_the_first_too_high() -> None:
    dice = Dice(key=KEY, version=1, supplied={"damage": [3, 9, 8]})
    with pytest.raises(Rejected) as refusal:
        dice.roll("damage", 6, 3)
    assert (refusal.value.reason, refusal.value.detail) == (
        "dice_value_out_of_range",
        {"slot": "damage", "faces": 6, "value": 9},
    )


def test_a_roll_is_one_die_unless_told_and_a_key_without_client_seed_is_the_server_seed_s_hash() -> None:
    assert len(Dice(key=KEY, version=1, supplied={}).roll("jam", 6)) == 1
    assert stream_key(b"\x03" * 32) == hashlib.sha256(b"\x03" * 32).digest()


def test_slots_never_drawn_are_reported_unused() -> None:
    dice = Dice(key=KEY, version=1, supplied={"repair": [5], "jam": [2]})
    dice.one("jam", 6)
    assert dice.unused() == {"repair": [5]}
