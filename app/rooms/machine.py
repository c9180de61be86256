"""What each command does to a room: the writer's pure part (no I/O; time passed in).

A command is a log entry ``{"k": kind, "cid", "node", ...}``, read into its dataclass by
``app.rooms.commands``; :data:`HANDLERS` names the handler of each. :meth:`RoomMachine.handle`
judges it against the room as it is now and returns a :class:`Step`: the answer for the
node that sent it and, when the room changed, the events the change made. Refusals change
nothing.
"""

from __future__ import annotations

import marshal
import random
import secrets
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import engine
from app.deal_record import DealRecord
from app.errors import RoomError
from app.rooms import autoplay, claims, commands, presence, seats, timers
from app.rooms.autoplay import RoomTimes
from app.rooms.doc import (
    ACKS_KEPT,
    ENDED,
    OVER,
    PLAYING,
    player_by_pid,
    player_by_seat,
    watching,
)
from app.rooms.races import (
    RaceSettings,
)
from app.rooms.room import Won
from app.rooms.seat_counts import check_seats, player_range
from app.rooms.shuffle_proof import deal_proof, fresh_shuffle, next_deal_number
from app.rooms.step import Step, refuse
from engine.commitment import is_contribution as engine_contribution
from engine.commitment import reseed
from engine.misplay import penalty_for
from engine.scoring import hand_value
from engine.shuffle_seats import seat_order

_DEAL_OVER = ("dealOver", "matchOver")
# Engine actions only the room itself applies (no client may send them).
ROOM_ONLY: frozenset[engine.ActionType] = frozenset({"clockOut"})


def _archived(entry: dict[str, Any]) -> dict[str, Any]:
    out = {k: entry[k] for k in ("seq", "ts", "seat", "action")}
    if "by" in entry:
        out["by"] = entry["by"]  # a move the room made: "timeout", "autopilot" or "bot"
    return out


