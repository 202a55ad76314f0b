"""Two records of one tagged union (`kind`), shared by the tests of how rules/ declares, builds and
describes a union of records."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal


@dataclass(frozen=True, slots=True, kw_only=True)
class Near:
    kind: Literal["near"] = "near"
    x: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Far:
    kind: Literal["far"] = "far"
