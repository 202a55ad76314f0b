"""The server's clock, in one place: `recorded_at` of log entries is UTC ISO 8601."""

from __future__ import annotations

from datetime import UTC, datetime


def utc_now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")
