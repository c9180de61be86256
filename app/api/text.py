"""Text that people type (room, player and scoresheet names): no control characters.

PostgreSQL cannot store NUL in text at all, so a name holding one would fail every write
that carries it (joining, the archive of each deal); the other control characters
(newlines, escapes) only garble lobbies and tables. Refused at the door with a 422.
Format characters (zero-width spaces, bidirectional overrides) are dropped instead, and a
name is stored as ``app.names.clean_name`` makes it: a name of nothing else is refused.
"""

from __future__ import annotations

from app.names import clean_name, clean_text

# Not a control character (C0, DEL and C1: Unicode category Cc).
_PRINTABLE = r"[^\x00-\x1f\x7f-\x9f]"

# Printable, and not only spaces.
NAME_PATTERN = rf"^{_PRINTABLE}*[^\s\x00-\x1f\x7f-\x9f]{_PRINTABLE}*$"
# Printable (may be empty).
TEXT_PATTERN = rf"^{_PRINTABLE}*$"
# Ids in paths (rooms, matches, players, scoresheets): printable, 1-64 characters.
ID_PATTERN = rf"^{_PRINTABLE}+$"
ID_MAX = 64
# The database's integer columns (deal numbers, offsets) are 32-bit signed.
DB_INT_MAX = 2**31 - 1


def cleaned_name(value: str) -> str:
    """A name as stored (pydantic's validator after the pattern): refused if nothing of
    it is left."""
    cleaned = clean_name(value)
    if not cleaned:
        raise ValueError("a name needs a visible character")
    return cleaned


def cleaned_text(value: str | None) -> str | None:
    """Free text as stored: without format characters."""
    return None if value is None else clean_text(value)
