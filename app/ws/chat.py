"""Chat and reactions over a room's socket: talk, not game changes.

A ``chat {text}`` or ``react {emote}`` from a socket is checked here (length, rate, the
host's mute, the emote list) and relayed at once to every socket of the room on every node
(``RoomService.say``): no command in the room's log, no ``seq``, no patch, nothing kept.
Seats' messages reach everyone; spectators' reach only spectators (a separate chat, so the
players are not talked at by people who are not playing). Text is sent as it was typed,
trimmed; clients show it as text (never as HTML). See docs/protocol.md, "Chat and
reactions".
"""

from __future__ import annotations

import time
from typing import Any

from app.rooms.doc import player_by_pid
from app.wire.messages import ChatSaid, ReactionSent

CHAT_MAX = 200  # characters of one chat message
EMOTES = ("thumbsUp", "laugh", "wow", "sad", "angry", "clap", "gg", "uno")
# Per socket: this many messages (chat and reactions together) per window, then refused.
BURST = 5
WINDOW_SECONDS = 10.0


class ChatRefused(Exception):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class ChatLimiter:
    """A socket's sliding window of recent messages (time passed in for tests)."""

    def __init__(self, burst: int = BURST, window: float = WINDOW_SECONDS) -> None:
        self.burst = burst
        self.window = window
        self._sent: list[float] = []

    def allow(self, now: float | None = None) -> bool:
        now = time.monotonic() if now is None else now
        self._sent = [t for t in self._sent if now - t < self.window]
        if len(self._sent) >= self.burst:
            return False
        self._sent.append(now)
        return True


def clean_text(text: str) -> str:
    """The text as relayed: control characters out, trimmed, within :data:`CHAT_MAX`."""
    cleaned = "".join(c for c in text if c.isprintable() or c == " ").strip()
    if not cleaned:
        raise ChatRefused("chat_empty", "a chat message needs some text")
    if len(cleaned) > CHAT_MAX:
        raise ChatRefused("chat_too_long", f"a chat message is at most {CHAT_MAX} characters")
    return cleaned


def speaker(doc: dict[str, Any], pid: str | None) -> dict[str, Any]:
    """Who says it: a seat (with its name) or a spectator; refused if the host muted it."""
    if pid is None:
        return {"seat": None, "name": None, "spectator": True}
    player = player_by_pid(doc, pid)
    if player is None:
        raise ChatRefused("not_seated", "this socket's seat is gone")
    if pid in doc.get("muted", ()):
        raise ChatRefused("muted", "the host muted this seat's chat")
    return {"seat": player["seat"], "name": player["name"], "spectator": False}


def chat_message(who: dict[str, Any], text: str, ts: int) -> dict[str, Any]:
    return ChatSaid.build(**who, text=clean_text(text), ts=ts)


def reaction_message(who: dict[str, Any], emote: str, ts: int) -> dict[str, Any]:
    if emote not in EMOTES:
        raise ChatRefused("bad_emote", f"unknown emote {emote!r}; known: {list(EMOTES)}")
    return ReactionSent.build(**who, emote=emote, ts=ts)


def reaches(message: dict[str, Any], spectator: bool) -> bool:
    """Whether a socket (a spectator's or not) gets ``message``."""
    return spectator or not message.get("spectator")
