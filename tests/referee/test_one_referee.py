"""One referee (DESIGN §3.5, invariant 11): the pure Python and the compiled build of `rules/` give the
same bytes, outcome and state, for every entry of every log: the logs the rules tests and worked examples
play, and a Hypothesis state machine's random battles of both rulesets (options, client dice, rejections,
undos, `conclude`). Each build folds in its own process and is shown to run only its own modules. The
third build, the zip the in-browser verifier runs in Pyodide, is held to the same bytes on the golden corpus
in tests/browser/test_verify_page.py (it needs the browser that suite starts)."""

from __future__ import annotations

import json
import os
import random
import re
import shutil
import sysconfig
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, rule, run_state_machine_as_test

from tests.referee.builds import Divergence, FoldServer, Referees, fallback
from tests.referee.generate import STEP_KINDS, BattleWriter, Library
from workers import rules_build

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("referee"), pytest.mark.timeout(1500)]
# generated entries folded per ruleset: the bar on CI; SIEGE_REFEREE_STEPS=N for a quicker look
STEPS = int(os.environ.get("SIEGE_REFEREE_STEPS", "100000"))
STEPS_PER_BATTLE = 12  # Hypothesis steps, each a burst of up to BURST entries
BURST = 16
KINDS = (*STEP_KINDS, *STEP_KINDS, "conclude")  # a battle concludes after about 80 entries on average
AFTER_CONCLUDE = 2  # entries sent after a battle's conclusion
GOLDEN = Path(__file__).resolve().parents[1] / "golden"
PLANTED = (b"nothing_to_undo", b"nothing_to_und0")  # a reason code, changed in a copy of the compiled build
CAUGHT = 'outcome.reason: pure: "nothing_to_undo", compiled: "nothing_to_und0"'


def test_each_build_runs_its_own_modules_and_says_which(referees: Referees, build: Path) -> None:
    pure, compiled = referees.servers
    suffix = sysconfig.get_config_var("EXT_SUFFIX")
    assert pure.fold_file == str(rules_build.sources() / "fold.py")
    assert Path(compiled.fold_file).is_relative_to(build) and compiled.fold_file.endswith(suffix)
    compiled_count = sum(1 for f in compiled.hello["modules"].values() if f.endswith(suffix))
    assert compiled_count > 50, compiled.hello["modules"]  # most of rules/ is compiled, not a few shims


def test_a_build_that_would_fall_back_is_refused(build: Path, tmp_path: Path) -> None:
    """A stale compiled build (its digest no longer the sources') or one without its shared library does
    not quietly run the sources instead: its server does not start; and a server whose modules came from
    anywhere but its build is named by `fallback`."""
    stale = shutil.copytree(build, tmp_path / "stale", symlinks=True)
    (stale / rules_build.DIGEST).write_text("0" * 64 + "\n")
    headless = shutil.copytree(build, tmp_path / "headless", symlinks=True)
    next(headless.glob("*__mypyc*.so")).unlink()
    for broken in (stale, headless):
        with pytest.raises(RuntimeError, match="fold server ended"):
            FoldServer("compiled", broken)
    pure = FoldServer("pure")
    try:  # the pure Python judged as if it were the compiled build: every module is the wrong file
        pure.kind = "compiled"
        assert len(fallback(pure, build)) == len(pure.hello["modules"]) > 50
    finally:
        pure.close()


def test_the_rules_tests_pass_against_the_compiled_build(recorded: dict[str, Any], build: Path) -> None:
    """A semantic difference of mypyc's (a field type, an early-bound method, a frozen record) fails here:
    the run's header names the compiled `rules.fold` it imported."""
    run = recorded["run"]
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]
    header = next(line for line in run.stdout.splitlines() if line.startswith("rules: compiled build"))
    fold_file = Path(header.rsplit(" from ", 1)[1])
    assert fold_file.is_relative_to(build) and fold_file.name.endswith(sysconfig.get_config_var("EXT_SUFFIX"))
    passed = re.search(r"(\d+) passed", run.stdout.splitlines()[-1])
    assert passed is not None and int(passed.group(1)) > 500, run.stdout.splitlines()[-1]


def test_the_builds_agree_on_every_log_the_rules_tests_play(
    recorded: dict[str, Any], referees: Referees
) -> None:
    logs = recorded["logs"]
    assert {log["ruleset"] for log in logs} == {"epic", "pathfinder"} and len(logs) > 500
    for log in logs:
        try:
            referees.fold(log["entries"])
        except Divergence as divergence:
            raise Divergence(f"{log['test']}:\n{divergence}") from None
    assert referees.steps == sum(len(log["entries"]) - 1 for log in logs)  # creations are not counted


