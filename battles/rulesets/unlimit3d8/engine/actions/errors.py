"""Errors raised when a policy asks for an action the rules do not allow."""


class IllegalActionError(ValueError):
    """The chosen action breaks a rule (out of reach, no such weapon, not ready, ...)."""
