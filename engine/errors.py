"""Errors the engine raises, each with a stable machine-readable ``code``.

::

    EngineError(ValueError)           base: the app catches this one class
    ├── InvalidRules                  a rules object that names an unknown option or a bad value
    ├── InvalidAction                 the action cannot be parsed (missing or malformed fields)
    └── IllegalAction                 well-formed, but not allowed in this state

``code`` goes to clients unchanged; ``message`` is English for people. Raising one never
changes a state: the engine builds new states only after every check has passed.
"""

from __future__ import annotations


class EngineError(ValueError):
    """Base of every error the engine raises on purpose."""

    code: str = "engine_error"

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    def to_json(self) -> dict[str, str]:
        return {"code": self.code, "message": self.message}


class InvalidRules(EngineError):
    """A rules object that cannot be used (unknown option, value out of range)."""


class InvalidAction(EngineError):
    """An action that cannot be understood: unknown type, missing or malformed field."""


class IllegalAction(EngineError):
    """An action that is understood but not allowed in the current state."""
