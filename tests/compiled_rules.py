"""`pytest -p tests.compiled_rules`: a run whose `rules` is the compiled build (build/mypyc), chosen before
any test module imports it; a missing or stale build fails the run instead of testing the pure Python."""

from __future__ import annotations

from workers import rules_build

rules_build.choose(required=True)
import rules.fold  # noqa: E402  (now: once pytest puts the checkout first on sys.path, the sources would win)


def pytest_report_header() -> str:
    return f"rules: compiled build, rules.fold from {rules.fold.__file__}"
