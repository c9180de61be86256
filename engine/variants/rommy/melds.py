"""UNO Rommy's melds: what makes a set or a run, what a joker stands for, lay-offs.

A meld is a :class:`Meld`: its kind (``set`` or ``run``), the cards laid in table order,
what each card stands for, and the seat that laid each card (who scores it).

- A **set** is 3+ number cards of one number, any colours (repeats allowed: the deck has
  two of most cards). A joker in a set stands for that number in any colour, written as the
  bare number (``"7"``).
- A **run** is 3+ number cards of one colour with consecutive numbers (0-9, no wrap),
  kept low to high. A joker in a run stands for one exact card (``"R4"``).
- Jokers are Wild (``W``) and Wild Draw Four (``W+4``). A new meld needs at least two
  natural (non-joker) cards, which says what kind it is: two naturals of one number make a
  set; two of one colour and different numbers make a run.
- The cards of a ``meld`` or ``layOff`` may come in any order: this module puts them in
  table order (:func:`arrange_run` and :func:`lay_off`, the one statement of a run's
  order). A set lies as listed. A run lies low to high, each natural at its number. A list
  that already reads as a run (each card the number after the one before it) is laid as
  listed, which lets the player place a joker beyond the naturals (``W R3 R4`` is R2-R4).
  Otherwise the run covers the naturals and, for each joker the gaps leave spare, one more
  number above the highest natural (up to 9), then below the lowest; the jokers, in the
  order listed, take the places the naturals leave free, lowest first (``R3 R4 W`` and
  ``R3 W R4`` are R3-R5; ``R9 W R8 W+4`` is W W+4 R8 R9, R6-R9).

Everything here is pure and raises :class:`~engine.errors.IllegalAction` on a bad meld.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any, NamedTuple

from engine.cards import CARD_INFO, COLORS
from engine.errors import IllegalAction

JOKERS: frozenset[str] = frozenset({"W", "W+4"})
MAX_RUN = 10  # 0..9


class Meld(NamedTuple):
    """One meld on the table (immutable)."""

    kind: str  # "set" | "run"
    cards: tuple[str, ...]  # as laid, in table order (runs low to high)
    stands: tuple[str, ...]  # what each card stands for: itself, "7" (set joker) or "R4"
    seats: tuple[int, ...]  # who laid each card

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "cards": list(self.cards),
            "as": list(self.stands),
            "seats": list(self.seats),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Meld:
        return cls(
            str(data["kind"]),
            tuple(data["cards"]),
            tuple(data["as"]),
            tuple(int(s) for s in data["seats"]),
        )

    @property
    def number(self) -> int:
        """A set's number, or a run's lowest number."""
        return _num(self.stands[0])

    @property
    def color(self) -> str | None:
        """A run's colour (None for a set)."""
        return self.stands[0][0] if self.kind == "run" else None


def is_joker(card: str) -> bool:
    return card in JOKERS


def is_natural(card: str) -> bool:
    """A number card: the only natural cards a meld may hold."""
    info = CARD_INFO.get(card)
    return info is not None and info.color is not None and info.is_number


def _num(stand: str) -> int:
    """The number of a natural card or of what a run card stands for (``"R4"``: 4)."""
    return int(stand[-1])


def _bad(code: str, message: str) -> IllegalAction:
    return IllegalAction(code, message)


def new_meld(cards: Sequence[str], seat: int) -> Meld:
    """The meld ``cards`` (in any order) make, laid by ``seat``.

    :raises IllegalAction: ``not_a_meld`` (too few cards, an action card, no set or run
        the cards can be arranged into), ``meld_needs_two_naturals``.
    """
    if len(cards) < 3:
        raise _bad("not_a_meld", "a new meld needs at least 3 cards")
    for card in cards:
        if not (is_natural(card) or is_joker(card)):
            raise _bad(
                "not_a_meld", f"{card!r} cannot go in a meld: only number cards and jokers can"
            )
    naturals = [c for c in cards if is_natural(c)]
    if len(naturals) < 2:
        raise _bad("meld_needs_two_naturals", "a new meld needs at least two non-joker cards")
    numbers = {_num(c) for c in naturals}
    if len(numbers) == 1:
        number = naturals[0][1]
        stands = tuple(c if is_natural(c) else number for c in cards)
        return Meld("set", tuple(cards), stands, (seat,) * len(cards))
    colors = {CARD_INFO[c].color for c in naturals}
    if len(colors) != 1 or len(numbers) != len(naturals):
        raise _bad(
            "not_a_meld",
            "a meld is 3+ cards of one number, or a run of consecutive numbers in one colour",
        )
    laid, stands = arrange_run(cards, naturals[0][0])
    return Meld("run", laid, stands, (seat,) * len(cards))


