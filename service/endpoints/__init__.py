"""The API's blueprints, one per resource; `create_app` registers them in this order."""

from __future__ import annotations

from service.endpoints import (
    audit,
    battles,
    commands,
    events,
    export,
    health,
    previews,
    replays,
    rulesets,
    state,
    stream,
    tokens,
    verify,
    viewer,
    webhooks,
)
from service.endpoints.blueprint import Blueprint


def blueprints() -> list[Blueprint]:
    return [
        battles.blp,
        commands.blp,
        previews.blp,
        events.blp,
        stream.blp,
        state.blp,
        tokens.blp,
        webhooks.blp,
        replays.blp,
        audit.blp,
        export.blp,
        rulesets.blp,
        health.blp,
        viewer.blp,
        verify.blp,
    ]
