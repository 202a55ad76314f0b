"""The one clock of the service and its workers: the times they store (`recorded_at`, tokens, webhook
progress and attempts) are UTC ISO 8601 with milliseconds and a `Z`, so stored strings sort as times."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta


def now() -> datetime:
    return datetime.now(UTC)


def iso(moment: datetime) -> str:
    return moment.astimezone(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def utc_now() -> str:
    return iso(now())


def parse_iso(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


def later(moment: datetime, seconds: float) -> datetime:
    return moment + timedelta(seconds=seconds)
