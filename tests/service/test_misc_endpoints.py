"""Rulesets, health and readiness (DESIGN §5)."""

from __future__ import annotations

from flask.testing import FlaskClient

from eventstore.config import connect
from eventstore.redis_store import RedisEventStore
from rules.describe import describe
from rules.registry import get_ruleset
from service.app import create_app
from tests.fixtures.app import TEST_CONFIG
from tests.service.helpers import assert_problem


def test_rulesets_lists_what_battles_can_be_created_with(client: FlaskClient) -> None:
    listed = client.get("/rulesets").get_json()

    epic = next(r for r in listed if r["name"] == "epic")
    assert epic["rules_version"] == get_ruleset("epic").rules_version


def test_a_ruleset_is_described_by_the_ruleset_itself(client: FlaskClient) -> None:
    described = client.get("/rulesets/epic")

    assert described.status_code == 200
    assert described.get_json() == describe(get_ruleset("epic"))


def test_an_unknown_ruleset_is_a_404(client: FlaskClient) -> None:
    assert_problem(client.get("/rulesets/chess"), 404, "ruleset-not-found")


def test_healthz_answers_while_the_process_runs(client: FlaskClient) -> None:
    assert client.get("/healthz").get_json() == {"status": "ok"}


def test_readyz_is_200_when_store_and_queue_answer(client: FlaskClient) -> None:
    ready = client.get("/readyz")

    assert ready.status_code == 200
    assert ready.get_json() == {"status": "ok", "checks": {"store": "ok", "queue": "ok"}}


def test_readyz_is_503_when_the_queue_redis_does_not_answer(redis_store: RedisEventStore) -> None:
    unreachable = connect("redis://127.0.0.1:1/0")  # port 1: nothing listens there
    app = create_app(TEST_CONFIG, store=redis_store, queue_redis=unreachable)

    ready = app.test_client().get("/readyz")

    assert ready.status_code == 503
    assert ready.get_json()["checks"] == {"store": "ok", "queue": "unavailable"}