class RoomMachine:
    def __init__(
        self,
        doc: dict[str, Any],
        seq: int,
        deal_log: list[dict[str, Any]],
        races: RaceSettings | None = None,
        times: RoomTimes | None = None,
    ) -> None:
        self.doc = doc
        self.seq = seq
        self.races = races or RaceSettings()
        # Claimants barred from claiming until (ms): they claimed what was not there.
        self.locked: dict[str, int] = {}
        # Each seat's credited network delay (ms) as its connection last reported it (or
        # its last claim carried): claim windows last as long as the claimants' gap. In
        # the document (committed with the room's next change, shown in no view), so that
        # a writer taking the room over knows them.
        self.delays: dict[str, int] = doc.setdefault("raceDelays", {})
        self.times = times or RoomTimes()
        # Bots' choices and delays; seeded from the system, never from the game's seed.
        self.rng = random.Random(secrets.randbits(64))
        # Moves count at which the room's seats found nothing to do (no bot tick until the
        # table moves on).
        self.bots_idle: int | None = None
        self.state: engine.GameState | None = None
        self.acks: OrderedDict[str, int] = OrderedDict()
        self.deal_start: dict[str, Any] | None = None
        # The deal's actions as the archive stores them, each kept marshalled: bytes are no
        # work for the garbage collector, where three objects an action (the entry, its
        # action, the cards) lived a deal long in its generations. (In memory only: the
        # store and the archive get JSON.)
        self.deal_actions: list[bytes] = []
        self.recall = autoplay.Recall()  # the bot seats' memories of the deal
        self.position_ms: int | None = None  # when the table's position was made
        # The change that left each position of the deal (by its ``moves``), or the first
        # one made on it (app.rooms.room.Won): what a race's loser is told it lost to.
        self.positions: dict[int, Won] = {}
        for step in engine.replay_log(deal_log):
            entry = step.entry
            if "acks" in entry:
                # The ids the room remembered when this entry was written (a deal's start,
                # the return to the lobby), so that they outlive the deal log's reset.
                self.acks = OrderedDict((key, seq) for key, seq in entry["acks"])
            self.state = step.after
            if "start" in entry:
                self.deal_start = entry["start"]
                self.deal_actions = []
                self.positions = {}
            elif step.before is not None and "action" in entry:
                claims.mark(self, step.before.moves, entry)
                self.deal_actions.append(marshal.dumps(_archived(entry)))
                if "key" in entry:
                    self.acks[entry["key"]] = entry["seq"]
        self._trim_acks()

    def _remember(self, key: str, seq: int) -> None:
        """An applied action's id: a retry of it is answered with this seq."""
        self.acks[key] = seq
        if len(self.acks) > ACKS_KEPT:
            self._trim_acks()

    def _trim_acks(self) -> None:
        while len(self.acks) > ACKS_KEPT:
            self.acks.popitem(last=False)

    def acks_entry(self) -> list[list[Any]]:
        """The remembered ids, for a deal-log entry that starts the log afresh."""
        return list(map(list, self.acks.items()))  # [key, seq] pairs

    def to_doc(self) -> dict[str, Any]:
        """The document to commit."""
        return self.doc

    def handle(self, command: dict[str, Any] | commands.Command, now_ms: int) -> Step:
        """Judge ``command`` (its dataclass, or a log entry) at ``now_ms``."""
        try:
            typed = command if isinstance(command, commands.Command) else commands.read(command)
            step: Step = HANDLERS[type(typed)](self, typed, now_ms)
        except RoomError as err:
            return refuse(err)
        if step.changed:
            # Views show the spectators counted as of the room's last change.
            self.doc["watchers"] = watching(self.doc)
            timers.settle(self, step, now_ms)
        return step

    # Seats

    def player(self, pid: str) -> dict[str, Any]:
        player = player_by_pid(self.doc, pid)
        if player is None or player.get("left"):
            raise RoomError(403, "not_seated", "this token holds no seat in the room")
        return player

    # The host

    def _on_settings(self, command: commands.Settings, now_ms: int) -> Step:
        doc = self.doc
        if doc["status"] == PLAYING:
            raise RoomError(409, "match_in_progress", "settings change only before a match")
        changes = command.changes
        seats = changes.get("seats")
        if seats is not None:
            highest = max((p["seat"] for p in doc["players"]), default=-1)
            if seats <= highest:
                raise RoomError(
                    409, "seats_taken", f"seat {highest} is taken; cannot shrink to {seats} seats"
                )
        if "seats" in changes or "rules" in changes:
            check_seats(changes.get("rules", doc["rules"]), changes.get("seats", doc["seats"]))
        doc.update(changes)
        return Step({"ok": True}, changed=True, public_events=[{"type": "settings"}])

    def _on_start(self, command: commands.Start, now_ms: int) -> Step:
        doc = self.doc
        if doc["status"] == PLAYING:
            raise RoomError(409, "match_in_progress", "the match has already started")
        players = doc["players"]
        fewest = player_range(doc["rules"])[0]
        if len(players) < fewest:
            raise RoomError(409, "not_enough_players", f"a match needs at least {fewest} players")
        if doc["rules"].get("drinks") and not all(p.get("age") for p in players):
            # The host may have turned drinks on after some players joined.
            raise RoomError(409, "age_confirmation_required", seats.AGE_MESSAGE)
        rules = engine.rules_from_json(doc["rules"])
        seed, proof = deal_proof(doc, 1)
        try:
            state, events = engine.new_match(rules, len(players), seed)
        except engine.EngineError as err:
            raise RoomError.from_engine(err, 409) from err
        self._dealt(proof)
        seating_events = []
        if rules.shuffle_seats:
            # shuffleSeats: the players sit down in the order the engine draws.
            order = seat_order(rules, len(players), seed)
            players[:] = [players[former] for former in order]
            seating_events.append({"type": "seating", "order": order})
        # Seats are renumbered 0..n-1 in seat order: the engine knows no empty seats.
        bank = int(doc.get("timeBank", 0)) * 1000
        blitz = timers.blitz_ms(state)
        for index, player in enumerate(players):
            player["seat"] = index
            # moves and auto (the moves the room made for the seat) place a seat the
            # autopilot played for most of the match last in the ratings.
            player.update(bank=bank, timeouts=0, moves=0, auto=0)
            # blitzSeconds: the seat's match clock (ms), full at every start.
            if blitz:
                player["blitz"] = blitz
            else:
                player.pop("blitz", None)
        away_events = []
        if command.absentAway:
            # A tournament table starts on time: a seat with no socket open is played by
            # the autopilot from the first turn until its player comes.
            for player in players:
                if not player.get("bot") and player["conn"] <= 0:
                    player["away"] = True
                    away_events.append({"type": "away", "seat": player["seat"], "reason": "absent"})
        doc.pop("ended", None)
        doc["tally"] = []
        doc.pop("ready", None)
        doc["deals"] = []  # a new match: a new scoreboard
        doc["clock"] = None
        self.state = state
        doc["status"] = PLAYING
        doc["matchId"] = secrets.token_hex(8)
        self.deal_start = self.state.to_json()
        self.deal_actions = []
        self.positions = {}
        return Step(
            {"ok": True, "seq": self.seq + 1},
            changed=True,
            events=list(events),
            public_events=[
                {"type": "start", "matchId": doc["matchId"]},
                *seating_events,
                *away_events,
            ],
            deal_reset=True,
            deal_append=[{"start": self.deal_start, "acks": self.acks_entry()}],
        )

    # The room's own timers: turn clock, absent seats, bots, empty rooms (one `tick`
    # command judges whatever is due; each due thing is its own change)

    def _tally(self, state: engine.GameState, winner: int | None) -> None:
        """A finished deal's card points left in each hand and its winner, kept for the
        match (a tournament table's result is read from it)."""
        hands = engine.hands_of(state)
        if hands is None:
            return  # a game without hands of cards (Bottle UNO keeps a sip tally)
        rules, side = state.rules, engine.face_up(state) or "light"
        left = [hand_value(hand, rules, side) for hand in hands]
        tally = {"winner": winner, "left": left, "totals": list(state.totals)}
        self.doc.setdefault("tally", []).append(tally)

    def _on_claim(self, command: commands.Claim, now_ms: int) -> Step:
        """Two seats, the opponent away: the player present may end the match as winner."""
        player = self.player(command.pid)
        doc, state = self.doc, self.state
        if doc["status"] != PLAYING or state is None:
            raise RoomError(409, "not_playing", "no match is in progress in this room")
        others = [p for p in doc["players"] if p["pid"] != player["pid"]]
        if player.get("away") or len(doc["players"]) != 2 or not others:
            raise RoomError(409, "cannot_claim", "only a present player of two may claim")
        if not (others[0].get("away") or others[0].get("left")):
            raise RoomError(409, "cannot_claim", "the opponent is not away")
        return self._end_match("claim", now_ms, winner=player["seat"])

    def _end_match(self, reason: str, now_ms: int, winner: int | None) -> Step:
        """The room ends the match where it stands (scores as they are), archived."""
        doc, state = self.doc, self.state
        step = Step({"ok": True}, changed=True)
        if doc["status"] == PLAYING and state is not None:
            if state.phase not in _DEAL_OVER:
                self._tally(state, None)
            end = self._deal_end(state)
            step.deal_end = replace(end, match_over=True, winner=winner, scores=None)
        doc["status"] = OVER
        doc["clock"] = None
        doc["botAt"] = None
        totals = None if state is None else list(state.totals)
        doc["ended"] = {"reason": reason, "winner": winner, "totals": totals}
        step.public_events.append({"type": "matchEnded", "reason": reason, "winner": winner})
        return step

    def end_room(self, reason: str, now_ms: int) -> Step:
        """Nobody there for too long: the match ends (archived) and the room goes."""
        doc = self.doc
        if doc["status"] == PLAYING:
            step = self._end_match(reason, now_ms, winner=None)
        else:
            step = Step({"ok": True}, changed=True)
        doc["status"] = ENDED
        doc["emptySince"] = None
        step.public_events.append({"type": "roomEnded", "reason": reason})
        step.removed = [p["pid"] for p in doc["players"]]
        step.end_room = True
        return step

    # Play

    def _on_action(self, command: commands.Action, now_ms: int) -> Step:
        pid = command.pid
        player = self.player(pid)
        ref = command.ref
        key = f"{pid}:{ref}"  # (the seat's pid: found by it)
        acks = self.acks
        if key in acks:
            # Applied before: answered with the same ack, applied never again.
            return Step({"ok": True, "ref": ref, "seq": acks[key], "duplicate": True})
        doc = self.doc
        if doc["status"] != PLAYING or self.state is None:
            raise RoomError(409, "not_playing", "no match is in progress in this room")
        if doc.get("pausedAt"):
            raise RoomError(409, "paused", "the table is paused; play goes on when it resumes")
        # A claim the room made for a seat it plays (see _room_claim); no client command
        # carries ``by``.
        by = command.by
        seat: int = player["seat"]
        if by is not None and autoplay.pilots(doc).get(seat) is None:
            raise RoomError(409, "too_late", "the room no longer plays this seat")
        if by is None and player.get("bot"):
            raise RoomError(409, "bot_seat", "a bot plays this seat")
        action = command.action
        if action.type in ROOM_ONLY:
            raise RoomError(
                409, "room_only", "only the room's own clock sends clockOut (blitzSeconds)"
            )
        claim = False
        try:
            claim = claims.check_claimant(self, player, action, now_ms)
            vote = None if by is not None else self._ready_vote(player, action, key, ref)
            if vote is not None:
                return vote
            step = self.apply(seat, action, key, now_ms, by=by)
        except RoomError as err:
            if claim:
                claims.claim_refused(self, player, err, now_ms)
            if command.lost is None and by is None:
                penalty = self._misplay(seat, action, err, now_ms)
                if penalty is not None:
                    return penalty
            lost = command.lost
            if lost is not None:
                # It lost a claim window: whatever the table now says, it lost a race.
                message = "too late: another claim on this position won the race"
                raise RoomError(409, "too_late", message, lost) from None
            raise
        race = command.race
        if race is not None:
            step.public_events.append(race["event"])
            claims.count_race(self, race)
        step.actor = seat
        if by is not None:
            step.public_events.append({"type": "auto", "seat": seat, "by": by})
        else:
            # A player who acts is at the table: not away, no timeouts in a row.
            presence.back_from_away(self, player, step)
        step.result = {"ok": True, "ref": ref, "seq": self.seq + 1}
        return step

    def _ready_vote(
        self, player: dict[str, Any], action: engine.Action, key: str, ref: Any
    ) -> Step | None:
        """A seated player's ``nextDeal`` after a deal: the host's deals on; anyone else's
        says "ready", and deals on once every person at the table is ready (the room's
        timer deals on by itself too). None: apply it now. So no player dismisses the
        others' scoreboards before they have read them."""
        state = self.state
        if action.type != "nextDeal" or state is None or state.phase != "dealOver":
            return None
        host = self.doc.get("hostPid")
        if host is None or player["pid"] == host:
            return None
        try:
            engine.apply(state, player["seat"], action)  # refused as the deal would be
        except engine.EngineError as err:
            raise self.refusal(err, action) from None
        ready: list[int] = self.doc.setdefault("ready", [])
        if player["seat"] not in ready:
            ready.append(player["seat"])
        present = {p["seat"] for p in autoplay.present_humans(self.doc)}
        if present <= set(ready):
            return None
        self._remember(key, self.seq + 1)
        event = {"type": "ready", "seat": player["seat"]}
        return Step(
            {"ok": True, "ref": ref, "seq": self.seq + 1}, changed=True, public_events=[event]
        )

    def _misplay(
        self, seat: int, action: engine.Action, err: RoomError, now_ms: int
    ) -> Step | None:
        """misplayPenalty (engine.misplay): the refused play is answered with its error and
        changes nothing; the card it costs is a change of its own, applied here."""
        if self.state is None:
            return None
        penalty = penalty_for(self.state, action, err.code)
        if penalty is None:
            return None
        try:
            step = self.apply(seat, penalty, None, now_ms)
        except RoomError:
            return None
        step.result = {
            "ok": False,
            "status": err.status,
            "code": err.code,
            "message": err.message,
            **err.detail,
        }
        return step

    # Claim windows (app.rooms.races; the writer holds the commands and keeps the time)

    def _on_unreadable(self, command: commands.Unreadable, now_ms: int) -> Step:
        raise command.error

    def refusal(self, err: engine.EngineError, action: engine.Action) -> RoomError:
        """The room's answer to an action the engine refused; a lost race (``too_late``)
        names the change that won it (``won``: its seq, action type and seat) when the room
        still knows it."""
        detail: dict[str, Any] = {}
        if err.code == "too_late" and self.state is not None:
            at = action.at
            left = self.positions.get(self.state.moves if at is None else at)
            if left is not None:
                detail["won"] = claims.change_of(left)
        return RoomError.from_engine(err, 409, detail)

    def _dealt(self, proof: dict[str, Any]) -> None:
        """A deal was dealt from ``proof``: kept (hidden) until the deal ends; the
        contributions collected for it are used up."""
        shuffle = self.doc.setdefault("shuffle", fresh_shuffle())
        shuffle["dealt"] = proof
        shuffle["entropy"] = {}

    def _on_entropy(self, command: commands.Entropy, now_ms: int) -> Step:
        """A seated client's contribution to the next deal's seed (docs/fairness.md)."""
        player = self.player(command.pid)
        deal = next_deal_number(self.doc, self.state)
        if deal is None or command.deal != deal:
            raise RoomError(
                409,
                "entropy_too_late",
                f"contributions are open for deal {deal} only"
                if deal is not None
                else "contributions open when a deal ends: this one is dealt",
            )
        if not engine_contribution(command.value):
            raise RoomError(422, "bad_entropy", "entropy is 1-64 lowercase hex characters")
        entropy = self.doc.setdefault("shuffle", fresh_shuffle()).setdefault("entropy", {})
        if player["pid"] in entropy:
            raise RoomError(409, "entropy_twice", f"you contributed to deal {deal} already")
        entropy[player["pid"]] = command.value
        event = {"type": "entropy", "seat": player["seat"], "deal": deal}
        return Step({"ok": True}, changed=True, public_events=[event])

    def apply(
        self,
        seat: int,
        action: engine.Action,
        key: str | None,
        now_ms: int,
        by: str | None = None,
    ) -> Step:
        before = self.state
        if before is None:
            raise RoomError(409, "not_playing", "no match is in progress in this room")
        proof = None
        dealing = before
        if action.type == "nextDeal" and before.phase == "dealOver":
            # The next deal is shuffled from its own seed (committed to, with the clients'
            # contributions), never from anything a finished deal reveals.
            seed, proof = deal_proof(self.doc, before.deal + 1)
            dealing = reseed(before, seed)
        try:
            after, events = engine.apply(dealing, seat, action)
        except engine.EngineError as err:
            raise self.refusal(err, action) from None
        new_deal = after.deal != before.deal
        if proof is not None and new_deal:
            self._dealt(proof)
        self.state = after
        self.position_ms = now_ms  # a bot's claim on this position counts from here
        seq = self.seq + 1
        if key is not None:
            self._remember(key, seq)
        step = Step({"ok": True, "seq": seq}, changed=True, events=list(events))
        # The deal log keeps the action's wire form (what the socket sent).
        entry = {"seq": seq, "ts": now_ms, "seat": seat, "action": action.to_json()}
        if by is not None:
            entry["by"] = by
        self._count_move(seat, by)
        if new_deal or self.deal_start is None:
            self.doc.pop("ready", None)  # the deal's "ready" votes are spent
            # A new deal began (nextDeal): its log starts from the state just dealt.
            self.deal_start = after.to_json()
            self.deal_actions = []
            self.positions = {}
            step.deal_reset = True
            # The new log carries the room's remembered ids, this action's included.
            step.deal_append = [{"start": self.deal_start, "acks": self.acks_entry()}]
        else:
            claims.mark(self, before.moves, entry)
            self.deal_actions.append(marshal.dumps(entry))
            # The key lets a writer that takes the room over remember the action's id.
            step.deal_append = [{**entry, "key": key} if key else entry]
        phase = after.phase
        if phase in _DEAL_OVER and before.phase not in _DEAL_OVER:
            step.deal_end = self._deal_end(after)
            self.doc["dealOverAt"] = now_ms
            dealt = next(filter(engine.is_deal_over, events), None)
            self._tally(after, None if dealt is None else dealt.get("winner"))
            end = step.deal_end
            self.doc.setdefault("deals", []).append(
                {
                    "deal": end.deal_number,
                    "winner": end.winner,
                    "scores": end.scores,
                    "totals": end.totals,
                }
            )
        if phase == "matchOver":
            self.doc["status"] = OVER
            # The next match gets a secret of its own (this one's deals are all revealed).
            dealt = self.doc.get("shuffle", {}).get("dealt")
            self.doc["shuffle"] = {**fresh_shuffle(), "dealt": dealt}
        return step

    def _count_move(self, seat: int, by: str | None) -> None:
        owner = player_by_seat(self.doc, seat)
        if owner is not None and "moves" in owner:
            owner["moves"] += 1
            if by in _FOR_THE_SEAT:
                owner["auto"] += 1

    def _deal_end(self, state: engine.GameState) -> DealRecord:
        proof = self.doc.get("shuffle", {}).get("dealt")
        start = dict(self.deal_start or {})
        if proof is not None and proof.get("deal") == state.deal:
            # How the deal's seed came about, for engine.verify (the deal is over).
            start["shuffle"] = proof
        return DealRecord(
            match_id=self.doc["matchId"],
            deal_number=state.deal,
            start_state=start,
            actions=[marshal.loads(action) for action in self.deal_actions],
            # Bottle UNO keeps a sip tally and no deal scores.
            scores=None if state.deal_scores is None else list(state.deal_scores),
            totals=list(state.totals),
            winner=state.winner,
            match_over=state.match_over,
            seats=[
                {
                    "seat": p["seat"],
                    "playerId": p["pid"],
                    "name": p["name"],
                    "left": bool(p.get("left")),
                    "moves": p.get("moves", 0),
                    "auto": p.get("auto", 0),
                }
                for p in self.doc["players"]
            ],
            rated=bool(self.doc.get("rated")),
        )


