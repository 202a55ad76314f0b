"""An append made with a token re-checks it atomically (DESIGN §4.9), on every backend: the API may then
judge a command on a remembered token record without a revocation slipping through."""

from __future__ import annotations

import pytest

from eventstore.errors import TokenRefused, UnknownBattle
from eventstore.records import TokenRecord
from tests.eventstore.helpers import appending, battle, command
from tests.fixtures.redis_server import Backend

DIGEST = "d" * 64


def gm_token(digest: str = DIGEST) -> TokenRecord:
    return TokenRecord(digest=digest, id="tok-1", role="gm", created_at="2026-03-01T12:00:00.000Z")


def test_an_append_with_a_standing_token_lands(store: Backend) -> None:
    battle(store)
    store.add_token("b1", gm_token())

    appended = store.append(appending("b1", command(), token_digest=DIGEST))

    assert appended.version == 2 and store.head("b1").version == 2


def test_an_append_with_a_revoked_token_is_refused_and_writes_nothing(store: Backend) -> None:
    battle(store)
    store.add_token("b1", gm_token())
    store.revoke_token("b1", "tok-1")

    with pytest.raises(TokenRefused):
        store.append(appending("b1", command(), token_digest=DIGEST, mark_pending=True))

    assert store.head("b1").version == 1 and store.take_pending(10) == []


def test_an_append_with_a_token_the_battle_never_had_is_refused(store: Backend) -> None:
    battle(store)
    store.add_token("b1", gm_token())

    with pytest.raises(TokenRefused):
        store.append(appending("b1", command(), token_digest="e" * 64))

    assert store.head("b1").version == 1


def test_a_revoked_token_cannot_replay_an_idempotency_key_either(store: Backend) -> None:
    battle(store)
    store.add_token("b1", gm_token())
    store.append(appending("b1", command(key="k1"), fingerprint="f1", token_digest=DIGEST))
    store.revoke_token("b1", "tok-1")

    with pytest.raises(TokenRefused):
        store.append(appending("b1", command(key="k1"), fingerprint="f1", token_digest=DIGEST))


def test_an_unknown_battle_is_still_an_unknown_battle(store: Backend) -> None:
    with pytest.raises(UnknownBattle):
        store.append(appending("nope", command(), token_digest=DIGEST))
