"""Claim windows: out-of-turn races judged by reaction time instead of arrival (pure).

With ``fairRaces`` on (the default), the first valid claim on a position (a jump-in, a
UNO call or catch, a Wild Draw Four challenge) is held for a window; every action on the
same position that arrives meanwhile joins it. When the window closes the claims are
ranked by each claimant's estimated reaction time, and the first one the engine accepts
is applied: one change, carrying a ``race`` event. The others are then judged against the
new table in rank order, and any one refused is told ``too_late`` with what won.
docs/fairness.md describes the estimate and its limits.

The estimate of one claim, made by the node holding the claimant's socket (one clock):

    raw      = claim arrival - the time the position was written to that socket
    delay    = min(cap, max(kernel TCP RTT, min(app RTT, protocol RTT + slack)))
    reaction = raw - delay, and if the client reported its own receipt-to-press time,
               that report clamped to reaction +- ``report_margin_ms``

``raw`` holds the position's way out, the person, and the claim's way back: one round
trip. The app RTT (our ``ping``/``pong`` messages) is answered by the client's code, which
could answer late to be credited more; the protocol RTT (WebSocket ping frames) is
answered by the client's WebSocket stack (a browser's, out of a page's reach), so the app
RTT is believed only up to the protocol RTT plus ``ws_slack_ms``.

The window lasts as long as the claimants' distances need: a claim from the farthest
connected seat, made as fast as the first claim, arrives ``(its delay - the first
claimant's delay)`` later, so the window is that gap plus ``margin_ms``, never more than
``window_ms``.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

import engine
from app.rooms.commands import Action

# Actions that are races by nature: they are held for a window when they open one.
RACE_TYPES: frozenset[engine.ActionType] = frozenset({"callUno", "catchUno", "challenge"})
# A claim refused with one of these claimed nothing (there was nothing to claim): its
# claimant may not claim again for a moment. Too late is no fault.
INVALID_CLAIM = frozenset(
    {"not_your_turn", "nothing_to_call", "nothing_to_catch", "nothing_to_challenge", "bad_target"}
)


@dataclass(frozen=True, slots=True)
class RaceSettings:
    """How claim windows behave (server settings; docs/fairness.md)."""

    window_ms: int = 250  # a window never holds a claim longer than this
    margin_ms: int = 25  # a window lasts this beyond the claimants' round-trip gap
    delay_cap_ms: int = 250  # the most network delay any connection is credited with
    ws_slack_ms: int = 15  # the app RTT is believed this far above the protocol RTT
    tie_ms: int = 5  # reactions this close are a tie, broken by the deal's randomness
    superhuman_ms: int = 100  # a reaction faster than this is counted for the host
    lockout_ms: int = 1000  # an invalid claim bars its claimant from claiming this long
    report_margin_ms: int = 30  # a client's own report is believed this far from ours
    max_report_ms: int = 60_000  # a report beyond this is refused (bad_react)


def is_race_claim(state: engine.GameState, seat: int, action: engine.Action) -> bool:
    """Whether ``action`` by ``seat`` is one of the races a window decides."""
    kind = action.type
    if kind in RACE_TYPES:
        return True
    return kind == "play" and state.phase == "playing" and state.turn != seat


def credited_delay(
    app_rtt: float | None,
    tcp_rtt: float | None,
    cap: int,
    ws_rtt: float | None = None,
    slack: int = 15,
) -> int:
    """The network delay a connection is credited with (ms): the round trip its own code
    answers (``app_rtt``), believed only up to the one its WebSocket stack answers
    (``ws_rtt``) plus ``slack``; at least the kernel's TCP round trip; at most ``cap``."""
    measured = app_rtt
    if ws_rtt is not None:
        measured = ws_rtt if app_rtt is None else min(app_rtt, ws_rtt + slack)
    known = [v for v in (measured, tcp_rtt) if v is not None]
    return 0 if not known else int(min(cap, max(known)))


