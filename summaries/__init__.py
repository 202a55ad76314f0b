"""Outcome summaries: the stored outcome is language-free; whatever shows one (an API answer, a
webhook delivery) gets its `summary` in a language, from the typed result, or from the reason and its
`detail` for a rejection, through the message catalogs. Pure: no Flask, no Redis, so workers render too."""

from __future__ import annotations

import importlib
import logging
from collections.abc import Mapping
from typing import Any

from rules.declare import plan
from rules.registry import get_ruleset, ruleset_names
from summaries.catalogs import DEFAULT, LANGUAGES
from summaries.lines import Data, Line, Lines, Term, Terms, Told, render

log = logging.getLogger(__name__)


def _told(ruleset: str) -> Told:
    """How `ruleset` is told: the `TOLD` of the module named after it (summaries/<ruleset>.py)."""
    told = importlib.import_module(f"{__name__}.{ruleset}").TOLD
    if not isinstance(told, Told):
        raise TypeError(f"{__name__}.{ruleset}.TOLD is not a Told")
    return told


TOLD: dict[str, Told] = {name: _told(name) for name in ruleset_names()}  # every ruleset of the registry
LINES: dict[str, Lines] = {name: told.lines for name, told in TOLD.items()}
TERMS: dict[str, Mapping[str, tuple[str, ...]]] = {name: told.terms for name, told in TOLD.items()}
COMMON = ("battle_created", "conclude", "undo")  # what the fold answers for every ruleset

__all__ = ["DEFAULT", "LANGUAGES", "summarized", "summary"]


def summarized(ruleset: str, outcome: Mapping[str, Any], command: Data, lang: str) -> dict[str, Any]:
    """The outcome as answered: the stored one with its `summary` in `lang` (replacing any stored one), and
    a `detail` even where none was stored (version 1, rules/v1), so every version is answered alike."""
    told = {**outcome, "summary": summary(ruleset, outcome, command, lang)}
    told.setdefault("detail", None)
    return told


def summary(
    ruleset: str, outcome: Mapping[str, Any], command: Data, lang: str, *, strict: bool = False
) -> str:
    """One line; never fails an answer: a message that cannot be rendered falls back to the bare code (and
    is logged), unless `strict` (the tests)."""
    try:
        return _rendered(ruleset, outcome, command, lang)
    except (KeyError, TypeError, ValueError, IndexError):
        if strict:
            raise
        log.exception(
            "could not render the summary of %s %s v%s", ruleset, outcome.get("type"), outcome.get("version")
        )
        return f"{outcome.get('type')}: {outcome.get('reason') or outcome.get('status')}"


def _rendered(ruleset: str, outcome: Mapping[str, Any], command: Data, lang: str) -> str:
    msgid, params = line(ruleset, outcome, command)
    try:
        return render(lang, msgid, params)
    except KeyError:
        if outcome.get("status") != "rejected":
            raise
        # a rejection stored before detail existed: the message needs parameters it does not have
        return render(lang, f"{ruleset}.reject", _base(ruleset, outcome, command))


def line(ruleset: str, outcome: Mapping[str, Any], command: Data) -> Line:
    kind = str(outcome.get("type"))
    if outcome.get("hidden"):  # shown hidden to its reader (a hidden order): its line names nothing of it
        return f"{ruleset}.{kind}.hidden", {}
    if outcome.get("status") == "rejected":
        reason, detail = str(outcome.get("reason")), outcome.get("detail") or {}
        params = {**_base(ruleset, outcome, command), **TOLD[ruleset].detail(detail)}
        named = (
            ".named" if reason == "invalid_field" and "field" in detail else ""
        )  # where the field is known
        return f"{ruleset}.reject.{reason}{named}", params
    result = outcome.get("result") or {}
    if kind == "undo":
        return f"{ruleset}.undo", {"version": result.get("undone_version")}
    if kind in COMMON:
        return f"{ruleset}.{kind}", {"rules_version": result.get("rules_version"), "name": result.get("name")}
    return LINES[ruleset].kinds[kind].line(result, command)


def _base(ruleset: str, outcome: Mapping[str, Any], command: Data) -> dict[str, Any]:
    kind = str(outcome.get("type"))
    known = kind in get_ruleset(ruleset).commands or kind in COMMON
    return {
        "actor": actor(ruleset, kind, command) or Term(f"{ruleset}.referee"),
        "verb": Term(f"{ruleset}.verb.{kind}") if known else kind,
        "reason": str(outcome.get("reason")),
    }


def actor(ruleset: str, kind: str, command: Data) -> str | Terms | None:
    """Who the command acts with, as sent: its first acting id (a list of them for a barrage), else the id it
    creates; None for the referee's own commands."""
    record: type | None = get_ruleset(ruleset).commands.get(kind)
    if record is None:
        return None
    fields = plan(record)
    for p in fields:
        value = command.get(p.name)
        if p.facts.acts and isinstance(value, str):
            return value
        if p.facts.acts and isinstance(value, list) and value and all(isinstance(v, str) for v in value):
            return Terms(list(value))
    created = next((command.get(p.name) for p in fields if p.facts.new), None)
    return created if isinstance(created, str) else None
