"""The shipped builds of `rules/`, each in a process of its own (tests/referee/fold_server.py), and the
comparison the differential tests make between them."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import sysconfig
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import IO, Any

from workers import rules_build

ROOT = Path(__file__).resolve().parents[2]
Entry = Mapping[str, Any]  # {version, type, data, dice}
CHUNK = 100  # entries sent before their answers are read: well within what a pipe holds either way


class FoldServer:
    """One build folding in its own process; `hello` is what it says it loaded."""

    def __init__(self, kind: str, build: Path | None = None) -> None:
        args = [sys.executable, "-m", "tests.referee.fold_server", kind, *([str(build)] if build else [])]
        env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST_", "COV_"))}
        self.kind = kind
        self.process = subprocess.Popen(
            args, cwd=ROOT, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
        )
        self.hello: dict[str, Any] = self._read()

    def send(self, op: str, entry: Entry, *, full: bool = False) -> None:
        stdin: IO[str] | None = self.process.stdin
        assert stdin is not None
        stdin.write(json.dumps({"op": op, "entry": entry, "full": full}) + "\n")

    def flush(self) -> None:
        if self.process.stdin is not None:
            self.process.stdin.flush()

    def answer(self) -> dict[str, Any]:
        return self._read()

    def _read(self) -> dict[str, Any]:
        stdout = self.process.stdout
        assert stdout is not None
        line = stdout.readline()
        if not line:
            raise RuntimeError(f"the {self.kind} fold server ended (exit {self.process.wait()})")
        answer: dict[str, Any] = json.loads(line)
        return answer

    @property
    def fold_file(self) -> str:
        return str(self.hello["modules"]["rules.fold"])

    def close(self) -> None:
        if self.process.stdin is not None:
            self.process.stdin.close()
        self.process.wait(timeout=30)


def fallback(server: FoldServer, build: Path | None) -> list[str]:
    """The rules modules a server loaded from anywhere but its own build: the compiled one from its build
    directory, every module compiled except the ones the build keeps interpreted; the pure one from
    the sources, every module a .py file. Empty: no silent fall back."""
    suffix = str(sysconfig.get_config_var("EXT_SUFFIX"))
    modules: dict[str, str] = server.hello["modules"]
    wrong = []
    for name, file in modules.items():
        path = Path(file)
        if server.kind == "pure":
            ok = path.is_relative_to(rules_build.sources()) and path.suffix == ".py"
        else:
            assert build is not None
            interpreted = path.suffix == ".py" and name in rules_build.INTERPRETED | interpreted_modules()
            ok = path.is_relative_to(build) and (path.name.endswith(suffix) or interpreted)
        if not ok:
            wrong.append(f"{name} from {file}")
    return wrong


def interpreted_modules() -> set[str]:
    """The modules the compiled build keeps interpreted (computed from the sources, as the build does)."""
    return rules_build.hinted_modules()


class Divergence(AssertionError):
    pass


class Referees:
    """Every build, fed the same battles; `battle` and `step` raise `Divergence` at the first entry whose
    outcome or state is not the same bytes in every build."""

    def __init__(self, servers: Iterable[FoldServer]) -> None:
        self.servers = list(servers)
        self.steps = 0
        self.log: list[Entry] = []

    def battle(self, created: Entry) -> None:
        self.log = [created]
        self._fold("new", [created])

    def steps_of(self, entries: Sequence[Entry]) -> None:
        """The next entries of the battle, sent in one go: each build folds while the others do."""
        self.log.extend(entries)
        self._fold("step", entries)

    def fold(self, entries: Sequence[Entry]) -> None:
        self.battle(entries[0])
        self.steps_of(entries[1:])

    def _fold(self, op: str, entries: Sequence[Entry]) -> None:
        for start in range(0, len(entries), CHUNK):
            self._chunk(op, entries[start : start + CHUNK], len(entries) - start)

    def _chunk(self, op: str, entries: Sequence[Entry], left: int) -> None:
        for server in self.servers:
            for entry in entries:
                server.send(op, entry)
            server.flush()
        answers = [[server.answer() for _ in entries] for server in self.servers]
        for n, entry in enumerate(entries):
            self.steps += entry["type"] != "battle_created"  # entries generated, creations aside
            failed = [a[n]["error"] for a in answers if "error" in a[n]]
            if failed or any(a[n] != answers[0][n] for a in answers[1:]):
                self.log = self.log[: len(self.log) - left + n + 1]
                raise Divergence(self._explain() + "".join(f"\n  the fold failed: {e}" for e in failed))

    def _explain(self) -> str:
        """The diverging entry, and the outcome and state each build gave (re-folded in full)."""
        entry = self.log[-1]
        fulls = []
        for server in self.servers:
            server.send("new", self.log[0], full=len(self.log) == 1)
            for logged in self.log[1:]:
                server.send("step", logged, full=logged is entry)
            server.flush()
            fulls.append([server.answer() for _ in self.log][-1])
        parts = [f"builds differ at version {entry['version']} ({entry['type']}): {json.dumps(entry)[:400]}"]
        keys = sorted({k for full in fulls for k in _flat(full)})
        flats = [_flat(full) for full in fulls]
        for key in keys:
            values = [flat.get(key) for flat in flats]
            if any(v != values[0] for v in values[1:]):
                pairs = zip(self.servers, values, strict=True)
                shown = ", ".join(f"{s.kind}: {json.dumps(v)[:160]}" for s, v in pairs)
                parts.append(f"  {key}: {shown}")
        return "\n".join(parts[:40])

    def close(self) -> None:
        for server in self.servers:
            server.close()


def _flat(value: Any, prefix: str = "") -> dict[str, Any]:
    if isinstance(value, dict):
        out: dict[str, Any] = {}
        for key, inner in value.items():
            out.update(_flat(inner, f"{prefix}.{key}" if prefix else str(key)))
        return out
    return {prefix: value}


def rules_are_compiled() -> bool:
    """Whether this process's `rules` is the compiled build (a run with `-p tests.compiled_rules`)."""
    import rules.fold

    return str(rules.fold.__file__).endswith(str(sysconfig.get_config_var("EXT_SUFFIX")))
