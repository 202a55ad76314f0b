"""`make mutation`: mutmut 3 over rules/ with the rules tests, then the per-module table of docs/mutation.md.

`python -m tests.mutation [--module rules/pathfinder/blast.py] [--children 2]` runs mutmut (its settings are
pyproject.toml's [tool.mutmut]) and rewrites the table between the markers of docs/mutation.md: the rows of
the modules this run measured are replaced, the others kept, so runs one module at a time add up. A run with
no module tests only the mutants without a result yet (mutmut resumes where it stopped); a run with one
tests every mutant of that module again. Mutants listed under "Equivalent mutants" are not counted.
"""

from __future__ import annotations

import argparse
import datetime
import json
import re
import subprocess
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "mutation.md"
MUTANTS = ROOT / "mutants"
BEGIN = "<!-- mutation-table: `make mutation` rewrites what follows, up to the end marker -->"
END = "<!-- end mutation-table -->"
EQUIVALENT_HEADING = "## Equivalent mutants"
# mutmut's exit codes as its own `mutmut results` names them (mutmut/stats.py)
KILLED = {1, 3, 37}
SURVIVED = {0}
NO_TESTS = {5, 33}
TIMEOUT = {-24, 24, 152, 255, 36}
NOT_CHECKED = {None, 2, 34}  # not run yet, interrupted, skipped


@dataclass(frozen=True)
class Row:
    module: str
    killed: int
    survived: int
    no_tests: int
    timeout: int
    other: int  # suspicious, segfault: neither killed nor survived, counted against the score
    equivalent: int
    unchecked: int
    measured: str

    @property
    def tested(self) -> int:
        return self.killed + self.survived + self.no_tests + self.timeout + self.other

    @property
    def score(self) -> float | None:
        return (self.killed + self.timeout) / self.tested if self.tested else None

    def cells(self) -> list[str]:
        score = "–" if self.score is None else f"{self.score:.2f}"
        measured = self.measured + (f" ({self.unchecked} not checked)" if self.unchecked else "")
        counts = [self.killed, self.survived, self.no_tests, self.timeout, self.other, self.equivalent]
        return [f"`{self.module}`", *map(str, counts), score, measured]


HEADER = ["module", "killed", "survived", "no tests", "timeout", "other", "equivalent", "score", "measured"]


def mutant_globs(module: str) -> list[str]:
    """`rules/pathfinder/blast.py` → `rules.pathfinder.blast.*`; a folder → every module below it."""
    if module.endswith(".py"):
        return [f"{prefix}*" for prefix in own_prefixes(module)]
    return [f"{dotted(module)}.*"]


def own_prefixes(path: str) -> tuple[str, ...]:
    """How the names of one file's mutants begin. mutmut names a package's `__init__.py` mutants after the
    package (`rules.epic.x_initial_state__mutmut_4`, `rules.epic.xǁClassǁmethod__mutmut_1`), so its prefix
    alone would also take in every submodule's."""
    if path.endswith("/__init__.py"):
        return (f"{dotted(path)}.x_", f"{dotted(path)}.xǁ")
    return (f"{dotted(path)}.",)


def equivalents(doc: str) -> dict[str, str]:
    """The mutants docs/mutation.md lists as equivalent: `- \\`name\\`: why`."""
    section = doc.split(EQUIVALENT_HEADING, 1)[1] if EQUIVALENT_HEADING in doc else ""
    return dict(re.findall(r"^- `([\w.ǁ]+)`: (.+)$", section, flags=re.MULTILINE))


def dotted(path: str) -> str:
    """`rules/pathfinder/blast.py` → `rules.pathfinder.blast`, the prefix of its mutants' names (a package's
    `__init__.py` → the package's name, which mutmut gives its mutants)."""
    return path.removesuffix(".py").removesuffix("/__init__").strip("/").replace("/", ".")


def classify(name: str, code: int | None, listed: dict[str, str]) -> str:
    if code in SURVIVED:
        return "equivalent" if name in listed else "survived"
    for status, codes in (("killed", KILLED), ("no_tests", NO_TESTS), ("timeout", TIMEOUT)):
        if code in codes:
            return status
    return "unchecked" if code in NOT_CHECKED else "other"


