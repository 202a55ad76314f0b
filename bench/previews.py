"""Previews of the spec's examples: every command the examples send with dice, previewed just before it
is sent (the dice left out), each timed; the examples run through the pure fold, as their tests do."""

from __future__ import annotations

import inspect
import time
from collections.abc import Callable, Mapping
from types import ModuleType
from typing import Any

from bench.measures import Row
from rules.preview import preview
from tests.examples import test_epic_examples, test_pathfinder_examples
from tests.harness import RulesTable, Table


class PreviewingTable(RulesTable):
    """A rules table that previews each command with dice before sending it."""

    timings: list[tuple[str, str, float, bool]]  # (ruleset, command type, seconds, exact)

    def send(self, command: Mapping[str, Any]) -> dict[str, Any]:
        if command.get("dice"):
            body = {k: v for k, v in command.items() if k not in ("type", "dice")}
            started = time.perf_counter()
            answer = preview(self.battle, str(command["type"]), body, self.at)
            elapsed = time.perf_counter() - started
            self.timings.append((self.battle.ruleset, str(command["type"]), elapsed, answer.exact))
        return super().send(command)


def example_previews() -> list[tuple[str, str, float, bool]]:
    """Run every worked example, previewing as it goes; the examples' own asserts still hold."""
    timings: list[tuple[str, str, float, bool]] = []

    def new_table(ruleset: str, options: Mapping[str, Any] | None = None) -> Table:
        table = PreviewingTable(ruleset, options)
        table.timings = timings
        return table

    for test in _example_tests(test_epic_examples, test_pathfinder_examples):
        test(new_table)
    return timings


def _example_tests(*modules: ModuleType) -> list[Callable[..., None]]:
    found = []
    for module in modules:
        for name, function in vars(module).items():
            if name.startswith("test_") and list(inspect.signature(function).parameters) == ["new_table"]:
                found.append(function)
    return found


def report(timings: list[tuple[str, str, float, bool]]) -> str:
    ordered = sorted(t for _r, _c, t, _e in timings)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    worst = max(timings, key=lambda row: row[2])
    exact = sum(1 for row in timings if row[3])
    return (
        f"{len(timings)} previews ({exact} exact): p50 {ordered[len(ordered) // 2] * 1000:.0f} ms, "
        f"p99 {p99 * 1000:.0f} ms, max {worst[2] * 1000:.0f} ms ({worst[0]} {worst[1]})"
    )


def row() -> Row:
    """The `make bench` line: the preview itself, in process (its HTTP edge is one read of the state)."""
    return Row(
        measure="previews of the spec examples' commands",
        result=report(example_previews()),
        bar="p99 ≤ 100 ms",
    )


if __name__ == "__main__":
    rows = example_previews()
    print(report(rows))
    for ruleset, kind, seconds, exact in sorted(rows, key=lambda r: -r[2])[:15]:
        print(f"  {ruleset:10} {kind:20} {seconds * 1000:7.0f} ms  {'exact' if exact else 'sampled'}")
