"""A command's odds, appending nothing: judged as `/commands` would judge it, then decided against the state
at the head over its possible dice (rules/preview.py); nothing is written.

A side's preview is decided on what that side may see: while orders it may not see are hidden
(service/reading/hiding.py), the state it is decided on holds none of them, so no odds can tell one."""

from __future__ import annotations

from typing import Any

from marshmallow import ValidationError

from eventstore.canonical import canonical_json
from replay.folds import battle_at, rewinder
from rules.fold import CONCLUDE, Battle, decode_battle, encode_battle
from rules.preview import preview
from schemas.commands import load_command
from service.access import auth
from service.commands.ownership import permit
from service.commands.preview_memory import HIT, Seen
from service.deps import Services
from service.http.json_io import compact_json
from service.reading.hiding import Secrecy

NO_DICE = "A preview walks every possible die: send the command without dice."
NO_CONCLUDE = "`conclude` draws no die and would reveal the seed: nothing to preview."


def preview_command(deps: Services, battle_id: str, body: Any) -> tuple[str, str]:
    """The odds as JSON text, and how this process's memory of previews answered them (`Cache-Status`)."""
    ruleset = deps.battles.ruleset_of(battle_id)
    if isinstance(body, dict) and "dice" in body:
        raise ValidationError({"dice": [NO_DICE]})
    command = load_command(ruleset, body)
    if command.type == CONCLUDE:
        raise ValidationError({"type": [NO_CONCLUDE]})
    created = deps.battles.created(battle_id)
    head = deps.store.head(battle_id)
    battle = battle_at(deps.store, deps.folds, created, battle_id, head.version)
    permit(auth.current(), ruleset, command, battle.game)  # asked again on every request, remembered or not
    sight = deps.reveals.sight(deps.store, battle_id, ruleset, auth.reader())
    hidden_from = None
    if sight.policy is not None and sight.blanks(battle.version):
        battle, hidden_from = _without(battle, sight.policy, sight.reader.side), (sight.reader.side,)
    seen = Seen(
        battle_id=battle_id,
        head=head.hash,
        hidden_from=hidden_from,
        command=canonical_json({"type": command.type, **command.data}),
    )
    known = deps.previews.get(seen)
    if known is not None:
        return known, HIT
    answer = preview(battle, command.type, command.data, rewinder(deps.store, deps.folds, battle_id, created))
    text = compact_json(answer.to_wire())
    return text, deps.previews.keep(seen, text)


def _without(battle: Battle[Any], policy: Secrecy, side: str | None) -> Battle[Any]:
    """The battle with every order `side` does not own withdrawn (none given)."""
    encoded = encode_battle(battle)
    encoded["game"] = policy.blank(encoded["game"], side, None)
    return decode_battle(encoded)
