"""Chat and reactions over a room's socket: talk, not game changes.

A ``chat {text}`` or ``react {emote}`` from a socket is checked here (length, rate, the
host's mute, the emote list) and relayed at once to every socket of the room on every node
(``RoomService.say``): no command in the room's log, no ``seq``, no patch, nothing kept.
Seats' messages reach everyone; spectators' reach only spectators (a separate chat, so the
players are not talked at by people who are not playing). Text is sent as it was typed,
trimmed, without control and format characters; clients show it as text (never as HTML).
See docs/protocol.md, "Chat and reactions".

The rate is counted per speaker, not per socket: each seat (all its sockets together)
and each spectator address may say ``chat_rate``, and a room's spectators together
``spectator_chat_rate``, whose every line reaches every spectator. The counters are the
REST limits' (app.limits): in the room store's Redis, so that a seat whose sockets are
on several nodes counts once (a per-node count would give a seat on n nodes n times the
rate, and a room's spectators n times theirs: the fan-out it bounds is every node's).
"""

from __future__ import annotations

from typing import Any

from limits import RateLimitItem

from app.errors import RoomError
from app.limits import RestLimits, rate_items
from app.names import clean_text as without_format
from app.rooms.doc import player_by_pid
from app.wire.messages import ChatSaid, ReactionSent

CHAT_MAX = 200  # characters of one chat message
EMOTES = ("thumbsUp", "laugh", "wow", "sad", "angry", "clap", "gg", "uno")


class ChatLimits:
    """How much each speaker, and a room's spectators together, may say (chat and
    reactions alike), in the ``limits`` notation ("5/10 seconds"; "" no limit)."""

    def __init__(self, counters: RestLimits, chat_rate: str, spectator_rate: str) -> None:
        self._counters = counters
        self.chat_rate = chat_rate
        self.spectator_rate = spectator_rate
        self._each: list[RateLimitItem] = rate_items(chat_rate)
        self._spectators: list[RateLimitItem] = rate_items(spectator_rate)

    async def refusal(self, room_id: str, pid: str | None, address: str) -> RoomError | None:
        """None if the socket's speaker may say one more thing now (it is counted), else
        why not (``chat_rate``). The speaker is counted first: a line it may not say
        spends none of the room's spectators' share."""
        speaker_key = pid if pid is not None else "@" + address
        if not await self._counters.hit(self._each, "chat", room_id, speaker_key):
            return RoomError(429, "chat_rate", f"at most {self.chat_rate} per speaker")
        if pid is None and not await self._counters.hit(self._spectators, "watch", room_id):
            return RoomError(
                429, "chat_rate", f"this room's spectators say at most {self.spectator_rate}"
            )
        return None


def clean_text(text: str) -> str:
    """The text as relayed: control, format and other unprintable characters out,
    trimmed, within :data:`CHAT_MAX`."""
    kept = without_format(text)
    cleaned = "".join(c for c in kept if c.isprintable() or c == " ").strip()
    if not cleaned:
        raise RoomError(422, "chat_empty", "a chat message needs some text")
    if len(cleaned) > CHAT_MAX:
        raise RoomError(422, "chat_too_long", f"a chat message is at most {CHAT_MAX} characters")
    return cleaned


def speaker(doc: dict[str, Any], pid: str | None) -> dict[str, Any]:
    """Who says it: a seat (with its name) or a spectator; refused if the host muted it."""
    if pid is None:
        return {"seat": None, "name": None, "spectator": True}
    player = player_by_pid(doc, pid)
    if player is None:
        raise RoomError(403, "not_seated", "this socket's seat is gone")
    if pid in doc.get("muted", ()):
        raise RoomError(403, "muted", "the host muted this seat's chat")
    return {"seat": player["seat"], "name": player["name"], "spectator": False}


def chat_message(who: dict[str, Any], text: str, ts: int) -> dict[str, Any]:
    return ChatSaid.build(**who, text=clean_text(text), ts=ts)


def reaction_message(who: dict[str, Any], emote: str, ts: int) -> dict[str, Any]:
    if emote not in EMOTES:
        raise RoomError(422, "bad_emote", f"unknown emote {emote!r}; known: {list(EMOTES)}")
    return ReactionSent.build(**who, emote=emote, ts=ts)


def reaches(message: dict[str, Any], spectator: bool) -> bool:
    """Whether a socket (a spectator's or not) gets ``message``."""
    return spectator or not message.get("spectator")
