"""UNO Rommy's deals and turns: dealing, the checks of each move, the transitions, the
legal actions."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import replace

from engine.actions import Action, ActionType, check_seat
from engine.cards import CARD_INFO, build_deck
from engine.drinks import hand_sips
from engine.errors import IllegalAction, InvalidAction
from engine.events import Event
from engine.rules import Rules
from engine.variants.rommy.melds import (
    candidate_melds,
    fits,
    is_joker,
    joker_for,
    lay_off,
    new_meld,
    swap_joker,
)
from engine.variants.rommy.state import (
    DRAW_TWO_CARDS,
    HAND_SIZE,
    JOKER_SWAP_SIPS,
    RommyState,
    Transition,
    card_points,
    empty_match,
)
from engine.variants.skeleton import dealt_again, seated, shuffled

# --- Starting ------------------------------------------------------------------------------


def start_deal(state: RommyState, deck_top_first: Sequence[str] | None = None) -> Transition:
    """Deal the next deal: seven each from the dealer's left, then the first discard.

    ``deck_top_first`` stacks the deck (scenarios); otherwise the full deck is shuffled.
    """
    if deck_top_first is None:
        pile = build_deck(state.rules.deck, state.rules.decks)
        state = shuffled(state, pile)
    else:
        pile = list(reversed(deck_top_first))
    n = state.players
    hands: list[list[str]] = [[] for _ in range(n)]
    for _ in range(HAND_SIZE):
        for k in range(1, n + 1):
            if pile:
                hands[(state.dealer + k) % n].append(pile.pop())
    discard = (pile.pop(),) if pile else ()
    first = (state.dealer + 1) % n
    new = replace(
        state,
        deal=state.deal + 1,
        phase="playing",
        step="draw",
        hands=tuple(tuple(h) for h in hands),
        stock=tuple(pile),
        discard=discard,
        melds=(),
        turn=first,
        direction=1,
        pending=0,
        must_meld=False,
        deal_scores=None,
        winner=None,
    )
    events: list[Event] = [
        {"type": "deal", "deal": new.deal, "dealer": new.dealer},
        {"type": "firstCard", "card": new.top},
    ]
    return new, events


def deal_again(state: RommyState) -> RommyState:
    """The deal ``state`` is the start of, dealt again from its seed (for the verifier)."""
    return dealt_again(state, start_deal)


def new_match(rules: Rules, players: int, seed: str, dealer: int | None = None) -> Transition:
    """A Rommy match with its first deal dealt."""
    return seated("UNO Rommy", rules, players, seed, dealer, empty_match, start_deal)


# --- Checks --------------------------------------------------------------------------------


def _check_turn(state: RommyState, seat: int, step: str, what: str) -> None:
    if state.phase != "playing":
        raise IllegalAction("wrong_phase", f"cannot {what} during {state.phase!r}")
    if seat != state.turn:
        raise IllegalAction("not_your_turn", f"it is seat {state.turn}'s turn, not seat {seat}'s")
    if state.step != step:
        if step == "draw":
            raise IllegalAction(
                "already_drew", "you have drawn this turn: meld, lay off or discard"
            )
        raise IllegalAction("draw_first", f"draw or take from the discard pile before you {what}")


def _check_no_must_meld(state: RommyState, what: str) -> None:
    if state.must_meld:
        raise IllegalAction(
            "must_meld", f"you took the pile: meld at least 3 cards before you {what}"
        )


def _remove(hand: tuple[str, ...], cards: Sequence[str]) -> tuple[str, ...]:
    """``hand`` without ``cards`` (the first copy of each, holding order kept)."""
    need = Counter(cards)
    held = Counter(hand)
    for card, k in need.items():
        if held[card] < k:
            raise IllegalAction("card_not_in_hand", f"you do not hold {card!r}")
    out: list[str] = []
    for card in hand:
        if need[card]:
            need[card] -= 1
        else:
            out.append(card)
    return tuple(out)


def _keep_one(rest: tuple[str, ...]) -> None:
    if not rest:
        raise IllegalAction(
            "must_keep_a_discard", "keep one card: you go out by discarding your last card"
        )


def _check_target(state: RommyState, target: int | None) -> int:
    if target is None:
        raise InvalidAction("target_required", "name the meld ('target', its index)")
    if not 0 <= target < len(state.melds):
        raise IllegalAction("no_such_meld", f"there is no meld {target}")
    return target


def _set_hand(state: RommyState, seat: int, hand: tuple[str, ...]) -> tuple[tuple[str, ...], ...]:
    return state.hands[:seat] + (hand,) + state.hands[seat + 1 :]


def _drink(
    state: RommyState, seat: int, count: int, reason: str, events: list[Event]
) -> RommyState:
    if state.drinks is None or count <= 0:
        return state
    drinks = list(state.drinks)
    drinks[seat] += count
    events.append({"type": "sips", "seat": seat, "count": count, "reason": reason})
    return replace(state, drinks=tuple(drinks), sips=state.sips + ((seat, count, reason),))


def _next(state: RommyState, seat: int, steps: int = 1) -> int:
    return (seat + state.direction * steps) % state.players


# --- Transitions ---------------------------------------------------------------------------


def _draw_cards(
    state: RommyState, seat: int, count: int, events: list[Event], reason: str
) -> RommyState:
    """``seat`` draws ``count`` from the stock, reshuffling the discard pile (all but its top
    card) into a new stock when the stock runs out; with nothing left it draws fewer."""
    stock = list(state.stock)
    discard = state.discard
    got: list[str] = []
    for _ in range(count):
        if not stock and len(discard) > 1:
            rest = list(discard[:-1])
            state = shuffled(state, rest)
            stock = rest
            discard = discard[-1:]
            events.append({"type": "reshuffle", "cards": len(stock)})
        if not stock:
            break
        got.append(stock.pop())
    hand = state.hands[seat] + tuple(got)
    events.append(
        {
            "type": "draw",
            "seat": seat,
            "count": len(got),
            "reason": reason,
            "to": seat,
            "private": {"cards": got},
        }
    )
    return replace(state, stock=tuple(stock), discard=discard, hands=_set_hand(state, seat, hand))


def _draw(state: RommyState, seat: int, act: Action) -> Transition:
    _check_turn(state, seat, "draw", "draw")
    events: list[Event] = []
    count = state.pending or 1
    new = _draw_cards(state, seat, count, events, "drawTwo" if state.pending else "draw")
    if state.pending:
        new = _drink(new, seat, DRAW_TWO_CARDS, "drawTwo", events)
    return replace(new, step="play", pending=0, moves=state.moves + 1), events


def _check_take(state: RommyState, seat: int, what: str) -> None:
    _check_turn(state, seat, "draw", what)
    if state.pending:
        raise IllegalAction(
            "must_draw", f"a Draw Two was played on you: draw {state.pending} from the stock"
        )
    if not state.discard:
        raise IllegalAction("discard_empty", "the discard pile is empty")


def _take_discard(state: RommyState, seat: int, act: Action) -> Transition:
    _check_take(state, seat, "take the top discard")
    card = state.discard[-1]
    hand = state.hands[seat] + (card,)
    new = replace(
        state,
        discard=state.discard[:-1],
        hands=_set_hand(state, seat, hand),
        step="play",
        moves=state.moves + 1,
    )
    return new, [{"type": "takeDiscard", "seat": seat, "card": card}]


def can_take_pile(state: RommyState, seat: int) -> bool:
    """True when the pile and ``seat``'s hand hold a meld that leaves a card to discard."""
    cards = state.hands[seat] + state.discard
    return any(len(m) < len(cards) for m in candidate_melds(cards))


