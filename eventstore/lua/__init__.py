"""The Lua scripts that make each multi-key write atomic in Redis, shipped as package data."""

from __future__ import annotations

from importlib.resources import files


def source(name: str) -> str:
    """The text of `<name>.lua` beside this module."""
    return files(__name__).joinpath(f"{name}.lua").read_text(encoding="utf-8")
