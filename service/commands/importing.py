"""Recreating a battle from an export: spool the body to a temporary file as it streams in, verify it there
with the offline verifier, hold every entry to the API's own input checks (service/commands/import_checks.py),
and only then recreate it under a new id. Memory stays flat however long it is.

Each pass over the file opens it afresh: the verifier's passes overlap (an undo folds the file again up to
an earlier version while the main pass is mid-file), so passes sharing one file object would share its
position, and the first to finish would close it under the others."""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from functools import partial
from pathlib import Path
from typing import IO

from eventstore.records import ImportRequest, StoredEntry
from replay.export_format import MAX_LINE_BYTES, read_line
from replay.verify import Finding, Report, verify
from service.access.tokens import GM, mint
from service.commands.creation import Created, with_fresh_id
from service.commands.import_checks import refusal
from service.deps import Services
from service.http.problems import Problem

SPOOL_NAME = "export.jsonl"
INVALID = "import-invalid"
NOT_CONCLUDED = "import-not-concluded"


def import_export(deps: Services, body: IO[bytes]) -> Created:
    """A new battle recreated from a verified export, with its log, its revealed seed and a GM token;
    a 422 naming the first bad version when the export does not verify or holds input the API refuses,
    and nothing created."""
    with tempfile.TemporaryDirectory(prefix="siege-import-") as folder:
        spool = Path(folder) / SPOOL_NAME
        with spool.open("wb") as out:
            _spool(body, out)
        admit = partial(refusal, max_body_bytes=deps.config.max_body_bytes)  # input the API takes, only
        report = verify(lambda: _lines(spool), admit)
        if report.status == "unsupported":
            raise unsupported_rules(report)
        if report.finding is not None:
            raise invalid(report.finding)
        seed = _concluded_seed(report)
        gm = mint(GM)
        battle_id, head = with_fresh_id(
            lambda new_id: deps.store.import_battle(
                ImportRequest(battle_id=new_id, entries=_entries(spool), server_seed=seed, token=gm.record)
            )
        )
    deps.scheduler.schedule(
        battle_id
    )  # the workers fold it as any battle: its outcomes come back as they were
    return _created(deps, battle_id, head.version, gm.secret)


def invalid(finding: Finding) -> Problem:
    detail = f"{finding.one_line()}. Nothing was created."
    return Problem(
        422, INVALID, "The export does not verify", detail,
        version=finding.version, kind=finding.kind, reason=finding.reason, line=finding.line,
    )  # fmt: skip


def unsupported_rules(report: Report) -> Problem:
    """A file whose chain and dice hold, of rules this release does not fold: not `import-invalid`, since
    nothing in it is shown wrong; a release that folds them imports it."""
    reason = report.finding.reason if report.finding else "this release does not fold its rules"
    return Problem(
        422, "import-unsupported-rules", "The battle needs rules this release does not fold",
        f"{reason}. Nothing was created.", ruleset=report.ruleset, rules_version=report.rules_version,
        supported=list(report.supported or ()),
    )  # fmt: skip


def _concluded_seed(report: Report) -> str:
    if report.server_seed is None:
        detail = (
            "Only a concluded battle can be imported: before `conclude` an export cannot carry the dice "
            "seed, without which the copy could neither be audited nor go on. Nothing was created."
        )
        raise Problem(422, NOT_CONCLUDED, "The export is of a battle not concluded yet", detail)
    return report.server_seed


def _spool(body: IO[bytes], spool: IO[bytes]) -> None:
    """Copy the body line by line; a line longer than any export writes is refused before it is held."""
    for number, line in enumerate(iter(lambda: body.readline(MAX_LINE_BYTES + 1), b""), 1):
        if len(line) > MAX_LINE_BYTES:
            reason = f"line {number} is longer than {MAX_LINE_BYTES} bytes"
            raise invalid(Finding(version=0, kind="unusable", reason=reason, line=number))
        spool.write(line)


def _lines(spool: Path) -> Iterator[bytes]:
    """One pass of its own: its own handle, its own position, closed when the pass ends or is dropped."""
    with spool.open("rb") as handle:
        yield from handle


def _entries(spool: Path) -> Iterator[StoredEntry]:
    for number, raw in enumerate(_lines(spool), 1):
        yield read_line(raw, number, number, checked=True).entry


def _created(deps: Services, battle_id: str, version: int, gm_token: str) -> Created:
    """The answer `POST /battles` gives, read off the imported `battle_created`."""
    data = deps.battles.created(battle_id).data
    return Created(
        id=battle_id,
        ruleset=str(data["ruleset"]),
        version=version,
        rules_version=str(data["rules_version"]),
        options=dict(data.get("options") or {}),
        dice_commitment=str(data.get("dice_commitment") or ""),
        gm_token=gm_token,
    )
