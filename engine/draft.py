"""UNO Duo's draft: players take their hands one card at a time instead of being dealt.

The drafter sees the top card of the pile (``offer`` in their view) and either keeps it
(the next card then goes to the face-down draft pile) or discards it to the draft pile and
must keep the next. Turns alternate until both hold seven; the draft pile then goes under
the draw pile and the first card is turned.
"""

from __future__ import annotations

from engine.actions import Action
from engine.deal import HAND_SIZE
from engine.errors import IllegalAction
from engine.events import Event
from engine.first_card import turn_first_card
from engine.state import State
from engine.turns import give_cards, next_seat

KEEP_OR_DISCARD = (Action("keep"), Action("discard"))


def draft_actions(state: State, seat: int) -> list[Action]:
    """The listing during the draft: the drafter keeps or discards the offered card."""
    return list(KEEP_OR_DISCARD) if seat == state.turn else []


def offer(state: State) -> str | None:
    """The card the drafter is looking at, or None outside the draft."""
    if state.phase != "draft" or not state.draw_pile:
        return None
    return state.draw_pile[-1]


def draft_step(state: State, seat: int, act: Action) -> tuple[State, list[Event]]:
    """``keep`` or ``discard`` the offered card."""
    if state.phase != "draft":
        raise IllegalAction("wrong_phase", f"there is no draft during {state.phase!r}")
    if seat != state.turn:
        raise IllegalAction("not_your_turn", f"seat {state.turn} is drafting, not seat {seat}")
    new = state.copy()
    new.moves += 1
    pile = list(state.draw_pile)
    first = pile.pop()
    second = pile.pop() if pile else None
    kept, to_draft = (first, second) if act.type == "keep" else (second, first)
    if kept is not None:
        give_cards(new, seat, [kept])
    if to_draft is not None:
        new.draft = new.draft + (to_draft,)
    new.draw_pile = tuple(pile)
    events: list[Event] = [
        {
            "type": act.type,
            "seat": seat,
            "to": seat,
            "private": {"card": kept, "discarded": first if act.type == "discard" else None},
        }
    ]
    if _finished(new):
        # The draft pile goes face down under the draw pile (the bottom is index 0).
        new.draw_pile = tuple(reversed(new.draft)) + new.draw_pile
        new.draft = ()
        events += turn_first_card(new)
    else:
        new.turn = next_seat(new, seat, 1)
    return new, events


def _finished(state: State) -> bool:
    full = all(len(h) >= HAND_SIZE for s, h in enumerate(state.hands) if not state.out[s])
    return full or len(state.draw_pile) < 2
