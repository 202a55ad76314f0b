"""Summaries told in the request's language (DESIGN §5, issue 9): the seed's east wall (EX-EP-01) played with
`Accept-Language: fr`, q-values honoured, `Content-Language` and `Vary` on every answer with an outcome, and
rejections that name the entity, phase or die behind them."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from flask.testing import FlaskClient

from eventstore.redis_store import RedisEventStore
from tests.service.helpers import CLIMB_FIGHT, CSM, WALL, accepted, create_battle, fold, send

FR = {"Accept-Language": "fr"}
EAST_WALL: list[dict[str, Any]] = [  # EX-EP-01 with the seed's dice
    *CLIMB_FIGHT[:-1],
    {**CLIMB_FIGHT[-1], "dice": {"attacker": [6, 6], "defender": [1, 2]}},
]


@pytest.mark.example("EX-EP-01")
def test_the_east_wall_is_told_in_french_with_the_seeds_words(
    client: FlaskClient, folder: threading.Event
) -> None:
    battle_id = create_battle(client)

    answers = [send(client, battle_id, command, headers={**FR, "Prefer": "wait=5"}) for command in EAST_WALL]

    assert all(a.status_code == 200 and a.headers["Content-Language"] == "fr" for a in answers)
    assert all("Accept-Language" in a.headers["Vary"] for a in answers)
    summaries = [a.get_json()["summary"] for a in answers]
    assert summaries[0] == "Section de fortification W1 (muraille) ajoutée : VA 6, sauvegarde 3+"
    assert summaries[3] == "csm reçoit l'ordre Charge"
    assert summaries[4] == "Tour 1 : phase d'ordres → mouvement"
    assert summaries[5].startswith("csm escalade W1 et doit vaincre son défenseur en corps à corps")
    assert summaries[-1] == (
        "Assaut de csm contre goff sur W1 : l'attaquant l'emporte (15 contre 11) ; détruit : goff"
    )


def test_a_rejection_names_the_phase_and_the_allowed_ones_in_both_languages(
    client: FlaskClient, redis_store: RedisEventStore
) -> None:
    battle_id = create_battle(client)
    for command in (WALL, CSM):
        accepted(client, battle_id, command)
    version = accepted(client, battle_id, {"type": "climb", "stand_id": "csm", "section_id": "W1"})
    fold(redis_store, battle_id)

    french = client.get(f"/battles/{battle_id}/events/{version}", headers=FR).get_json()["outcome"]
    english = client.get(f"/battles/{battle_id}/events/{version}").get_json()["outcome"]

    assert (french["reason"], french["detail"]) == (
        "wrong_phase",
        {"phase": "orders", "allowed": ["movement"]},
    )
    assert (
        french["summary"]
        == "csm ne peut pas escalader pendant la phase d'ordres : seulement pendant le mouvement"
    )
    assert english["summary"] == "csm cannot climb in the orders phase: only in the movement phase"


def test_a_rejection_names_the_unknown_id_and_its_field(
    client: FlaskClient, redis_store: RedisEventStore
) -> None:
    battle_id = create_battle(client)
    version = accepted(client, battle_id, {"type": "climb", "stand_id": "ghost", "section_id": "W1"})
    fold(redis_store, battle_id)

    told = client.get(f"/battles/{battle_id}/events/{version}", headers=FR).get_json()["outcome"]

    assert told["detail"] == {"field": "stand_id", "id": "ghost", "kind": "stand"}
    assert told["summary"] == "stand_id : aucune entité ghost de type socle"


def test_a_rejection_names_the_die_and_its_faces(client: FlaskClient, redis_store: RedisEventStore) -> None:
    battle_id = create_battle(client)
    for command in EAST_WALL[:-1]:
        accepted(client, battle_id, command)
    bad_dice = {**EAST_WALL[-1], "dice": {"attacker": [6, 9], "defender": [1, 2]}}
    version = accepted(client, battle_id, bad_dice)
    fold(redis_store, battle_id)

    told = client.get(f"/battles/{battle_id}/events/{version}", headers=FR).get_json()["outcome"]

    assert told["detail"] == {"slot": "attacker", "faces": 6, "value": 9}
    assert told["summary"] == "Dé attacker : 9 n'est pas une face d'un d6"


@pytest.mark.parametrize(
    ("header", "language"),
    [
        (None, "en"),
        ("fr", "fr"),
        ("fr-CA, fr;q=0.8, en;q=0.6", "fr"),
        ("en;q=0.5, fr;q=0.9", "fr"),
        ("fr;q=0.4, en", "en"),
        ("de, es;q=0.5", "en"),
        ("*", "en"),
    ],
)
def test_the_language_follows_accept_language_q_values(
    client: FlaskClient, redis_store: RedisEventStore, header: str | None, language: str
) -> None:
    battle_id = create_battle(client)
    accepted(client, battle_id, WALL)
    fold(redis_store, battle_id)
    headers = {"Accept-Language": header} if header else {}

    page = client.get(f"/battles/{battle_id}/events", headers=headers)

    assert page.headers["Content-Language"] == language
    assert "Accept-Language" in page.headers["Vary"]
    wall = page.get_json()[1]["outcome"]["summary"]
    assert wall.startswith("Section de fortification W1" if language == "fr" else "Section W1 (wall) added")


def test_a_french_page_has_its_own_etag(client: FlaskClient, redis_store: RedisEventStore) -> None:
    battle_id = create_battle(client)
    fold(redis_store, battle_id)

    english = client.get(f"/battles/{battle_id}/events/1")
    french = client.get(f"/battles/{battle_id}/events/1", headers=FR)

    assert french.headers["ETag"] == english.headers["ETag"][:-1] + '/fr"'
    again = client.get(
        f"/battles/{battle_id}/events/1", headers={**FR, "If-None-Match": english.headers["ETag"]}
    )
    assert again.status_code == 200  # the English tag does not validate the French representation
