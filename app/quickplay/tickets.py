"""A quick-play ticket and the secrets it carries, kept as rooms keep theirs: hashed.

The client holds the raw ticket (192 random bits); the queue knows the ticket only by its
hash (:func:`ticket_id`). The seat token the ticket's socket hands over once a table is
found is derived from the raw ticket (:func:`seat_token`), so the queue holds only that
token's hash too: a dump of the store seats nobody and wakes no socket.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets

from app.rooms import tokens


def new_ticket() -> str:
    return tokens.new_token()


def ticket_id(ticket: str) -> str:
    """The ticket as the queue knows it."""
    return tokens.hash_token(ticket)


def seat_token(ticket: str) -> str:
    """The seat token of the table this ticket is seated at (the room keeps its hash)."""
    digest = hmac.new(ticket.encode(), b"quickplay seat", hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest[:24]).decode()


def guest_name() -> str:
    """A nameless guest's own name: "Guest 4821" (a name other guests rarely share, and
    the table never seats two equal names: app.quickplay.tables)."""
    return f"Guest {1000 + secrets.randbelow(9000)}"
