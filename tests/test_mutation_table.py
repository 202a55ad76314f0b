"""tests/mutation.py's table in docs/mutation.md: a run of one module keeps what earlier runs said of the
other rows (a rewrite of the lines above the table lost their provenance), a whole run says it alone."""

from __future__ import annotations

from tests.mutation import (
    BEGIN,
    END,
    HEADER,
    kept_rows,
    mutant_globs,
    own_prefixes,
    provenance,
    render,
    said_after,
)

ROW = ["`rules/dice.py`", "10", "0", "0", "0", "0", "1", "1.00", "2026-12-01"]


def doc_with(said: list[str]) -> str:
    return "# Mutation\n\n" + render({"rules/dice.py": ROW}, said) + "\n\n## History\n"


def test_the_lines_above_the_table_are_read_back_as_written() -> None:
    doc = doc_with(
        ["Last run 2026-12-01: `make mutation`, stopped after 11,041 mutants", "(the rest below)."]
    )

    assert provenance(doc) == [
        "Last run 2026-12-01: `make mutation`, stopped after 11,041 mutants",
        "(the rest below).",
    ]
    assert kept_rows(doc) == {"rules/dice.py": ROW}
    assert doc.index(BEGIN) < doc.index("| " + " | ".join(HEADER)) < doc.index(END)


def test_a_run_of_one_module_adds_its_line_and_keeps_the_others() -> None:
    doc = doc_with(["Last run 2026-12-01: `make mutation`."])

    said = said_after(doc, "rules/dice.py", "make mutation MODULE=rules/dice.py", "2026-12-03")

    assert said == [
        "Last run 2026-12-01: `make mutation`.",
        "2026-12-03: `make mutation MODULE=rules/dice.py`.",
    ]
    again = said_after(doc_with(said), "rules/dice.py", "make mutation MODULE=rules/dice.py", "2026-12-03")
    assert again == said  # the same run on the same day is said once
    later = said_after(doc_with(said), "rules/dice.py", "make mutation MODULE=rules/dice.py", "2026-12-05")
    assert later == [
        "Last run 2026-12-01: `make mutation`.",
        "2026-12-05: `make mutation MODULE=rules/dice.py`.",
    ]


def test_a_whole_run_says_alone_where_every_row_comes_from() -> None:
    doc = doc_with(
        ["Last run 2026-12-01: `make mutation`.", "2026-12-02: `make mutation MODULE=rules/dice.py`."]
    )

    assert said_after(doc, None, "make mutation", "2026-12-03") == ["Last run 2026-12-03: `make mutation`."]


def test_a_document_without_the_table_has_nothing_above_it() -> None:
    assert provenance("# Mutation\n") == []


def test_a_modules_mutants_are_named_after_it_and_a_packages_own_after_the_package() -> None:
    assert mutant_globs("rules/pathfinder/blast.py") == ["rules.pathfinder.blast.*"]
    assert mutant_globs("rules/epic/") == ["rules.epic.*"]
    # mutmut names rules/epic/__init__.py's mutants rules.epic.x_...: rules.epic.__init__.* named none
    assert mutant_globs("rules/epic/__init__.py") == ["rules.epic.x_*", "rules.epic.xǁ*"]
    assert own_prefixes("rules/epic/__init__.py") == ("rules.epic.x_", "rules.epic.xǁ")
    assert not "rules.epic.checks.x_check__mutmut_1".startswith(own_prefixes("rules/epic/__init__.py"))