def _take_pile(state: RommyState, seat: int, act: Action) -> Transition:
    _check_take(state, seat, "take the discard pile")
    if not can_take_pile(state, seat):
        raise IllegalAction(
            "pile_needs_meld",
            "take the pile only when you can then meld at least 3 cards (and keep one)",
        )
    taken = state.discard
    hand = state.hands[seat] + tuple(reversed(taken))
    new = replace(
        state,
        discard=(),
        hands=_set_hand(state, seat, hand),
        step="play",
        must_meld=True,
        moves=state.moves + 1,
    )
    return new, [{"type": "takePile", "seat": seat, "cards": list(reversed(taken))}]


def _meld(state: RommyState, seat: int, act: Action) -> Transition:
    _check_turn(state, seat, "play", "meld")
    rest = _remove(state.hands[seat], act.cards)
    meld = new_meld(act.cards, seat)
    _keep_one(rest)
    new = replace(
        state,
        hands=_set_hand(state, seat, rest),
        melds=state.melds + (meld,),
        must_meld=False,
        moves=state.moves + 1,
    )
    event = {"type": "meld", "seat": seat, "meld": len(state.melds), **meld.to_json()}
    return new, [event]


def _lay_off(state: RommyState, seat: int, act: Action) -> Transition:
    _check_turn(state, seat, "play", "lay off")
    _check_no_must_meld(state, "lay off")
    target = _check_target(state, act.target)
    rest = _remove(state.hands[seat], act.cards)
    old = state.melds[target]
    meld = lay_off(old, act.cards, seat)
    _keep_one(rest)
    melds = state.melds[:target] + (meld,) + state.melds[target + 1 :]
    new = replace(state, hands=_set_hand(state, seat, rest), melds=melds, moves=state.moves + 1)
    k = len(act.cards)
    # The cards as they now lie: on the low end of a run (its first number changed), else
    # on the high end.
    laid = meld.cards[:k] if meld.stands[0] != old.stands[0] else meld.cards[-k:]
    event = {"type": "layOff", "seat": seat, "meld": target, "cards": list(laid)}
    return new, [event]


