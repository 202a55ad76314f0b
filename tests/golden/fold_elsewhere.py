"""Adds to each prepared battle (`python -m tests.golden.write prepare`) the outcomes another checkout's fold
gives: run it from that checkout, so that its `rules` come first on sys.path (the earlier rules versions'
corpora are folded by the rules of the last commit before the bump, never by today's code).

    cd /path/to/old/checkout && SIEGE_COMPILED_RULES=0 python /path/to/fold_elsewhere.py IN OUT [STATES]

STATES, when named, gets each battle's final state as that checkout encodes it (`encode_battle`), one
`{name, version, state}` line per battle: what its workers stored as the projection.

Standard library and that checkout's `rules.fold` and `eventstore.canonical` only (present at every commit
that wrote a rules version so far); undo did not exist before epic-2, so no rewind is passed."""

from __future__ import annotations

import json
import os
import sys

sys.path.insert(0, os.getcwd())  # the checkout it runs in, before the installed one

from eventstore.canonical import canonical_json
from rules import fold


def main(source: str, target: str, states: str | None = None) -> None:
    folded = 0
    finals: list[str] = []
    with open(source, encoding="utf-8") as battles, open(target, "w", encoding="utf-8") as out:
        for line in battles:
            battle = json.loads(line)
            fields = ("version", "type", "data", "dice", "hash")
            entries = [fold.Entry(**{key: e[key] for key in fields}) for e in battle["entries"]]
            client_seed = str(entries[0].data.get("client_seed") or "")
            seeds = fold.Seeds(server_seed=bytes.fromhex(battle["server_seed"]), client_seed=client_seed)
            state = None
            outcomes = []
            for entry in entries:
                state, outcome = fold.step(state, entry, seeds)
                outcomes.append(json.loads(canonical_json(outcome)))  # stored as that checkout stored it
            out.write(json.dumps({**battle, "outcomes": outcomes}, sort_keys=True) + "\n")
            if state is not None:
                encoded = canonical_json(fold.encode_battle(state))
                final = {"name": battle["name"], "version": state.version, "state": encoded}
                finals.append(json.dumps(final, sort_keys=True) + "\n")
            folded += 1
    if states:
        with open(states, "w", encoding="utf-8") as out:
            out.writelines(finals)
    print(f"{folded} battles folded by {fold.__file__}", file=sys.stderr)


if __name__ == "__main__":
    main(*sys.argv[1:4])
