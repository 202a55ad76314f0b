"""docs/integrations.md's snippets work as printed: every JavaScript one parses as an ES module (node
--check), and the Python webhook receiver accepts a delivery signed with `standardwebhooks`, handles a
retry of it once, refuses a tampered or unsigned one, verifies with either of two secrets during a roll
(a header carrying both signatures, or one), and acknowledges a test event without handling it."""

from __future__ import annotations

import importlib.util
import json
import re
import shutil
import subprocess
from datetime import UTC, datetime
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
GUIDE = ROOT / "docs/integrations.md"
FENCE = re.compile(r"^```(\w+)\n(.*?)^```$", re.MULTILINE | re.DOTALL)
SECRET = "whsec_" + "c2llZ2UtdGVzdC1zZWNyZXQtMjQtYnl0ZXM="  # base64 of 24 bytes, the form registration gives
PREVIOUS = "whsec_" + "b2xkLXNpZWdlLXNlY3JldC0yNC1ieXRlcyE="  # the one before a roll
STRANGER = "whsec_" + "bm90LW91ci1zZWNyZXQtYXQtYWxsLTI0LWI="
CHECK_TIMEOUT_S = 60


def snippets(language: str) -> list[str]:
    return [code for lang, code in FENCE.findall(GUIDE.read_text()) if lang == language]


def test_the_guide_shows_each_integration() -> None:
    assert len(snippets("js")) == 4  # Foundry, Owlbear background and popover, Roll20 bridge
    assert len(snippets("python")) == 1
    for code in (*snippets("json"), *snippets("js")):
        assert code.strip()
    for manifest in snippets("json"):
        json.loads(manifest)  # Foundry's module.json, Owlbear's manifest.json


def test_every_javascript_snippet_parses_as_a_module(tmp_path: Path) -> None:
    node = shutil.which("node")
    if node is None:
        pytest.skip("no node on this machine")
    for n, code in enumerate(snippets("js")):
        module = tmp_path / f"snippet-{n}.mjs"
        module.write_text(code)
        argv = [node, "--check", str(module)]
        checked = subprocess.run(argv, capture_output=True, text=True, timeout=CHECK_TIMEOUT_S, check=False)
        assert checked.returncode == 0, f"snippet {n}:\n{checked.stderr}"


@pytest.fixture
def standardwebhooks() -> ModuleType:
    module: ModuleType = pytest.importorskip(
        "standardwebhooks.webhooks", reason="the webhooks branch brings it"
    )
    return module


@pytest.fixture
def receiver(standardwebhooks: ModuleType, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    """The guide's receiver as a module of its own, its `handle` recording what it is given."""
    (code,) = snippets("python")
    path = tmp_path / "receiver.py"
    path.write_text(code)
    monkeypatch.setenv("SIEGE_WEBHOOK_SECRET", SECRET)
    monkeypatch.setenv("SIEGE_WEBHOOK_PREVIOUS_SECRET", PREVIOUS)
    spec = importlib.util.spec_from_file_location("siege_receiver", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    received: list[dict[str, Any]] = []
    module.__dict__["received"] = received
    module.__dict__["handle"] = received.append
    return module


def delivery(
    standardwebhooks: ModuleType, version: int, secrets: tuple[str, ...] = (SECRET,), kind: str = "applied"
) -> tuple[bytes, dict[str, str]]:
    """A CloudEvent as the service posts it, signed as Standard Webhooks say: one signature per secret."""
    event: dict[str, Any] = {
        "specversion": "1.0",
        "id": f"b1:{version}",
        "source": "http://127.0.0.1:8000/battles/b1",
        "type": f"siege.outcome.{kind}",
        "subject": str(version),
        "datacontenttype": "application/json",
        "data": {"version": version, "type": "advance_phase", "status": kind, "summary": "Turn 1"},
    }
    if kind == "test":
        event.update(
            id="b1:test:5eed", type="siege.webhook.test", data={"battle_id": "b1", "webhook_id": "wh"}
        )
        del event["subject"]
    body = json.dumps(event).encode()
    now = datetime.now(UTC)
    signatures = [standardwebhooks.Webhook(s).sign(event["id"], now, body.decode()) for s in secrets]
    headers = {
        "Content-Type": "application/cloudevents+json",
        "webhook-id": event["id"],
        "webhook-timestamp": str(int(now.timestamp())),
        "webhook-signature": " ".join(signatures),
    }
    return body, headers


def test_the_webhook_receiver_verifies_and_handles_each_delivery_once(
    receiver: ModuleType, standardwebhooks: ModuleType
) -> None:
    client = receiver.app.test_client()
    body, headers = delivery(standardwebhooks, 7)

    first = client.post("/siege", data=body, headers=headers)
    retry = client.post("/siege", data=body, headers=headers)

    assert first.status_code == retry.status_code == 204
    received: list[dict[str, Any]] = receiver.received
    assert received == [json.loads(body)]


def test_the_webhook_receiver_refuses_a_tampered_or_unsigned_delivery(
    receiver: ModuleType, standardwebhooks: ModuleType
) -> None:
    client = receiver.app.test_client()
    body, headers = delivery(standardwebhooks, 8)
    tampered = body.replace(b"Turn 1", b"Turn 2")
    unsigned = {name: value for name, value in headers.items() if name != "webhook-signature"}

    assert client.post("/siege", data=tampered, headers=headers).status_code == 401
    assert client.post("/siege", data=body, headers=unsigned).status_code == 401
    assert receiver.received == []


def test_the_webhook_receiver_verifies_with_either_secret_during_a_roll(
    receiver: ModuleType, standardwebhooks: ModuleType
) -> None:
    client = receiver.app.test_client()
    signed_by = [(SECRET, PREVIOUS), (SECRET,), (PREVIOUS,), (STRANGER,), (STRANGER, STRANGER)]

    answers = []
    for version, secrets in enumerate(signed_by, start=10):
        body, headers = delivery(standardwebhooks, version, secrets)
        answers.append(client.post("/siege", data=body, headers=headers).status_code)

    assert answers == [204, 204, 204, 401, 401]
    assert [event["subject"] for event in receiver.received] == ["10", "11", "12"]


def test_the_webhook_receiver_acknowledges_a_test_event_without_handling_it(
    receiver: ModuleType, standardwebhooks: ModuleType
) -> None:
    client = receiver.app.test_client()
    body, headers = delivery(standardwebhooks, 1, kind="test")

    assert client.post("/siege", data=body, headers=headers).status_code == 204
    assert receiver.received == []
    unsigned = {**headers, "webhook-signature": "v1,AAAA"}
    assert client.post("/siege", data=body, headers=unsigned).status_code == 401
