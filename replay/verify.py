"""The offline verifier behind `siege verify` and `POST /battles/import`: an export proves itself with no
server and no Redis, in two streamed passes over its lines, in constant memory.

The first pass reads the envelope and the chain (`missing`, `order`, `duplicate`, `chain`) and finds the
seed the `conclude` outcome revealed; the second folds every entry again with the pinned rules and compares
each outcome (`outcome`) and, once the seed matches its commitment, recomputes every stream die (`dice`).
Stream dice are handed to the fold as the values the outcomes record, so an export proves its outcomes
follow the rules even before `conclude`, when its dice alone are not verifiable yet.

An import also holds every entry to the API's own input checks (service/commands/import_checks.py),
between the two passes (`admit`): no input the API refuses is ever folded. `siege verify` does not: its
verdict is the file's integrity (chain, dice, outcomes), in the kinds below.

A battle pinned to rules this release does not fold (replay/supported_rules.py) is `unsupported`,
never `tampered`: its chain and its dice are checked all the same (neither depends on the rules version: every
version draws its dice from the same stream, docs/export-format.md §5), its outcomes are not compared."""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from itertools import count, islice
from pathlib import Path
from typing import Any, Literal

from eventstore.canonical import canonical_json
from eventstore.chain import GENESIS_HASH, fault
from eventstore.records import StoredEntry
from replay.audit_dice import Revealed, expected_roll, parse_seed
from replay.export_format import Exported, Unusable, envelope_fault, read_line
from replay.folds import fold_file
from replay.supported_rules import Unsupported, unsupported
from rules.dice import commitment, stream_key
from rules.fold import BATTLE_CREATED, CONCLUDE, Entry, Seeds
from rules.registry import folded_versions

Kind = Literal["chain", "dice", "outcome", "missing", "order", "duplicate"]
Status = Literal["verified", "tampered", "unusable", "unsupported"]
EXIT_CODES: dict[Status, int] = {"verified": 0, "tampered": 1, "unusable": 2, "unsupported": 2}
# opens the export afresh for each pass; passes overlap (an undo's rewind reads while the main pass is
# mid-file), so each call must read on its own, never share one file object and its position
Lines = Callable[[], Iterable[bytes]]
Advance = Callable[[int], object]  # told the bytes of the lines just read (or folded): a progress bar's step
CHAIN_REASONS = {
    "prev_hash_mismatch": "prev_hash is not the hash of the version before",
    "hash_mismatch": "the entry's hash is not the hash of its content (edited data or dice)",
}
# a stored outcome, the stream slots supplied from it, and the line of the file it was read from
Recorded = tuple[dict[str, Any] | None, frozenset[str], int]
# a check run after the first pass (line n holds version n, the chain holds) and before the fold: the
# file's lines and the ruleset of version 1; the first entry it refuses
Admit = Callable[[Lines, str], "Finding | None"]
PASSES = 2  # the reads of the whole file a verify makes (the scan, the fold): what a progress bar counts
# (an import's `admit` reads it once more; no progress bar shows an import)
TICK = 1000  # lines between two progress updates: an update per line costs more than the line


@dataclass(frozen=True, slots=True, kw_only=True)
class Finding:
    """The first bad version and the 1-based line of the file it was found on: the line holding that
    version (the second copy of a duplicate, a late version where it stands), or the line where a version
    not in the file was due (the line holding what came in its place; line 1 of a file with no events)."""

    version: int
    kind: Kind | Literal["unusable", "unsupported", "refused"]  # `refused`: an import's `admit` only
    reason: str
    line: int
    detail: str = ""  # what `reason` does not say: a `refused` entry's reason is a code, this says why

    def one_line(self) -> str:
        said = f"version {self.version}: {self.kind}: {self.reason}"
        return f"{said} ({self.detail})" if self.detail else said


@dataclass(slots=True, kw_only=True)
class Report:
    """What the verifier found; `finding` is the first bad version (None when the export verifies)."""

    status: Status = "verified"
    finding: Finding | None = None
    source: str | None = None
    ruleset: str | None = None
    rules_version: str | None = None
    supported: tuple[str, ...] | None = None  # the ruleset's versions this release folds, once it is read
    entries: int = 0
    head_version: int = 0
    head_hash: str = GENESIS_HASH
    concluded_at: int | None = None
    server_seed: str | None = None  # hex, once `conclude` revealed it and it matches the commitment
    dice: dict[str, Any] = field(
        default_factory=lambda: {"verifiable": False, "commitment_ok": None, "checked_rolls": 0}
    )
    outcomes: dict[str, int] = field(default_factory=lambda: {"compared": 0, "pending": 0})

    @property
    def exit_code(self) -> int:
        return EXIT_CODES[self.status]

    def wire(self) -> dict[str, Any]:
        found = self.finding
        return {
            "ok": self.status == "verified",
            "status": self.status,
            "finding": None if found is None else {**_public(found), "summary": found.one_line()},
            "source": self.source,
            "ruleset": self.ruleset,
            "rules_version": self.rules_version,
            "supported": None if self.supported is None else list(self.supported),
            "entries": self.entries,
            "head_version": self.head_version,
            "head_hash": self.head_hash,
            "concluded_at": self.concluded_at,
            "dice": dict(self.dice),
            "outcomes": dict(self.outcomes),
        }