def _swap_joker(state: RommyState, seat: int, act: Action) -> Transition:
    _check_turn(state, seat, "play", "swap a joker")
    _check_no_must_meld(state, "swap a joker")
    target = _check_target(state, act.target)
    if len(act.cards) != 1:
        raise InvalidAction("one_card_only", "swap one real card for one joker")
    card = act.cards[0]
    rest = _remove(state.hands[seat], act.cards)
    meld, joker, owner = swap_joker(state.melds[target], card, seat)
    melds = state.melds[:target] + (meld,) + state.melds[target + 1 :]
    new = replace(
        state,
        hands=_set_hand(state, seat, rest + (joker,)),
        melds=melds,
        moves=state.moves + 1,
    )
    events: list[Event] = [
        {
            "type": "swapJoker",
            "seat": seat,
            "meld": target,
            "card": card,
            "joker": joker,
            "jokerOwner": owner,
        }
    ]
    if joker == "W+4":
        new = _drink(new, owner, JOKER_SWAP_SIPS, "jokerSwapped", events)
    return new, events


def _discard_card(state: RommyState, seat: int, act: Action) -> Transition:
    _check_turn(state, seat, "play", "discard")
    _check_no_must_meld(state, "discard")
    if len(act.cards) != 1:
        raise InvalidAction("one_card_only", "discard exactly one card")
    card = act.cards[0]
    rest = _remove(state.hands[seat], act.cards)
    info = CARD_INFO[card]
    under = state.top
    acts = (
        info.rank in ("S", "R", "+2") and under is not None and CARD_INFO[under].color == info.color
    )
    events: list[Event] = [{"type": "discardCard", "seat": seat, "card": card, "acts": acts}]
    new = replace(
        state,
        hands=_set_hand(state, seat, rest),
        discard=state.discard + (card,),
        step="draw",
        moves=state.moves + 1,
    )
    steps = 1
    pending = 0
    if acts and info.rank == "S":
        steps = 2
        events.append({"type": "skip", "seat": _next(new, seat)})
    elif acts and info.rank == "R":
        new = replace(new, direction=-new.direction)
        events.append({"type": "reverse", "direction": new.direction})
    elif acts and info.rank == "+2":
        pending = DRAW_TWO_CARDS
    nxt = _next(new, seat, steps)
    if not rest:
        if pending:
            new = _draw_cards(new, nxt, pending, events, "drawTwo")
            new = _drink(new, nxt, DRAW_TWO_CARDS, "drawTwo", events)
        return _end_deal(new, seat, events)
    if pending:
        events.append({"type": "penalty", "seat": nxt, "count": pending})
    return replace(new, turn=nxt, pending=pending), events


def points_laid(state: RommyState) -> list[int]:
    """Each seat's points on the table: the value of every card it laid in a meld."""
    laid = [0] * state.players
    for meld in state.melds:
        for card, who in zip(meld.cards, meld.seats, strict=True):
            laid[who] += card_points(card)
    return laid


