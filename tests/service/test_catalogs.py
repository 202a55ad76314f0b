"""The message catalogs are complete (issue 9): every result kind (each variant its summary chooses among)
and every reason code of both rulesets has a message in English and in French, with the same placeholders,
and each renders with sample parameters."""

from __future__ import annotations

import re
import typing
from functools import cache

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po

from rules.pathfinder.shot import ShotResolved
from rules.registry import get_ruleset
from summaries import COMMON, LINES, TERMS
from summaries.catalogs import LANGUAGES, po_path
from summaries.lines import render

RULESETS = ("epic", "pathfinder")
PLACEHOLDER = re.compile(r"%\((\w+)\)s")


@cache
def catalog(language: str) -> Catalog:
    with po_path(language).open("rb") as source:
        return read_po(source, locale=language)


def texts(language: str) -> dict[str, str]:
    return {str(m.id): str(m.string) for m in catalog(language) if m.id}


def required(ruleset: str) -> list[str]:
    """Every message id the summaries of `ruleset` can ask for."""
    rules = get_ruleset(ruleset)
    return [
        *LINES[ruleset].msgids(),
        *(f"{ruleset}.{kind}" for kind in COMMON),
        *(f"{ruleset}.reject.{code}" for code in rules.reasons),
        f"{ruleset}.reject.invalid_field.named",
        f"{ruleset}.reject",
        f"{ruleset}.referee",
        *(f"{ruleset}.verb.{kind}" for kind in (*rules.commands, *COMMON)),
        *(f"{family}.{term}" for family, values in TERMS[ruleset].items() for term in values),
    ]


def result_records(ruleset: str) -> set[type]:
    module = __import__(f"rules.{ruleset}.results", fromlist=["Result"])
    union = getattr(module, "Result", None)
    if union is not None:
        return set(typing.get_args(union))
    records = {
        value
        for value in vars(module).values()
        if isinstance(value, type)
        and value.__module__ == module.__name__
        and value.__doc__
        and value.__doc__.startswith("§3")
    }
    return records | {ShotResolved}


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_command_and_every_result_record_has_a_summary(ruleset: str) -> None:
    kinds = LINES[ruleset].kinds
    assert set(kinds) == set(get_ruleset(ruleset).commands)
    assert {kind.result for kind in kinds.values()} == result_records(ruleset)


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_result_kind_and_reason_code_has_a_message(ruleset: str, language: str) -> None:
    known = texts(language)
    missing = [msgid for msgid in required(ruleset) if not known.get(msgid)]
    assert missing == []


def test_both_catalogs_hold_the_same_messages_with_the_same_placeholders() -> None:
    english, french = texts("en"), texts("fr")
    assert set(english) == set(french)
    differing = [
        k for k in english if set(PLACEHOLDER.findall(english[k])) != set(PLACEHOLDER.findall(french[k]))
    ]
    assert differing == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_message_renders_with_its_placeholders_filled(language: str) -> None:
    for msgid, text in texts(language).items():
        line = render(language, msgid, {name: "x" for name in PLACEHOLDER.findall(text)})
        assert "%(" not in line and "\n" not in line, msgid
        assert PLACEHOLDER.sub("", text).count("%") == 0, msgid  # no stray, unnamed format directive
