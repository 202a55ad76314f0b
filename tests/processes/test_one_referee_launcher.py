"""One referee through `make run`'s own command (`python -m launcher`), its workers on the default build and
on the compiled one: the battles the compiled build once applied (a wall with a door, an order for a stand
and a gate, a barrage at nothing, a capacity on infantry) are `invalid_field`, and the API's own audit and
`siege verify` of the export call the battle honest (issue 19)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.fixtures.launched import ROOT, launched
from tests.processes.client import call
from workers import rules_build

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("processes")]
REFUSED: list[dict[str, Any]] = [
    {"type": "add_fortification", "id": "w1", "kind": "wall", "door": "open"},
    {"type": "give_order", "stand_id": "csm", "gate_id": "g1", "order": "charge"},
    {"type": "barrage", "stand_ids": ["csm"], "weapon_id": "w", "barrage_points": 1, "kind": "direct"},
    {
        "type": "add_stand",
        "id": "csm",
        "stand_type": "infantry",
        "side": "attacker",
        "caf": 3,
        "capacity": 2,
        "speed_cm": 10,
        "location": {"kind": "at_foot", "section_id": "w1"},
    },
]
BUILDS = {
    "default": ({}, "rules: pure Python (the default"),
    "compiled": ({rules_build.SETTING: "1"}, f"rules: compiled build in {rules_build.default_build()}"),
}


@pytest.mark.parametrize("build", sorted(BUILDS))
def test_the_refused_combinations_are_invalid_field_and_the_battle_audits_clean(
    build: str, tmp_path: Path
) -> None:
    settings, said = BUILDS[build]
    if build == "compiled" and (
        problem := rules_build.unusable(rules_build.sources(), rules_build.default_build())
    ):
        if os.environ.get("CI"):
            pytest.fail(problem)
        pytest.skip(problem)
    with launched(tmp_path, {"SIEGE_WORKERS": "1", **settings}) as run:
        created = call("POST", f"{run.base_url}/battles", {"ruleset": "epic"}, _bearer(run.api_key))
        assert created.status == 201, created.body
        battle_id, gm = created.body["id"], _bearer(created.body["gm_token"])
        for command in [*REFUSED, {"type": "conclude"}]:
            reply = call(
                "POST", f"{run.base_url}/battles/{battle_id}/commands", command, {**gm, "Prefer": "wait=10"}
            )
            assert reply.status == 200, (command, reply.body)
            expected = ("applied", None) if command["type"] == "conclude" else ("rejected", "invalid_field")
            assert (reply.body["status"], reply.body["reason"]) == expected, (build, command, reply.body)
        audit = call("GET", f"{run.base_url}/battles/{battle_id}/audit", headers=gm)
        export = _export(run.base_url, battle_id, gm)
        folded_by = run.log_path.read_text(errors="replace")
    assert said in folded_by  # the workers said which build they folded with
    assert audit.status == 200 and audit.body["ok"] is True, audit.body
    assert audit.body["replay"]["compared"] == len(REFUSED) + 2
    exported = tmp_path / "battle.jsonl"
    exported.write_bytes(export)
    siege = Path(sys.executable).with_name("siege")  # the console script `pip install` wrote
    verified = subprocess.run([siege, "verify", str(exported)], cwd=ROOT, capture_output=True, text=True)
    assert verified.returncode == 0, verified.stdout + verified.stderr
    assert "VERIFIED" in verified.stdout.upper()


def _export(base_url: str, battle_id: str, headers: dict[str, str]) -> bytes:
    import urllib.request

    request = urllib.request.Request(f"{base_url}/battles/{battle_id}/export", headers=headers)
    with urllib.request.urlopen(request, timeout=30) as response:
        body: bytes = response.read()
    return body


def _bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}
