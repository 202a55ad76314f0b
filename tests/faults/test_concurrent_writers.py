"""32 concurrent writers on one battle and on 100 battles: every acknowledged command is in the log once,
versions are contiguous, and every projection converges to a fresh replay."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from eventstore.chain import verify_chain
from tests.faults.traffic import Writers, check_clean, create_battles
from tests.fixtures.launched import Launched, launched

pytestmark = [pytest.mark.faults]
WRITERS, EACH = 32, 20


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Launched]:
    with launched(tmp_path_factory.mktemp("writers")) as started:
        yield started


@pytest.mark.parametrize("battles", [1, 100], ids=["on-one-battle", "on-100-battles"])
def test_32_concurrent_writers_lose_and_duplicate_nothing(run: Launched, battles: int) -> None:
    targets = create_battles(run.base_url, run.api_key, battles)
    store = run.store()

    with Writers(run.base_url, targets, threads=WRITERS, per_thread=EACH) as writers:
        tally = writers.finish(timeout_s=180)
    present = tally.report(f"{WRITERS} writers on {battles} battles", store)
    heads = {b: store.head(b).version for b, _ in targets}

    assert tally.sent == len(tally.acknowledged) == present == WRITERS * EACH
    assert sum(heads.values()) == battles + WRITERS * EACH  # contiguous: nothing but what was acknowledged
    for battle_id, head in heads.items():
        assert verify_chain(store.iter_entries(battle_id)).checked == head
    check_clean(run.base_url, store, targets)
