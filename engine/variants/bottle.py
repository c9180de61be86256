"""Bottle UNO (preset ``bottle``, Danish "Flaske UNO"): turn a card, do what it says.

The server shuffles the deck face down. The turn holder turns the top card (``turnCard``);
the card names an action (docs/variants-party.md) which the engine tallies
where it can (sips) and announces where the table does it (a category, a waterfall, a rule,
a finger game). Seats are numbered clockwise, so a seat's left neighbour is ``seat + 1`` and
its right neighbour ``seat - 1``.

| card | action key | what the engine does |
|---|---|---|
| 0 | ``category`` | announces it (the turner names a category, everyone in turn names one) |
| 1-5 red / blue | ``drink`` | the turner drinks that many sips |
| 1-5 green / yellow | ``give`` | the turner gives that many sips (see below) |
| 6 | ``waterfall`` | announces it |
| 7 | ``peeCard`` | the turner gets a pee card (counted per seat) |
| 8 | ``rule`` | announces it (the turner makes a rule) |
| 9 | ``finger`` | announces it |
| Skip | ``skip`` | the next player is skipped |
| Reverse | ``reverse`` | the direction of play reverses |
| Wild | ``toast`` | a common toast: everyone drinks 1 |
| Draw Two red / blue | ``drawTwo`` | 2 sips to the turner's right neighbour |
| Draw Two green / yellow | ``drawTwo`` | 2 sips to the turner's left neighbour |
| Wild Draw Four | ``drawFour`` | 4 sips to each neighbour (one player at a table of two) |

Green / yellow sips go to the seat the ``turnCard`` action names as ``target``, else to the
next player in the direction of play.

When the last card has been turned the round is over (``dealOver``); ``nextDeal``
reshuffles the whole deck for the next round. With ``roundLimit`` set, the game ends
(``matchOver``) after that many rounds; with 0 it goes on until the room closes it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any, NamedTuple

from engine.actions import Action, check_seat
from engine.cards import CARD_INFO, build_deck, is_card
from engine.errors import IllegalAction
from engine.events import Event
from engine.game_registry import GameKind, register
from engine.rules import Rules
from engine.variants.skeleton import (
    dealt_again,
    match_fields,
    match_json,
    scenario_start,
    seated,
    shuffled,
)

Transition = tuple["BottleState", list[Event]]
Sip = tuple[int, int, str]  # (seat, sips, reason)

TAKE_COLORS = frozenset({"R", "B"})  # red / blue: drink yourself, Draw Two to the right
TOAST_SIPS = 1
DRAW_TWO_SIPS = 2
DRAW_FOUR_SIPS = 4
# What a turnCard event (and lastAction) may say besides the seat, card, action and count.
DETAILS = ("target", "side", "skipped", "direction", "everyone")


class Turned(NamedTuple):
    """What the last turned card did: who turned it, the card, its action key, the sips
    each receiver drinks (``each``, 0 for a card that gives none), the details its
    ``turnCard`` event carries (``target``, ``side``, ``skipped``, ``direction``,
    ``everyone``, as the action has them) and the sips."""

    seat: int
    card: str
    action: str
    sips: tuple[Sip, ...]
    each: int = 0  # ``count`` on the wire
    details: tuple[tuple[str, Any], ...] = ()

    def event(self) -> Event:
        """The ``turnCard`` event of this turn."""
        return {
            "type": "turnCard",
            "seat": self.seat,
            "card": self.card,
            "action": self.action,
            "count": self.each,
            **dict(self.details),
        }

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "card": self.card,
            "action": self.action,
            "count": self.each,
            **dict(self.details),
            "sips": [{"seat": s, "count": n, "reason": r} for s, n, r in self.sips],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Turned:
        sips = tuple((int(s["seat"]), int(s["count"]), str(s["reason"])) for s in data["sips"])
        details = tuple((k, data[k]) for k in DETAILS if k in data)
        return cls(
            int(data["seat"]),
            str(data["card"]),
            str(data["action"]),
            sips,
            int(data.get("count", 0)),
            details,
        )


@dataclass(frozen=True, slots=True)
class BottleState:
    """A Bottle UNO game at one moment (immutable: transitions build a new one)."""

    rules: Rules
    players: int
    seed: str
    shuffles: int
    deal: int  # the round: one pass through the deck
    dealer: int
    phase: str  # playing | dealOver | matchOver
    pile: tuple[str, ...]  # face down, top last
    turned: tuple[str, ...]  # face up, top last
    turn: int
    direction: int
    drinks: tuple[int, ...]  # sips per seat
    sips: tuple[Sip, ...]  # every sip with its reason, in order
    pee_cards: tuple[int, ...]  # pee cards per seat
    last: Turned | None
    moves: int

    @property
    def match_over(self) -> bool:
        return self.phase == "matchOver"

    @property
    def totals(self) -> tuple[int, ...]:
        """The sip tally (Bottle UNO keeps no other score)."""
        return self.drinks

    @property
    def deal_scores(self) -> tuple[int, ...] | None:
        """Bottle UNO scores no deal."""
        return None

    @property
    def winner(self) -> int | None:
        return None

    @property
    def top(self) -> str | None:
        return self.turned[-1] if self.turned else None

    def to_json(self) -> dict[str, Any]:
        return {
            **match_json("bottle", self),
            "pile": list(self.pile),
            "turned": list(self.turned),
            "turn": self.turn,
            "direction": self.direction,
            "drinks": list(self.drinks),
            "sips": [list(s) for s in self.sips],
            "peeCards": list(self.pee_cards),
            "last": None if self.last is None else self.last.to_json(),
            "moves": self.moves,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> BottleState:
        last = data["last"]
        return cls(
            **match_fields(data),
            pile=tuple(data["pile"]),
            turned=tuple(data["turned"]),
            turn=int(data["turn"]),
            direction=int(data["direction"]),
            drinks=tuple(data["drinks"]),
            sips=tuple((int(s), int(n), str(r)) for s, n, r in data["sips"]),
            pee_cards=tuple(data["peeCards"]),
            last=None if last is None else Turned.from_json(last),
            moves=int(data["moves"]),
        )


def card_action(card: str) -> str:
    """The action key a card names (see the module's table)."""
    info = CARD_INFO[card]
    rank = info.rank
    if info.is_wild:
        return "drawFour" if rank == "W+4" else "toast"
    if rank == "0":
        return "category"
    if rank in ("1", "2", "3", "4", "5"):
        return "drink" if info.color in TAKE_COLORS else "give"
    return {
        "6": "waterfall",
        "7": "peeCard",
        "8": "rule",
        "9": "finger",
        "S": "skip",
        "R": "reverse",
        "+2": "drawTwo",
    }[rank]


# --- Starting ------------------------------------------------------------------------------


def _shuffled(state: BottleState) -> BottleState:
    pile = build_deck(state.rules.deck, state.rules.decks)
    return replace(shuffled(state, pile), pile=tuple(pile), turned=())


def empty_game(rules: Rules, players: int, seed: str, dealer: int) -> BottleState:
    """A game before the first round: nothing shuffled yet."""
    return BottleState(
        rules=rules,
        players=players,
        seed=seed,
        shuffles=0,
        deal=0,
        dealer=dealer,
        phase="dealOver",
        pile=(),
        turned=(),
        turn=(dealer + 1) % players,
        direction=1,
        drinks=(0,) * players,
        sips=(),
        pee_cards=(0,) * players,
        last=None,
        moves=0,
    )


def _start_round(state: BottleState, pile_top_first: Sequence[str] | None = None) -> Transition:
    if pile_top_first is None:
        state = _shuffled(state)
    else:
        state = replace(state, pile=tuple(reversed(pile_top_first)), turned=())
    state = replace(state, deal=state.deal + 1, phase="playing" if state.pile else "dealOver")
    return state, [{"type": "deal", "deal": state.deal, "dealer": state.dealer}]


def deal_again(state: BottleState) -> BottleState:
    """The round ``state`` is the start of, shuffled again from its seed (for the
    verifier)."""
    return dealt_again(state, _start_round)


def new_match(rules: Rules, players: int, seed: str, dealer: int | None = None) -> Transition:
    """A Bottle UNO game with the deck shuffled; the dealer's left turns first."""
    return seated("Bottle UNO", rules, players, seed, dealer, empty_game, _start_round)


# --- Transitions ---------------------------------------------------------------------------


def _turn_card(state: BottleState, seat: int, act: Action) -> Transition:
    if state.phase != "playing":
        raise IllegalAction("wrong_phase", f"cannot turn a card during {state.phase!r}")
    if seat != state.turn:
        raise IllegalAction("not_your_turn", f"it is seat {state.turn}'s turn, not seat {seat}'s")
    n = state.players
    target = act.target
    if target is not None and (not 0 <= target < n or target == seat):
        raise IllegalAction("bad_target", f"seat {target} cannot be given sips by seat {seat}")
    card = state.pile[-1]
    info = CARD_INFO[card]
    action = card_action(card)
    direction = state.direction
    steps = 1
    left, right = (seat + 1) % n, (seat - 1) % n
    sips: list[Sip] = []
    details: dict[str, Any] = {}
    if action == "drink":
        sips.append((seat, int(info.rank), "drink"))
    elif action == "give":
        to = target if target is not None else (seat + direction) % n
        sips.append((to, int(info.rank), "given"))
        details["target"] = to
    elif action == "toast":
        sips += [(s, TOAST_SIPS, "toast") for s in range(n)]
    elif action == "drawTwo":
        side = "right" if info.color in TAKE_COLORS else "left"
        sips.append((right if side == "right" else left, DRAW_TWO_SIPS, "drawTwo"))
        details["side"] = side
    elif action == "drawFour":
        sips += [(s, DRAW_FOUR_SIPS, "drawFour") for s in dict.fromkeys((right, left))]
    elif action == "skip":
        steps = 2
        details["skipped"] = (seat + direction) % n
    elif action == "reverse":
        direction = -direction
        details["direction"] = direction
    elif action == "category":
        details["everyone"] = True
    else:
        details["everyone"] = action == "waterfall"
    # Each receiver drinks the same: the number of sips the card gives (0: none).
    count = sips[0][1] if sips else 0
    last = Turned(seat, card, action, tuple(sips), count, tuple(details.items()))
    drinks = list(state.drinks)
    for who, n_sips, _ in sips:
        drinks[who] += n_sips
    pee = state.pee_cards
    if action == "peeCard":
        pee = pee[:seat] + (pee[seat] + 1,) + pee[seat + 1 :]
    pile = state.pile[:-1]
    phase = "playing"
    if not pile:
        limit = state.rules.round_limit
        phase = "matchOver" if limit > 0 and state.deal >= limit else "dealOver"
    new = replace(
        state,
        phase=phase,
        pile=pile,
        turned=state.turned + (card,),
        turn=(seat + direction * steps) % n,
        direction=direction,
        drinks=tuple(drinks),
        sips=state.sips + tuple(sips),
        pee_cards=pee,
        last=last,
        moves=state.moves + 1,
    )
    events: list[Event] = [last.event()]
    events += [{"type": "sips", "seat": s, "count": c, "reason": r} for s, c, r in sips]
    if phase != "playing":
        events.append({"type": "dealOver", "deal": state.deal, "drinks": list(drinks)})
    if phase == "matchOver":
        events.append({"type": "matchOver", "winner": None, "drinks": list(drinks)})
    return new, events


def _next_deal(state: BottleState, seat: int, act: Action) -> Transition:
    if state.phase != "dealOver":
        raise IllegalAction("wrong_phase", f"cannot start the next round during {state.phase!r}")
    return _start_round(replace(state, moves=state.moves + 1))


def apply(state: BottleState, seat: int, action: Action) -> Transition:
    """The state after ``seat`` takes ``action`` (never mutates ``state``).

    :raises InvalidAction: a bad seat.
    :raises IllegalAction: not allowed now (``err.code`` says why).
    """
    seat = check_seat(seat, state.players)
    if action.type == "turnCard":
        return _turn_card(state, seat, action)
    if action.type == "nextDeal":
        return _next_deal(state, seat, action)
    raise IllegalAction("not_in_this_game", f"Bottle UNO has no {action.type!r} action")


def legal_actions(state: BottleState, seat: int) -> list[Action]:
    """``turnCard`` for the turn holder (also once per other seat as the ``target`` for
    green / yellow 1-5 sips), ``nextDeal`` for anyone after a round."""
    if state.phase == "dealOver":
        return [Action("nextDeal")]
    if state.phase != "playing" or seat != state.turn:
        return []
    others = [Action("turnCard", target=s) for s in range(state.players) if s != seat]
    return [Action("turnCard"), *others]


# --- Views --------------------------------------------------------------------------------


def view_for(state: BottleState, seat: int | None) -> dict[str, Any]:
    """Everything is public in Bottle UNO except the order of the face-down pile."""
    is_seat = seat is not None and 0 <= seat < state.players
    me = seat if is_seat else None
    top = state.top
    return {
        "game": "bottle",
        "you": me,
        "hand": [],
        "players": [
            {"seat": s, "cards": 0, "score": state.drinks[s], "out": False}
            for s in range(state.players)
        ],
        "top": top,
        "color": CARD_INFO[top].color if top else None,
        "turn": state.turn,
        "direction": state.direction,
        "drawPile": len(state.pile),
        "turned": len(state.turned),
        "pendingDraw": 0,
        "phase": state.phase,
        "rules": state.rules.to_json(),
        "legal": [a.to_json() for a in legal_actions(state, me)] if me is not None else [],
        "deal": state.deal,
        "dealer": state.dealer,
        "drawn": None,
        "unoExposed": None,
        "dealScores": None,
        "totals": list(state.drinks),
        "winner": None,
        "matchOver": state.match_over,
        "reveal": None,
        "drinks": list(state.drinks),
        "sips": [{"seat": s, "count": n, "reason": r} for s, n, r in state.sips],
        "peeCards": list(state.pee_cards),
        "lastAction": None if state.last is None else state.last.to_json(),
        "moves": state.moves,
    }


def summary(state: BottleState) -> dict[str, Any]:
    """The scenario runner's ``state`` (docs/engine-api.md) plus ``lastAction``."""
    top = state.top
    return {
        "phase": state.phase,
        "turn": state.turn,
        "direction": state.direction,
        "top": top,
        "color": CARD_INFO[top].color if top else None,
        "hands": [[] for _ in range(state.players)],
        "drawPile": len(state.pile),
        "pendingDraw": 0,
        "deal": state.deal,
        "dealer": state.dealer,
        "dealScores": None,
        "totals": list(state.drinks),
        "winner": None,
        "matchOver": state.match_over,
        "drinks": list(state.drinks),
        "lastAction": None if state.last is None else state.last.to_json(),
        "turned": list(reversed(state.turned)),
        "drawPileCards": list(reversed(state.pile)),
        "peeCards": list(state.pee_cards),
        "sips": [{"seat": s, "count": n, "reason": r} for s, n, r in state.sips],
    }


def all_cards(state: BottleState) -> list[str]:
    """Every card of the game, face down or turned (for conservation checks)."""
    return list(state.pile) + list(state.turned)


# --- Scenario support ------------------------------------------------------------------------


def from_deck(
    rules: Rules, players: int, seed: str, dealer: int, deck_top_first: Sequence[str]
) -> BottleState:
    """A game whose first round turns ``deck_top_first`` in that order (scenario ``deck``)."""
    return _start_round(empty_game(rules, players, seed, dealer), deck_top_first)[0]


def from_setup(
    rules: Rules, players: int, seed: str, dealer: int, setup: dict[str, Any]
) -> BottleState:
    """A position set up directly (scenario ``setup``): ``drawPile`` (top first), ``turn``,
    ``direction``, ``drinks`` (per seat).

    :raises ValueError: a malformed setup.
    """
    pile = setup.get("drawPile", setup.get("deck"))
    if not isinstance(pile, list) or not pile or not all(is_card(c) for c in pile):
        raise ValueError("setup 'drawPile' must list the cards to turn, top first")
    turn = setup.get("turn", (dealer + 1) % players)
    if isinstance(turn, bool) or not isinstance(turn, int) or not 0 <= turn < players:
        raise ValueError(f"setup 'turn' must be a seat from 0 to {players - 1}")
    direction = setup.get("direction", 1)
    if direction not in (1, -1):
        raise ValueError("setup 'direction' must be 1 or -1")
    drinks = setup.get("drinks", [0] * players)
    if (
        not isinstance(drinks, list)
        or len(drinks) != players
        or not all(isinstance(d, int) and not isinstance(d, bool) and d >= 0 for d in drinks)
    ):
        raise ValueError(f"setup 'drinks' must list {players} numbers")
    state = from_deck(rules, players, seed, dealer, pile)
    return replace(state, turn=turn, direction=direction, drinks=tuple(drinks))


def initial_state(
    rules: Rules, players: int, seed: str, dealer: int | None, scenario: dict[str, Any]
) -> BottleState:
    """The scenario runner's starting state: ``setup``, a stacked ``deck`` (the cards to turn,
    top first) or a seeded shuffle.

    :raises ValueError: a malformed ``setup`` or ``deck``.
    """
    return scenario_start(
        scenario,
        lambda setup: from_setup(rules, players, seed, dealer or 0, setup),
        lambda deck: from_deck(rules, players, seed, dealer or 0, deck),
        lambda: new_match(rules, players, seed, dealer)[0],
        _deck_cards,
    )


def _deck_cards(deck: object) -> list[str]:
    if not isinstance(deck, list) or not deck or not all(is_card(c) for c in deck):
        raise ValueError("'deck' must be a non-empty list of card codes")
    return deck


register(
    GameKind(
        name="bottle",
        new_match=new_match,
        apply=apply,
        legal_actions=legal_actions,
        view_for=view_for,
        summary=summary,
        from_json=BottleState.from_json,
        state_class=BottleState,
        deal_again=deal_again,
        options=("decks", "roundLimit", "drinks", "sipsAsPoints"),
    )
)
