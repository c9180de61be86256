"""Account names: what may be one, and the key under which two names are the same.

A name is 3-20 of ``A-Za-z0-9_-``; two names are the same account when their keys are
(``app.names.name_key``, as for bans and a room's seats: case folded, look-alikes such as
``l`` and ``I`` or ``0`` and ``O`` made one), so ``Anna`` and ``anna`` cannot both sign up,
and signing in as either finds the same account.
"""

from __future__ import annotations

import re

from app import names

NAME_PATTERN = r"^[A-Za-z0-9_-]{3,20}$"
_NAME = re.compile(NAME_PATTERN)


def is_name(name: str) -> bool:
    return _NAME.fullmatch(name) is not None


def name_key(name: str) -> str:
    """The name as compared and stored unique: every comparison of account names goes here.

    >>> name_key("Anna_B") == name_key("anna_b")
    True
    """
    return names.name_key(name)
