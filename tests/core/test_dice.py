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


def test_leftover_supply_is_a_count_mismatch_once_resolved() -> None:
    dice = Dice(key=KEY, version=1, supplied={"save": [1, 2, 3]})
    dice.roll("save", 6, 2)
    with pytest.raises(Rejected) as refusal:
        dice.check_counts()
    assert refusal.value.reason == "dice_count_mismatch"


def test_values_above_the_die_are_out_of_range() -> None:
    dice = Dice(key=KEY, version=1, supplied={"to_hit": [7]})
    with pytest.raises(Rejected) as refusal:
        dice.check_ranges({"to_hit": 6})
    assert refusal.value.reason == "dice_value_out_of_range"


def test_slots_never_drawn_are_reported_unused() -> None:
    dice = Dice(key=KEY, version=1, supplied={"repair": [5], "jam": [2]})
    dice.one("jam", 6)
    assert dice.unused() == {"repair": [5]}
