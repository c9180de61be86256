"""The ``normal`` bot, which is also the autopilot of an absent seat.

On its turn it plays what a sensible player would:

- it keeps its wilds until no other card can be played (a wild is then its last resort,
  a Wild Draw Four before a plain Wild), and never plays a Wild Draw Four as a bluff;
- among the other cards it prefers a seven that swaps its hand for a smaller one, then
  the play that lays most cards, then an action card when the next player is close to
  going out, then the card that leaves most cards still playable on it (its colour, or
  for a single card its colour or rank), then the card worth most points;
- with a memory of the deal (:mod:`engine.bots.memory`) it leans to the colour the next
  player is known to lack, for the card it lays and the colour it names (the more so
  when that player is close to going out);
- it names the colour it holds most, swaps hands (a seven) with the opponent holding the
  fewest cards, and calls UNO with its next-to-last card;
- it draws only when it cannot play, and plays a drawn card that can be played;
- it never challenges a Wild Draw Four (a view carries no history to judge a bluff by).

Out of turn (unless ``in_turn_only``) it catches a seat that did not call UNO and jumps in
whenever it holds a copy of the top card. It always calls UNO for itself. UNO Rommy and
Bottle UNO have policies of their own in :mod:`engine.bots.party`.
"""

from __future__ import annotations

import random
from typing import Any

from engine.actions import Action
from engine.bots.memory import Memory
from engine.bots.reading import (
    View,
    color_counts,
    colors,
    complete_play,
    faces,
    fewest_cards_opponent,
    legal,
    needs_target,
    next_opponent,
    on_turn,
    remaining,
    rules_of,
    seven_swaps,
)
from engine.scoring import card_values
from engine.wild_draw_four import RESTRICTED, breaks_restriction

# Ranks that hurt the next player.
ATTACKS = frozenset({"S", "+2", "R", "+1", "+5", "SE", "W+4", "W+2", "WDC", "W+8", "A+2"})
THREAT = 2  # an opponent holding this many cards or fewer is about to go out
# A colour the next player is known to lack counts as this many cards of it held (more
# when that player is about to go out).
LACK = 1.0
LACK_CLOSE = 3.0


def choose_normal(
    view: View, rng: random.Random, in_turn_only: bool, memory: Memory | None = None
) -> Action | None:
    actions = legal(view)
    me = view.get("you")
    for action in actions:
        if action.type == "callUno" and view.get("unoExposed") == me:
            return action
    if not in_turn_only:
        for action in actions:
            if action.type == "catchUno":
                return action
    if not on_turn(view):
        if in_turn_only:
            return None
        return _jump_in(view, actions, rng, memory)
    phase = view.get("phase")
    if phase == "chooseColor":
        return Action("chooseColor", color=name_color(view, view.get("hand") or (), rng, memory))
    if phase == "draft":
        return Action("keep" if keeps_offer(view) else "discard")
    if phase != "playing":
        return None
    return turn_move(view, actions, rng, memory)


def turn_move(
    view: View, actions: list[Action], rng: random.Random, memory: Memory | None = None
) -> Action | None:
    """The turn holder's move during play."""
    plays = [a for a in actions if a.type == "play" and not is_bluff(view, a.cards)]
    if not plays and not any(a.type in ("draw", "pass") for a in actions):
        # Forced play (forcedPlay, forcedPlayDrawn): a bluff is better than no move.
        plays = [a for a in actions if a.type == "play"]
    face = faces(view)
    plain = [a for a in plays if not face[a.cards[-1]].is_wild]
    if plain:
        best = max(plain, key=lambda a: play_score(view, a.cards, memory))
        return finish(view, order_group(view, best.cards), rng, memory)
    if plays:
        # Stuck but for wilds: one that makes the next player draw first.
        best = max(plays, key=lambda a: (face[a.cards[-1]].rank in ATTACKS, -len(a.cards)))
        return finish(view, best.cards, rng, memory)
    for kind in ("draw", "pass"):
        for action in actions:
            if action.type == kind:
                return action
    return None


def finish(
    view: View, cards: tuple[str, ...], rng: random.Random, memory: Memory | None = None
) -> Action:
    """The play with the colour to name after it and the fewest-cards swap target."""
    rest = remaining(view.get("hand") or (), cards)
    color = name_color(view, rest, rng, memory)
    return complete_play(view, cards, color, fewest_cards_opponent(view))


def lack_weight(view: View) -> float:
    """How much a colour the next player lacks is worth, in cards held of a colour."""
    nxt = next_opponent(view)
    if nxt is None:
        return 0.0
    return LACK_CLOSE if nxt["cards"] <= THREAT else LACK


