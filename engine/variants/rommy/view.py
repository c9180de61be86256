"""What a seat (or a spectator) sees of a UNO Rommy match, and the summary of a finished one."""

from __future__ import annotations

from typing import Any

from engine.cards import CARD_INFO
from engine.variants.rommy.game import legal_actions, points_in_hand, points_laid
from engine.variants.rommy.state import RommyState


def _over(state: RommyState) -> bool:
    return state.phase in ("dealOver", "matchOver")


def view_for(state: RommyState, seat: int | None) -> dict[str, Any]:
    """What ``seat`` (None: a spectator) may see: its own hand, counts of the others."""
    is_seat = seat is not None and 0 <= seat < state.players
    me = seat if is_seat else None
    return {
        "game": "rommy",
        "you": me,
        "hand": list(state.hands[me]) if me is not None else [],
        "players": [
            {"seat": s, "cards": len(h), "score": state.totals[s], "out": False}
            for s, h in enumerate(state.hands)
        ],
        "top": state.top,
        "color": CARD_INFO[state.top].color if state.top else None,
        "discard": list(reversed(state.discard)),
        "melds": [m.to_json() for m in state.melds],
        "turn": state.turn,
        "direction": state.direction,
        "step": state.step,
        "mustMeld": state.must_meld,
        "drawPile": len(state.stock),
        "stock": len(state.stock),
        "pendingDraw": state.pending,
        "phase": state.phase,
        "rules": state.rules.to_json(),
        "legal": [a.to_json() for a in legal_actions(state, me)] if me is not None else [],
        "deal": state.deal,
        "dealer": state.dealer,
        "drawn": None,
        "unoExposed": None,
        "dealScores": None if state.deal_scores is None else list(state.deal_scores),
        "totals": list(state.totals),
        "winner": state.winner,
        "matchOver": state.match_over,
        "reveal": [list(h) for h in state.hands] if _over(state) else None,
        "pointsLaid": points_laid(state) if _over(state) else None,
        "pointsInHand": points_in_hand(state) if _over(state) else None,
        "drinks": None if state.drinks is None else list(state.drinks),
        "sips": [{"seat": s, "count": n, "reason": r} for s, n, r in state.sips],
        "moves": state.moves,
    }


def summary(state: RommyState) -> dict[str, Any]:
    """The scenario runner's ``state`` (docs/engine-api.md) plus ``melds`` and ``stock``."""
    return {
        "phase": state.phase,
        "turn": state.turn,
        "direction": state.direction,
        "top": state.top,
        "color": CARD_INFO[state.top].color if state.top else None,
        "hands": [list(h) for h in state.hands],
        "drawPile": len(state.stock),
        "pendingDraw": state.pending,
        "deal": state.deal,
        "dealer": state.dealer,
        "dealScores": None if state.deal_scores is None else list(state.deal_scores),
        "totals": list(state.totals),
        "winner": state.winner,
        "matchOver": state.match_over,
        "drinks": None if state.drinks is None else list(state.drinks),
        "melds": [m.to_json() for m in state.melds],
        "stock": list(reversed(state.stock)),
        "discard": list(reversed(state.discard)),
        "step": state.step,
        "mustMeld": state.must_meld,
        "sips": [{"seat": s, "count": n, "reason": r} for s, n, r in state.sips],
    }


def all_cards(state: RommyState) -> list[str]:
    """Every card of the match, wherever it is (for conservation checks)."""
    out: list[str] = [c for h in state.hands for c in h]
    out += state.stock
    out += state.discard
    for meld in state.melds:
        out += meld.cards
    return out
