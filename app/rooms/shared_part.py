"""A change's shared part as app.rooms.views builds it. A module of its own: a dict
subclass with slots and weak references stays an interpreted class (app.compiled)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


class Shared(dict[str, Any]):
    """A change's shared part, and what some of its pieces were made of (``made_of``:
    the room document's values ``room`` shows, the rules' object): the next change builds
    a piece again only where those differ, which costs less than building it and finding
    it equal. Values, copied where the document changes them in place, so never stale."""

    __slots__ = ("made_of", "__weakref__")
    made_of: dict[str, Any]

    @classmethod
    def of(cls, values: Mapping[str, Any]) -> Shared:
        # Not an __init__: a Python one would double the cost of copying the values.
        shared = cls(values)
        shared.made_of = {}
        return shared
