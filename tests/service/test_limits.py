"""Limits (issue 4): a per-token rate limit kept in Redis answers 429 with Retry-After; health probes and
CORS preflights are never counted; body size and page size are capped elsewhere (test_bad_input,
test_events)."""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

import pytest
import redis
from flask import Flask
from flask_limiter import Limiter

from eventstore.redis_store import RedisEventStore
from service.app import create_app
from tests.fixtures.app import GmClient, config_for
from tests.service.helpers import WALL, assert_problem, bearer, mint

BUDGET = 3


@pytest.fixture
def tight(redis_store: RedisEventStore, redis_client: redis.Redis[Any], redis_url: str) -> GmClient:
    config = config_for(redis_url, rate_limit=f"{BUDGET} per minute")
    app: Flask = create_app(config, store=redis_store, queue_redis=redis_client)
    return GmClient(app, app.response_class)


def test_a_token_past_its_budget_gets_a_429_with_retry_after(tight: GmClient, redis_client: Any) -> None:
    battle_id = tight.post("/battles", json={"ruleset": "epic"}).get_json()["id"]
    for _ in range(BUDGET):
        assert tight.get(f"/battles/{battle_id}").status_code == 200

    refused = tight.get(f"/battles/{battle_id}")

    problem = assert_problem(refused, 429, "rate-limited")
    assert 1 <= int(refused.headers["Retry-After"]) <= 61  # the rest of the minute, rounded up
    assert "3 per 1 minute" in problem["detail"]
    assert redis_client.keys(f"siege:{{{battle_id}}}:rate:*")  # counted in Redis, beside the battle


def test_every_token_has_its_own_budget(tight: GmClient) -> None:
    created = tight.post("/battles", json={"ruleset": "epic"}).get_json()
    observer = bearer(mint(tight, created["id"], "observer")["token"])  # the GM's second request
    for _ in range(BUDGET - 1):
        tight.get(f"/battles/{created['id']}")
    assert tight.get(f"/battles/{created['id']}").status_code == 429

    assert tight.get(f"/battles/{created['id']}", headers=observer).status_code == 200


def test_one_budget_spans_every_endpoint_of_a_token(tight: GmClient) -> None:
    battle_id = tight.post("/battles", json={"ruleset": "epic"}).get_json()["id"]
    for path in ("", "/state", "/events"):
        assert tight.get(f"/battles/{battle_id}{path}").status_code == 200
    assert tight.post(f"/battles/{battle_id}/commands", json={"type": "advance_phase"}).status_code == 429


def test_probes_and_preflights_are_not_counted(tight: GmClient) -> None:
    for _ in range(BUDGET + 2):
        assert tight.get("/healthz").status_code == 200
        assert tight.get("/openapi.json").status_code == 200
        preflight = tight.options("/battles", headers={"Origin": "https://vtt.example"})
        assert preflight.status_code == 200


def test_callers_without_a_token_are_counted_by_address(tight: GmClient) -> None:
    for _ in range(BUDGET):
        assert tight.get("/rulesets").status_code == 200
    assert_problem(tight.get("/rulesets"), 429, "rate-limited")


@pytest.mark.parametrize("behind_front", [True, False])
def test_behind_the_front_the_address_counted_is_the_one_it_forwards(
    redis_store: RedisEventStore, redis_client: redis.Redis[Any], redis_url: str, behind_front: bool
) -> None:
    """SIEGE_BEHIND_FRONT=1: every request comes from the front's own address, the client's is in
    X-Forwarded-For; without the setting a client could name any address there, so it is not read."""
    config = config_for(redis_url, rate_limit=f"{BUDGET} per minute", behind_front=behind_front)
    client = create_app(config, store=redis_store, queue_redis=redis_client).test_client()
    for _ in range(BUDGET):
        assert client.get("/rulesets", headers={"X-Forwarded-For": "203.0.113.7"}).status_code == 200

    other = client.get("/rulesets", headers={"X-Forwarded-For": "198.51.100.9"})

    assert other.status_code == (200 if behind_front else 429)


def test_rate_limits_can_be_switched_off(
    redis_store: RedisEventStore, redis_client: redis.Redis[Any], redis_url: str
) -> None:
    app = create_app(config_for(redis_url, rate_limit="off"), store=redis_store, queue_redis=redis_client)
    client = app.test_client()
    assert all(client.get("/rulesets").status_code == 200 for _ in range(BUDGET + 2))


