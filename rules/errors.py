"""The one way a decider refuses a command: raise Rejected with the spec's reason code, and with the
JSON-able parameters that make it actionable (the outcome's `detail`: which field, id, phase or die)."""

from __future__ import annotations

from rules.codec import JSON


class Rejected(Exception):
    def __init__(self, reason: str, **detail: JSON) -> None:
        super().__init__(reason)
        self.reason = reason
        self.detail: dict[str, JSON] = detail

    def naming(self, **detail: JSON) -> Rejected:
        """The same refusal with `detail` added where it says nothing yet (an inner check knows better)."""
        for key, value in detail.items():
            self.detail.setdefault(key, value)
        return self


class UnfoldableRules(LookupError):
    """A battle pinned to a rules version this release does not fold: folding it with other
    rules would put words in the referee's mouth, so the fold refuses at version 1."""

    def __init__(self, ruleset: str, rules_version: str, supported: tuple[str, ...]) -> None:
        super().__init__(f"the battle needs rules version {rules_version} of {ruleset}")
        self.ruleset, self.rules_version, self.supported = ruleset, rules_version, supported
