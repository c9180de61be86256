"""Compact builders for engine tests: hands as strings, scenarios, actions, result readers.

``cards("R5 G+2 W")`` is ``["R5", "G+2", "W"]``. A position is written as hands, a discard
pile (top first) and a draw pile (top first), and run through the scenario runner
(``engine.scenario.run``) or turned into a :class:`~engine.State` for direct ``apply``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

from engine import EngineError, State, apply
from engine.scenario import initial_state, run

HAND_SIZE = 7


def cards(spec: str) -> list[str]:
    """``"R5 G+2 W"`` -> ``["R5", "G+2", "W"]`` (an empty string is an empty hand)."""
    return spec.split()


def setup(
    hands: Sequence[str],
    discard: str,
    *,
    draw: str = "",
    color: str | None = None,
    turn: int | None = 0,
    direction: int | None = None,
    pending: int | None = None,
    totals: Sequence[int] | None = None,
) -> dict[str, Any]:
    """A scenario ``setup`` object; ``discard`` and ``draw`` are listed top first.

    Seat 0 is on turn unless ``turn`` says otherwise (None: the runner's default)."""
    out: dict[str, Any] = {
        "hands": [cards(h) for h in hands],
        "discard": cards(discard),
        "drawPile": cards(draw),
    }
    for key, value in (
        ("color", color),
        ("turn", turn),
        ("direction", direction),
        ("pendingDraw", pending),
        ("totals", list(totals) if totals is not None else None),
    ):
        if value is not None:
            out[key] = value
    return out


def scenario(
    hands: Sequence[str],
    discard: str,
    *,
    rules: dict[str, Any] | None = None,
    actions: Iterable[dict[str, Any]] = (),
    dealer: int = 0,
    **setup_kw: Any,
) -> dict[str, Any]:
    """A whole scenario object built from a set-up position."""
    return {
        "rules": {"preset": "classic", **(rules or {})},
        "players": len(hands),
        "dealer": dealer,
        "setup": setup(hands, discard, **setup_kw),
        "actions": list(actions),
    }


def run_setup(hands: Sequence[str], discard: str, **kw: Any) -> dict[str, Any]:
    """Run a set-up position and its actions through ``engine.scenario.run``."""
    return run(scenario(hands, discard, **kw))


def position(hands: Sequence[str], discard: str, **kw: Any) -> State:
    """The engine state of a set-up position (for direct ``apply`` / ``legal_actions``)."""
    return initial_state(scenario(hands, discard, **kw))


def stacked_deck(hands: Sequence[str], first: str, draw: str = "", *, dealer: int = 0) -> list[str]:
    """The deck (top first) that deals these seven-card hands one card at a time from
    the seat left of ``dealer``, then turns up ``first``; ``draw`` stays in the pile."""
    held = [cards(h) for h in hands]
    assert all(len(h) == HAND_SIZE for h in held), "each hand needs seven cards"
    n = len(held)
    order = [(dealer + 1 + i) % n for i in range(n)]
    deck = [held[seat][r] for r in range(HAND_SIZE) for seat in order]
    return deck + [first] + cards(draw)


def run_deck(
    deck: Sequence[str],
    players: int,
    *,
    dealer: int = 0,
    rules: dict[str, Any] | None = None,
    actions: Iterable[dict[str, Any]] = (),
) -> dict[str, Any]:
    return run(
        {
            "rules": {"preset": "classic", **(rules or {})},
            "players": players,
            "dealer": dealer,
            "deck": list(deck),
            "actions": list(actions),
        }
    )


# --- actions --------------------------------------------------------------------------


def play(
    seat: int,
    card: str,
    color: str | None = None,
    *,
    target: int | None = None,
    uno: bool = False,
    at: int | None = None,
) -> dict[str, Any]:
    out: dict[str, Any] = {"seat": seat, "type": "play", "cards": [card]}
    if color is not None:
        out["color"] = color
    if target is not None:
        out["target"] = target
    if uno:
        out["uno"] = True
    if at is not None:
        out["at"] = at
    return out


def draw(seat: int) -> dict[str, Any]:
    return {"seat": seat, "type": "draw"}


def pass_(seat: int) -> dict[str, Any]:
    return {"seat": seat, "type": "pass"}


def call_uno(seat: int) -> dict[str, Any]:
    return {"seat": seat, "type": "callUno"}


def catch_uno(seat: int, target: int, at: int | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"seat": seat, "type": "catchUno", "target": target}
    if at is not None:
        out["at"] = at
    return out


def challenge(seat: int) -> dict[str, Any]:
    return {"seat": seat, "type": "challenge"}


def choose_color(seat: int, color: str) -> dict[str, Any]:
    return {"seat": seat, "type": "chooseColor", "color": color}


def next_deal(seat: int) -> dict[str, Any]:
    return {"seat": seat, "type": "nextDeal"}


# --- reading results ------------------------------------------------------------------


def outcomes(result: dict[str, Any]) -> list[str]:
    """``"ok"`` or the error code of each action, in order."""
    return ["ok" if r["ok"] else r["error"]["code"] for r in result["results"]]


def events_of(result: dict[str, Any], index: int) -> list[dict[str, Any]]:
    entry = result["results"][index]
    assert entry["ok"], entry
    return entry["events"]


def all_cards(summary: dict[str, Any]) -> Counter[str]:
    """Every card of a scenario result's state: hands, discard pile and draw pile."""
    counted: Counter[str] = Counter(summary["discard"]) + Counter(summary["drawPileCards"])
    for hand in summary["hands"]:
        counted += Counter(hand)
    return counted


def state_cards(state: State) -> Counter[str]:
    counted: Counter[str] = Counter(state.discard) + Counter(state.draw_pile)
    for hand in state.hands:
        counted += Counter(hand)
    return counted


def refused(state: State, seat: int, action: dict[str, Any]) -> EngineError:
    """Apply an action that must be refused; check it changed nothing; return the error."""
    before = state.to_json()
    try:
        apply(state, seat, action)
    except EngineError as err:
        assert state.to_json() == before
        return err
    raise AssertionError(f"{action!r} from seat {seat} was accepted")
