"""The Lua scripts that make each multi-key write atomic in Redis, shipped as package data."""

from __future__ import annotations

from importlib.resources import files

from redis.commands.core import Script

from eventstore.config import RedisClient

# scripts that start with the functions of others (Lua scripts cannot import): name → what they start with
PRELUDES = {"append": ("rate",), "spend": ("rate",)}


def source(name: str) -> str:
    """The text of `<name>.lua` beside this module."""
    return files(__name__).joinpath(f"{name}.lua").read_text(encoding="utf-8")


def register(client: RedisClient, name: str) -> Script:
    """What `client.register_script` does, for a plain client and a cluster client alike."""
    text = "\n".join(source(part) for part in (*PRELUDES.get(name, ()), name))
    return Script(client, text)