def test_a_budgeted_answer_advertises_the_policy_and_what_is_left(tight: GmClient) -> None:
    battle_id = tight.post("/battles", json={"ruleset": "epic"}).get_json()["id"]

    answers = [tight.get(f"/battles/{battle_id}") for _ in range(BUDGET)]

    for answer in answers:
        assert answer.headers["RateLimit-Policy"] == f'"per-token";q={BUDGET};w=60'
    left = [re.fullmatch(r'"per-token";r=(\d+);t=(\d+)', a.headers["RateLimit"]) for a in answers]
    assert [int(m.group(1)) for m in left if m] == [BUDGET - 1, BUDGET - 2, BUDGET - 3]  # the GM token's own
    assert all(m and 0 <= int(m.group(2)) <= 60 for m in left)
    refused = tight.get(f"/battles/{battle_id}")
    assert refused.status_code == 429
    assert refused.headers["RateLimit"].startswith('"per-token";r=0;')


def test_answers_outside_the_budget_carry_no_ratelimit_fields(tight: GmClient) -> None:
    for path in ("/healthz", "/openapi.json", "/docs"):
        answer = tight.get(path)
        assert "RateLimit" not in answer.headers and "RateLimit-Policy" not in answer.headers, path


KEY = {"Idempotency-Key": "past-the-budget"}


def test_a_command_past_its_budget_is_a_429_that_appends_nothing(
    tight: GmClient, redis_store: RedisEventStore
) -> None:
    battle_id = tight.post("/battles", json={"ruleset": "epic"}).get_json()["id"]
    sent = [
        tight.post(f"/battles/{battle_id}/commands", json={"type": "advance_phase"}) for _ in range(BUDGET)
    ]
    assert [a.status_code for a in sent] == [202] * BUDGET
    left = [re.fullmatch(r'"per-token";r=(\d+);t=(\d+)', a.headers["RateLimit"]) for a in sent]
    assert [int(m.group(1)) for m in left if m] == [
        BUDGET - 1,
        BUDGET - 2,
        BUDGET - 3,
    ]  # from the append's reply
    assert all(a.headers["RateLimit-Policy"] == f'"per-token";q={BUDGET};w=60' for a in sent)

    refused = tight.post(f"/battles/{battle_id}/commands", json={"type": "advance_phase"}, headers=KEY)

    problem = assert_problem(refused, 429, "rate-limited")
    assert 1 <= int(refused.headers["Retry-After"]) <= 61
    assert "3 per 1 minute" in problem["detail"]
    assert refused.headers["RateLimit"].startswith('"per-token";r=0;')
    assert redis_store.head(battle_id).version == 1 + BUDGET
    again = tight.post(f"/battles/{battle_id}/commands", json=WALL, headers=KEY)  # another body, same key:
    assert again.status_code == 429  # still the budget, not a 422: the refused request kept no record


def test_a_command_refused_before_its_append_still_counts(tight: GmClient) -> None:
    battle_id = tight.post("/battles", json={"ruleset": "epic"}).get_json()["id"]
    for _ in range(BUDGET):
        invalid = tight.post(f"/battles/{battle_id}/commands", json={"type": "advance_phase", "x": 1})
        assert_problem(invalid, 422, "validation")
        assert "RateLimit" in invalid.headers

    assert_problem(
        tight.post(f"/battles/{battle_id}/commands", json={"type": "advance_phase"}), 429, "rate-limited"
    )


def test_a_caller_without_a_battle_token_is_advertised_its_budget_too(tight: GmClient) -> None:
    """flask-limiter counts these (service/access/caller_limits.py); a battle token's requests skip it."""
    battle_id = tight.post("/battles", json={"ruleset": "epic"}).get_json()["id"]  # the address's first
    tight.get(f"/battles/{battle_id}")  # a battle token's request between them counts elsewhere

    answers = [tight.get("/rulesets") for _ in range(BUDGET - 1)]

    assert all(a.headers["RateLimit-Policy"] == f'"per-token";q={BUDGET};w=60' for a in answers)
    left = [re.fullmatch(r'"per-token";r=(\d+);t=(\d+)', a.headers["RateLimit"]) for a in answers]
    assert [int(m.group(1)) for m in left if m] == [BUDGET - 2, BUDGET - 3]


