"""When a failing webhook is tried again: exponential backoff with jitter, until the retry horizon."""

from __future__ import annotations

import random
from collections.abc import Callable

from webhooks.settings import WebhookSettings


def retry_delay_s(
    failures: int, settings: WebhookSettings, draw: Callable[[], float] = random.random
) -> float:
    """The wait after the `failures`-th failure in a row: base·2^(n-1), capped, then scaled by a random
    factor in [0.5, 1) so receivers that failed together are not retried together."""
    doubled: float = settings.retry_base_s * 2.0 ** min(max(failures - 1, 0), 60)
    ceiling = min(doubled, settings.retry_max_s)
    return ceiling * (0.5 + draw() / 2)


def gives_up(failing_for_s: float, settings: WebhookSettings) -> bool:
    """Failing this long with no 2xx in between: the webhook is marked failed and tried no more."""
    return failing_for_s >= settings.retry_for_s
