"""Every RQ entry point, enqueued by the dotted paths eventstore/queues.py names: each one builds its
dependencies from the environment and hands over to the module that does the work."""

from __future__ import annotations

from dataclasses import asdict

from workers import deps
from workers.drain import drain_pending
from workers.replay import Mode, rebuild, verify


def project_pending() -> dict[str, object]:
    """Drain every pending battle (see workers.drain)."""
    return asdict(drain_pending(deps.store(), requeue=deps.requeue_projection))


def replay_battle(battle_id: str, mode: Mode = "rebuild") -> dict[str, object]:
    """Behind `POST /battles/{id}/replays`: rebuild the derived keys, or verify them (see workers.replay)."""
    if mode == "verify":
        return asdict(verify(deps.store(), battle_id))
    if mode == "rebuild":
        return asdict(rebuild(deps.store(), battle_id))
    raise ValueError(f"unknown replay mode {mode!r}")
