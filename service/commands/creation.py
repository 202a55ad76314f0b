"""Creating a battle: draw the secret dice seed, commit to it, and write `battle_created` as version 1."""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from eventstore.clock import utc_now
from eventstore.errors import BattleExists
from eventstore.records import NewEntry, TokenRecord
from rules.codec import JSON
from rules.dice import commitment
from rules.fold import BATTLE_CREATED
from rules.registry import get_ruleset
from service.access import auth
from service.access.tokens import GM, mint
from service.deps import Services

SEED_BYTES = 32  # a 256-bit server seed
# drawn when the creator sends none: sha256(server_seed || "") is the public dice_commitment itself, so a
# battle without a client seed would have a dice stream anyone holding a token could compute in advance
CLIENT_SEED_BYTES = 16
ID_ATTEMPTS = 3
T = TypeVar("T")


@dataclass(frozen=True, slots=True, kw_only=True)
class Created:
    id: str
    ruleset: str
    version: int
    rules_version: str
    options: dict[str, JSON]
    dice_commitment: str
    gm_token: str


def create_battle(deps: Services, body: dict[str, Any]) -> Created:
    """`body` fits BattleCreateSchema; the options pinned in the log are the effective ones."""
    ruleset = get_ruleset(body["ruleset"])
    server_seed = secrets.token_bytes(SEED_BYTES)
    data: dict[str, JSON] = {
        "ruleset": ruleset.name,
        "rules_version": ruleset.rules_version,
        "options": {**ruleset.default_options, **body.get("options", {})},
        "dice_commitment": commitment(server_seed),
        "client_seed": body.get("client_seed") or secrets.token_hex(CLIENT_SEED_BYTES),
        "name": body.get("name"),
    }
    entry = NewEntry(
        type=BATTLE_CREATED,
        data=data,
        schema_version=1,
        actor=auth.current().actor,
        idempotency_key=None,
        recorded_at=utc_now(),
        dice={},
    )
    gm = mint(GM)
    battle_id, version = _write(deps, entry, server_seed.hex(), gm.record)
    deps.scheduler.schedule(battle_id)
    return Created(
        id=battle_id,
        ruleset=ruleset.name,
        version=version,
        rules_version=ruleset.rules_version,
        options=data["options"],
        dice_commitment=data["dice_commitment"],
        gm_token=gm.secret,
    )


def _write(deps: Services, entry: NewEntry, server_seed: str, gm: TokenRecord) -> tuple[str, int]:
    """The battle and its GM token land together: no battle is ever left without a way in."""
    return with_fresh_id(
        lambda battle_id: deps.store.create_battle(battle_id, entry, server_seed, token=gm).version
    )


def with_fresh_id(write: Callable[[str], T]) -> tuple[str, T]:
    """Write a new battle under a fresh random id; BattleExists only when the random source is broken."""
    for attempt in range(ID_ATTEMPTS):
        battle_id = secrets.token_hex(12)
        try:
            return battle_id, write(battle_id)
        except BattleExists:  # 96 random bits: only a broken random source gets here twice
            if attempt == ID_ATTEMPTS - 1:
                raise
    raise AssertionError("unreachable")