# flask-limiter's own after-request and teardown hooks (name-mangled); service/access/caller_limits wraps them
LIMITER_HOOKS = ("_Limiter__inject_headers", "_Limiter__release_context")
SERVICE_KEY = "the-service-key"


@pytest.fixture
def hook_calls(monkeypatch: pytest.MonkeyPatch) -> Counter[str]:
    """Calls of flask-limiter's hooks, counted through the real ones: patched before the app installs them."""
    calls: Counter[str] = Counter()
    for name in LIMITER_HOOKS:
        real = getattr(Limiter, name)

        def counting(self: Limiter, *args: Any, _real: Any = real, _name: str = name) -> Any:
            calls[_name] += 1
            return _real(self, *args)

        monkeypatch.setattr(Limiter, name, counting)
    return calls


@pytest.fixture
def keyed(redis_store: RedisEventStore, redis_client: redis.Redis[Any], redis_url: str) -> GmClient:
    config = config_for(redis_url, rate_limit="100 per minute", api_key=SERVICE_KEY)
    app: Flask = create_app(config, store=redis_store, queue_redis=redis_client)
    return GmClient(app, app.response_class)


def test_a_battle_tokens_request_skips_the_limiters_after_hooks(
    hook_calls: Counter[str], keyed: GmClient
) -> None:
    battle_id = keyed.post("/battles", json={"ruleset": "epic"}, headers=bearer(SERVICE_KEY)).get_json()["id"]
    hook_calls.clear()

    assert keyed.get(f"/battles/{battle_id}").status_code == 200  # the GM's token: counted with its battle

    assert hook_calls == {}


def test_a_service_key_request_still_runs_the_limiters_after_hooks(
    hook_calls: Counter[str], keyed: GmClient
) -> None:
    assert keyed.get("/rulesets", headers=bearer(SERVICE_KEY)).status_code == 200

    assert hook_calls == {name: 1 for name in LIMITER_HOOKS}


@pytest.fixture
def shared(redis_store: RedisEventStore, redis_client: redis.Redis[Any], redis_url: str) -> GmClient:
    """Each token 3 a minute, and all the tokens of one battle 5 a minute together."""
    config = config_for(redis_url, rate_limit="3 per minute", battle_rate_limit="5 per minute")
    app: Flask = create_app(config, store=redis_store, queue_redis=redis_client)
    return GmClient(app, app.response_class)


def test_the_tokens_of_a_battle_share_one_more_budget_so_minting_tokens_multiplies_nothing(
    shared: GmClient,
) -> None:
    battle_id = shared.post("/battles", json={"ruleset": "epic"}).get_json()["id"]
    tokens = [bearer(mint(shared, battle_id, "observer")["token"]) for _ in range(2)]  # the GM's 1st, 2nd
    for token in tokens:  # the GM spent 2 minting: 3 more of the battle's 5 are left
        assert shared.get(f"/battles/{battle_id}", headers=token).status_code == 200
    assert shared.get(f"/battles/{battle_id}", headers=tokens[0]).status_code == 200

    refused = shared.get(f"/battles/{battle_id}", headers=tokens[1])  # its 2nd: within its own budget

    problem = assert_problem(refused, 429, "battle-rate-limited")
    assert "battle's budget, shared by all its tokens, is 5 per 1 minute" in problem["detail"]
    assert refused.headers["RateLimit-Policy"] == '"per-battle";q=5;w=60'
    other = shared.post("/battles", json={"ruleset": "epic"}).get_json()["id"]
    assert shared.get(f"/battles/{other}").status_code == 200  # another battle's budget is its own


def test_the_shared_budget_setting_reads_like_the_token_one() -> None:
    from service.config import ServiceConfig

    assert ServiceConfig.from_env({}).battle_rate_limit == "4800 per minute"
    assert not ServiceConfig.from_env({"SIEGE_BATTLE_RATE_LIMIT": "off"}).battle_rate_limited
    with pytest.raises(ValueError, match="SIEGE_BATTLE_RATE_LIMIT"):
        ServiceConfig.from_env({"SIEGE_BATTLE_RATE_LIMIT": "lots"})
