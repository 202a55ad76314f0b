"""The reports `siege` prints for people: what was checked, and the first thing wrong in one line."""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.table import Table

from replay.verify import Report

VERDICTS = {
    "verified": "[bold green]VERIFIED[/]",
    "tampered": "[bold red]TAMPERED[/]",
    "unusable": "[bold yellow]UNUSABLE[/]",
    "unsupported": "[bold yellow]UNSUPPORTED[/]",
}

AUDIT_VERDICTS = {
    "ok": "[bold green]OK[/]",
    "failed": "[bold red]FAILED[/]",
    "unsupported": "[bold yellow]UNSUPPORTED[/]",
}


def render_verify(console: Console, report: Report) -> None:
    found, outcomes = report.finding, report.outcomes
    headline = VERDICTS[report.status] + (f" {found.one_line()}" if found else "")
    console.print(headline, highlight=False, soft_wrap=True)
    rows = {
        **({"found at": f"line {found.line} of the file"} if found else {}),
        "battle": str(report.source or "-"),
        "rules": f"{report.ruleset or '-'} {report.rules_version or ''}" + _folds(report),
        "entries": f"{report.entries} chained (head {report.head_version}, hash {report.head_hash})",
        "outcomes": "not compared: this release does not fold these rules"
        if report.status == "unsupported"
        else f"{outcomes['compared']} re-folded and equal, {outcomes['pending']} pending",
        "dice": _verify_dice(report),
    }
    console.print(_table(rows))


def _folds(report: Report) -> str:
    if report.status != "unsupported" or report.supported is None:
        return ""
    return f" (this release folds {', '.join(report.supported) or 'none of ' + str(report.ruleset)})"


def _verify_dice(report: Report) -> str:
    if report.concluded_at is None:
        return "not verifiable yet: the battle is not concluded, its seed is still secret"
    if not report.dice["commitment_ok"]:
        return f"the seed revealed at version {report.concluded_at} does not match its commitment"
    checked = report.dice["checked_rolls"]
    return f"the seed revealed at version {report.concluded_at} matches its commitment; {checked} stream dice"


def render_audit(console: Console, battle_id: str, report: dict[str, Any]) -> None:
    verdict = AUDIT_VERDICTS[report["status"]]
    console.print(f"{verdict} audit of {battle_id}, versions 1 to {report['audited_upto']}", highlight=False)
    chain = report["chain"]
    rows = {
        "chain": "holds" if chain["ok"] else f"broken at {chain['broken_at']}: {chain['reason']}",
        "replay": _audit_replay(report),
        "dice": _audit_dice(report["dice"]),
    }
    console.print(_table(rows))


def _audit_replay(report: dict[str, Any]) -> str:
    replay, first = report["replay"], report["replay"]["first_difference"]
    if replay["skipped"]:
        folds = ", ".join(report["supported"]) or "none of its versions"
        needs = f"{report['ruleset']} {report['rules_version']}"
        return f"not replayed: it needs {needs}, this release folds {folds}"
    if first is not None:
        return f"differs at {first['version']}: {first['what']}"
    return f"{replay['compared']} equal, {replay['pending']} pending"


def _audit_dice(dice: dict[str, Any]) -> str:
    if not dice["verifiable"]:
        return "not verifiable yet"
    commitment = "ok" if dice["commitment_ok"] else "FAILED"
    return f"commitment {commitment}, {dice['checked_rolls']} rolls, {len(dice['mismatches'])} mismatched"


def _table(rows: dict[str, str]) -> Table:
    table = Table(show_header=False, box=None)
    for name, value in rows.items():
        table.add_row(name, value)
    return table