def window_ms(opener: int, others: list[int | None], settings: RaceSettings) -> int:
    """How long a window opened by a claim credited ``opener`` ms holds, given the
    credited delays of the other seats that could claim (None: not measured yet, taken
    as the cap): long enough for the farthest of them to claim as fast, plus the margin,
    never more than ``settings.window_ms``."""
    farthest = max(
        (settings.delay_cap_ms if d is None else min(d, settings.delay_cap_ms) for d in others),
        default=opener,
    )
    gap = max(0, farthest - opener)
    return max(1, min(settings.window_ms, gap + settings.margin_ms))


def reaction(timing: dict[str, Any] | None, margin: int) -> float | None:
    """A claim's estimated reaction time (ms), or None when it cannot be estimated."""
    if not timing or timing.get("raw") is None:
        return None
    estimate = float(timing["raw"] - timing.get("delay", 0))
    reported = timing.get("reported")
    if reported is not None:
        estimate = min(max(float(reported), estimate - margin), estimate + margin)
    return estimate


def tie_value(seed: str, position: int, seat: int, ref: str) -> str:
    """The committed randomness that orders tied claims: a one-way function of the deal's
    seed (revealed once the match is over, so the order can be checked then), the
    position and the claim; learning it reveals nothing of the seed."""
    text = f"uno-race-tie:{seed}:{position}:{seat}:{ref}"
    return hashlib.sha256(text.encode()).hexdigest()


@dataclass(slots=True)
class Claim:
    """One claim held in a window: the command, where it came from in the log, and when
    the window saw it."""

    command: Action
    log_id: str
    direct: bool
    seat: int
    received_ms: float  # the writer's monotonic clock
    reaction: float | None = None
    tie: str = ""
    rank: int = 0
    tied: bool = False


def rank(claims: list[Claim], settings: RaceSettings, seed: str, position: int) -> list[Claim]:
    """The claims fastest first. Reactions within ``tie_ms`` of the fastest are ordered by
    :func:`tie_value`, not by arrival; claims without an estimate come last, by arrival."""
    for claim in claims:
        timing = claim.command.timing
        claim.reaction = reaction(timing, settings.report_margin_ms)
        claim.tie = tie_value(seed, position, claim.seat, str(claim.command.ref))
    timed = sorted((c for c in claims if c.reaction is not None), key=lambda c: c.reaction or 0)
    untimed = [c for c in claims if c.reaction is None]
    if timed:
        best = timed[0].reaction or 0.0
        tied = [c for c in timed if (c.reaction or 0.0) - best <= settings.tie_ms]
        if len(tied) > 1:
            for claim in tied:
                claim.tied = True
            tied.sort(key=lambda c: c.tie)
        timed = tied + [c for c in timed if c not in tied]
    ordered = timed + untimed
    for index, claim in enumerate(ordered):
        claim.rank = index + 1
    return ordered


def claim_entry(claim: Claim, settings: RaceSettings, named: bool) -> dict[str, Any]:
    """One claim as the race event or its own claimant sees it; with ``seat`` and
    ``type`` when ``named``. (The race event names the winner and every claim but a
    losing play: that would tell the others what the claimant holds.)"""
    timing = claim.command.timing or {}
    entry: dict[str, Any] = {
        "rank": claim.rank,
        "raw": timing.get("raw"),
        "delay": timing.get("delay"),
        "rtt": timing.get("rtt"),
        "reaction": None if claim.reaction is None else round(claim.reaction),
        "tie": claim.tied,
        "superhuman": is_superhuman(claim, settings),
    }
    kind = claim.command.action.type
    if named or kind != "play":
        entry["seat"] = claim.seat
        entry["type"] = kind
    return entry


def is_superhuman(claim: Claim, settings: RaceSettings) -> bool:
    return claim.reaction is not None and claim.reaction < settings.superhuman_ms