def file_lines(file: Path, advance: Advance) -> Lines:
    """The export's lines, read afresh at each call; the first PASSES reads tell `advance` the bytes they
    read, TICK lines at a time (an undo's rewind opens more passes: they read, but are not progress)."""
    opened = count()

    def lines() -> Iterator[bytes]:
        shown, read = next(opened) < PASSES, 0
        with file.open("rb") as handle:
            for n, line in enumerate(handle, 1):
                read += len(line)
                if shown and n % TICK == 0:
                    advance(read)
                    read = 0
                yield line
        if shown:
            advance(read)

    return lines


def verify(lines: Lines, admit: Admit | None = None, *, keep: Advance | None = None) -> Report:
    """The report on the export `lines` gives. With `keep`, every line the first pass reads is kept for the
    second rather than read again (memory in proportion to the file: for a caller that holds the whole file
    in memory already, the browser's verifier), and `keep` is told the bytes the second pass has folded as
    `lines` tells its reads."""
    report = Report()
    try:
        scan = _scan(lines(), report, None if keep is None else Kept(advance=keep))
        if report.finding is None and scan.unsupported is not None:
            _check_dice_alone(lines, report, scan, scan.unsupported)
        elif report.finding is None and admit is not None:
            report.finding = admit(lines, str(report.ruleset))
        if report.finding is None and scan.unsupported is None:
            _refold(lines, report, scan)
    except Unusable as error:
        report.finding = Finding(
            version=error.version or 0, kind="unusable", reason=error.reason, line=error.line
        )
    if report.finding is not None:
        kind = report.finding.kind
        report.status = kind if kind in ("unusable", "unsupported") else "tampered"
    return report


@dataclass(slots=True, kw_only=True)
class Scan:
    """What the first pass learnt for the second: the creation's seeds, and whether the seed checks out."""

    client_seed: str = ""
    revealed: Revealed | None = None
    revealed_line: int = 0
    seed: bytes | None = None  # the revealed seed, when it matches the commitment
    commitment_finding: Finding | None = None
    unsupported: Unsupported | None = None  # the rules version 1 pins, when this release does not fold them
    kept: Kept | None = None  # the lines read, when the caller asked to keep them


@dataclass(slots=True, kw_only=True)
class Kept:
    """The first pass's lines, line n at [n - 1], with the bytes each was read from (the progress)."""

    advance: Advance
    events: list[Exported] = field(default_factory=list)
    sizes: list[int] = field(default_factory=list)

    def folded(self) -> Iterator[Exported]:
        """Every line, in order, telling `advance` their bytes TICK lines at a time."""
        done = 0
        for number, (event, size) in enumerate(zip(self.events, self.sizes, strict=True), 1):
            done += size
            if number % TICK == 0:
                self.advance(done)
                done = 0
            yield event
        self.advance(done)


def _scan(lines: Iterable[bytes], report: Report, kept: Kept | None) -> Scan:
    scan = Scan(kept=kept)
    prev_version, prev_hash, pending_from, pending_line = 0, GENESIS_HASH, 0, 0
    gap: int | None = None  # the first version missing where it was due: later or never?
    gap_line = 0  # the line where it was due
    for number, raw in enumerate(lines, 1):
        event = read_line(raw, number, prev_version + 1)
        if kept is not None:
            kept.events.append(event)
            kept.sizes.append(len(raw))
        version = event.entry.version
        if gap is not None:
            if version == gap:
                return _found(report, scan, gap, "order", f"version {gap} comes after later versions", number)
            continue
        if version <= prev_version:
            return _found(report, scan, version, "duplicate", f"version {version} appears twice", number)
        if version > prev_version + 1:
            gap, gap_line = prev_version + 1, number
            continue
        problem = _link_fault(event, report, prev_hash)
        if problem is not None:
            return _found(report, scan, version, "chain", problem, number)
        if version == 1:
            scan.client_seed, scan.unsupported = _created(event, report)
        if event.outcome is None:
            if not pending_from:
                pending_from, pending_line = version, number
        elif pending_from:
            reason = f"version {pending_from} has no outcome, yet later versions do"
            return _found(report, scan, pending_from, "missing", reason, pending_line)
        elif (
            event.entry.type == CONCLUDE
            and scan.revealed is None
            and event.outcome.get("status") == "applied"
        ):
            scan.revealed = Revealed.of(version, event.outcome.get("result"))
            scan.revealed_line = number
        prev_version, prev_hash = version, event.entry.hash
        report.entries, report.head_version, report.head_hash = version, version, prev_hash
    if gap is not None:
        return _found(report, scan, gap, "missing", f"version {gap} is missing", gap_line)
    if prev_version == 0:
        raise Unusable("the file holds no events", version=1, line=1)
    _check_commitment(scan, report)
    return scan


