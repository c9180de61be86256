"""What a seat has seen this deal: the public history a card-counting player keeps.

A view shows only the top discard. A player at a real table also remembers every card
laid this deal (so those are not in anyone's hand) and who drew instead of playing on
which colour (so that player held nothing of it then). :class:`Memory` keeps exactly that
from what its seat was sent, one change at a time: the events of each change as
:func:`engine.event_for` gives them to the seat (never another seat's private part) and
the seat's view after it. Nothing else is read.

- ``discard``: the cards in the discard pile, bottom first (a reshuffle leaves the top);
  known only for a deal the memory saw from its start (``complete``).
- ``void``: per seat and kind (a colour, ``"W"`` for any wild, ``"#"`` + a rank), how many
  of the cards the seat holds now are known not to be of that kind. A seat that draws
  instead of playing held no card of the colour in force, of the top card's rank and no
  wild (a sensible player plays when it can); one that then passes kept a drawn card of
  neither the colour nor a wild. The cards it gets afterwards are unknown, and a card it
  lays may be one of the known ones: a kind's count then falls by one (unless the card
  laid is of that kind, which no known card is). These are inferences about people, not
  facts: :mod:`engine.bots.sample` uses them only as long as they can be met.
- ``plays``: per seat, each play it made since its hand last took cards nobody else saw
  (a draw of any kind, a swap), as a :class:`Play`: the cards, and the colour and top
  card it was laid on. The hand it chose from is its hand now and the cards it laid since:
  :mod:`engine.bots.likelihood` weighs a sample by how likely those choices were from it.

:func:`replay` builds the memory of a seat from a deal's start and its actions, for a
room that did not keep one (a writer that took the room over).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, NamedTuple

from engine.api import view_for
from engine.cards import FACES
from engine.events import event_for
from engine.replay import replay_log
from engine.state import State

View = Mapping[str, Any]
WILD = "W"
# Events after which no seat's hand is what it was: every inference is dropped.
HAND_MOVES = frozenset({"swapHands", "shuffleHands", "passHands", "flip", "takePile"})


class Play(NamedTuple):
    """A play a seat was seen to make, with the position it chose it in."""

    cards: tuple[str, ...]
    color: str | None  # the colour in force before it
    top: str | None  # the top discard before it
    pending: int  # the draw penalty it faced (then only stacking cards play)
    drawn: bool  # the card it had just drawn (no choice but whether to play it)


class Memory:
    """One seat's public history of the current deal (see the module docstring)."""

    __slots__ = (
        "color",
        "complete",
        "deal",
        "discard",
        "drew",
        "pending",
        "plays",
        "sizes",
        "top",
        "void",
    )

    def __init__(self) -> None:
        self.deal: int | None = None
        self.complete = False
        self.discard: list[str] = []
        self.void: dict[int, dict[str, int]] = {}
        self.plays: dict[int, list[Play]] = {}
        self.drew: int | None = None  # the seat that has just drawn a card to play
        self.pending = 0  # the draw penalty the turn holder faces
        self.color: str | None = None
        self.top: str | None = None
        self.sizes: list[int] = []

    def update(self, events: Iterable[Mapping[str, Any]], view: View) -> None:
        """Take one change: its ``events`` as this seat was sent them, then ``view`` (the
        seat's view after the change)."""
        for event in events:
            self._event(event, view)
        if view.get("deal") != self.deal:
            # A deal this memory did not see begin: only what the view shows is known.
            self._reset(view.get("deal"), complete=False)
        self.color = view.get("color")
        self.top = view.get("top")
        self.pending = view.get("pendingDraw") or 0
        self.sizes = [p["cards"] for p in view.get("players") or ()]
        for seat, kinds in self.void.items():
            size = self.sizes[seat] if seat < len(self.sizes) else 0
            for kind in kinds:
                kinds[kind] = min(kinds[kind], size)

    def lacks(self, seat: int, kind: str) -> float:
        """The share of ``seat``'s hand known not to hold ``kind`` (0 to 1)."""
        size = self.sizes[seat] if seat < len(self.sizes) else 0
        if size <= 0:
            return 0.0
        return self.void.get(seat, {}).get(kind, 0) / size

    def _reset(self, deal: int | None, complete: bool) -> None:
        self.deal = deal
        self.complete = complete
        self.discard = []
        self.void = {}
        self.plays = {}
        self.drew = None

    def _event(self, event: Mapping[str, Any], view: View) -> None:
        kind = event.get("type")
        if kind == "deal":
            self._reset(event.get("deal"), complete=True)
        elif kind == "firstCard":
            self.discard = [event["card"]]
        elif kind == "reshuffle":
            self.discard = self.discard[-1:]
        elif kind == "play":
            seat = int(event["seat"])
            cards = tuple(event["cards"])
            play = Play(cards, self.color, self.top, self.pending, self.drew == seat)
            self.plays.setdefault(seat, []).append(play)
            self._played(seat, list(cards), view)
            self.color = event.get("color")
            self.top = cards[-1]
            self.drew = None
            self.pending = 0
        elif kind == "chooseColor":
            self.color = event.get("color")
        elif kind == "draw":
            seat = int(event["seat"])
            self.plays.pop(seat, None)  # its hand now holds cards only it has seen
            self.drew = seat if event.get("reason") == "draw" else None
            if event.get("reason") == "draw":
                self._drew(seat, view)
            else:
                self.pending = 0  # a penalty drawn is paid
        elif kind == "pass":
            self._passed(int(event["seat"]), view)
            self.drew = None
        elif kind in HAND_MOVES:
            self.void = {}
            self.plays = {}

    def _played(self, seat: int, cards: list[str], view: View) -> None:
        self.discard.extend(cards)
        kinds = self.void.get(seat)
        if not kinds:
            return
        face = FACES[view.get("side") or "light"]
        for card in cards:
            info = face[card]
            own = {WILD if info.is_wild else info.color or "", "#" + info.rank}
            for k in kinds:
                if k not in own:
                    kinds[k] = max(0, kinds[k] - 1)

    def _known(self, seat: int, size: int, kinds: Iterable[str], view: View) -> None:
        if size <= 0 or seat == view.get("you"):
            return
        own = self.void.setdefault(seat, {})
        for k in kinds:
            own[k] = max(own.get(k, 0), size)

    def _drew(self, seat: int, view: View) -> None:
        if (view.get("pendingDraw") or 0) or seat >= len(self.sizes):
            return
        held = self.sizes[seat]  # before the draw: what it could not play from
        kinds = [WILD]
        if self.color:
            kinds.append(self.color)
        if self.top is not None:
            kinds.append("#" + FACES[view.get("side") or "light"][self.top].rank)
        self._known(seat, held, kinds, view)
        self.sizes[seat] = held + 1  # the drawn card (a pass then counts it too)

    def _passed(self, seat: int, view: View) -> None:
        # The drawn card was kept: neither of the colour in force nor a wild (a sensible
        # player lays a card that plays, and the view's count shows the card stayed).
        if seat >= len(self.sizes):
            return
        kinds = [WILD] + ([self.color] if self.color else [])
        self._known(seat, self.sizes[seat], kinds, view)


def at_start(view: View) -> Memory:
    """The memory of a seat whose ``view`` is of a deal just dealt (its first card alone
    on the discard pile)."""
    memory = Memory()
    memory.update([{"type": "deal", "deal": view.get("deal")}], view)
    if view.get("top") is not None:
        memory.discard = [view["top"]]
    return memory


def replay(start: State, actions: Iterable[Mapping[str, Any]], seat: int) -> Memory:
    """The memory ``seat`` would have kept from ``start`` (a deal just dealt) through
    ``actions`` (each ``{"seat", "action"}`` as a room logs it)."""
    memory = at_start(view_for(start, seat))
    for step in replay_log(actions, start):
        if step.after is not None:  # always, from a start state
            memory.update([event_for(e, seat) for e in step.events], view_for(step.after, seat))
    return memory
