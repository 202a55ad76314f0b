"""The golden corpus's battles before they are written: recorded logs named, pinned to a rules version and a
server seed, ended with `conclude`, and a small subset of them picked that covers every feature the whole set
shows (tests/golden/write.py writes them; tests/golden/README.md says how the corpus was made).

A battle is one JSON object: `{name, ruleset, server_seed, entries, test?, outcomes?}`, its entries
`{version, type, data, dice}` exactly as the store will record them; `outcomes`, when given, are the stored
outcomes of versions 1..N computed elsewhere (an earlier rules version folded by an earlier checkout)."""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from rules.dice import commitment
from rules.fold import BATTLE_CREATED, CONCLUDE, UNDO
from rules.registry import get_ruleset
from tests.harness import TEST_SEED

Battle = dict[str, Any]
Feature = tuple[str, ...]
NAME_LIMIT = 90  # characters of a file name taken from the test id; a digest keeps longer ones apart


def read_jsonl(paths: Iterable[Path]) -> Iterator[dict[str, Any]]:
    for path in paths:
        with path.open(encoding="utf-8") as lines:
            for line in lines:
                if line.strip():
                    yield json.loads(line)


def prepared(logs: Iterable[Mapping[str, Any]], rules_version: str | None = None) -> list[Battle]:
    """Each log as a battle (see the module's docstring); idempotent, so a prepared battle passes unchanged.
    `rules_version` re-pins version 1 (the earlier versions' logs are today's tests, played again)."""
    battles: list[Battle] = []
    seen: dict[str, int] = {}
    for log in logs:
        battle = _battle(log, rules_version)
        count = seen[battle["name"]] = seen.get(battle["name"], 0) + 1
        if count > 1:  # a test that played several tables: each its own battle
            battle["name"] = f"{battle['name']}-{count}"
        battles.append(battle)
    return battles


def _battle(log: Mapping[str, Any], rules_version: str | None) -> Battle:
    ruleset = get_ruleset(str(log["ruleset"]))
    seed = bytes.fromhex(log["server_seed"]) if log.get("server_seed") else TEST_SEED
    entries = [dict(entry) for entry in log["entries"]]
    first = entries[0]
    if first["version"] != 1 or first["type"] != BATTLE_CREATED:
        raise ValueError(f"{log.get('test')}: a log starts with battle_created at version 1")
    data = first["data"] = {
        "ruleset": ruleset.name,
        "rules_version": ruleset.rules_version,
        "options": {},
        "dice_commitment": commitment(seed),
        "client_seed": "",
        "name": None,
        **first["data"],
    }
    if rules_version is not None:
        data["rules_version"] = rules_version
    if data["dice_commitment"] != commitment(seed):  # the recorded stream dice came from another seed
        raise ValueError(f"{log.get('test')}: version 1 commits to another seed than {seed.hex()}")
    if entries[-1]["type"] != CONCLUDE and "outcomes" not in log:  # the seed is revealed, the dice verifiable
        entries.append({"version": len(entries) + 1, "type": CONCLUDE, "data": {}, "dice": {}})
    battle: Battle = {
        "name": str(log.get("name") or name_of(str(log["test"]), ruleset.name)),
        "ruleset": ruleset.name,
        "server_seed": seed.hex(),
        "entries": [{key: e[key] for key in ("version", "type", "data", "dice")} for e in entries],
    }
    for optional in ("test", "outcomes"):
        if optional in log:
            battle[optional] = log[optional]
    return battle


def name_of(test: str, ruleset: str) -> str:
    """A file name from a pytest node id: `tests/rules/epic/test_gates.py::test_x[a]` → `gates-test_x-a`."""
    module, _, rest = test.partition("::")
    stem = Path(module).stem.removeprefix("test_")
    text = re.sub(r"[^A-Za-z0-9_]+", "-", f"{stem}-{rest}").strip("-")
    text = text if text.startswith(ruleset) else f"{ruleset}-{text}"
    if len(text) > NAME_LIMIT:
        text = f"{text[:NAME_LIMIT]}-{hashlib.sha256(test.encode()).hexdigest()[:8]}"
    return text


def features(battle: Mapping[str, Any], outcomes: Sequence[Mapping[str, Any]]) -> set[Feature]:
    """What a battle shows: each command applied, each command rejected and each reason code of its outcomes
    (not every pairing of a command with a reason: the corpus would be twice the size), the kinds of dice
    it rolls, its house rules, its client seed and whether an undo was applied."""
    found: set[Feature] = set()
    entries = battle["entries"]
    created = entries[0]["data"]
    defaults = get_ruleset(battle["ruleset"]).default_options
    for name, value in (created.get("options") or {}).items():
        if defaults.get(name) != value:
            found.add(("option", name))
    if created.get("client_seed"):
        found.add(("client_seed",))
    for entry, outcome in zip(entries, outcomes, strict=True):
        found.add((str(outcome["status"]), str(outcome["type"])))
        if outcome["reason"] is not None:
            found.add(("reason", str(outcome["reason"])))
        for roll in outcome.get("rolls") or []:
            found.add(("dice", str(roll.get("source"))))
        if entry["dice"]:
            found.add(("dice", "supplied"))
        if entry["type"] == UNDO and outcome["status"] == "applied":
            found.add(("undo", "applied"))
    return found


def covering(shown: Mapping[str, set[Feature]], sizes: Mapping[str, int]) -> list[str]:
    """A small subset of the battles showing every feature any of them shows: greedy set cover, the battle
    adding most features first, the shorter on a tie, then by name (the same logs give the same corpus)."""
    left = set().union(*shown.values()) if shown else set()
    chosen: list[str] = []
    while left:
        best = min(shown, key=lambda name: (-len(shown[name] & left), sizes[name], name))
        chosen.append(best)
        left -= shown[best]
    return sorted(chosen)
