"""A typed client of the UNO server's protocol ``uno.v1`` (docs/protocol.md)."""

from uno_client.rest import ApiError, Room, Seat, UnoServer
from uno_client.session import PROTOCOL, ActionRefused, RoomSession, complete

__all__ = [
    "PROTOCOL",
    "ActionRefused",
    "ApiError",
    "Room",
    "RoomSession",
    "Seat",
    "UnoServer",
    "complete",
]
