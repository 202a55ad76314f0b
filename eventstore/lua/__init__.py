"""The Lua scripts that make each multi-key write atomic in Redis, shipped as package data."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from importlib.resources import files
from typing import Any

from redis.commands.core import Script
from redis.exceptions import NoScriptError

from eventstore.config import RedisClient

# scripts that start with the functions of others (Lua scripts cannot import): name → what they start with
PRELUDES = {"append": ("rate",), "spend": ("rate",)}


def source(name: str) -> str:
    """The text of `<name>.lua` beside this module."""
    return files(__name__).joinpath(f"{name}.lua").read_text(encoding="utf-8")


def register(client: RedisClient, name: str) -> Script:
    """What `client.register_script` does, for a plain client and a cluster client alike."""
    return Script(client, _text(name))


def _text(name: str) -> str:
    return "\n".join(source(part) for part in (*PRELUDES.get(name, ()), name))


@dataclass(frozen=True, slots=True)
class Batched:
    """A script that `run_each` pipelines by its SHA1; `alone` runs it by itself, loading it if need be."""

    alone: Script
    sha: str


def register_batched(client: RedisClient, name: str) -> Batched:
    text = _text(name)
    return Batched(Script(client, text), hashlib.sha1(text.encode()).hexdigest())


Call = tuple[Batched, list[str], list[str | int]]  # a script with its keys and arguments


def run_each(client: RedisClient, calls: Sequence[Call]) -> list[Any]:
    """Each `script(keys, args)`, pipelined: one round trip (on a cluster, one per node), every call still
    atomic on its own slot. The replies in order; a call that failed raises once all of them have run."""
    pipe = client.pipeline(transaction=False)
    for script, call_keys, args in calls:
        # by name: a cluster pipeline blocks its `evalsha` method, yet routes the command by its keys
        pipe.execute_command("EVALSHA", script.sha, len(call_keys), *call_keys, *args)
    replies = list(pipe.execute(raise_on_error=False))
    for i, reply in enumerate(replies):
        if isinstance(reply, NoScriptError):  # a server that restarted forgot it: this loads it again
            script, call_keys, args = calls[i]
            replies[i] = script.alone(keys=call_keys, args=args)
    for reply in replies:
        if isinstance(reply, Exception):
            raise reply
    return replies
