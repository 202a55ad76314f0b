"""The two answers of `POST .../commands`, built in one place for the first request and for its replays."""

from __future__ import annotations

import json

from flask import Response

from service.http.json_io import json_response
from service.reading.language import localized, summarized
from summaries.lines import Data


def accepted(battle_id: str, version: int, digest: str) -> Response:
    """202: appended, the outcome pending; everything in it is the entry's version and hash."""
    body = {"version": version, "hash": digest, "status": "accepted"}
    return json_response(body, 202, {"Location": location(battle_id, version)})


def outcome(
    ruleset: str, battle_id: str, version: int, stored: str, command: Data, lang: str, wait_s: float
) -> Response:
    """200: the stored outcome of `version` with its summary in `lang`, as a met `Prefer: wait` answers."""
    told = summarized(ruleset, json.loads(stored), command, lang)
    headers = {"Location": location(battle_id, version), "Preference-Applied": f"wait={wait_s:g}"}
    return localized(json_response(told, 200, headers), lang)


def location(battle_id: str, version: int) -> str:
    return f"/battles/{battle_id}/events/{version}"
