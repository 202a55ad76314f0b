"""The children of one run: started in order, watched, stopped in reverse order (the store last)."""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from typing import IO, Any

from launcher.children import Child, spawn

MAX_RESTARTS = 5  # a child that keeps dying is a broken setup, not a crash to ride out


class Stack:
    def __init__(self, output: IO[Any] | None = None) -> None:
        self.output = output
        self.children: list[Child] = []
        self.restarts = 0

    def start(self, name: str, argv: list[str], env: Mapping[str, str]) -> Child:
        # children log to stderr, so stdout carries only the launcher's own lines (the `ready` line)
        child = spawn(name, argv, env, output=self.output or sys.stderr)
        self.children.append(child)
        return child

    def restart(self, dead: Child) -> bool:
        """Start `dead` again in its place; False once the run has used up its restarts."""
        if self.restarts >= MAX_RESTARTS:
            return False
        self.restarts += 1
        dead.stop(grace_s=0)  # reaps it, and whatever it left in its process group
        index = self.children.index(dead)
        self.children[index] = spawn(dead.name, dead.argv, dead.env, output=self.output or sys.stderr)
        return True

    def first_dead(self) -> Child | None:
        return next((c for c in self.children if not c.alive), None)

    def stop(self) -> None:
        while self.children:
            self.children.pop().stop()


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
