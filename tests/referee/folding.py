"""A battle folded entry by entry, each outcome and state digested: the part of the differential test a
build that runs in no process of ours (the browser's Pyodide) runs too. Only `rules` and `eventstore` are
imported, so the file runs as it is wherever the verifier's zip is."""

from __future__ import annotations

import hashlib
import json
from typing import Any

SERVER_SEED = bytes(range(32))  # tests/harness.TEST_SEED, as the fold servers use


def digests(entries_json: str) -> str:
    """For each entry of the battle (JSON list of `{version, type, data, dice}`, version 1 first) the
    SHA-256 of its outcome and of the state after it, both canonical JSON; the fold's error in its place
    once the fold fails. JSON in and out: what crosses into a browser is text."""
    from eventstore.canonical import canonical_json
    from rules.fold import Battle, Entry, Seeds, encode_battle, step

    entries: list[dict[str, Any]] = json.loads(entries_json)
    seeds = Seeds(server_seed=SERVER_SEED, client_seed=str(entries[0]["data"].get("client_seed") or ""))
    states: list[Battle[Any]] = []
    out: list[Any] = []
    for raw in entries:
        entry = Entry(version=raw["version"], type=raw["type"], data=raw["data"], dice=raw.get("dice") or {})
        try:
            battle, outcome = step(states[-1] if states else None, entry, seeds, lambda v: states[v - 1])
        except Exception as error:  # the fold failed: that too must be the same in every build
            out.append(f"{type(error).__name__}: {error}")
            break
        states.append(battle)
        out.append([_sha(canonical_json(outcome)), _sha(canonical_json(encode_battle(battle)))])
    return json.dumps(out)


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()
