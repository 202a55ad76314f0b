"""The service's rooms: each module's first docstring line says its one job, and no two say the same."""

from __future__ import annotations

import ast
import re
from collections import defaultdict
from pathlib import Path

SERVICE = Path(__file__).parents[2] / "service"
TOP_LEVEL_MAX = 12
LEADING_SPAN = re.compile(r"`([^`]+)`")  # a route or a command a first line opens on


def first_lines() -> dict[str, str]:
    lines = {}
    for path in sorted(SERVICE.rglob("*.py")):
        docstring = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8")))
        assert docstring, f"{path.relative_to(SERVICE.parent)} has no module docstring"
        lines[str(path.relative_to(SERVICE.parent))] = docstring.splitlines()[0]
    return lines


def test_no_two_modules_first_docstring_lines_are_the_same() -> None:
    by_line: dict[str, list[str]] = defaultdict(list)
    for module, line in first_lines().items():
        by_line[line].append(module)
    assert {line: modules for line, modules in by_line.items() if len(modules) > 1} == {}


def test_no_two_modules_open_on_the_same_route_or_command() -> None:
    """An endpoint and the module doing its work once both opened on `POST /battles/{id}/previews`."""
    by_span: dict[str, list[str]] = defaultdict(list)
    for module, line in first_lines().items():
        if (found := LEADING_SPAN.match(line)) is not None:
            by_span[found.group(1)].append(module)
    assert {span: modules for span, modules in by_span.items() if len(modules) > 1} == {}


def test_the_service_has_at_most_twelve_modules_at_its_top_level() -> None:
    top = sorted(path.name for path in SERVICE.glob("*.py"))
    assert len(top) <= TOP_LEVEL_MAX, top
