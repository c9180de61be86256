"""Every action a seat may take right now, as :class:`~engine.actions.Action` values.

Built from the same checks :func:`engine.transition.apply` runs (engine.checks and each rule's
own module), so the list and the transition cannot disagree: property tests play random
games choosing only from this list; ``apply`` checks every action again, listed or not. Under
``multiPlay`` it lists each single card plus, for each card that may start a play, the
play of every card of its rank (and a Duo Reverse dump): enough for bots, while ``apply``
accepts any legal combination.
"""

from __future__ import annotations

from engine.actions import Action
from engine.cards import FACES, SIDE_COLORS
from engine.checks import (
    MULTI_RANKS,
    multi_problem,
    pass_problem,
    turn_play_problem,
)
from engine.draft import draft_actions
from engine.duo_dump import dump_group
from engine.follow_color import may_draw
from engine.forced_play import draw_forbidden, keeping_forbidden
from engine.game_registry import other_game
from engine.game_state import GameState
from engine.jump_in import jump_cards
from engine.matching import MATCHING, PLAYS, learn, matching_table
from engine.seven_zero import needs_target, targets
from engine.state import State
from engine.uno_call import add_declare, add_window, calls_with
from engine.wild_draw_four import RESTRICTED, challenge_problem

_DRAW = Action("draw")
_PASS = Action("pass")
_CHALLENGE = Action("challenge")
_NEXT = Action("nextDeal")
_CHOOSE = {
    side: tuple(Action("chooseColor", color=c) for c in colors)
    for side, colors in SIDE_COLORS.items()
}


def legal_actions(state: GameState, seat: int) -> list[Action]:
    """Every action ``seat`` may take now; wild plays once per colour, seven swaps once per
    target seat. Works for every game."""
    if type(state) is not State:
        return other_game(state).legal_actions(state, seat)
    if not 0 <= seat < state.players or state.out[seat]:
        return []
    if seat == state.turn and state.phase == "playing":
        actions = _turn_actions(state, seat)
    else:
        actions = _other_actions(state, seat)
    return actions


def _other_actions(state: State, seat: int) -> list[Action]:
    """Everything but the turn holder's actions during play."""
    phase = state.phase
    if phase != "playing":
        if phase == "dealOver":
            return [_NEXT]
        if phase == "chooseColor":
            return list(_CHOOSE[state.side]) if seat == state.turn else []
        if phase == "draft":
            return draft_actions(state, seat)
        return []
    actions: list[Action] = []
    for card in jump_cards(state, seat):
        _add_plays(state, seat, (card,), actions)
    add_window(state, seat, actions)
    return actions


def _turn_actions(state: State, seat: int) -> list[Action]:
    """The turn holder's actions during play."""
    actions: list[Action] = []
    hand = state.hands[seat]
    rules = state.rules
    if state.follow:
        _follow_actions(state, seat, hand, actions)
    elif state.drawn is not None:
        playable = turn_play_problem(state, seat, state.drawn) is None
        if playable:
            _add_plays(state, seat, (state.drawn,), actions)
        if not keeping_forbidden(state, playable):
            actions.append(_PASS)
    else:
        if state.pending:
            if rules.answers_pending:  # else no card answers a pending penalty
                _add_checked(state, seat, hand, actions)
        elif rules.plain_plays and (rules.plain_checks or not _needs_full_check(state, hand)):
            # The common case: a colour, number/symbol or wild match is enough, and each
            # playable card is one ready-made play (a wild: one per colour).
            key = (state.side, state.color, state.discard[-1])
            table = MATCHING.get(key) or matching_table(*key)
            listed: list[str] = []
            try:
                for card in hand:
                    plays = table[card]
                    # Copies of one card list their plays once (comparing card codes is
                    # cheaper than comparing the actions already listed).
                    if plays and card not in listed:
                        listed.append(card)
                        actions += plays
            except KeyError:
                # A card code first seen now (a stacked deck's own Flip pairing): learn it.
                learn(table, *key, hand)
                return _turn_actions(state, seat)
        else:
            _add_checked(state, seat, hand, actions)
        if not (rules.forced_play and draw_forbidden(state, bool(actions))):
            actions.append(_DRAW)
        if state.wd4 is not None and challenge_problem(state, seat) is None:
            actions.append(_CHALLENGE)
        if len(hand) == 2:  # the one hand that may call ahead (engine.uno_call)
            add_declare(state, seat, actions)
    if state.exposed is not None:
        add_window(state, seat, actions)
    return actions


def _add_checked(state: State, seat: int, hand: tuple[str, ...], actions: list[Action]) -> None:
    """Each card that passes every check, with the group plays it may start."""
    plain = PLAYS[state.side] if state.rules.plain_plays else None
    for card in dict.fromkeys(hand):
        if turn_play_problem(state, seat, card) is None:
            if plain is not None:
                actions.extend(plain[card])
            else:
                _add_starts(state, seat, hand, card, actions)


def _add_starts(
    state: State, seat: int, hand: tuple[str, ...], card: str, actions: list[Action]
) -> None:
    """The single play of ``card`` and the group plays it may start."""
    _add_plays(state, seat, (card,), actions)
    faces = FACES[state.side]
    info = faces[card]
    groups: list[tuple[str, ...]] = []
    if state.rules.multi_play and info.rank in MULTI_RANKS:
        rest = list(hand)
        rest.remove(card)
        same = tuple(c for c in rest if faces[c].rank == info.rank)
        if same:
            groups.append((card, *same))
    dump = dump_group(state, hand, card)
    if dump is not None:
        groups.append(dump)
    for cards in groups:
        uno = calls_with(len(hand) - len(cards), len(cards))
        if multi_problem(state, seat, cards, uno) is None:
            _add_plays(state, seat, cards, actions, uno)


def _follow_actions(state: State, seat: int, hand: tuple[str, ...], actions: list[Action]) -> None:
    for card in dict.fromkeys(hand):
        if turn_play_problem(state, seat, card) is None:
            _add_starts(state, seat, hand, card, actions)
    if may_draw(state, seat):
        actions.append(_DRAW)
    if pass_problem(state, seat) is None:
        actions.append(_PASS)


def _needs_full_check(state: State, hand: tuple[str, ...]) -> bool:
    """Whether a rule beyond plain matching could refuse some card in ``hand``."""
    rules = state.rules
    if (rules.forbid_action_finish or rules.no_wild_finish) and len(hand) == 1:
        return True
    if rules.wild_draw_four_challenge:
        return False
    faces = FACES[state.side]
    return any(faces[c].rank in RESTRICTED for c in hand)


def _add_plays(
    state: State, seat: int, cards: tuple[str, ...], actions: list[Action], uno: bool = False
) -> None:
    rules = state.rules
    last = FACES[state.side][cards[-1]]
    remaining = len(state.hands[seat]) - len(cards)
    if remaining == 1 and not uno:
        # Calling UNO with the play, or forgetting to: both are legal.
        _add_plays(state, seat, cards, actions, uno=True)
    if rules.seven_swaps and needs_target(state, seat, cards):
        actions.extend(Action("play", cards, target=t, uno=uno) for t in targets(state, seat))
    elif len(cards) == 1 and not uno:
        actions.extend(PLAYS[state.side][cards[0]])
    elif last.is_wild:
        colors = SIDE_COLORS[state.side]
        actions.extend(Action("play", cards, color=c, uno=uno) for c in colors)
    else:
        actions.append(Action("play", cards, uno=uno))