def measure(module: str | None, listed: dict[str, str]) -> tuple[list[Row], list[str]]:
    """The rows of the modules under `module` (all when None) that mutmut has results for, and the mutants
    listed as equivalent there that are no longer survivors (killed now, or renamed by a change of source)."""
    rows, stale = [], []
    for meta in sorted(MUTANTS.glob("rules/**/*.py.meta")):
        path = str(meta.relative_to(MUTANTS)).removesuffix(".meta")
        if module is not None and not (path == module or path.startswith(module.rstrip("/") + "/")):
            continue
        codes: dict[str, int | None] = json.loads(meta.read_text())["exit_code_by_key"]
        count = Counter(classify(name, code, listed) for name, code in codes.items())
        if not codes or count["unchecked"] == len(codes):
            continue  # nothing to mutate (no function bodies), or not run yet
        rows.append(
            Row(
                module=path,
                killed=count["killed"],
                survived=count["survived"],
                no_tests=count["no_tests"],
                timeout=count["timeout"],
                other=count["other"],
                equivalent=count["equivalent"],
                unchecked=count["unchecked"],
                measured=datetime.date.fromtimestamp(meta.stat().st_mtime).isoformat(),  # its last result
            )
        )
        own = own_prefixes(path)
        stale += [n for n in listed if n.startswith(own) and codes.get(n, -1) not in SURVIVED]
    return rows, stale


def kept_rows(doc: str) -> dict[str, list[str]]:
    """The table's rows as they stand, by module (total row left out: it is summed again)."""
    if BEGIN not in doc:
        return {}
    table = doc.split(BEGIN, 1)[1].split(END, 1)[0]
    rows = {}
    for line in table.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == len(HEADER) and cells[0].startswith("`rules/"):
            rows[cells[0].strip("`")] = cells
    return rows


def total(rows: list[list[str]]) -> list[str]:
    sums = [sum(int(r[i]) for r in rows) for i in range(1, 7)]
    killed, survived, no_tests, timeout, other, _ = sums
    tested = killed + survived + no_tests + timeout + other
    score = f"{(killed + timeout) / tested:.2f}" if tested else "–"
    return [f"**all {len(rows)} modules above**", *map(str, sums), f"**{score}**", ""]


def provenance(doc: str) -> list[str]:
    """The lines above the table: what the runs behind its rows measured, and when."""
    if BEGIN not in doc:
        return []
    said = []
    for line in doc.split(BEGIN, 1)[1].split(END, 1)[0].strip("\n").splitlines():
        if line.startswith("|"):
            break
        said.append(line)
    while said and not said[-1].strip():
        said.pop()
    return said


def said_after(doc: str, module: str | None, command: str, today: str) -> list[str]:
    """A whole run measures every row again, so it says alone where they come from; a run of one module
    adds its line to what the earlier runs said (the other rows are theirs), in place of its earlier one."""
    line = f"{today}: `{command}`."
    if module is None:
        return [f"Last run {line}"]
    return [*(kept for kept in provenance(doc) if not kept.endswith(f"`{command}`.")), line]


def render(rows: dict[str, list[str]], said: list[str]) -> str:
    ordered = [rows[m] for m in sorted(rows)]
    lines = [
        BEGIN,
        *said,
        "",
        "| " + " | ".join(HEADER) + " |",
        "|" + "|".join(["---"] + ["---:"] * 7 + ["---"]) + "|",
        *("| " + " | ".join(cells) + " |" for cells in [*ordered, total(ordered)]),
        END,
    ]
    return "\n".join(lines)


def write(module: str | None, command: str) -> None:
    today = datetime.date.today().isoformat()
    doc = DOC.read_text(encoding="utf-8")
    listed = equivalents(doc)
    measured, stale = measure(module, listed)
    rows = kept_rows(doc)
    rows.update({row.module: row.cells() for row in measured})
    section = render(rows, said_after(doc, module, command, today))
    if BEGIN in doc:
        before, rest = doc.split(BEGIN, 1)
        doc = before + section + rest.split(END, 1)[1]
    else:
        doc = doc.rstrip("\n") + "\n\n" + section + "\n"
    DOC.write_text(doc, encoding="utf-8")
    for row in measured:
        print(" | ".join(row.cells()))
    for name in stale:
        print(f"listed as equivalent but not a survivor (killed, or renamed): {name}", file=sys.stderr)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--module", help="a file or folder of rules/, e.g. rules/pathfinder/blast.py")
    parser.add_argument("--children", type=int, default=2, help="mutants tested at once (the cores to use)")
    parser.add_argument("--report-only", action="store_true", help="rewrite the table from mutants/ alone")
    args = parser.parse_args()
    if args.report_only:
        narrowed = f" --module {args.module}" if args.module else ""
        write(args.module, f"python -m tests.mutation --report-only{narrowed}")
        return
    mutmut = Path(sys.executable).with_name("mutmut")
    run = [str(mutmut), "run", "--max-children", str(args.children)]
    if args.module:
        # mutmut maps tests to the functions they reach once, and keeps the map: a test changed since
        # would go unused on the very module it was written for
        (ROOT / "mutants" / "mutmut-stats.json").unlink(missing_ok=True)
    subprocess.run(run + (mutant_globs(args.module) if args.module else []), cwd=ROOT, check=True)
    write(args.module, "make mutation" + (f" MODULE={args.module}" if args.module else ""))


if __name__ == "__main__":
    main()
