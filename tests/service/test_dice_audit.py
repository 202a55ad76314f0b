"""Provably fair dice end to end (DESIGN §3.4): commit at creation, roll from the stream, reveal on conclude,
and let anyone recompute every stream roll from the log alone."""

from __future__ import annotations

import hashlib
import hmac
from typing import Any

import pytest
from flask.testing import FlaskClient

from eventstore.redis_store import RedisEventStore
from tests.service.helpers import CLIMB_FIGHT, accepted, fold, outcome


def recompute(key: bytes, version: int, n: int, faces: int) -> int:
    """An auditor's own copy of the published derivation (docs/rulings.md, "Dice stream")."""
    limit, counter = 256 - 256 % faces, 0
    while True:
        message = f"{version}:{n}" if counter == 0 else f"{version}:{n}:{counter}"
        for byte in hmac.new(key, message.encode(), hashlib.sha256).digest():
            if byte < limit:
                return byte % faces + 1
        counter += 1


@pytest.mark.rule("EP-GEN-03")
def test_a_concluded_battle_reveals_a_seed_that_matches_its_commitment_and_every_stream_roll(
    client: FlaskClient, redis_store: RedisEventStore
) -> None:
    created = client.post("/battles", json={"ruleset": "epic", "client_seed": "table-7"})
    battle_id, commitment = created.get_json()["id"], created.get_json()["dice_commitment"]
    versions = [accepted(client, battle_id, command) for command in CLIMB_FIGHT]
    concluded = accepted(client, battle_id, {"type": "conclude"})
    fold(redis_store, battle_id)

    revealed = outcome(client, battle_id, concluded)["result"]
    seed = bytes.fromhex(revealed["server_seed"])
    assert hashlib.sha256(seed).hexdigest() == commitment == revealed["dice_commitment"]
    assert revealed["client_seed"] == "table-7"

    key = hashlib.sha256(seed + b"table-7").digest()
    assault: dict[str, Any] = outcome(client, battle_id, versions[-1])
    stream_rolls = [r for r in assault["rolls"] if r["source"] == "stream"]
    assert [r["slot"] for r in stream_rolls][:2] == ["attacker", "attacker"]
    assert [r["value"] for r in stream_rolls] == [
        recompute(key, versions[-1], n, 6) for n in range(len(stream_rolls))
    ]


@pytest.mark.rule("EP-GEN-03")
def test_commands_after_conclude_are_kept_and_rejected(
    client: FlaskClient, redis_store: RedisEventStore
) -> None:
    battle_id = client.post("/battles", json={"ruleset": "epic"}).get_json()["id"]
    accepted(client, battle_id, {"type": "conclude"})
    late = accepted(client, battle_id, {"type": "advance_phase"})
    again = accepted(client, battle_id, {"type": "conclude"})
    fold(redis_store, battle_id)
    assert outcome(client, battle_id, late)["reason"] == "battle_concluded"
    assert outcome(client, battle_id, again)["status"] == "rejected"