def lacked(view: View, color: str | None, memory: Memory | None) -> float:
    """The share of the next player's hand known to hold no card of ``color``."""
    nxt = next_opponent(view)
    if memory is None or nxt is None or color is None:
        return 0.0
    return memory.lacks(nxt["seat"], color)


def name_color(
    view: View, cards: list[str] | tuple[str, ...], rng: random.Random, memory: Memory | None
) -> str:
    """The colour held most in ``cards``, leaning to one the next player lacks; a tie is
    broken at random."""
    counts = color_counts(view, cards)
    weight = lack_weight(view) if memory is not None else 0.0
    scores = {c: counts[c] + weight * lacked(view, c, memory) for c in colors(view)}
    best = max(scores.values())
    return rng.choice([c for c, v in scores.items() if v >= best - 1e-9])


def is_bluff(view: View, cards: tuple[str, ...]) -> bool:
    """Would this play break the Wild Draw Four restriction (which a challenge punishes)?
    The engine's own judgement (engine.wild_draw_four), from the view."""
    face = faces(view)
    if face[cards[-1]].rank not in RESTRICTED:
        return False
    top = view.get("top")
    top_rank = face[top].rank if top else None
    hand = list(view.get("hand") or ())  # as the engine judges it: the hand before the play
    return breaks_restriction(rules_of(view), face, view.get("color"), top_rank, hand, cards[-1])


def play_score(view: View, cards: tuple[str, ...], memory: Memory | None = None) -> tuple[Any, ...]:
    """How much the turn holder likes playing ``cards`` (a non-wild play): bigger is better."""
    face = faces(view)
    rest = remaining(view.get("hand") or (), cards)
    last = face[cards[-1]]
    keep: float
    if len(cards) > 1:
        keep = max(color_counts(view, rest).values(), default=0)
    else:
        # The cards that still play on it if the colour stays: its colour or its rank.
        keep = sum(1 for c in rest if face[c].color == last.color or face[c].rank == last.rank)
    if memory is not None:
        keep += lack_weight(view) * lacked(view, last.color, memory)
    nxt = next_opponent(view)
    threatened = nxt is not None and nxt["cards"] <= THREAT and not _partner(view, nxt["seat"])
    attack = threatened and last.rank in ATTACKS
    swap_gain = 0
    if last.rank == "7" and seven_swaps(view):
        target = fewest_cards_opponent(view)
        if target is not None:
            swap_gain = max(0, len(rest) - view["players"][target]["cards"])
    value = card_values(rules_of(view), view.get("side") or "light")
    points = sum(value[c] for c in cards)
    return (swap_gain > 1, len(cards), attack, keep, swap_gain, points)


def _partner(view: View, seat: int) -> bool:
    """teams: is ``seat`` on this seat's own team (no one to attack)?"""
    teams = view.get("teams")
    if not teams:
        return False
    of = teams["of"]
    return bool(of[seat] == of[view["you"]])


def order_group(view: View, cards: tuple[str, ...]) -> tuple[str, ...]:
    """Several cards laid together: the first stays first (it is the one that matches),
    the last (whose colour stays in force) is the one of the colour held most after it."""
    if len(cards) < 2:
        return cards
    face = faces(view)
    kept = color_counts(view, remaining(view.get("hand") or (), cards))
    # A UNO Duo dump acts as its last card: an action card there hurts the next player.
    middle = sorted(cards[1:], key=lambda c: (kept[face[c].color or ""], face[c].rank in ATTACKS))
    return (cards[0], *middle)


def keeps_offer(view: View) -> bool:
    """UNO Duo's draft: keep wilds, action cards and cards of a colour already held."""
    card = view.get("offer")
    if card is None:
        return True
    info = faces(view)[card]
    if not info.is_number:
        return True
    return color_counts(view, view.get("hand") or ())[info.color or ""] > 0


def _jump_in(
    view: View, actions: list[Action], rng: random.Random, memory: Memory | None
) -> Action | None:
    """Out of turn: lay a copy of the top card whenever the rules allow it, unless it is a
    seven that would swap for a bigger hand."""
    for action in actions:
        if action.type != "play":
            continue
        if needs_target(view, action.cards, list(view.get("hand") or ())):
            target = fewest_cards_opponent(view)
            rest = len(view.get("hand") or ()) - len(action.cards)
            if target is None or view["players"][target]["cards"] > rest:
                continue
        return finish(view, action.cards, rng, memory)
    return None