def _found(report: Report, scan: Scan, version: int, kind: Kind, reason: str, line: int) -> Scan:
    report.finding = Finding(version=version, kind=kind, reason=reason, line=line)
    return scan


def _link_fault(event: Exported, report: Report, prev_hash: str) -> str | None:
    """The chain and the envelope: the entry links to the one before, and its event describes it."""
    if report.source is None:
        report.source = event.source
    elif event.source != report.source:
        return f"the event belongs to another battle ({event.source})"
    reason = fault(event.entry, event.entry.version - 1, prev_hash)
    return CHAIN_REASONS.get(reason, reason) if reason else envelope_fault(event)


def _created(event: Exported, report: Report) -> tuple[str, Unsupported | None]:
    """Version 1 pins the ruleset and rules version: the client seed, and whether they are rules this
    release cannot fold (then only the chain and the dice can be judged)."""
    data = event.entry.data
    if event.entry.type != BATTLE_CREATED:
        raise Unusable("version 1 is not battle_created", version=1, line=event.line)
    refused = unsupported(data)
    pinned = data.get("rules_version")
    report.ruleset = str(data.get("ruleset"))
    report.rules_version = pinned if isinstance(pinned, str) else None
    report.supported = folded_versions(report.ruleset)
    report.dice["commitment"] = str(data.get("dice_commitment") or "")
    return str(data.get("client_seed") or ""), refused


def _check_dice_alone(lines: Lines, report: Report, scan: Scan, refused: Unsupported) -> None:
    """A battle of other rules: its outcomes are not folded again, but every stream die they record is
    still the one the revealed seed gives; `unsupported` when nothing is wrong with them."""
    if scan.seed is not None:
        key = stream_key(scan.seed, scan.client_seed)
        for event in _events(lines, scan):
            number = event.line
            if event.outcome is not None:
                report.finding = _check_rolls(event.entry.version, number, event.outcome, key, report)
                if report.finding is not None:
                    return
    report.finding = scan.commitment_finding or Finding(
        version=1, kind="unsupported", reason=refused.reason, line=1
    )


def _check_commitment(scan: Scan, report: Report) -> None:
    revealed = scan.revealed
    if revealed is None:
        return
    report.concluded_at = revealed.version
    seed = parse_seed(revealed.server_seed)
    ok = seed is not None and commitment(seed) == report.dice.get("commitment")
    report.dice.update(verifiable=ok, commitment_ok=ok)
    if ok:
        scan.seed, report.server_seed = seed, revealed.server_seed
    else:
        reason = "the seed the conclusion reveals does not match the dice_commitment of version 1"
        scan.commitment_finding = Finding(
            version=revealed.version, kind="dice", reason=reason, line=scan.revealed_line
        )


def _refold(lines: Lines, report: Report, scan: Scan) -> None:
    """Fold the entries again, the stream dice handed over as recorded, and compare every outcome."""
    revealed = scan.revealed
    server_seed = parse_seed(revealed.server_seed) if revealed else None
    seeds = Seeds(server_seed=server_seed or b"", client_seed=scan.client_seed)
    stored: deque[Recorded] = deque()
    entries = _recorded_entries(scan.kept.folded() if scan.kept else _events(lines, scan), stored)
    limit = scan.commitment_finding.version if scan.commitment_finding else None
    version = 0
    try:
        for battle, fresh in fold_file(entries, lambda a, b: _window(lines, scan, a, b), seeds):
            version = battle.version
            finding = _judge(version, fresh, *stored.popleft(), scan, report)
            if finding is not None or (limit is not None and version >= limit):
                report.finding = finding or scan.commitment_finding
                return
    except Unusable:
        raise
    except Exception as error:  # a log the rules cannot fold: the file says what was folded, and it fails
        # the entry it failed on is the oldest read and not judged yet; before any, line 1 holds version 1
        outcome, line = (stored[0][0], stored[0][2]) if stored else (None, version + 1)
        dice = None  # its stream dice are checked before its outcome (docs/export-format.md §7.2)
        if scan.seed is not None and outcome is not None:
            key = stream_key(scan.seed, scan.client_seed)
            dice = _check_rolls(version + 1, line, outcome, key, report)
        reason = f"the fold failed: {error!r}"
        report.finding = dice or Finding(version=version + 1, kind="outcome", reason=reason, line=line)
        return
    report.finding = scan.commitment_finding


