"""What a summary is made of before it has a language: a message id and its named parameters, some of which
are messages themselves (a phase, an order, a list of phases), rendered in the same language."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from babel.lists import format_list
from babel.numbers import format_decimal

from summaries.catalogs import message


@dataclass(frozen=True, slots=True)
class Term:
    """A message that fills a placeholder of another one (`epic.phase.movement`, `epic.at.on` + section)."""

    msgid: str
    params: Mapping[str, Param] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Terms:
    """Several values joined the language's way ("a, b or c", « a, b ou c »)."""

    items: Sequence[Param]
    style: Literal["standard", "or"] = "standard"


Param = str | int | float | Term | Terms | None
Line = tuple[str, dict[str, Param]]
Data = Mapping[str, Any]  # a result or a command body, as JSON
Render = Callable[[Data, Data], Line]


def render(language: str, msgid: str, params: Mapping[str, Param]) -> str:
    """The text of `msgid` in `language` with its parameters; KeyError when one it names is not given."""
    text = message(language, msgid)
    return text % {name: _value(language, value) for name, value in params.items()}


def _value(language: str, value: Param) -> str:
    match value:
        case Term(msgid, params):
            return render(language, msgid, params)
        case Terms(items, style):
            return format_list([_value(language, item) for item in items], style=style, locale=language)
        case None:
            return "–"
        case bool():
            return str(value)
        case float():
            return format_decimal(value, locale=language)
        case int() | str():
            return str(value)


@dataclass(frozen=True, slots=True, kw_only=True)
class Kind:
    """How one command's applied outcome is told: the result record it reports, the variants it chooses
    among (`<ruleset>.<command>.<variant>`), and the function that chooses."""

    command: str
    result: type
    variants: tuple[str, ...]
    line: Render


class Lines:
    """One ruleset's summaries: `@lines.kind(ClimbMade, "foothold", …)` on a function named after the command
    it tells (`def climb(result, command) -> (variant, params)`; `break_` for `break`, a Python keyword), so a
    command is named once, by its record, and its summary goes by the same name."""

    def __init__(self, ruleset: str) -> None:
        self.ruleset = ruleset
        self.kinds: dict[str, Kind] = {}

    def kind(self, result: type, *variants: str) -> Callable[[Render], Render]:
        def register(function: Render) -> Render:
            command = function.__name__.removesuffix("_")

            def line(result_data: Data, command_data: Data) -> Line:
                variant, params = function(result_data, command_data)
                if variant not in variants:
                    raise KeyError(f"{self.ruleset}.{command}: undeclared variant {variant}")
                return f"{self.ruleset}.{command}.{variant}", params

            self.kinds[command] = Kind(command=command, result=result, variants=variants, line=line)
            return function

        return register

    def msgids(self) -> list[str]:
        return [f"{self.ruleset}.{k.command}.{v}" for k in self.kinds.values() for v in k.variants]


@dataclass(frozen=True, slots=True, kw_only=True)
class Told:
    """How one ruleset is told, as summaries/<ruleset>.py declares it (`TOLD`): its lines, a rejection's
    message parameters from its `detail`, the term families its messages name with each family's codes,
    and the families of those the viewer shows (summaries/viewer.py)."""

    lines: Lines
    detail: Callable[[Data], dict[str, Any]]
    terms: Mapping[str, tuple[str, ...]]
    viewer: tuple[str, ...]


def square(value: Data | None) -> str:
    return "–" if value is None else f"({value['x']}, {value['y']})"


def ids(values: Sequence[str]) -> Terms:
    return Terms(list(values))
