"""The golden corpus writer: recorded logs → exports in today's format, through the service's own path.

Each battle goes into eventstore's in-process store (the one the storage contract tests run beside Redis:
tests/eventstore/contract/) under an id and a server seed fixed by its name, with fixed `recorded_at`
times, so the same logs always give the same bytes; its outcomes are stored as the workers store them
(`workers.projection.project_battle`, today's fold) or as given; and the file is what `siege export` and
`GET /battles/{id}/export` write (`replay.export.export_lines`). Every file written is verified
(`replay.verify.verify`) before it is kept.

    # record the logs the rules tests play (tests/referee/recording.py)
    SIEGE_RECORD_LOGS=/tmp/rec python -m pytest -p tests.referee.recording tests/rules tests/examples -n 0
    # the current corpus: a covering subset of them and the hand-written extras, folded by today's rules
    python -m tests.golden.write write /tmp/rec/*.jsonl tests/golden/extra_logs.jsonl --select --replace

Outcomes computed elsewhere (an earlier rules version, folded by the rules of an earlier checkout):

    python -m tests.golden.write prepare /tmp/rec/*.jsonl --rules-version epic-1 > battles.jsonl
    # fold each battle's entries elsewhere, with Seeds(server_seed, client_seed) and the entries' hashes
    # (as `prepare` printed them), and add its outcomes of versions 1..N as "outcomes": [...]
    python -m tests.golden.write write folded.jsonl --select --replace

`prepare` prints each battle (tests/golden/corpus.py) with its entries as the store records them,
hashes included, which the fold copies into every outcome. Files land in OUT/<rules_version>/<name>.jsonl."""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, Protocol

from eventstore.canonical import canonical_json, loads
from eventstore.clock import iso
from eventstore.memory_store import MemoryEventStore
from eventstore.paging import history, iter_outcomes
from eventstore.records import NewEntry, Projection
from eventstore.roles import Folds, Log
from replay.export import export_lines
from replay.verify import verify
from tests.eventstore.helpers import appending
from tests.golden.corpus import Battle, covering, features, prepared, read_jsonl
from workers.projection import project_battle

GOLDEN = Path(__file__).parent
RECORDED_FROM = datetime(2025, 1, 1, 12, 0, tzinfo=UTC)  # version v is recorded v - 1 seconds later
ACTOR = "gm"
SCHEMA_VERSION = 1


def battle_id(name: str) -> str:
    """24 hex digits, the shape of the service's ids, fixed by the battle's name."""
    return hashlib.sha256(f"golden:{name}".encode()).hexdigest()[:24]


def recorded_at(version: int) -> str:
    return iso(RECORDED_FROM + timedelta(seconds=version - 1))


class Storing(Log, Folds, Protocol):
    """What storing a battle uses, on either backend (the v1 corpus test stores on Redis)."""


def store_battle(store: Storing, battle: Battle, *, fold: bool = True) -> str:
    """The battle's log appended as the service appends it, and its outcomes stored (unless not `fold`ed
    and none are given); its id."""
    found = battle_id(battle["name"])
    first, *rest = (_new_entry(entry) for entry in battle["entries"])
    store.create_battle(found, first, battle["server_seed"])
    for entry in rest:
        store.append(appending(found, entry))
    given = battle.get("outcomes")
    if given is None:
        if fold:
            # what a worker does: today's fold, its outcomes as it stores them
            project_battle(store, store, found)
        return found
    head = len(battle["entries"])
    if [o.get("version") for o in given] != list(range(1, head + 1)):
        raise ValueError(f"{battle['name']}: outcomes are needed for versions 1..{head}, in order")
    outcomes = [(version, canonical_json(o)) for version, o in enumerate(given, 1)]
    # an export carries no state: what the state was under the earlier rules is not the corpus's concern
    store.save_projection(found, state=Projection(version=head, state="null"), outcomes=outcomes)
    return found


