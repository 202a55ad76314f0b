"""Path converters of the API's routes."""

from __future__ import annotations

from typing import Any

from flask import Flask
from werkzeug.routing import BaseConverter

BATTLE = "battle"  # `<battle:battle_id>`
BESIDE_BATTLES = ("import",)  # the fixed paths under /battles that no battle id may shadow


class BattleId(BaseConverter):
    """A battle's id in `/battles/<id>`: any one segment but the fixed paths beside it, so `GET
    /battles/import` is the 405 of a POST-only path (its Allow without GET), not a read of a battle named
    `import`; no battle is (ids are random hex)."""

    regex = rf"(?!(?:{'|'.join(BESIDE_BATTLES)})\Z)[^/]+"


def install(app: Flask, api: Any) -> None:
    """Before any blueprint is registered: a rule is compiled with its converters when it is added."""
    app.url_map.converters[BATTLE] = BattleId
    api.register_converter(BattleId, lambda _converter: {"type": "string", "minLength": 1})
