"""The bench's stack: no budget of the service's own throttles a benchmark's load, the battle's shared one
included (the full run's 10,000 commands to one battle once ended in a 429)."""

from __future__ import annotations

import http.client
import json
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from bench.measures import COMMAND, create_battles
from bench.stack import BENCH_RATE_LIMIT, running

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("processes"), pytest.mark.timeout(180)]


def test_a_command_on_the_bench_stack_is_counted_against_budgets_no_load_reaches(tmp_path: Path) -> None:
    with running(tmp_path / "data", workers=1, log_path=tmp_path / "stack.log") as bench:
        ((battle_id, token),) = create_battles(bench, 1)
        url = urlsplit(bench.service_url)
        connection = http.client.HTTPConnection(url.hostname or "", url.port, timeout=30)
        headers = {"Content-Type": "application/json", "Authorization": f"Bearer {token}"}
        connection.request("POST", f"/battles/{battle_id}/commands", json.dumps(COMMAND), headers)
        answer = connection.getresponse()
        answer.read()
        connection.close()
    assert answer.status == 202
    # the window closest to its end is the one advertised: the battle's shared one, were it the default
    amount, per = BENCH_RATE_LIMIT.split(" per ")
    assert per == "minute"
    assert answer.headers["RateLimit-Policy"].endswith(f";q={amount};w=60")