def _new_entry(entry: dict[str, Any]) -> NewEntry:
    return NewEntry(
        type=entry["type"],
        data=entry["data"],
        schema_version=SCHEMA_VERSION,
        actor=ACTOR,
        idempotency_key=None,
        recorded_at=recorded_at(entry["version"]),
        dice=entry["dice"],
    )


def stored_outcomes(store: MemoryEventStore, found: str) -> list[dict[str, Any]]:
    head = store.head(found).version
    return [loads(text) for _version, text in iter_outcomes(store, found, head)]


def with_hashes(store: MemoryEventStore, battle: Battle) -> Battle:
    """The battle with each entry's `hash` as the store chained it (what a fold copies into outcomes)."""
    logged = {e.version: e.hash for e in history(store, battle_id(battle["name"]))}
    entries = [{**entry, "hash": logged[entry["version"]]} for entry in battle["entries"]]
    return {**battle, "entries": entries}


def write(battles: Sequence[Battle], out: Path, *, select: bool, replace: bool) -> dict[str, list[Path]]:
    """Store every battle, keep a covering subset per rules version if `select`, write and verify each."""
    store = MemoryEventStore()
    ids = {battle["name"]: store_battle(store, battle) for battle in battles}
    by_version: dict[str, list[Battle]] = {}
    for battle in battles:
        by_version.setdefault(battle["entries"][0]["data"]["rules_version"], []).append(battle)
    written: dict[str, list[Path]] = {}
    for version, group in sorted(by_version.items()):
        if select:
            shown = {b["name"]: features(b, stored_outcomes(store, ids[b["name"]])) for b in group}
            keep = set(covering(shown, {b["name"]: len(b["entries"]) for b in group}))
            group = [b for b in group if b["name"] in keep]
        folder = out / version
        folder.mkdir(parents=True, exist_ok=True)
        if replace:
            for old in folder.glob("*.jsonl"):
                old.unlink()
        written[version] = [_write_file(store, ids[b["name"]], folder / f"{b['name']}.jsonl") for b in group]
    return written


def _write_file(store: MemoryEventStore, found: str, path: Path) -> Path:
    lines = list(export_lines(store, found))
    report = verify(lambda: iter(lines))
    if report.status != "verified" or report.concluded_at is None:
        summary = report.finding.one_line() if report.finding else "not concluded"
        raise SystemExit(f"{path.name} does not verify ({report.status}: {summary}); nothing more written")
    path.write_bytes(b"".join(lines))
    return path


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m tests.golden.write", description=__doc__.split("\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    prepare = commands.add_parser("prepare", help="print the battles the logs make, entries hashed")
    writing = commands.add_parser("write", help="write the battles' exports under OUT/<rules_version>/")
    for command in (prepare, writing):
        command.add_argument("logs", nargs="+", type=Path, help="JSON Lines of recorded logs or battles")
        command.add_argument("--rules-version", help="pin version 1 to this rules version")
    writing.add_argument("--out", type=Path, default=GOLDEN, help="the golden folder (default: this one)")
    writing.add_argument("--select", action="store_true", help="keep a covering subset per version")
    writing.add_argument("--replace", action="store_true", help="remove a version's old files first")
    args = parser.parse_args(argv)
    battles = prepared(read_jsonl(args.logs), args.rules_version)
    if args.command == "prepare":
        store = MemoryEventStore()
        for battle in battles:
            unfolded = {key: value for key, value in battle.items() if key != "outcomes"}
            store_battle(store, unfolded, fold=False)
            print(json.dumps(with_hashes(store, battle), sort_keys=True))
        return
    written = write(battles, args.out, select=args.select, replace=args.replace)
    for version, paths in written.items():
        size = sum(path.stat().st_size for path in paths)
        print(f"{version}: {len(paths)} files, {size} bytes in {args.out / version}", file=sys.stderr)


if __name__ == "__main__":
    main()