def points_in_hand(state: RommyState) -> list[int]:
    """Each seat's points still in its hand (they count against it at the deal's end)."""
    return [sum(card_points(c) for c in hand) for hand in state.hands]


def _end_deal(state: RommyState, out: int, events: list[Event]) -> Transition:
    laid, held = points_laid(state), points_in_hand(state)
    scores = tuple(laid[s] - held[s] for s in range(state.players))
    for s in range(state.players):
        state = _drink(state, s, sum(hand_sips(c) for c in state.hands[s]), "cardsInHand", events)
    totals = tuple(t + d for t, d in zip(state.totals, scores, strict=True))
    rules = state.rules
    best = max(totals)
    reached = best >= rules.target_score or (
        rules.round_limit > 0 and state.deal >= rules.round_limit
    )
    leaders = [s for s in range(state.players) if totals[s] == best]
    over = reached and len(leaders) == 1
    winner = leaders[0] if over else out
    if rules.match_mode == "oneAndDone":
        # docs/variants-party.md: the first player out wins the match, whatever the points.
        over, winner = True, out
    new = replace(
        state,
        phase="matchOver" if over else "dealOver",
        turn=out,
        pending=0,
        must_meld=False,
        totals=totals,
        deal_scores=scores,
        winner=winner,
    )
    events.append(
        {
            "type": "dealOver",
            "seat": out,
            "winner": out,
            "dealScores": list(scores),
            "totals": list(totals),
            "hands": [list(h) for h in state.hands],
        }
    )
    if over:
        events.append({"type": "matchOver", "winner": winner, "totals": list(totals)})
    return new, events


def _next_deal(state: RommyState, seat: int, act: Action) -> Transition:
    if state.phase != "dealOver":
        raise IllegalAction("wrong_phase", f"cannot start the next deal during {state.phase!r}")
    new = replace(state, dealer=(state.dealer + 1) % state.players, moves=state.moves + 1)
    return start_deal(new)


_HANDLERS: dict[ActionType, Callable[[RommyState, int, Action], Transition]] = {
    "draw": _draw,
    "takeDiscard": _take_discard,
    "takePile": _take_pile,
    "meld": _meld,
    "layOff": _lay_off,
    "swapJoker": _swap_joker,
    "discardCard": _discard_card,
    "nextDeal": _next_deal,
}


def apply(state: RommyState, seat: int, action: Action) -> Transition:
    """The state after ``seat`` takes ``action`` (never mutates ``state``).

    :raises InvalidAction: a bad seat, or an action malformed for Rommy.
    :raises IllegalAction: not allowed now (``err.code`` says why).
    """
    seat = check_seat(seat, state.players)
    handler = _HANDLERS.get(action.type)
    if handler is None:
        raise IllegalAction("not_in_this_game", f"UNO Rommy has no {action.type!r} action")
    return handler(state, seat, action)


# --- Legal actions, views --------------------------------------------------------------------


def legal_actions(state: RommyState, seat: int) -> list[Action]:
    """Actions ``seat`` may take now. In the play step this lists some melds (see
    :func:`~engine.variants.rommy.melds.candidate_melds`), every single-card lay-off and
    joker swap, and one discard per distinct card: not every possible meld, but every
    action listed is accepted."""
    if state.phase == "dealOver":
        return [Action("nextDeal")]
    if state.phase != "playing" or seat != state.turn:
        return []
    if state.step == "draw":
        out = [Action("draw")]
        if not state.pending and state.discard:
            out.append(Action("takeDiscard"))
            if can_take_pile(state, seat):
                out.append(Action("takePile"))
        return out
    hand = state.hands[seat]
    out = [Action("meld", cards=m) for m in candidate_melds(hand) if len(m) < len(hand)]
    if state.must_meld:
        return out
    distinct = list(dict.fromkeys(hand))
    if len(hand) > 1:
        for i, meld in enumerate(state.melds):
            for card in distinct:
                if fits(meld, card):
                    out.append(Action("layOff", cards=(card,), target=i))
    for i, meld in enumerate(state.melds):
        for card in distinct:
            if not is_joker(card) and joker_for(meld, card) is not None:
                out.append(Action("swapJoker", cards=(card,), target=i))
    out += [Action("discardCard", cards=(card,)) for card in distinct]
    return out
