"""Text that people type (room, player and scoresheet names): no control characters.

PostgreSQL cannot store NUL in text at all, so a name holding one would fail every write
that carries it (joining, the archive of each deal); the other control characters
(newlines, escapes) only garble lobbies and tables. Refused at the door with a 422.
"""

from __future__ import annotations

_PRINTABLE = r"[^\x00-\x1f\x7f]"

# Printable, and not only spaces.
NAME_PATTERN = rf"^{_PRINTABLE}*[^\s\x00-\x1f\x7f]{_PRINTABLE}*$"
# Printable (may be empty).
TEXT_PATTERN = rf"^{_PRINTABLE}*$"
# Ids in paths (rooms, matches, players, scoresheets): printable, 1-64 characters.
ID_PATTERN = rf"^{_PRINTABLE}+$"
ID_MAX = 64
# The database's integer columns (deal numbers, offsets) are 32-bit signed.
DB_INT_MAX = 2**31 - 1
