"""The children of one run: started in order, watched, stopped in reverse order (the store last)."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Mapping
from typing import IO, Any

from launcher.children import Child, spawn


class Stack:
    def __init__(self, output: IO[Any] | None = None) -> None:
        self.output = output
        self.children: list[Child] = []
        self._cleanups: list[Callable[[], None]] = []

    def on_stop(self, cleanup: Callable[[], None]) -> None:
        """Run once every child has stopped (e.g. remove a directory they all wrote to)."""
        self._cleanups.append(cleanup)

    def start(self, name: str, argv: list[str], env: Mapping[str, str]) -> Child:
        # children log to stderr, so stdout carries only the launcher's own lines (the `ready` line)
        child = spawn(name, argv, env, output=self.output or sys.stderr)
        self.children.append(child)
        return child

    def restart(self, dead: Child) -> Child:
        """Start `dead` again in its place, with the same command line (the store: same port and data)."""
        dead.stop(grace_s=0)  # reaps it, and whatever it left in its process group
        index = self.children.index(dead)
        self.children[index] = spawn(dead.name, dead.argv, dead.env, output=self.output or sys.stderr)
        return self.children[index]

    def first_dead(self) -> Child | None:
        return next((c for c in self.children if not c.alive), None)

    def stop(self) -> None:
        while self.children:
            self.children.pop().stop()
        while self._cleanups:
            self._cleanups.pop()()


def say(message: str) -> None:
    print(f"siege: {message}", file=sys.stderr, flush=True)


def child_env(redis_url: str, queue_url: str, api_key: str) -> dict[str, str]:
    return {
        **os.environ,
        "REDIS_URL": redis_url,
        "QUEUE_REDIS_URL": queue_url,
        "SIEGE_API_KEY": api_key,
        "PYTHONUNBUFFERED": "1",
    }
