"""UNO Rommy's melds: what makes a set or a run, what a joker stands for, lay-offs.

A meld is a :class:`Meld`: its kind (``set`` or ``run``), the cards laid in table order,
what each card stands for, and the seat that laid each card (who scores it).

- A **set** is 3+ number cards of one number, any colours (repeats allowed: the deck has
  two of most cards). A joker in a set stands for that number in any colour, written as the
  bare number (``"7"``).
- A **run** is 3+ number cards of one colour with consecutive numbers (0-9, no wrap),
  kept low to high. A joker in a run stands for one exact card (``"R4"``).
- Jokers are Wild (``W``) and Wild Draw Four (``W+4``). A new meld needs at least two
  natural (non-joker) cards, which makes every joker's meaning unambiguous: two naturals of
  one number make a set; two of one colour and different numbers make a run, and with
  jokers in it the run is read in the order the cards are listed (low to high), so a
  joker's place in the list is the number it stands for.

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
    return int(stand[-1])


def _bad(code: str, message: str) -> IllegalAction:
    return IllegalAction(code, message)


def new_meld(cards: Sequence[str], seat: int) -> Meld:
    """The meld ``cards`` make, laid by ``seat``.

    :raises IllegalAction: ``not_a_meld`` (too few cards, an action card, no set or run),
        ``meld_needs_two_naturals``, ``bad_run_order`` (a run with jokers not listed low to
        high).
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
    numbers = {CARD_INFO[c].rank for c in naturals}
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
    color = naturals[0][0]
    if len(naturals) == len(cards):
        ordered = sorted(cards, key=lambda c: int(c[1]))
        low = int(ordered[0][1])
        if any(int(c[1]) != low + i for i, c in enumerate(ordered)):
            raise _bad("not_a_meld", "a run needs consecutive numbers")
        return Meld("run", tuple(ordered), tuple(ordered), (seat,) * len(cards))
    first = next(i for i, c in enumerate(cards) if is_natural(c))
    low = int(cards[first][1]) - first
    stands_list: list[str] = []
    for i, card in enumerate(cards):
        want = low + i
        if not 0 <= want <= 9 or (is_natural(card) and int(card[1]) != want):
            raise _bad(
                "bad_run_order",
                "list a run with jokers low to high: each joker stands for the number of its place",
            )
        stands_list.append(f"{color}{want}")
    return Meld("run", tuple(cards), tuple(stands_list), (seat,) * len(cards))


def lay_off(meld: Meld, cards: Sequence[str], seat: int) -> Meld:
    """``meld`` with ``cards`` added by ``seat``.

    On a set every card must be its number or a joker. On a run the cards are listed in run
    order and go on the high end if they fit there, else on the low end.

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
    for start, at_end in ((high + 1, True), (low - k, False)):
        if start < 0 or start + k - 1 > 9:
            continue
        wanted = [f"{color}{start + i}" for i in range(k)]
        if all(is_joker(c) or c == w for c, w in zip(cards, wanted, strict=True)):
            seats = (seat,) * k
            if at_end:
                return Meld(
                    "run",
                    meld.cards + tuple(cards),
                    meld.stands + tuple(wanted),
                    meld.seats + seats,
                )
            return Meld(
                "run", tuple(cards) + meld.cards, tuple(wanted) + meld.stands, seats + meld.seats
            )
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
