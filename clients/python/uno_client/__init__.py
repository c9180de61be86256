"""A typed client of the UNO server's protocol ``uno.v1`` (docs/protocol.md)."""

from uno_client.rest import Account, ApiError, Entrant, Room, Seat, Tournament, UnoServer
from uno_client.session import PROTOCOL, ActionRefused, RoomSession, complete

__all__ = [
    "PROTOCOL",
    "Account",
    "ActionRefused",
    "ApiError",
    "Entrant",
    "Room",
    "RoomSession",
    "Seat",
    "Tournament",
    "UnoServer",
    "complete",
]
