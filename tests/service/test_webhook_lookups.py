"""The bounded host lookup of webhooks (webhooks/guard.py `bounded`): a caller waits only so long, and a
lookup that timed out while still queued behind stuck ones is dropped, never run for nobody."""

from __future__ import annotations

import threading

import pytest

from webhooks import guard

POOL = 4  # guard's lookup threads


def test_a_lookup_that_timed_out_while_queued_is_never_run() -> None:
    release, started = threading.Event(), threading.Semaphore(0)
    ran: list[str] = []

    def stuck(host: str, port: int) -> list[str]:  # a resolver that answers only once released
        started.release()
        release.wait(10)
        return ["93.184.215.14"]

    def counted(host: str, port: int) -> list[str]:
        ran.append(host)
        return ["93.184.215.14"]

    holders = [
        threading.Thread(target=guard.bounded(stuck, 10), args=(f"stuck{n}.example", 443))
        for n in range(POOL)
    ]
    for holder in holders:
        holder.start()
    for _ in holders:
        assert started.acquire(timeout=10)  # every lookup thread is stuck now

    with pytest.raises(TimeoutError, match=r"no answer within 0\.05 s"):
        guard.bounded(counted, 0.05)("queued.example", 443)
    release.set()
    for holder in holders:
        holder.join(10)

    assert guard.bounded(counted, 10)("after.example", 443) == ["93.184.215.14"]
    assert ran == ["after.example"]  # the queued one was dropped when its caller gave up
