"""The one way a decider refuses a command: raise Rejected with the spec's reason code."""


class Rejected(Exception):
    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason
