"""Forced play: ``forcedPlay`` (a player who can play must play: no voluntary draw) and
``forcedPlayDrawn`` (a playable card just drawn must be played: no keeping it).

A pending draw penalty may always be taken (``draw``) and a Wild Draw Four always
challenged: forcedPlay takes away only the draw a player chooses instead of playing.
"""

from __future__ import annotations

from engine.state import State

MUST_PLAY = "you can play a card, and this room plays forced play: play it"
MUST_PLAY_DRAWN = "the card you drew can be played, and this room plays it: play it"


def draw_forbidden(state: State, can_play: bool) -> bool:
    """Is the turn holder's voluntary draw refused, ``can_play`` saying whether some card
    of the hand may be played now?"""
    return state.rules.forced_play and can_play and not state.pending and not state.follow


def keeping_forbidden(state: State, drawn_playable: bool) -> bool:
    """May the turn holder not pass (keep the card just drawn), ``drawn_playable`` saying
    whether that card may still be played?"""
    return state.rules.forced_play_drawn and drawn_playable