def arrange_run(cards: Sequence[str], color: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """A new run's ``cards`` (one colour, distinct numbers, at least one natural) in table
    order, with what each stands for (the module docstring states the order).

    :raises IllegalAction: ``not_a_meld`` (the jokers cannot close the gaps, or the run
        would pass 0 or 9).
    """
    listed = _as_listed(cards, color)
    if listed is not None:
        return tuple(cards), listed
    numbers = sorted(_num(c) for c in cards if is_natural(c))
    low, high = numbers[0], numbers[-1]
    spare = len(cards) - (high - low + 1)
    if spare < 0:
        raise _bad(
            "not_a_meld",
            f"a run needs consecutive numbers: {color}{low}-{color}{high} lacks"
            f" {high - low + 1 - len(numbers)}, with {len(cards) - len(numbers)} joker(s)",
        )
    above = min(spare, 9 - high)
    start = low - (spare - above)
    placed = _place(cards, color, start, len(cards))
    if placed is None:
        raise _bad("not_a_meld", f"a run has at most {MAX_RUN} cards (0-9)")
    return placed, tuple(f"{color}{start + i}" for i in range(len(cards)))


def _as_listed(cards: Sequence[str], color: str) -> tuple[str, ...] | None:
    """What each card stands for when ``cards`` already read as a run low to high (each
    natural the number after the card before it), else None."""
    first = next(i for i, c in enumerate(cards) if is_natural(c))
    low = _num(cards[first]) - first
    stands: list[str] = []
    for i, card in enumerate(cards):
        want = low + i
        if not 0 <= want <= 9 or (is_natural(card) and card != f"{color}{want}"):
            return None
        stands.append(f"{color}{want}")
    return tuple(stands)


def _place(cards: Sequence[str], color: str, start: int, k: int) -> tuple[str, ...] | None:
    """``cards`` laid on the ``k`` places ``start``..``start + k - 1`` of a ``color`` run:
    each natural on its number, the jokers (in the order listed) on the free places from the
    lowest up; None when they do not fit."""
    if start < 0 or start + k - 1 > 9 or len(cards) != k:
        return None
    slots: list[str | None] = [None] * k
    for card in cards:
        if is_joker(card):
            continue
        at = _num(card) - start
        if card[0] != color or not 0 <= at < k or slots[at] is not None:
            return None
        slots[at] = card
    jokers = iter(c for c in cards if is_joker(c))
    return tuple(s if s is not None else next(jokers) for s in slots)


def lay_off(meld: Meld, cards: Sequence[str], seat: int) -> Meld:
    """``meld`` with ``cards`` (in any order) added by ``seat``.

    On a set every card must be its number or a joker; they go on as listed. On a run the
    cards go on the high end if they fit there, else on the low end, arranged as
    :func:`_place` says (so a lone joker goes on the high end, or the low end of a run
    ending in 9).

    :raises IllegalAction: ``cannot_lay_off``.
    """
    if not cards:
        raise _bad("cannot_lay_off", "lay off at least one card")
    if meld.kind == "set":
        number = meld.stands[0][-1]
        for card in cards:
            if not (is_joker(card) or (is_natural(card) and card[1] == number)):
                raise _bad("cannot_lay_off", f"{card!r} does not fit a set of {number}s")
        stands = tuple(c if is_natural(c) else number for c in cards)
        return Meld(
            "set",
            meld.cards + tuple(cards),
            meld.stands + stands,
            meld.seats + (seat,) * len(cards),
        )
    color = meld.stands[0][0]
    low = _num(meld.stands[0])
    high = _num(meld.stands[-1])
    k = len(cards)
    if all(is_joker(c) or is_natural(c) for c in cards):
        for start, at_end in ((high + 1, True), (low - k, False)):
            placed = _place(cards, color, start, k)
            if placed is None:
                continue
            wanted = tuple(f"{color}{start + i}" for i in range(k))
            seats = (seat,) * k
            if at_end:
                return Meld("run", meld.cards + placed, meld.stands + wanted, meld.seats + seats)
            return Meld("run", placed + meld.cards, wanted + meld.stands, seats + meld.seats)
    raise _bad("cannot_lay_off", f"{list(cards)} do not extend the run {list(meld.stands)}")


def joker_for(meld: Meld, card: str) -> int | None:
    """The index of a joker in ``meld`` that ``card`` is the real card for, else None."""
    if not is_natural(card):
        return None
    for i, (laid, stand) in enumerate(zip(meld.cards, meld.stands, strict=True)):
        if not is_joker(laid):
            continue
        if stand == card or (meld.kind == "set" and stand == card[1]):
            return i
    return None


def swap_joker(meld: Meld, card: str, seat: int) -> tuple[Meld, str, int]:
    """``meld`` with ``card`` in place of the joker it stands for.

    Returns the new meld, the joker taken and the seat that had laid it.

    :raises IllegalAction: ``no_joker_for_card``.
    """
    i = joker_for(meld, card)
    if i is None:
        raise _bad("no_joker_for_card", f"no joker in this meld stands for {card!r}")
    joker, owner = meld.cards[i], meld.seats[i]
    stand = card if meld.kind == "set" else meld.stands[i]
    new = Meld(
        meld.kind,
        meld.cards[:i] + (card,) + meld.cards[i + 1 :],
        meld.stands[:i] + (stand,) + meld.stands[i + 1 :],
        meld.seats[:i] + (seat,) + meld.seats[i + 1 :],
    )
    return new, joker, owner


# --- Candidate melds for legal-action lists (finite, not exhaustive) -----------------------


def candidate_melds(hand: Iterable[str]) -> list[tuple[str, ...]]:
    """Some melds ``hand`` can make, each as the ``cards`` of a ``meld`` action.

    Lists, without repeats: for each number, every natural of it (if 3+) and three of them;
    two naturals and a joker; for each colour, each maximal run of 3+ and its 3-card
    windows; two naturals one apart with a joker in the gap, and two adjacent ones with a
    joker above (or below at 9). Every entry is accepted by :func:`new_meld`.
    """
    held = Counter(hand)
    jokers = [j for j in ("W", "W+4") if held[j]]
    out: list[tuple[str, ...]] = []
    seen: set[tuple[str, ...]] = set()

    def add(cards: tuple[str, ...]) -> None:
        if cards not in seen and _holds(held, cards):
            seen.add(cards)
            out.append(cards)

    for number in range(10):
        same = sorted(
            (c for c in held.elements() if is_natural(c) and c[1] == str(number)),
            key=lambda c: COLORS.index(c[0]),
        )
        if len(same) >= 3:
            add(tuple(same))
            add(tuple(same[:3]))
        if len(same) >= 2 and jokers:
            add((same[0], same[1], jokers[0]))
    for color in COLORS:
        have = sorted({int(c[1]) for c in held if is_natural(c) and c[0] == color})
        runs: list[list[int]] = []
        for n in have:
            if runs and runs[-1][-1] == n - 1:
                runs[-1].append(n)
            else:
                runs.append([n])
        for run in runs:
            if len(run) >= 3:
                add(tuple(f"{color}{n}" for n in run))
                for i in range(len(run) - 2):
                    add(tuple(f"{color}{n}" for n in run[i : i + 3]))
        if jokers:
            joker = jokers[0]
            for n in have:
                if n + 2 in have and n + 1 not in have:
                    add((f"{color}{n}", joker, f"{color}{n + 2}"))
                if n + 1 in have:
                    if n + 2 <= 9:
                        add((f"{color}{n}", f"{color}{n + 1}", joker))
                    else:
                        add((joker, f"{color}{n}", f"{color}{n + 1}"))
    return out


def _holds(held: Counter[str], cards: Sequence[str]) -> bool:
    need = Counter(cards)
    return all(held[c] >= k for c, k in need.items())


def fits(meld: Meld, card: str) -> bool:
    """True when the single ``card`` can be laid off on ``meld``."""
    try:
        lay_off(meld, (card,), 0)
    except IllegalAction:
        return False
    return True
