"""`python -m launcher`: start everything `make run` promises, print one `ready` line, keep it running
(any crashed child is restarted, the store from its AOF), stop on Ctrl-C or SIGTERM."""

from __future__ import annotations

import os
import shutil
import signal
import sys
import tempfile
import threading
from pathlib import Path

from launcher import commands, front
from launcher.probes import answers_200, free_port, pings, wait_until
from launcher.settings import Settings
from launcher.stack import Stack, child_env, say
from launcher.supervise import Supervisor

MULTIPROC_DIR = "PROMETHEUS_MULTIPROC_DIR"  # prometheus_client reads it; the launcher imports no metrics


def main() -> int:
    try:
        settings = Settings.from_env()
    except ValueError as error:  # a setting that cannot work (e.g. a cluster store without its own queue)
        say(f"cannot start: {error}")
        return 2
    stop = threading.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, lambda *_: stop.set())
    stack = Stack()
    try:
        return run(settings, stack, stop)
    except OSError as error:  # a program that cannot be started at all (e.g. gone from the venv)
        say(f"cannot start a child process: {error}")
        return 1
    finally:
        say("stopping")
        stack.stop()
        say("stopped")


def run(settings: Settings, stack: Stack, stop: threading.Event) -> int:
    redis_url = settings.store.redis_url or start_store(settings, stack, stop)
    if not redis_url:
        return 1
    queue_url = settings.store.queue_redis_url or redis_url
    env = {**child_env(redis_url, queue_url, settings.api_key), **metrics_dir(stack)}
    if settings.public_url:  # each webhook event's `source` is a battle's URL; the user's setting wins
        env.setdefault("SIEGE_PUBLIC_URL", settings.public_url)
    for n in range(settings.workers):
        stack.start(f"worker-{n + 1}", commands.worker(queue_url), env)
    stack.start("webhooks", commands.webhook_worker(queue_url), env)
    stack.start("reconciler", commands.reconciler(), env)
    start_api(settings, stack, env)
    base = settings.base_url
    if not wait_until(lambda: answers_200(f"{base}/readyz"), stack, stop):
        return 1
    key = f"{settings.api_key} (generated)" if settings.api_key_generated else "from SIEGE_API_KEY"
    print(f"siege ready at {base}  docs {base}/docs  api key {key}", flush=True)
    return watch(Supervisor(stack, settings.restart), stop)


def start_api(settings: Settings, stack: Stack, env: dict[str, str]) -> None:
    """gunicorn on HOST:PORT; exposed, gunicorn on a loopback port of its own behind nginx on HOST:PORT,
    which trusts the address nginx forwards (SIEGE_BEHIND_FRONT)."""
    if not settings.front:
        if front.exposed(settings.host):
            say(
                f"warning: gunicorn itself is exposed at {settings.bind} (SIEGE_FRONT=off): "
                "slow clients can take its threads"
            )
        stack.start("api", commands.api(settings.bind), env)
        return
    upstream = f"127.0.0.1:{free_port()}"
    conf = front.configure(Path(settings.store.data_dir) / "front", settings.bind, upstream)
    stack.start("api", commands.api(upstream), {**env, "SIEGE_BEHIND_FRONT": "1"})
    stack.start("front", front.command(conf), os.environ)
    say(f"front (nginx) at {settings.bind}, gunicorn behind it at {upstream}")


def watch(supervisor: Supervisor, stop: threading.Event) -> int:
    """Until Ctrl-C or SIGTERM: every crashed child (workers, reconciler, API, store) is restarted."""
    while not stop.wait(0.1):
        supervisor.tick()
    return 0


def metrics_dir(stack: Stack) -> dict[str, str]:
    """One Prometheus samples directory for every child (telemetry/exposition.py), so the API's /metrics
    adds up the workers' and the reconciler's too; fresh for each run, gone after it."""
    if os.environ.get(MULTIPROC_DIR):
        return {}
    made = tempfile.mkdtemp(prefix="siege-metrics-")
    stack.on_stop(lambda: shutil.rmtree(made, ignore_errors=True))
    return {MULTIPROC_DIR: made}


def start_store(settings: Settings, stack: Stack, stop: threading.Event) -> str:
    """The embedded server on a free loopback port; its data (AOF) stays in SIEGE_DATA_DIR across runs."""
    data_dir = str(settings.store.data_dir)
    Path(data_dir).mkdir(parents=True, exist_ok=True)
    port = free_port()
    stack.start("store", commands.store(data_dir, port, durability=settings.store.durability), os.environ)
    url = f"redis://127.0.0.1:{port}/0"
    say(f"embedded store at {url}, data in {data_dir}")
    return url if wait_until(lambda: pings(url), stack, stop) else ""


if __name__ == "__main__":
    sys.exit(main())
