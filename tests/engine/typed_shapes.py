"""A value held to a TypedDict at run time: what mypy checks of the readers, checked of
what the engine really makes (its producers write plain dicts)."""

from __future__ import annotations

import types
import typing
from typing import Any, get_args, get_origin, get_type_hints


def mismatch(value: Any, shape: Any, path: str = "") -> str | None:
    """Where ``value`` breaks ``shape`` (a type as annotations spell it), or None. A
    TypedDict's declared keys must be there (its NotRequired ones may be missing); keys
    it does not declare are allowed (an event carries more than its readers take)."""
    if shape is Any:
        return None
    if typing.is_typeddict(shape):
        if not isinstance(value, dict):
            return f"{path or '.'}: {value!r} is not an object"
        # (Under postponed annotations Python 3.11 counts a NotRequired key as required:
        # asked from the evaluated hints instead.)
        hints = get_type_hints(shape, include_extras=True)
        for key, hint in hints.items():
            if key not in value:
                if get_origin(hint) is not typing.NotRequired:
                    return f"{path}.{key}: missing"
                continue
            if get_origin(hint) is typing.NotRequired:
                hint = get_args(hint)[0]
            found = mismatch(value[key], hint, f"{path}.{key}")
            if found:
                return found
        return None
    origin, args = get_origin(shape), get_args(shape)
    if origin is typing.Literal:
        return None if value in args else f"{path}: {value!r} not one of {args}"
    if origin in (typing.Union, types.UnionType):
        fits = any(mismatch(value, arg, path) is None for arg in args)
        return None if fits else f"{path}: {value!r} fits none of {args}"
    if origin is list:
        if not isinstance(value, list):
            return f"{path}: {value!r} is not a list"
        found = (mismatch(v, args[0], f"{path}[{i}]") for i, v in enumerate(value))
        return next((m for m in found if m), None)
    if origin is dict:
        return None if isinstance(value, dict) else f"{path}: {value!r} is not an object"
    if shape is type(None):
        return None if value is None else f"{path}: {value!r} is not null"
    if shape is int and isinstance(value, bool):
        return f"{path}: {value!r} is a bool, not an int"
    return None if isinstance(value, shape) else f"{path}: {value!r} is not {shape.__name__}"
