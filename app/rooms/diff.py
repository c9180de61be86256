"""RFC 6902 patches between two views, from their keys and a few levels below.

A generic deep diff (``jsonpatch.make_patch``) costs ~440 us on a 2 KB view; run per seat
per action it would cap the server near 500 actions/s. Views are shallow records: their
top-level values change as a whole (a hand, the top card), or they are lists and objects
of which one entry changes (a player's card count in ``players``, a field of ``room``).
So the diff compares top-level values; a list of containers of the same length, or an
object with the same keys, that changed in few places is followed down (at most
:data:`_DEPTH` pointer tokens deep) and only its changed entries are replaced
(``/players/2/cards``); anything else that changed is replaced whole. That is exact and
still cheap, and a play's patch no longer carries the whole ``players`` list: every
seat's patch of every action is stored in the room's history and sent on the wire.

One change goes unseen: a container equal by ``==`` to the one before it while a value
inside changed its JSON type (``[0]`` after ``[false]``). Views never make it (the schemas
in docs/schemas fix each path's type), and looking for it would walk every unchanged part
of every view; a changed value's own type is compared wherever the diff looks.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

_POINTERS: dict[str, str] = {}
_TOKENS: dict[str, str] = {}
_TOKENS_KEPT = 1024
_MISSING = object()
_CONTAINERS = (list, dict)  # the types of a view's lists and objects, as views are built
# How deep a replaced value may sit: /players/2/cards is 3 tokens.
_DEPTH = 3
# The last diff of each top-level key that was followed down: (before, value, its ops).
# Every audience's view of a change holds the same objects for the parts all see alike
# (app.rooms.views.build_views), so the players' diff is made once per change, not once
# per audience. Matched by identity, and the objects are held here, so never stale.
_LAST: dict[str, tuple[Any, Any, list[dict[str, Any]]]] = {}


def _pointer(key: str) -> str:
    # Views have a fixed, small set of keys: escape each once.
    pointer = _POINTERS.get(key)
    if pointer is None:
        pointer = _POINTERS[key] = "/" + key.replace("~", "~0").replace("/", "~1")
    return pointer


def diff(
    old: Mapping[str, Any], new: Mapping[str, Any], *, share: bool = False
) -> list[dict[str, Any]]:
    """Operations that turn ``old`` into ``new`` (both JSON objects). ``share``: a list or
    object of ``new`` equal to ``old``'s under its key is replaced by ``old``'s (``new``
    is then a dict), so that what holds both keeps one, and a later diff against ``new``
    passes over it by identity."""
    ops: list[dict[str, Any]] = []
    added = 0  # keys of ``new`` that ``old`` has not: if ``old`` has more, some went
    for key, value in new.items():
        before = old.get(key, _MISSING)
        if before is value:
            continue
        if before is _MISSING:
            added += 1
            ops.append({"op": "add", "path": _pointer(key), "value": value})
        # `==` alone would call 1 == True equal; JSON tells them apart.
        elif before != value or type(before) is not type(value):
            if _nested(value):
                last = _LAST.get(key)
                if last is not None and last[0] is before and last[1] is value:
                    ops.extend(last[2])
                    continue
                mine: list[dict[str, Any]] = []
                _replace(mine, _pointer(key), before, value, 1)
                _LAST[key] = (before, value, mine)
                ops.extend(mine)
            else:
                ops.append({"op": "replace", "path": _pointer(key), "value": value})
        elif share and type(value) in _CONTAINERS:
            # Setting a key it has does not disturb the iteration over ``new``.
            new[key] = before  # type: ignore[index]
    if len(new) - added != len(old):
        # Removals first (keys compared only where their counts say some went).
        ops[:0] = [{"op": "remove", "path": _pointer(key)} for key in old if key not in new]
    return ops


def _nested(value: Any) -> bool:
    """Whether a changed ``value`` may be followed down: an object, or a list of them."""
    if isinstance(value, dict):
        return True
    return isinstance(value, list) and bool(value) and isinstance(value[0], (dict, list))


def _replace(ops: list[dict[str, Any]], path: str, before: Any, value: Any, depth: int) -> None:
    """Append the operations that turn ``before`` into ``value`` (which differ) at
    ``path``, ``depth`` tokens deep: the changed entries only, when they are few."""
    if depth < _DEPTH and type(before) is type(value):
        changed: list[tuple[str, Any, Any]] | None = None
        if isinstance(value, dict):
            changed = _changed_fields(before, value)
        elif isinstance(value, list) and _nested(value):
            changed = _changed_items(before, value)
        if changed is not None:
            for token, old_item, new_item in changed:
                _replace(ops, f"{path}/{token}", old_item, new_item, depth + 1)
            return
    ops.append({"op": "replace", "path": path, "value": value})


def _changed_fields(before: dict[str, Any], value: dict[str, Any]) -> list[Any] | None:
    """The entries that differ of two objects with the same keys, or None (replace the
    whole object: its keys differ, or more than half its entries changed, which a whole
    value says in fewer bytes)."""
    if len(before) != len(value):
        return None
    # `==` alone would call 1 == True equal; JSON tells them apart. Inline, not a call:
    # this runs on every field of every changed player of every change. As many keys,
    # and each found in ``before``: the same keys, without comparing the two sets first.
    try:
        keys = [
            key
            for key, item in value.items()
            if (old := before[key]) is not item and (type(old) is not type(item) or old != item)
        ]
    except KeyError:
        return None
    if 2 * len(keys) > len(value):
        return None
    return [(_token(key), before[key], value[key]) for key in keys]


def _token(key: str) -> str:
    # An object's keys are a view's field names, a fixed small set: escape each once.
    token = _TOKENS.get(key)
    if token is None:
        token = key.replace("~", "~0").replace("/", "~1")
        if len(_TOKENS) < _TOKENS_KEPT:  # bounded all the same
            _TOKENS[key] = token
    return token


def _changed_items(before: list[Any], value: list[Any]) -> list[Any] | None:
    """The items that differ of two lists of the same length, or None (replace the whole
    list: lengths differ, or more than half of them changed). Only lists of containers
    come here: in a list of cards, an index says little less than the list."""
    if len(before) != len(value):
        return None
    changed = [
        (str(i), old, new)
        for i, (old, new) in enumerate(zip(before, value, strict=True))
        if old is not new and (type(old) is not type(new) or old != new)
    ]
    return changed if 2 * len(changed) <= len(value) else None
