"""Python calls per request inside a gunicorn worker: a config file that is the service's own
(`service/gunicorn_conf.py`, one worker) plus a profile function on every thread of the worker, which
writes the calls it counted, by owner (bench.api_cost's, gunicorn apart), to `CALLS_OUT` when the worker
exits.

    CALLS_OUT=/tmp/calls.json gunicorn -c python:bench.gunicorn_calls -b 127.0.0.1:8001 service.wsgi:app
    # load it (wrk, bench.load.throughput) for N requests, SIGTERM the master, divide by N

The counts include the worker's start-up and the pools' warm-up: load it long enough that they do not show
(docs/performance.md, "The API alone against the baseline")."""

from __future__ import annotations

import json
import os
import threading
from collections import Counter
from types import FrameType
from typing import Any

from bench.api_cost import owner
from service import gunicorn_conf
from service.gunicorn_conf import *  # noqa: F403  # the service's own settings and hooks

workers = 1  # one worker's count, whatever the service runs with
counted: Counter[str] = Counter()


def _count(frame: FrameType, event: str, _arg: object) -> None:
    if event == "call":
        where = frame.f_code.co_filename
        counted["gunicorn" if "site-packages/gunicorn/" in where else owner(where)] += 1


def post_worker_init(worker: Any) -> None:  # type: ignore[no-redef]  # the service's, wrapped
    gunicorn_conf.post_worker_init(worker)
    threading.setprofile(_count)  # every thread started from now on: the request threads are


def worker_exit(server: Any, worker: Any) -> None:
    with open(os.environ.get("CALLS_OUT", "calls.json"), "w", encoding="utf-8") as out:
        json.dump(dict(counted.most_common()), out, indent=1)
