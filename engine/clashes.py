"""Options that contradict each other: a rules object setting both is refused.

Each clash is one function of the rules that names what clashes, or returns None. They
are checked once, when a rules object is built (``rules_from_json``, ``with_options``);
a clash that depends on the table (``teams`` and the number of players) is checked when
the match starts, by :func:`check_players`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol, TypeVar

from engine.errors import InvalidRules


class Options(Protocol):
    """The options a clash reads (engine.rules.Rules, which checks itself here when it is
    built, has them all: this module does not import it back)."""

    @property
    def blind_draw(self) -> bool: ...
    @property
    def bomb(self) -> bool: ...
    @property
    def drawn_card_playable(self) -> bool: ...
    @property
    def forced_play_drawn(self) -> bool: ...
    @property
    def hand_limit(self) -> int: ...
    @property
    def hand_limit_rule(self) -> str: ...
    @property
    def match_mode(self) -> str: ...
    @property
    def multi_play(self) -> bool: ...
    @property
    def placings(self) -> bool: ...
    @property
    def stack_draw_four(self) -> bool: ...
    @property
    def stack_wild_draw_four(self) -> bool: ...
    @property
    def stacking(self) -> bool: ...
    @property
    def strict_uno(self) -> bool: ...
    @property
    def teams(self) -> int: ...
    @property
    def uno_penalty(self) -> int: ...


R = TypeVar("R", bound=Options)


def _stack_draw_four(rules: Options) -> str | None:
    if rules.stack_draw_four and rules.stacking and not rules.stack_wild_draw_four:
        return (
            "stackDrawFour lets a Wild Draw Four stack on a Wild Draw Four, which"
            " stacking with stackWildDrawFour false forbids: set one of them"
        )
    return None


def _forced_play_drawn(rules: Options) -> str | None:
    if rules.forced_play_drawn and not rules.drawn_card_playable:
        return (
            "forcedPlayDrawn makes a playable drawn card be played, which"
            " drawnCardPlayable false forbids: set one of them"
        )
    return None


def _blind_draw(rules: Options) -> str | None:
    if rules.blind_draw and not rules.forced_play_drawn:
        return (
            "blindDraw needs forcedPlayDrawn: nobody may choose to play or keep a card"
            " they have not seen"
        )
    return None


def _strict_uno(rules: Options) -> str | None:
    if rules.strict_uno and rules.uno_penalty == 0:
        return "strictUno needs a penalty to catch a late UNO with: unoPenalty is 0"
    return None


def _bomb(rules: Options) -> str | None:
    if rules.bomb and not rules.multi_play:
        return "bomb needs multiPlay: three cards of one number are played together"
    return None


def _teams(rules: Options) -> str | None:
    if rules.teams and rules.match_mode == "knockout":
        return "teams add partners' scores, which matchMode knockout (each player alone) forbids"
    return None


def _placings(rules: Options) -> str | None:
    if not rules.placings:
        return None
    if rules.teams:
        return (
            "placings plays on until one player is left, which teams (a partner going out"
            " wins the deal for the team) forbids: set one of them"
        )
    if rules.match_mode == "knockout":
        return (
            "placings puts players who went out of the deal out of it, which matchMode"
            " knockout (out of the match by the totals) forbids: set one of them"
        )
    if rules.hand_limit and rules.hand_limit_rule == "out":
        return (
            "placings scores the order players go out in, which handLimit with"
            " handLimitRule out (out of the deal holding cards) forbids: set one of them"
        )
    return None


CLASHES: list[Callable[[Options], str | None]] = [
    _teams,
    _placings,
    _stack_draw_four,
    _forced_play_drawn,
    _blind_draw,
    _strict_uno,
    _bomb,
]


def check_clashes(rules: R) -> R:
    """``rules`` itself, if no two of its options contradict each other.

    :raises InvalidRules: ``rules/clash``, the message naming the options that clash.
    """
    for clash in CLASHES:
        problem = clash(rules)
        if problem is not None:
            raise InvalidRules("rules/clash", problem)
    return rules
