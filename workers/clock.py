"""The UTC times the workers store (webhook progress and attempts): one format, so strings sort as times."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta


def now() -> datetime:
    return datetime.now(UTC)


def iso(moment: datetime) -> str:
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"


def parse(stored: str) -> datetime:
    return datetime.fromisoformat(stored)


def later(moment: datetime, seconds: float) -> datetime:
    return moment + timedelta(seconds=seconds)