def _events(lines: Lines, scan: Scan, after: int = 0, upto: int | None = None) -> Iterable[Exported]:
    """Lines after..upto (all by default) as the first pass read them: kept, or read again. The scan proved
    line n holds version n, so earlier lines are skipped unparsed."""
    if scan.kept is not None:
        return scan.kept.events[after:upto]
    raws = lines() if after == 0 and upto is None else islice(lines(), after, upto)
    return (read_line(raw, number, number, checked=True) for number, raw in enumerate(raws, after + 1))


def _recorded_entries(events: Iterable[Exported], stored: deque[Recorded]) -> Iterator[Entry]:
    """The log as the fold reads it, each entry's stream dice supplied as its outcome recorded them (the
    outcome and the slots so supplied wait in `stored` for the comparison, with the line it was read from)."""
    for event in events:
        entry, outcome = event.entry, event.outcome
        supplied = _stream_dice(outcome, entry)
        stored.append((outcome, frozenset(supplied), event.line))
        dice = {**supplied, **entry.dice}
        yield Entry(version=entry.version, type=entry.type, data=entry.data, dice=dice, hash=entry.hash)


def _window(lines: Lines, scan: Scan, after: int, upto: int) -> Iterator[Entry]:
    """Entries after..upto of the export, their stream dice supplied as recorded: what a rewind folds."""
    yield from _recorded_entries(_events(lines, scan, after, upto), deque())


def _stream_dice(outcome: dict[str, Any] | None, entry: StoredEntry) -> dict[str, list[Any]]:
    """The recorded stream values by slot, for the slots the client did not supply itself."""
    slots: dict[str, list[Any]] = {}
    for roll in _stream_rolls(outcome):
        if str(roll.get("slot")) not in entry.dice:
            slots.setdefault(str(roll.get("slot")), []).append(roll.get("value"))
    return slots


def _stream_rolls(outcome: dict[str, Any] | None) -> list[dict[str, Any]]:
    rolls = (outcome or {}).get("rolls") or []
    return [r for r in rolls if isinstance(r, dict) and r.get("source") == "stream"]


def _judge(
    version: int,
    fresh: dict[str, Any],
    outcome: dict[str, Any] | None,
    supplied: frozenset[str],
    line: int,
    scan: Scan,
    report: Report,
) -> Finding | None:
    """The stored outcome against the fresh one: its stream dice first (once the seed is known), then all."""
    if outcome is None:
        report.outcomes["pending"] += 1
        return None
    if scan.seed is not None:
        finding = _check_rolls(version, line, outcome, stream_key(scan.seed, scan.client_seed), report)
        if finding is not None:
            return finding
    for roll in fresh.get("rolls") or []:  # supplied from the record: they were drawn from the stream
        if isinstance(roll, dict) and roll.get("slot") in supplied:
            roll["source"] = "stream"
    report.outcomes["compared"] += 1
    if canonical_json(fresh) == canonical_json(outcome):
        return None
    differs = sorted(
        k for k in {*fresh, *outcome} if canonical_json(fresh.get(k)) != canonical_json(outcome.get(k))
    )
    reason = f"the recorded outcome is not the one the rules give (differs in: {', '.join(differs)})"
    return Finding(version=version, kind="outcome", reason=reason, line=line)


def _check_rolls(
    version: int, line: int, outcome: dict[str, Any], key: bytes, report: Report
) -> Finding | None:
    for n, roll in enumerate(_stream_rolls(outcome)):  # the n-th stream die of a version is the n-th drawn
        report.dice["checked_rolls"] += 1
        expected = expected_roll(key, version, n, roll.get("die"))
        if roll.get("value") != expected:
            which = f"stream die {n} ({roll.get('slot')}, {roll.get('die')})"
            reason = f"{which} is {roll.get('value')}; the seed gives {expected}"
            return Finding(version=version, kind="dice", reason=reason, line=line)
    return None


def _public(found: Finding) -> dict[str, Any]:
    return {"version": found.version, "kind": found.kind, "reason": found.reason, "line": found.line}
