"""Each ruleset's `Label` declares every modifier label its rules can report: mypy holds the one helper that
builds modifiers (`mods`, `modifier`) to it, and no rule builds a modifier record past that helper."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from rules.epic.results import LABELS as EPIC_LABELS
from rules.pathfinder.rolls import LABELS as PATHFINDER_LABELS
from rules.pathfinder.rolls import mods

RULES = Path(__file__).resolve().parents[2] / "rules"
# the record of a ruleset's modifiers, and where alone it is built
BUILDERS = {"pathfinder": ("Mod", "rolls.py", "mods"), "epic": ("Modifier", "saves.py", "modifier")}


def called(func: ast.expr) -> str | None:
    """The name a call goes by: `Mod(...)` and `rolls.Mod(...)` both build a `Mod`."""
    if isinstance(func, ast.Name):
        return func.id
    return func.attr if isinstance(func, ast.Attribute) else None


def builds(ruleset: str, record: str) -> list[str]:
    """Every `file:function` (`file:` at module level) of the ruleset's rules building the record."""
    found = []
    for path in sorted((RULES / ruleset).rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        owner = {
            id(node): function.name
            for function in ast.walk(tree)
            if isinstance(function, ast.FunctionDef)
            for node in ast.walk(function)
        }  # the innermost function wins: ast.walk meets outer functions first
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and called(node.func) == record:
                found.append(f"{path.name}:{owner.get(id(node), '')}")
    return found


@pytest.mark.parametrize("ruleset", sorted(BUILDERS))
def test_modifiers_are_built_by_the_helper_typed_with_the_declared_labels_only(ruleset: str) -> None:
    record, module, helper = BUILDERS[ruleset]
    assert builds(ruleset, record) == [f"{module}:{helper}"]


def test_the_declared_labels_include_the_skill_ids_and_no_repeat() -> None:
    assert {"craft_siege_engine", "disable_device", "knowledge_engineering", "str", "range"} <= set(
        PATHFINDER_LABELS
    )
    assert len(set(PATHFINDER_LABELS)) == len(PATHFINDER_LABELS)
    assert sorted(EPIC_LABELS) == ["caf", "fort_va", "fort_va_half", "save_modifier", "tir_appuye"]
    assert [m.label for m in mods(("bab", 2), ("range", 0), ("wind", -4))] == ["bab", "wind"]