def test_the_builds_agree_on_the_golden_corpus(referees: Referees) -> None:
    """Every battle of every rules version the release folds (tests/golden), entries as exported."""
    files = sorted(GOLDEN.glob("*/*.jsonl"))
    assert {path.parent.name for path in files} >= {"epic-1", "epic-2", "pathfinder-1", "pathfinder-2"}
    for path in files:
        events = [json.loads(line)["data"] for line in path.read_text().splitlines()]
        entries = [{k: e[k] for k in ("version", "type", "data", "dice")} for e in events]
        try:
            referees.fold(entries)
        except Divergence as divergence:
            raise Divergence(f"{path}:\n{divergence}") from None


def machine(ruleset: str, referees: Referees, library: Library, salt: int) -> type[RuleBasedStateMachine]:
    """Random battles of `ruleset`, each entry folded by every build as it is made; `salt` tells one run of
    the (derandomized) machine from the next, so a second run plays other battles, not the same again."""

    class Battle(RuleBasedStateMachine):
        @initialize(seed=st.integers(0, 2**32 - 1))
        def create(self, seed: int) -> None:
            rnd = random.Random(f"{salt}:{seed}")
            self.writer = BattleWriter(ruleset, library, rnd)
            self.version = 1
            self.since_conclude = 0  # entries sent from the conclusion on
            data = self.writer.created(rnd)
            referees.battle({"version": 1, "type": "battle_created", "data": data, "dice": {}})

        @rule(
            kinds=st.lists(st.sampled_from(KINDS), min_size=1, max_size=BURST), seed=st.integers(0, 2**32 - 1)
        )
        def send(self, kinds: list[str], seed: int) -> None:
            """A burst of commands, their details drawn from one seed (each step of Hypothesis costs)."""
            rnd, entries = random.Random(f"{salt}:{seed}"), []
            for kind in kinds:
                if self.since_conclude > AFTER_CONCLUDE:
                    break  # what follows a conclusion is all battle_concluded: a few of them say it
                if self.since_conclude or kind == "conclude":
                    self.since_conclude += 1
                command = dict(self.writer.next(kind, rnd))
                self.version += 1
                entry_type, dice = command.pop("type"), command.pop("dice", {})
                entries.append({"version": self.version, "type": entry_type, "data": command, "dice": dice})
            referees.steps_of(entries)

    return Battle


def generated(ruleset: str, referees: Referees, library: Library, steps: int) -> int:
    """Run the state machine until `steps` generated entries were folded; the entries folded."""
    start, salt = referees.steps, 0
    while (left := steps - (referees.steps - start)) > 0:
        run_state_machine_as_test(
            machine(ruleset, referees, library, salt),
            settings=settings(
                max_examples=max(1, left // (STEPS_PER_BATTLE * BURST // 3)),  # about a third of the most
                stateful_step_count=STEPS_PER_BATTLE,
                deadline=None,
                derandomize=True,
                database=None,
                suppress_health_check=list(HealthCheck),
            ),
        )
        salt += 1
    return referees.steps - start


@pytest.mark.parametrize("ruleset", ["epic", "pathfinder"])
def test_the_builds_agree_on_generated_battles(
    ruleset: str, referees: Referees, recorded: dict[str, Any]
) -> None:
    folded = generated(ruleset, referees, Library.of(recorded["logs"]), STEPS)
    assert folded >= STEPS


def test_a_planted_divergence_in_a_compiled_module_is_caught(
    build: Path, tmp_path: Path, recorded: dict[str, Any]
) -> None:
    """A copy of the compiled build with one constant changed (a reason code, same length, in the shared
    library mypyc wrote) is current by its digest and loads; the generated battles catch it."""
    planted = shutil.copytree(build, tmp_path / "planted", symlinks=True)
    library_file = next(planted.glob("*__mypyc*.so"))
    binary = library_file.read_bytes()
    assert binary.count(PLANTED[0]) == 1
    library_file.write_bytes(binary.replace(*PLANTED))
    servers = [FoldServer("pure"), FoldServer("compiled", planted)]
    assert fallback(servers[1], planted) == []
    referees = Referees(servers)
    try:
        with pytest.raises(Divergence, match=re.escape(CAUGHT)):
            generated("epic", referees, Library.of(recorded["logs"]), 2000)
    finally:
        referees.close()
