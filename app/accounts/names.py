"""Account names: what may be one, and the key under which two names are the same.

A name is 3-20 of ``A-Za-z0-9_-``; names are unique ignoring case, so ``Anna`` and
``anna`` cannot both sign up, and signing in as either finds the same account.
"""

from __future__ import annotations

import re

NAME_PATTERN = r"^[A-Za-z0-9_-]{3,20}$"
_NAME = re.compile(NAME_PATTERN)


def is_name(name: str) -> bool:
    return _NAME.fullmatch(name) is not None


def name_key(name: str) -> str:
    """The name as compared and stored unique: every comparison of names goes here.

    >>> name_key("Anna_B") == name_key("anna_b")
    True
    """
    return name.casefold()
