"""Streams through real gunicorn (gthread) and RQ processes: open streams hold threads, never the process,
so /healthz and commands still answer; a client that goes away gives its stream back (issue 10)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.fixtures.processes import LIVE_DB_OFFSET, LiveService, launched, with_db_offset
from tests.processes.client import call, create_battle, eventually, send
from tests.processes.streams import LiveStream, open_streams
from tests.workers.logs import FILLER

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("processes")]
STREAM_DB = LIVE_DB_OFFSET + 2  # a database of its own: the shared live stack's is flushed by nobody else
HELD = 12  # streams held at once: more than the 8 threads gunicorn had before streams existed


@pytest.fixture(scope="module")
def stream_service(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveService]:
    """The stack with short heartbeats: a client that went away is noticed within a fraction of a second."""
    url = with_db_offset(redis_url, STREAM_DB)
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("SIEGE_STREAM_HEARTBEAT_S", "0.2")
        with launched(url, url, tmp_path_factory.mktemp("stream-live")) as live:
            yield live


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def test_open_streams_leave_healthz_and_commands_answering(stream_service: LiveService) -> None:
    live = stream_service
    battle_id, gm = create_battle(live)
    # a token holds at most 4 streams (SIEGE_MAX_STREAMS_PER_TOKEN): the GM and two observers hold 4 each
    observers = [call("POST", f"{live.base_url}/battles/{battle_id}/tokens", {"role": "observer"}, bearer(gm))
                 for _ in range(2)]  # fmt: skip
    readers = [gm, *(minted.body["token"] for minted in observers)]
    streams = [
        LiveStream(live.base_url, f"/battles/{battle_id}/stream", bearer(readers[n % len(readers)]))
        for n in range(HELD)
    ]
    try:
        assert [s.status for s in streams] == [200] * HELD
        for held in streams:
            assert held.events.next() is not None  # the retry hint: every stream is being served

        healthz = call("GET", f"{live.base_url}/healthz")
        sent = send(live, battle_id, gm, {"type": FILLER}, wait_s=5)

        assert healthz.status == 200
        assert sent.status == 200, sent.body
        for held in streams:  # after battle_created, if it was not folded yet when the stream opened
            event = held.events.until(lambda f: f.event == "outcome" and f.id == str(sent.body["version"]))
            assert event.json() == sent.body
    finally:
        for held in streams:
            held.close()


def test_a_ticket_opens_a_stream_that_resumes_with_last_event_id(stream_service: LiveService) -> None:
    live = stream_service
    battle_id, gm = create_battle(live)
    versions = [send(live, battle_id, gm, {"type": FILLER}, wait_s=5).body["version"] for _ in range(3)]
    tickets = [
        call("POST", f"{live.base_url}/battles/{battle_id}/stream-tickets", headers=bearer(gm)).body["ticket"]
        for _ in range(2)
    ]

    first = LiveStream(live.base_url, f"/battles/{battle_id}/stream?after=0&ticket={tickets[0]}")
    seen = first.events.outcomes(2)
    first.close()
    again = LiveStream(
        live.base_url,
        f"/battles/{battle_id}/stream?ticket={tickets[1]}",
        {"Last-Event-ID": seen[-1].id or ""},
    )
    seen += again.events.outcomes(2)
    again.close()
    reused = LiveStream(live.base_url, f"/battles/{battle_id}/stream?ticket={tickets[1]}")
    reused.close()

    assert [e.id for e in seen] == ["1", "2", *map(str, versions[1:])]
    assert reused.status == 401


def test_a_client_that_goes_away_gives_its_stream_back(stream_service: LiveService) -> None:
    live = stream_service
    battle_id, gm = create_battle(live)
    eventually(lambda: open_streams(live.base_url) == 0, 30, "streams of other tests to end")

    streams = [LiveStream(live.base_url, f"/battles/{battle_id}/stream", bearer(gm)) for _ in range(3)]
    for held in streams:
        held.events.next()
    eventually(lambda: open_streams(live.base_url) == 3, 30, "three open streams")
    for held in streams:
        held.close()

    eventually(lambda: open_streams(live.base_url) == 0, 30, "the server to release every stream")


def test_revoking_a_token_ends_its_streams_whichever_process_holds_them(stream_service: LiveService) -> None:
    """The DELETE may be served by another gunicorn process than either stream: each re-reads the record."""
    live = stream_service
    battle_id, gm = create_battle(live)
    minted = call("POST", f"{live.base_url}/battles/{battle_id}/tokens", {"role": "observer"}, bearer(gm))
    observer, token_id = minted.body["token"], minted.body["id"]
    ticket = call(
        "POST", f"{live.base_url}/battles/{battle_id}/stream-tickets", headers=bearer(observer)
    ).body["ticket"]
    streams = [
        LiveStream(live.base_url, f"/battles/{battle_id}/stream", bearer(observer)),
        LiveStream(live.base_url, f"/battles/{battle_id}/stream?ticket={ticket}"),
    ]
    try:
        assert [s.status for s in streams] == [200, 200]
        for held in streams:
            assert held.events.next() is not None  # the retry hint: the stream is live
        revoked = call("DELETE", f"{live.base_url}/battles/{battle_id}/tokens/{token_id}", headers=bearer(gm))
        ends = [held.events.until(lambda f: f.event == "end") for held in streams]
        closed = [held.events.next() for held in streams]
    finally:
        for held in streams:
            held.close()
    again = LiveStream(live.base_url, f"/battles/{battle_id}/stream", bearer(observer))
    again.close()

    assert revoked.status == 204
    assert [(e.id, e.json()) for e in ends] == [(None, {"reason": "token_revoked"})] * 2
    assert closed == [None, None]
    assert again.status == 401
