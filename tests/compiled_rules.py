"""`pytest -p tests.compiled_rules`: a run whose `rules` is the compiled build (build/mypyc), chosen before
any test module imports it; a missing or stale build fails the run instead of testing the pure Python."""

from __future__ import annotations

from workers import rules_build

rules_build.choose(required=True)


def pytest_report_header() -> str:
    import rules.fold

    return f"rules: compiled build, rules.fold from {rules.fold.__file__}"
