"""The log with its outcomes (DESIGN §5): pagination with RFC 8288 links, single entries, 404s."""

from __future__ import annotations

from flask.testing import FlaskClient

from eventstore.redis_store import RedisEventStore
from tests.service.helpers import accepted, assert_problem, create_battle, fold


def _battle_with_walls(client: FlaskClient, count: int) -> str:
    battle_id = create_battle(client)
    for n in range(count):
        accepted(client, battle_id, {"type": "add_fortification", "id": f"W{n}", "kind": "wall"})
    return battle_id


def test_pages_follow_the_next_link_until_the_head(client: FlaskClient, redis_store: RedisEventStore) -> None:
    battle_id = _battle_with_walls(client, 6)  # versions 1..7
    fold(redis_store, battle_id)

    url, versions, pages = f"/battles/{battle_id}/events?limit=3", [], 0
    while url:
        page = client.get(url)
        assert page.status_code == 200
        versions += [event["version"] for event in page.get_json()]
        assert all(event["outcome"]["status"] == "applied" for event in page.get_json())
        link = page.headers.get("Link")
        url = link[1 : link.index(">")] if link else ""
        pages += 1

    assert versions == list(range(1, 8))
    assert pages == 3


def test_the_next_link_is_rfc_8288_with_after_and_limit(client: FlaskClient) -> None:
    battle_id = _battle_with_walls(client, 3)

    page = client.get(f"/battles/{battle_id}/events?after=1&limit=2")

    assert [event["version"] for event in page.get_json()] == [2, 3]
    assert page.headers["Link"] == f'</battles/{battle_id}/events?after=3&limit=2>; rel="next"'


def test_the_last_page_has_no_next_link(client: FlaskClient) -> None:
    battle_id = _battle_with_walls(client, 1)

    page = client.get(f"/battles/{battle_id}/events?after=0&limit=5")

    assert len(page.get_json()) == 2
    assert "Link" not in page.headers


def test_pending_entries_list_a_null_outcome(client: FlaskClient) -> None:
    battle_id = _battle_with_walls(client, 1)

    events = client.get(f"/battles/{battle_id}/events").get_json()

    assert [event["outcome"] for event in events] == [None, None]


def test_limit_is_clamped_to_the_page_maximum(client: FlaskClient) -> None:
    battle_id = _battle_with_walls(client, 1)

    page = client.get(f"/battles/{battle_id}/events?limit=100000")

    assert page.status_code == 200
    assert len(page.get_json()) == 2


def test_bad_query_parameters_are_a_422_naming_them(client: FlaskClient) -> None:
    battle_id = create_battle(client)
    for query, field in (
        ("limit=0", "limit"),
        ("limit=x", "limit"),
        ("after=-1", "after"),
        (f"after={2**53}", "after"),  # past what a JSON client reads back exactly (issue 22)
        (f"after={2**64 - 1}", "after"),
        (f"limit={2**53}", "limit"),
        ("page=2", "page"),
    ):
        problem = assert_problem(client.get(f"/battles/{battle_id}/events?{query}"), 422, "validation")
        assert field in problem["errors"]


def test_one_entry_carries_the_chain_fields(client: FlaskClient) -> None:
    battle_id = _battle_with_walls(client, 1)

    first = client.get(f"/battles/{battle_id}/events/1").get_json()
    second = client.get(f"/battles/{battle_id}/events/2").get_json()

    assert second["prev_hash"] == first["hash"]
    assert set(second) >= {"version", "type", "data", "dice", "actor", "recorded_at", "hash", "outcome"}


def test_a_version_beyond_the_head_is_a_404(client: FlaskClient) -> None:
    battle_id = create_battle(client)

    assert_problem(client.get(f"/battles/{battle_id}/events/2"), 404, "version-not-found")
    assert_problem(client.get(f"/battles/{battle_id}/events/0"), 404, "version-not-found")
    assert_problem(client.get("/battles/nope/events"), 404, "battle-not-found")
