"""One build of the rules in a process of its own, folding the battles it is sent (the differential test's
other end): `python -m tests.referee.fold_server pure|compiled [BUILD_DIR]`.

Each input line is a JSON request, each answer one JSON line. The first answer says which build loaded:
every `rules` module and the file it came from, so the test can prove no build fell back to another.
  {"op": "new", "entry": {...battle_created...}}  a battle from version 1 (its client seed in the data)
  {"op": "step", "entry": {...}}                   the next entry, folded with undo's rewind
Answers: {"outcome": sha256, "state": sha256} of the canonical outcome and state after the entry, or, with
`"full": true` in the request, the outcome and state themselves."""

from __future__ import annotations

import hashlib
import importlib
import json
import os
import pkgutil
import sys
from pathlib import Path
from typing import Any

from workers import rules_build

SERVER_SEED = bytes(range(32))  # tests/harness.TEST_SEED: the dice of a log depend on it, not on the build


def loaded_build(kind: str, build: Path | None) -> None:
    """Import the build asked for, and nothing else: the compiled one or an error, or the sources."""
    if kind == "compiled":
        rules_build.choose(required=True, build=build)
    elif kind == "pure":
        os.environ[rules_build.SETTING] = "0"
    else:
        raise SystemExit(f"unknown build {kind!r}")


def modules() -> dict[str, str]:
    """Every rules module loaded, with the file it was loaded from."""
    import rules

    for found in pkgutil.walk_packages(rules.__path__, "rules."):  # every module, lazily imported ones too
        importlib.import_module(found.name)
    return {
        name: str(getattr(module, "__file__", None))
        for name, module in sorted(sys.modules.items())
        if name == "rules" or name.startswith("rules.")
    }


class Folder:
    """The battle being folded: its states by version, for undo's rewind."""

    def __init__(self, created: dict[str, Any]) -> None:
        from rules.fold import Seeds, step

        self.seeds = Seeds(server_seed=SERVER_SEED, client_seed=str(created["data"].get("client_seed") or ""))
        battle, self.outcome = step(None, _entry(created), self.seeds)
        self.states = [battle]
        self._digests: dict[int, tuple[Any, str]] = {}  # id(state) -> (the state, its digest)

    def step(self, raw: dict[str, Any]) -> None:
        from rules.fold import step

        battle, self.outcome = step(self.states[-1], _entry(raw), self.seeds, self.at)
        self.states.append(battle)

    def at(self, version: int) -> Any:
        return self.states[version - 1]

    def answer(self, full: bool) -> dict[str, Any]:
        from eventstore.canonical import canonical_json
        from rules.fold import encode_battle, encode_header  # the build's own: compiled in the compiled one

        battle = self.states[-1]
        if full:
            state = encode_battle(battle)
            return {"outcome": json.loads(canonical_json(self.outcome)), "state": state}
        header = {**encode_header(battle), "game": self._game_digest(battle.game)}
        return {"outcome": _sha(canonical_json(self.outcome)), "state": _sha(canonical_json(header))}

    def _game_digest(self, game: Any) -> str:
        """The digest of a ruleset state, worked out once per state object: a refusal or an undo hands back
        a state folded before, the same object, whose bytes cannot have changed (states are frozen)."""
        from eventstore.canonical import canonical_json
        from rules.registry import get_ruleset

        known = self._digests.get(id(game))
        if known is None or known[0] is not game:
            ruleset = get_ruleset(self.states[0].ruleset)
            known = (game, _sha(canonical_json(ruleset.encode_state(game))))
            self._digests[id(game)] = known
        return known[1]


def _entry(raw: dict[str, Any]) -> Any:
    from rules.fold import Entry

    return Entry(version=raw["version"], type=raw["type"], data=raw["data"], dice=raw.get("dice") or {})


def _sha(text: str | bytes) -> str:
    return hashlib.sha256(text.encode() if isinstance(text, str) else text).hexdigest()


def serve(kind: str, build: Path | None) -> None:
    loaded_build(kind, build)
    out = sys.stdout
    out.write(json.dumps({"build": kind, "modules": modules()}) + "\n")
    out.flush()
    folder: Folder | None = None
    for line in sys.stdin:
        request = json.loads(line)
        try:
            if request["op"] == "new":
                folder = Folder(request["entry"])
            else:
                assert folder is not None, "a step before any battle"
                folder.step(request["entry"])
            answer = folder.answer(bool(request.get("full")))
        except Exception as error:  # the fold itself failed: that too must be the same in every build
            answer = {"error": f"{type(error).__name__}: {error}"}
        out.write(json.dumps(answer) + "\n")
        out.flush()


if __name__ == "__main__":
    serve(sys.argv[1], Path(sys.argv[2]) if len(sys.argv) > 2 else None)
