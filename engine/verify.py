"""Check a finished deal from its archive record: ``python -m engine.verify deal.json``.

``deal.json`` is the body of ``GET /api/matches/{matchId}/deals/{n}/replay`` (served once
the match is over). The checks, each reported by name:

- ``commitment``: SHA-256 of the revealed server seed is the commitment the views showed
  before the deal (``startState.shuffle``; see :mod:`engine.commitment`);
- ``derivation``: HMAC-SHA256 of the server seed over the sorted contributions is the
  seed the deal was shuffled with (``startState.seed``);
- ``deal``: dealing from that seed gives exactly the recorded start (every hand, the draw
  pile, the discard, the turn; for a first deal, the dealer drawn from the seed too), in
  every game: UNO Rommy and Bottle UNO deal again with their own deal (``GameKind``);
- ``actions``: every recorded action is legal where it was taken (the engine replays
  them; every card drawn comes off the pile the seed made);
- ``scores``: the replay ends with the recorded deal scores and totals.

Prints one JSON object ``{"ok", "checks": {name: "ok" | why}}``; exit status 0 when every
check passed, 1 when one failed, 2 when the file is not a deal record.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from engine.actions import parse_action
from engine.api import apply, state_from_json
from engine.commitment import commitment, deal_seed
from engine.deal import choose_dealer, start_deal
from engine.errors import EngineError
from engine.game_registry import other_game
from engine.game_state import GameState
from engine.state import State

# What dealing sets; the rest of the start state (rules, totals, moves...) is carried over.
_DEALT = (
    "hands",
    "draw_pile",
    "discard",
    "draft",
    "turn",
    "direction",
    "color",
    "phase",
    "pending",
    "pending_kind",
    "after_color",
    "side",
    "deal",
    "shuffles",
)


def verify(record: dict[str, Any]) -> dict[str, str]:
    """Each check's outcome: ``"ok"`` or what is wrong."""
    checks: dict[str, str] = {}
    start = record["startState"]
    proof = start.get("shuffle")
    if not isinstance(proof, dict):
        return {"commitment": "the record holds no shuffle proof (startState.shuffle)"}
    server_seed = str(proof.get("serverSeed", ""))
    entropy = [str(e) for e in proof.get("entropy", [])]
    try:
        committed = commitment(server_seed)
        derived = deal_seed(server_seed, entropy)
    except ValueError:
        return {"commitment": "the server seed is not hex"}
    checks["commitment"] = (
        "ok" if committed == proof.get("commitment") else "SHA-256(serverSeed) != commitment"
    )
    checks["derivation"] = (
        "ok" if derived == start.get("seed") else "HMAC(serverSeed, entropy) != the deal's seed"
    )
    state = state_from_json(start)
    checks["deal"] = _check_deal(state, int(record.get("deal", state.deal)))
    checks["actions"], final = _replay(state, record.get("actions", []))
    checks["scores"] = "not checked: an action failed" if final is None else _scores(final, record)
    return checks


def _check_deal(start: GameState, number: int) -> str:
    """Deal again from the start state's seed and compare what dealing set."""
    if type(start) is State:
        again = start.copy()
        again.deal = start.deal - 1
        again.shuffles = 0
        start_deal(again)
        recorded, dealt = start.to_json(), again.to_json()
        names: tuple[str, ...] = _DEALT
    else:
        # UNO Rommy, Bottle UNO: the game deals its own way; whatever its deal does not set
        # is carried over, so the whole state must come out the same.
        recorded, dealt = start.to_json(), other_game(start).deal_again(start).to_json()
        names = tuple(recorded)
    wrong = [name for name in names if recorded.get(name) != dealt.get(name)]
    if wrong:
        return f"dealing from the seed gives other {', '.join(wrong)}"
    if number == 1 and start.rules.deal_method != "draft":
        # Every game seats its first dealer by the draw of the seed (engine.match_start).
        dealer, _ = choose_dealer(start.players, start.seed)
        if dealer != start.dealer:
            return "the first dealer is not the one the seed draws"
    return "ok"


def _replay(state: GameState, actions: list[dict[str, Any]]) -> tuple[str, GameState | None]:
    for index, entry in enumerate(actions):
        try:
            state, _ = apply(state, entry.get("seat", -1), parse_action(entry["action"]))
        except EngineError as err:
            return f"action {index} (seq {entry.get('seq')}) is illegal: {err.code}", None
    return "ok", state


def _scores(final: GameState, record: dict[str, Any]) -> str:
    if list(final.totals) != record.get("totals"):
        return "the replay ends with other totals"
    scores = record.get("scores")
    mine = final.deal_scores
    if scores and any(s is not None for s in scores) and list(mine or ()) != scores:
        return "the replay ends with other deal scores"
    return "ok"


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python -m engine.verify deal.json", file=sys.stderr)
        return 2
    try:
        with open(argv[0], "rb") as f:
            record = json.loads(f.read())
        checks = verify(record)
    except (OSError, json.JSONDecodeError, KeyError, TypeError, ValueError) as err:
        print(f"not a deal record: {err}", file=sys.stderr)
        return 2
    ok = all(v == "ok" for v in checks.values())
    print(json.dumps({"ok": ok, "checks": checks}))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
