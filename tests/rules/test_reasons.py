"""Each ruleset's REASONS declares exactly the reason codes its rules can refuse a command with."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from rules.epic.reasons import REASONS as EPIC_REASONS
from rules.pathfinder.reasons import REASONS as PATHFINDER_REASONS

RULES = Path(__file__).resolve().parents[2] / "rules"
# the modules outside a ruleset's folder (dice.py, fold.py, build.py, ...) refuse for both rulesets
SHARED = sorted(RULES.glob("*.py"))
DECLARED = {"epic": EPIC_REASONS, "pathfinder": PATHFINDER_REASONS}

rulesets = pytest.mark.parametrize("ruleset", sorted(DECLARED))


def sources(ruleset: str) -> list[Path]:
    own = [path for path in sorted((RULES / ruleset).rglob("*.py")) if path.name != "reasons.py"]
    return own + SHARED


def trees(paths: list[Path]) -> Iterator[ast.AST]:
    for path in paths:
        yield ast.parse(path.read_text(encoding="utf-8"), filename=str(path))


def rejected_calls(tree: ast.AST) -> Iterator[ast.Call]:
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and node.args:
            name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
            if name == "Rejected":
                yield node


def patterns(reason: ast.expr) -> Iterator[str]:
    """The codes a first argument can be, as regexes: a literal, both arms of `a if c else b`, an f-string."""
    if isinstance(reason, ast.Constant) and isinstance(reason.value, str):
        yield re.escape(reason.value)
    elif isinstance(reason, ast.IfExp):
        yield from patterns(reason.body)
        yield from patterns(reason.orelse)
    elif isinstance(reason, ast.JoinedStr):
        yield "".join(
            re.escape(part.value)
            if isinstance(part, ast.Constant) and isinstance(part.value, str)
            else "[a-z_0-9]+"
            for part in reason.values
        )


def raised(ruleset: str) -> set[str]:
    return {
        pattern
        for tree in trees(sources(ruleset))
        for call in rejected_calls(tree)
        for pattern in patterns(call.args[0])
    }


def string_literals(ruleset: str) -> set[str]:
    return {
        node.value
        for tree in trees(sources(ruleset))
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str)
    }


@rulesets
def test_every_code_the_rules_raise_is_declared(ruleset: str) -> None:
    undeclared = sorted(p for p in raised(ruleset) if not any(re.fullmatch(p, c) for c in DECLARED[ruleset]))
    assert undeclared == [], f"Rejected codes missing from rules/{ruleset}/reasons.py"


@rulesets
def test_every_declared_code_is_raised_or_named_in_the_rules(ruleset: str) -> None:
    patterns_raised = raised(ruleset)
    literals = string_literals(ruleset)
    dead = [
        code
        for code in DECLARED[ruleset]
        if code not in literals and not any(re.fullmatch(p, code) for p in patterns_raised)
    ]
    assert dead == [], f"codes in rules/{ruleset}/reasons.py that no rule produces"


@rulesets
def test_every_meaning_is_one_line_ending_with_a_period(ruleset: str) -> None:
    bad = {
        code: meaning
        for code, meaning in DECLARED[ruleset].items()
        if not meaning.strip() or "\n" in meaning or meaning != meaning.strip() or not meaning.endswith(".")
    }
    assert bad == {}