# Moves the room makes in a present player's stead (a bot's own moves are "bot").
_FOR_THE_SEAT = frozenset({"autopilot", "timeout"})


# The handler of every command kind: what the machine does with it.
HANDLERS: dict[type[commands.Command], Callable[[RoomMachine, Any, int], Step]] = {
    commands.Join: seats.on_join,
    commands.Bot: seats.on_bot,
    commands.Leave: seats.on_leave,
    commands.Kick: seats.on_kick,
    commands.Reseat: seats.on_reseat,
    commands.Mute: seats.on_mute,
    commands.Unban: seats.on_unban,
    commands.Connect: presence.on_connect,
    commands.Back: presence.on_back,
    commands.Disconnect: presence.on_disconnect,
    commands.Watch: presence.on_watch,
    commands.Unwatch: presence.on_unwatch,
    commands.Watchers: presence.on_watchers,
    commands.Settings: RoomMachine._on_settings,
    commands.Start: RoomMachine._on_start,
    commands.Tick: timers.on_tick,
    commands.Resume: timers.on_resume,
    commands.Pause: timers.on_pause,
    commands.Unpause: timers.on_unpause,
    commands.Claim: RoomMachine._on_claim,
    commands.Action: RoomMachine._on_action,
    commands.Delay: claims.on_delay,
    commands.Timer: timers.on_timer,
    commands.Entropy: RoomMachine._on_entropy,
    commands.Unreadable: RoomMachine._on_unreadable,
}
