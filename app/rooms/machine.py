"""What each command does to a room: the writer's pure part (no I/O; time passed in).

A command is a log entry ``{"k": kind, "cid", "node", ...}``, read into its dataclass by
``app.rooms.commands``; :data:`HANDLERS` names the handler of each. :meth:`RoomMachine.handle`
judges it against the room as it is now and returns a :class:`Step`: the answer for the
node that sent it and, when the room changed, the events the change made. Refusals change
nothing.
"""

from __future__ import annotations

import random
import secrets
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

import engine
from app.db.records import DealRecord
from app.rooms import autoplay, commands
from app.rooms.autoplay import RoomTimes
from app.rooms.doc import (
    ACKS_KEPT,
    ENDED,
    LOBBY,
    OVER,
    PLAYING,
    is_banned,
    player_by_pid,
    player_by_seat,
    watching,
)
from app.rooms.errors import RoomError
from app.rooms.races import (
    INVALID_CLAIM,
    Claim,
    RaceSettings,
    claim_entry,
    is_race_claim,
    is_superhuman,
    rank,
    window_ms,
)
from app.rooms.seating import check_seats
from app.rooms.shuffle import deal_proof, fresh_shuffle, next_deal_number
from engine.commitment import is_contribution as engine_contribution
from engine.commitment import reseed
from engine.misplay import penalty_for
from engine.scoring import hand_value
from engine.seating import seat_order

_DEAL_OVER = ("dealOver", "matchOver")
ABSENT_AFTER = 30  # s a seat may be disconnected before the autopilot takes it (default)
# Engine actions only the room itself applies (no client may send them).
ROOM_ONLY = frozenset({"clockOut"})


def blitz_ms(state: Any) -> int:
    """blitzSeconds (ms) for a match of ``state``'s rules; 0 when off or when the game is
    not a shedding game (UNO Rommy and Bottle UNO read no blitz clock)."""
    if type(state) is not engine.State:
        return 0
    return int(state.rules.blitz_seconds) * 1000


_AGE_MESSAGE = (
    "this room keeps a drinking tally: every player confirms being of legal drinking age"
    " (join with ageConfirmed: true)"
)


@dataclass(slots=True)
class Step:
    result: dict[str, Any]  # sent to the command's node: {"ok": True, ...} or an error
    changed: bool = False
    events: list[dict[str, Any]] = field(default_factory=list)  # engine events, raw
    public_events: list[dict[str, Any]] = field(default_factory=list)  # the room's own
    deal_reset: bool = False
    deal_append: list[dict[str, Any]] = field(default_factory=list)
    deal_end: DealRecord | None = None  # a deal just ended: its record for SQL
    removed: list[str] = field(default_factory=list)  # player ids whose sockets must close
    # The document changed in a way no view shows (a spectator socket opening or closing):
    # stored, but no change of the room: no seq, no patch.
    quiet: bool = False
    actor: int | None = None  # the seat whose own action this was (its clock stops)
    end_room: bool = False  # the room is over for good: remove it from the live store
    # Claims the room makes for the seats it plays (a bot's jump-in, UNO call or catch,
    # challenge): the writer takes them like a person's, through the claim window.
    claims: list[commands.Action] = field(default_factory=list)


def _may_go_away(player: dict[str, Any]) -> bool:
    """A person's seat with no socket, not yet away (its absence timer runs)."""
    return (
        not player.get("bot")
        and not player.get("away")
        and player["conn"] <= 0
        and player.get("goneAt") is not None
    )


def _refuse(err: RoomError) -> Step:
    result = {"ok": False, "status": err.status, "code": err.code, "message": err.message}
    return Step({**result, **err.detail})


def replay(deal: list[dict[str, Any]]) -> Any:
    """The engine state a deal log leads to (None for an empty log: no match).

    The log is the current deal's start state then every action applied since; the engine
    is deterministic (its randomness is seeded in the state), so this is the state the
    writer held.
    """
    return engine.final_state(deal)


def _count(counts: dict[str, int], node: str, delta: int, total: int = 0) -> bool:
    """Add ``delta`` to a node's count of connections. A connection closing on a node with
    none counted is refused (False, no change): its node was found dead and its connections
    were taken away already. Unless ``total`` (all connections) holds connections counted
    on no node (made before nodes were counted): one of those closes."""
    n = counts.get(node, 0) + delta
    if n < 0:
        return total > sum(counts.values())
    if n:
        counts[node] = n
    else:
        counts.pop(node, None)
    return True


def connection_nodes(doc: dict[str, Any]) -> set[str]:
    """The nodes holding the room's sockets (seated and spectating)."""
    nodes = set(doc.get("watchAt", ()))
    for player in doc["players"]:
        nodes.update(player.get("at", ()))
    return nodes


def _archived(entry: dict[str, Any]) -> dict[str, Any]:
    out = {k: entry[k] for k in ("seq", "ts", "seat", "action")}
    if "by" in entry:
        out["by"] = entry["by"]  # a move the room made: "timeout", "autopilot" or "bot"
    return out


class RoomMachine:
    """A room held by its writer: the document, the engine state and the deal log."""

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
        self._bots_idle: int | None = None
        self.state: Any = None
        self.acks: OrderedDict[str, int] = OrderedDict()
        self.deal_start: dict[str, Any] | None = None
        self.deal_actions: list[dict[str, Any]] = []
        self.recall = autoplay.Recall()  # the bot seats' memories of the deal
        self._position_ms: int | None = None  # when the table's position was made
        # The change that left each position of the deal (by its ``moves``), or the first
        # one made on it: what a race's loser is told it lost to.
        self.positions: dict[int, dict[str, Any]] = {}
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
                self._mark(step.before.moves, entry)
                self.deal_actions.append(_archived(entry))
                if "key" in entry:
                    self.acks[entry["key"]] = entry["seq"]
        self._trim_acks()

    def _remember(self, key: str, seq: int) -> None:
        """An applied action's id: a retry of it is answered with this seq."""
        self.acks[key] = seq
        self._trim_acks()

    def _trim_acks(self) -> None:
        while len(self.acks) > ACKS_KEPT:
            self.acks.popitem(last=False)

    def _acks_entry(self) -> list[list[Any]]:
        """The remembered ids, for a deal-log entry that starts the log afresh."""
        return [[key, seq] for key, seq in self.acks.items()]

    def next_deal_timer(self, now_ms: int) -> tuple[float, commands.Timer] | None:
        """(delay in s, command) if the room should deal on by itself after a deal ended."""
        # A timed room deals on by itself after turnSeconds, so that no deal end waits on
        # someone who left.
        delay = self.doc.get("nextDealDelay", 0) or self.doc.get("turnSeconds", 0)
        state = self.state
        if not delay or state is None or state.phase != "dealOver":
            return None
        if self.doc["status"] != PLAYING:
            return None
        ended = self.doc.get("dealOverAt") or self.doc.get("ts", now_ms)
        since = max(0, now_ms - ended) / 1000
        return max(0.0, delay - since), commands.Timer(deal=state.deal)

    def to_doc(self) -> dict[str, Any]:
        """The document to commit."""
        return self.doc

    def handle(self, command: dict[str, Any] | commands.Command, now_ms: int) -> Step:
        """Judge ``command`` (its dataclass, or a log entry) at ``now_ms``."""
        try:
            typed = command if isinstance(command, commands.Command) else commands.read(command)
            step: Step = HANDLERS[type(typed)](self, typed, now_ms)
        except RoomError as err:
            return _refuse(err)
        if step.changed:
            # Views show the spectators counted as of the room's last change.
            self.doc["watchers"] = watching(self.doc)
            self._settle(step, now_ms)
        return step

    # Seats

    def _on_join(self, command: commands.Join, now_ms: int) -> Step:
        doc = self.doc
        if doc["status"] == PLAYING:
            raise RoomError(409, "match_in_progress", "the match has started; seats are fixed")
        if is_banned(doc, command.name):
            raise RoomError(403, "banned", "the host removed this player from the room")
        seat = self._free_seat()
        if doc["rules"].get("drinks") and not command.age:
            raise RoomError(403, "age_confirmation_required", _AGE_MESSAGE)
        player = {
            "seat": seat,
            "pid": command.pid,
            "name": command.name,
            "token": command.token,
            "conn": 0,
            "age": bool(command.age),
            "joinedAt": now_ms,
            "goneAt": now_ms,  # seated, no socket yet
        }
        doc["players"].append(player)
        doc["players"].sort(key=lambda p: p["seat"])
        if doc.get("hostPid") is None and doc.get("host"):
            # The first person seated is the host's seat: the role passes on from it.
            doc["hostPid"] = command.pid
        reset = self._back_to_lobby()
        event = {"type": "join", "seat": seat, "name": command.name}
        return Step(
            {"ok": True, "seat": seat},
            changed=True,
            public_events=[event],
            deal_reset=reset,
            # The cleared log keeps the room's remembered action ids.
            deal_append=[{"acks": self._acks_entry()}] if reset else [],
        )

    def _free_seat(self) -> int:
        doc = self.doc
        taken = {p["seat"] for p in doc["players"]}
        free = [s for s in range(doc["seats"]) if s not in taken]
        if not free:
            raise RoomError(409, "room_full", f"all {doc['seats']} seats are taken")
        return free[0]

    def _on_bot(self, command: commands.Bot, now_ms: int) -> Step:
        """The host seats a bot (in the lobby, or after a match: a new lobby)."""
        doc = self.doc
        if doc["status"] == PLAYING:
            raise RoomError(409, "match_in_progress", "bots are seated before a match")
        seat = self._free_seat()
        level = command.level
        bots = sum(1 for p in doc["players"] if p.get("bot"))
        player = {
            "seat": seat,
            "pid": "bot-" + secrets.token_hex(6),
            "name": f"Bot {bots + 1}",
            "token": "",  # no token proves a bot's seat: the room plays it
            "conn": 0,
            "age": True,
            "joinedAt": now_ms,
            "bot": level,
        }
        doc["players"].append(player)
        doc["players"].sort(key=lambda p: p["seat"])
        reset = self._back_to_lobby()
        event = {"type": "join", "seat": seat, "name": player["name"], "bot": level}
        return Step(
            {"ok": True, "seat": seat},
            changed=True,
            public_events=[event],
            deal_reset=reset,
            deal_append=[{"acks": self._acks_entry()}] if reset else [],
        )

    def _on_leave(self, command: commands.Leave, now_ms: int) -> Step:
        player = self._player(command.pid)
        return self._remove(player, "leave", now_ms)

    def _on_kick(self, command: commands.Kick, now_ms: int) -> Step:
        player = player_by_seat(self.doc, command.seat)
        if player is None:
            raise RoomError(404, "seat_empty", f"nobody sits in seat {command.seat!r}")
        if player.get("left"):
            raise RoomError(409, "seat_left", f"the player of seat {command.seat} has left")
        if not player.get("bot"):
            # A kick is a ban for the room's lifetime (the host may lift it).
            bans = self.doc.setdefault("bans", [])
            if player["name"] not in bans:
                bans.append(player["name"])
        return self._remove(player, "kick", now_ms)

    def _on_reseat(self, command: commands.Reseat, now_ms: int) -> Step:
        """A tournament's host moved players between tables before they started: the seat
        holds another player (the one before loses it: their sockets close)."""
        doc = self.doc
        if doc["status"] != LOBBY:
            raise RoomError(409, "match_in_progress", "the match has started; seats are fixed")
        player = player_by_seat(doc, int(command.seat))
        if player is None:
            raise RoomError(404, "seat_empty", f"seat {command.seat} is empty")
        before = player["pid"]
        for key in ("at", "socks", "came"):
            player.pop(key, None)
        player.update(
            pid=command.pid,
            name=command.name,
            token=command.token,
            conn=0,
            goneAt=now_ms,
            away=False,
        )
        event = {"type": "join", "seat": player["seat"], "name": command.name}
        step = Step({"ok": True}, changed=True, public_events=[event])
        step.removed = [before]
        return step

    def _on_mute(self, command: commands.Mute, now_ms: int) -> Step:
        """The host mutes (or unmutes) a seat's chat; the game is not touched."""
        player = player_by_seat(self.doc, command.seat)
        if player is None:
            raise RoomError(404, "seat_empty", f"nobody sits in seat {command.seat!r}")
        muted: list[str] = self.doc.setdefault("muted", [])
        if command.muted and player["pid"] not in muted:
            muted.append(player["pid"])
        elif not command.muted and player["pid"] in muted:
            muted.remove(player["pid"])
        return Step({"ok": True}, changed=True, public_events=[{"type": "settings"}])

    def _on_unban(self, command: commands.Unban, now_ms: int) -> Step:
        bans = self.doc.get("bans", [])
        name = next((b for b in bans if b.casefold() == command.name.casefold()), None)
        if name is None:
            raise RoomError(404, "not_banned", f"{command.name!r} is not banned here")
        bans.remove(name)
        return Step({"ok": True}, changed=True, public_events=[{"type": "unban", "name": name}])

    def _remove(self, player: dict[str, Any], kind: str, now_ms: int) -> Step:
        event = {"type": kind, "seat": player["seat"], "name": player["name"]}
        if self.doc["status"] == PLAYING and player.get("bot"):
            raise RoomError(409, "match_in_progress", "a bot seat stays until the match ends")
        if self.doc["status"] == PLAYING or self.doc.get("tournament"):
            # Mid-match the seat stays (the engine has no forfeit): a bot plays it to the
            # end, its score kept and marked; the player's token dies with the seat. A
            # tournament's table keeps the seat before it deals too: it was seated full.
            player.update(bot="normal", left=True, token="", away=False, conn=0, at={})
            event["bot"] = True
        else:
            self.doc["players"].remove(player)
            self._back_to_lobby()
        step = Step({"ok": True}, changed=True, public_events=[event], removed=[player["pid"]])
        if player["pid"] == self.doc.get("hostPid"):
            self._hand_over(step)
        return step

    def _hand_over(self, step: Step) -> None:
        """The host's seat is gone or away: the longest-seated person present hosts now
        (their seat token is the host's bearer; the old host token no longer hosts)."""
        doc = self.doc
        old = doc.get("hostPid")
        present = [p for p in autoplay.present_humans(doc) if p["pid"] != old]
        if not present:
            present = [p for p in doc["players"] if not p.get("bot") and p["pid"] != old]
        if not present:
            return
        heir = min(present, key=lambda p: (p.get("joinedAt", 0), p["seat"]))
        doc["hostPid"] = heir["pid"]
        doc["host"] = ""  # the creator's host token: its holder no longer hosts
        step.public_events.append({"type": "host", "seat": heir["seat"], "name": heir["name"]})

    def _back_to_lobby(self) -> bool:
        """After a match, a change of players makes the old match meaningless: drop it.
        True if the deal log must be cleared."""
        if self.doc["status"] == OVER:
            self.doc["status"] = LOBBY
            self.doc.pop("ended", None)
            self.state = None
            self.deal_start = None
            self.deal_actions = []
            return True
        return False

    def _on_connect(self, command: commands.Connect, now_ms: int) -> Step:
        player = self._player(command.pid)
        sock = command.sock
        socks = player.setdefault("socks", {})
        if sock is not None and sock in socks:
            # Sent again after an answer lost to an outage: its first commit landed.
            return Step({"ok": True})
        limit = command.max
        if limit is not None and player["conn"] >= limit:
            raise RoomError(429, "too_many_sockets", f"this seat has {limit} sockets open already")
        player["conn"] += 1
        player["goneAt"] = None
        player["came"] = True  # (a tournament withdraws who never came to their table)
        node = commands.socket_node(command)
        _count(player.setdefault("at", {}), node, 1)
        if sock is not None:
            socks[sock] = node
        step = Step({"ok": True}, changed=True)
        step.public_events.append({"type": "connect", "seat": player["seat"]})
        self._back_from_away(player, step)
        return step

    def _back_from_away(self, player: dict[str, Any], step: Step) -> None:
        player["timeouts"] = 0
        if player.get("away"):
            player["away"] = False
            step.public_events.append({"type": "back", "seat": player["seat"]})

    def _on_back(self, command: commands.Back, now_ms: int) -> Step:
        """The player's explicit "I'm back": the autopilot gives the seat back."""
        player = self._player(command.pid)
        if not player.get("away"):
            raise RoomError(409, "not_away", "this seat is not away")
        step = Step({"ok": True, "ref": command.ref, "seq": self.seq + 1}, changed=True)
        self._back_from_away(player, step)
        return step

    def _on_disconnect(self, command: commands.Disconnect, now_ms: int) -> Step:
        player = self._player(command.pid)
        node = commands.socket_node(command)
        sock = command.sock
        socks = player.setdefault("socks", {})
        if sock is not None:
            if sock not in socks:
                # Closed already (a retry whose first commit landed, or its node was found
                # dead), or its connect never landed: nothing to count off.
                return Step({"ok": True})
            node = socks.pop(sock)
        elif node in socks.values():
            # A dead node's connection (see gone): one of that node's sockets goes.
            del socks[next(k for k, v in socks.items() if v == node)]
        if not _count(player.setdefault("at", {}), node, -1, player["conn"]):
            # Its node was found dead and the connection taken away already.
            return Step({"ok": True})
        player["conn"] -= 1
        if player["conn"] == 0:
            player["goneAt"] = now_ms
        event = {"type": "disconnect", "seat": player["seat"]}
        return Step({"ok": True}, changed=True, public_events=[event])

    def _on_watch(self, command: commands.Watch, now_ms: int) -> Step:
        # Not a change of the room: each spectator connect patched to every socket cost
        # quadratically many frames. The count shown refreshes with the next change (or
        # the ``watchers`` timer's).
        count = watching(self.doc)
        limit = command.max
        if limit is not None and count >= limit:
            raise RoomError(429, "too_many_spectators", f"this room has {limit} spectators already")
        self.doc["watching"] = count + 1
        _count(self.doc.setdefault("watchAt", {}), commands.socket_node(command), 1)
        return Step({"ok": True}, quiet=True)

    def _on_unwatch(self, command: commands.Unwatch, now_ms: int) -> Step:
        count = watching(self.doc)
        if not _count(self.doc.setdefault("watchAt", {}), commands.socket_node(command), -1, count):
            return Step({"ok": True})
        self.doc["watching"] = count - 1
        return Step({"ok": True}, quiet=True)

    def _on_watchers(self, command: commands.Watchers, now_ms: int) -> Step:
        """The room's own refresh of the spectator count its views show, when spectators
        came or went since its last change (at most one per refresh period)."""
        count = watching(self.doc)
        if self.doc.get("watchers", 0) == count:
            return Step({"ok": True, "stale": True})
        event = {"type": "watchers", "count": count}
        return Step({"ok": True}, changed=True, public_events=[event])

    def watchers_stale(self) -> bool:
        """Whether the spectator count the views show is not the count now."""
        shown: int = self.doc.get("watchers", 0)
        return shown != watching(self.doc)

    def gone(self, dead: set[str]) -> list[commands.Unwatch | commands.Disconnect]:
        """Disconnects for every connection held on a ``dead`` node: one command
        per socket (each is a change of its own, as its own disconnect would have been)."""
        found: list[commands.Unwatch | commands.Disconnect] = []
        # Spectators first: the seats' disconnects, each a change, then show them gone.
        for node, count in self.doc.get("watchAt", {}).items():
            if node in dead:
                found.extend(commands.Unwatch(at=node) for _ in range(count))
        for player in self.doc["players"]:
            for node, count in player.get("at", {}).items():
                if node in dead:
                    closed = commands.Disconnect(pid=player["pid"], at=node)
                    found.extend(closed for _ in range(count))
        return found

    def _player(self, pid: str) -> dict[str, Any]:
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
        if len(players) < 2:
            raise RoomError(409, "not_enough_players", "a match needs at least 2 players")
        if doc["rules"].get("drinks") and not all(p.get("age") for p in players):
            # The host may have turned drinks on after some players joined.
            raise RoomError(409, "age_confirmation_required", _AGE_MESSAGE)
        rules = engine.rules_from_json(doc["rules"])
        seed, proof = deal_proof(doc, 1)
        try:
            state, events = engine.new_match(rules, len(players), seed)
        except engine.EngineError as err:
            raise RoomError(409, err.code, err.message) from err
        self._dealt(proof)
        seating_events = []
        if rules.shuffle_seats:
            # shuffleSeats: the players sit down in the order the engine draws.
            order = seat_order(rules, len(players), seed)
            players[:] = [players[former] for former in order]
            seating_events.append({"type": "seating", "order": order})
        # Seats are renumbered 0..n-1 in seat order: the engine knows no empty seats.
        bank = int(doc.get("timeBank", 0)) * 1000
        blitz = blitz_ms(state)
        for index, player in enumerate(players):
            player["seat"] = index
            player.update(bank=bank, timeouts=0)
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
            deal_append=[{"start": self.deal_start, "acks": self._acks_entry()}],
        )

    # The room's own timers: turn clock, absent seats, bots, empty rooms (one `tick`
    # command judges whatever is due; each due thing is its own change)

    def next_due(self) -> int | None:
        """When the room next needs a ``tick`` (server ms), or None."""
        doc, state = self.doc, self.state
        if doc.get("pausedAt"):
            return None  # a paused table's clocks stand still (see _on_unpause)
        dues: list[int] = []
        clock = doc.get("clock")
        if clock:
            dues.append(clock["deadline"])
        if doc.get("botAt"):
            dues.append(doc["botAt"])
        timer = self.next_deal_timer(0)
        if timer is not None:
            ended = doc.get("dealOverAt") or doc.get("ts", 0)
            delay = doc.get("nextDealDelay", 0) or doc.get("turnSeconds", 0)
            dues.append(ended + delay * 1000)
        if doc["status"] in (LOBBY, PLAYING):
            absent = doc.get("absentAfter", ABSENT_AFTER) * 1000
            for player in doc["players"]:
                if _may_go_away(player):
                    dues.append(player["goneAt"] + absent)
        if doc.get("emptySince"):  # (0: a document written without a clock, as in tests)
            dues.append(doc["emptySince"] + self._empty_limit())
        del state
        return min(dues) if dues else None

    def _empty_limit(self) -> int:
        if self.doc["status"] == LOBBY:
            return self.times.empty_lobby_ms
        return self.times.empty_room_ms

    def _on_tick(self, command: commands.Tick, now_ms: int) -> Step:
        """Whatever of the room's timers is due, in a fixed order; nothing due: no change
        (a tick that a player's action overtook, or a second node's copy of it)."""
        doc = self.doc
        if doc.get("pausedAt"):
            return Step({"ok": True, "stale": True})
        if doc.get("emptySince") and now_ms >= doc["emptySince"] + self._empty_limit():
            if self._is_empty():
                return self._end_room("empty", now_ms)
            doc["emptySince"] = None
        clock = doc.get("clock")
        if clock and now_ms >= clock["deadline"]:
            return self._timeout(clock, now_ms)
        absent = doc.get("absentAfter", ABSENT_AFTER) * 1000
        for player in doc["players"]:
            if _may_go_away(player) and now_ms >= player["goneAt"] + absent:
                return self._go_away(player, "absent")
        timer = self.next_deal_timer(now_ms)
        if timer is not None and timer[0] <= 0:
            return self._on_timer(timer[1], now_ms)
        if doc.get("botAt") and now_ms >= doc["botAt"]:
            doc["botAt"] = None
            step = self._bot_turn(now_ms)
            if step is not None:
                return step
            self._bots_idle = None if self.state is None else self.state.moves
        return Step({"ok": True, "stale": True})

    def _go_away(self, player: dict[str, Any], reason: str) -> Step:
        player["away"] = True
        step = Step({"ok": True}, changed=True)
        step.public_events.append({"type": "away", "seat": player["seat"], "reason": reason})
        if player["pid"] == self.doc.get("hostPid") and self.doc["status"] == LOBBY:
            self._hand_over(step)
        return step

    def _timeout(self, clock: dict[str, Any], now_ms: int) -> Step:
        """The decider's time ran out: the room plays its turn out (draw one and pass where
        the rules allow a pass, else the autopilot's choice), as one change."""
        state = self.state
        seat = clock["seat"]
        if state is None or autoplay.decider(state) != seat or state.deal != clock["deal"]:
            self.doc["clock"] = None  # a clock left from a decision that is gone
            return Step({"ok": True, "stale": True})
        if clock.get("flag"):
            # blitzSeconds: the seat's match clock ran out. The room's own word goes into
            # the log as an engine action (engine.blitz): the deal and the match end.
            try:
                flagged = self._apply(seat, {"type": "clockOut"}, None, now_ms, by="clock")
            except RoomError:
                self.doc["clock"] = None  # (no deal to end: nothing the clock can do)
                return Step({"ok": True, "stale": True})
            flagged.actor = seat
            return flagged
        step: Step | None = None
        deal = state.deal
        for _ in range(autoplay.MAX_DEFAULT_STEPS):
            state = self.state
            if autoplay.decider(state) != seat or state.deal != deal:
                break
            action = autoplay.default_move(state, seat, self.rng)
            if action is None:
                break
            try:
                more = self._apply(seat, action, None, now_ms, by="timeout")
            except RoomError:
                fallback = autoplay.fallback(state, seat)
                if fallback is None or fallback == action:
                    break
                more = self._apply(seat, fallback, None, now_ms, by="timeout")
            if step is None:
                step = more
            else:
                _merge(step, more)
        if step is None:
            self.doc["clock"] = None
            return Step({"ok": True, "stale": True})
        step.actor = seat
        player = player_by_seat(self.doc, seat)
        step.public_events.append({"type": "timeout", "seat": seat})
        if player is not None and not player.get("bot"):
            player["timeouts"] = player.get("timeouts", 0) + 1
            if player["timeouts"] >= 2 and not player.get("away"):
                player["away"] = True
                step.public_events.append({"type": "away", "seat": seat, "reason": "timeouts"})
        return step

    def _bot_turn(self, now_ms: int) -> Step | None:
        """One move of a seat the room plays (the decider first), or None."""
        state = self.state
        if self.doc["status"] != PLAYING or state is None:
            return None
        pilots = autoplay.pilots(self.doc)
        deal_on = not autoplay.present_humans(self.doc)
        first = autoplay.decider(state)
        order = sorted(pilots, key=lambda s: (s != first, s))
        for seat in order:
            pilot = pilots[seat]
            memory = None
            if pilot.by == "bot" and engine.legal_actions(state, seat):
                # A bot remembers the deal as a player would; the autopilot of an away seat
                # plays from the seat's view alone.
                memory = self.recall.memory(seat, self.deal_start, self.deal_actions)
            action = autoplay.bot_move(state, seat, pilot, self.rng, deal_on=deal_on, memory=memory)
            if action is None:
                continue
            if self.fair() and is_race_claim(state, seat, action):
                # A race (out of turn, or a UNO call): claimed as a person claims, held in
                # the claim window with the others and ranked by its reaction time.
                step = Step({"ok": True, "stale": True})
                step.claims.append(self._room_claim(seat, pilot, action, now_ms))
                return step
            try:
                step = self._apply(seat, action, None, now_ms, by=pilot.by)
            except RoomError:
                fallback = autoplay.fallback(state, seat) if seat == first else None
                if fallback is None:
                    continue
                step = self._apply(seat, fallback, None, now_ms, by=pilot.by)
            step.actor = seat
            step.public_events.append({"type": "auto", "seat": seat, "by": pilot.by})
            return step
        return None

    def _room_claim(
        self, seat: int, pilot: autoplay.Pilot, action: dict[str, Any], now_ms: int
    ) -> commands.Action:
        """The command of a claim the room makes for ``seat``. Its reaction is the time
        since the position it claims on was made (the bot's human-like pause), with no
        network delay to credit: it is judged against the people's estimates as they are."""
        player = player_by_seat(self.doc, seat)
        assert player is not None
        since = self._position_ms if self._position_ms is not None else now_ms
        claim = commands.Action(
            pid=player["pid"],
            ref=f"room-{self.state.deal}-{self.state.moves}-{seat}-{action.get('type')}",
            action=action,
            timing={"raw": max(0, now_ms - since), "delay": 0},
            by=pilot.by,
        )
        return claim

    def _settle(self, step: Step, now_ms: int) -> None:
        """After every change: the decider's clock, the bots' next move, and whether the
        room is empty (all kept in the document, so any writer carries them on)."""
        doc, state = self.doc, self.state
        playing = doc["status"] == PLAYING and state is not None
        # The turn clock.
        clock = doc.get("clock")
        seat = autoplay.decider(state) if playing else None
        turn_ms = int(doc.get("turnSeconds", 0)) * 1000
        same = (
            clock is not None
            and clock["seat"] == seat
            and clock["deal"] == state.deal
            and step.actor != seat
        )
        if not same:
            if clock is not None:
                # The time bank pays for the part of the decision past turnSeconds.
                owner = player_by_seat(doc, clock["seat"])
                if owner is not None and "bank" in owner:
                    spent = max(0, now_ms - clock["start"] - clock["turn"])
                    owner["bank"] = max(0, owner["bank"] - spent)
                # blitzSeconds: the match clock pays for the whole decision.
                if owner is not None and "blitz" in owner:
                    owner["blitz"] = max(0, owner["blitz"] - max(0, now_ms - clock["start"]))
            doc["clock"] = None
            owner = player_by_seat(doc, seat) if seat is not None else None
            blitz = None if owner is None else owner.get("blitz")
            if (turn_ms or blitz is not None) and seat is not None:
                bank = 0 if owner is None else int(owner.get("bank", 0))
                deadline = now_ms + turn_ms + bank if turn_ms else None
                # The match clock's end, when it comes before the turn timer's: then the
                # deadline is the flag (``clockOut``), not a turn played out.
                flag = blitz is not None and (deadline is None or now_ms + blitz <= deadline)
                doc["clock"] = {
                    "seat": seat,
                    "deal": state.deal,
                    "start": now_ms,
                    "turn": turn_ms,
                    "deadline": now_ms + blitz if flag and blitz is not None else deadline,
                }
                if flag:
                    doc["clock"]["flag"] = True
        # The bots.
        if not playing or not autoplay.pilots(doc) or doc.get("pausedAt"):
            doc["botAt"] = None
        elif doc.get("botAt") is None or step.actor is not None:
            doc["botAt"] = None
            if self._bots_may_act():
                delay = self.times.bot_delay_ms * (0.6 + 0.8 * self.rng.random())
                doc["botAt"] = now_ms + int(delay)
        # Nobody there.
        if not self._is_empty():
            doc["emptySince"] = None
        elif doc.get("emptySince") is None:
            doc["emptySince"] = now_ms

    def _is_empty(self) -> bool:
        """Nobody seated (a lobby), or no seated person with a socket open (a match)."""
        players = self.doc["players"]
        if self.doc.get("tournament"):
            # A tournament table plays to its end (the autopilot plays absent seats): its
            # result counts, whoever watches.
            return False
        if self.doc["status"] == LOBBY:
            return not players
        return not any(not p.get("bot") and p["conn"] > 0 for p in players)

    def _bots_may_act(self) -> bool:
        state = self.state
        if state is None or state.moves == self._bots_idle:
            return False
        deal_on = not autoplay.present_humans(self.doc)
        for seat in autoplay.pilots(self.doc):
            legal = engine.legal_actions(state, seat)
            if any(a.type != "nextDeal" or deal_on for a in legal):
                return True
        return False

    def _on_resume(self, command: commands.Resume, now_ms: int) -> Step:
        """A writer took the room over after an outage: the decider gets the time back that
        passed while no writer held the room."""
        shift = int(command.shift)
        doc = self.doc
        clock = doc.get("clock")
        if shift <= 0 or doc.get("pausedAt") or (clock is None and not doc.get("emptySince")):
            # (A paused table's clock stands still: unpause gives its time back.)
            return Step({"ok": True, "stale": True})
        step = Step({"ok": True}, changed=True)
        if doc.get("emptySince"):
            doc["emptySince"] += shift  # nor does an outage count as nobody being there
        if clock is not None:
            clock["start"] += shift
            clock["deadline"] += shift
            event = {"type": "clockResumed", "seat": clock["seat"], "added": shift}
            step.public_events.append(event)
        return step

    def _on_pause(self, command: commands.Pause, now_ms: int) -> Step:
        """A tournament's host stops the table: no clock runs, nobody moves, until
        ``unpause`` gives every running clock the paused time back."""
        doc = self.doc
        if doc["status"] != PLAYING or doc.get("pausedAt"):
            return Step({"ok": True, "stale": True})
        doc["pausedAt"] = now_ms
        return Step({"ok": True}, changed=True, public_events=[{"type": "paused"}])

    def _on_unpause(self, command: commands.Unpause, now_ms: int) -> Step:
        doc = self.doc
        paused = doc.get("pausedAt")
        if not paused:
            return Step({"ok": True, "stale": True})
        shift = max(0, now_ms - int(paused))
        doc["pausedAt"] = None
        clock = doc.get("clock")
        if clock is not None:
            clock["start"] += shift
            clock["deadline"] += shift
        if doc.get("dealOverAt"):
            doc["dealOverAt"] += shift
        for player in doc["players"]:
            if player.get("goneAt") is not None:
                player["goneAt"] += shift
        return Step(
            {"ok": True}, changed=True, public_events=[{"type": "unpaused", "added": shift}]
        )

    def _tally(self, state: Any, winner: int | None) -> None:
        """A finished deal's card points left in each hand and its winner, kept for the
        match (a tournament table's result is read from it)."""
        hands = getattr(state, "hands", None)
        if hands is None:
            return  # a game without hands of cards (Bottle UNO keeps a sip tally)
        rules, side = state.rules, getattr(state, "side", "light")
        left = [hand_value(hand, rules, side) for hand in hands]
        tally = {"winner": winner, "left": left, "totals": list(state.totals)}
        self.doc.setdefault("tally", []).append(tally)

    def _on_claim(self, command: commands.Claim, now_ms: int) -> Step:
        """Two seats, the opponent away: the player present may end the match as winner."""
        player = self._player(command.pid)
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

    def _end_room(self, reason: str, now_ms: int) -> Step:
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
        player = self._player(command.pid)
        ref = command.ref
        key = f"{player['pid']}:{ref}"
        if key in self.acks:
            # Applied before: answered with the same ack, applied never again.
            return Step({"ok": True, "ref": ref, "seq": self.acks[key], "duplicate": True})
        if self.doc["status"] != PLAYING or self.state is None:
            raise RoomError(409, "not_playing", "no match is in progress in this room")
        if self.doc.get("pausedAt"):
            raise RoomError(409, "paused", "the table is paused; play goes on when it resumes")
        # A claim the room made for a seat it plays (see _room_claim); no client command
        # carries ``by``.
        by = command.by
        if by is not None and autoplay.pilots(self.doc).get(player["seat"]) is None:
            raise RoomError(409, "too_late", "the room no longer plays this seat")
        if player.get("bot") and by is None:
            raise RoomError(409, "bot_seat", "a bot plays this seat")
        if command.action.get("type") in ROOM_ONLY:
            raise RoomError(
                409, "room_only", "only the room's own clock sends clockOut (blitzSeconds)"
            )
        try:
            self._check_claimant(player, command.action, now_ms)
            vote = None if by is not None else self._ready_vote(player, command.action, key, ref)
            if vote is not None:
                return vote
            step = self._apply(player["seat"], command.action, key, now_ms, by=by)
        except RoomError as err:
            if command.lost is None and by is None:
                penalty = self._misplay(player["seat"], command.action, err, now_ms)
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
            self._count_race(race)
        step.actor = player["seat"]
        if by is not None:
            step.public_events.append({"type": "auto", "seat": player["seat"], "by": by})
        else:
            # A player who acts is at the table: not away, no timeouts in a row.
            self._back_from_away(player, step)
        step.result = {"ok": True, "ref": ref, "seq": self.seq + 1}
        return step

    def _ready_vote(
        self, player: dict[str, Any], action: dict[str, Any], key: str, ref: Any
    ) -> Step | None:
        """A seated player's ``nextDeal`` after a deal: the host's deals on; anyone else's
        says "ready", and deals on once every person at the table is ready (the room's
        timer deals on by itself too). None: apply it now. So no player dismisses the
        others' scoreboards before they have read them."""
        state = self.state
        if action.get("type") != "nextDeal" or state is None or state.phase != "dealOver":
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
        self, seat: int, action: dict[str, Any], err: RoomError, now_ms: int
    ) -> Step | None:
        """misplayPenalty (engine.misplay): the refused play is answered with its error and
        changes nothing; the card it costs is a change of its own, applied here."""
        penalty = penalty_for(self.state, action, err.code)
        if penalty is None:
            return None
        try:
            step = self._apply(seat, penalty, None, now_ms)
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

    def fair(self) -> bool:
        return bool(self.doc.get("fairRaces", True)) and self.doc["status"] == PLAYING

    def holds(self, command: commands.Command, window_open: bool, now_ms: int) -> int | None:
        """The seat of ``command`` if it is a claim a window should hold: an action that
        is a race (or any action, while a window is open), valid on the table as it is.
        Anything else (None) is applied at once: refused, or an ordinary change."""
        state = self.state
        if not isinstance(command, commands.Action) or state is None or not self.fair():
            return None
        player = player_by_pid(self.doc, command.pid)
        if player is None or f"{player['pid']}:{command.ref}" in self.acks:
            return None
        seat: int = player["seat"]
        action = command.action
        delay = (command.timing or {}).get("delay")
        if isinstance(delay, int):
            self.delays[player["pid"]] = delay
        if not window_open and not is_race_claim(state, seat, action):
            return None
        if self.locked.get(player["pid"], 0) > now_ms:
            return None
        try:
            engine.apply(state, seat, action)
        except engine.EngineError:
            return None
        return seat

    def window_for(self, opener: commands.Action) -> int:
        """How long the window ``opener`` (a claim) opens holds: by the credited delays
        of the claimant and of every other seat a person is connected at."""
        pid = opener.pid
        delay = (opener.timing or {}).get("delay")
        others = [
            self.delays.get(p["pid"])
            for p in self.doc["players"]
            if p["pid"] != pid and p.get("conn", 0) > 0 and not p.get("bot")
        ]
        mine = delay if isinstance(delay, int) else self.races.delay_cap_ms
        return window_ms(mine, others, self.races)

    def _on_unreadable(self, command: commands.Unreadable, now_ms: int) -> Step:
        raise command.error

    def _on_delay(self, command: commands.Delay, now_ms: int) -> Step:
        """A seat's connection measured its credited delay anew (app.ws.connection): kept
        by the writer (not a change of the room)."""
        player = player_by_pid(self.doc, command.pid)
        delay = command.ms
        if player is not None and isinstance(delay, int) and not isinstance(delay, bool):
            self.delays[player["pid"]] = max(0, delay)
        return Step({"ok": True})

    def _check_claimant(self, player: dict[str, Any], action: dict[str, Any], now_ms: int) -> None:
        """A claimant that claimed what was not there may not claim for a moment; a claim
        that is not valid now locks it out (with fairRaces on)."""
        state = self.state
        if not self.fair() or not is_race_claim(state, player["seat"], action):
            return
        at = action.get("at")
        if at is not None and at != state.moves:
            return  # too late comes first
        pid = player["pid"]
        if self.locked.get(pid, 0) > now_ms:
            raise RoomError(
                409, "locked_out", "you claimed what was not there: wait a moment to claim"
            )
        try:
            engine.apply(state, player["seat"], action)
        except engine.EngineError as err:
            if err.code in INVALID_CLAIM:
                self.locked[pid] = now_ms + self.races.lockout_ms
                self._stats(player)["invalid"] += 1

    def _stats(self, player: dict[str, Any]) -> dict[str, int]:
        stats: dict[str, int] = player.setdefault(
            "races", {"claims": 0, "wins": 0, "superhuman": 0, "invalid": 0}
        )
        return stats

    def rank_window(self, claims: list[Claim], position: int) -> list[Claim]:
        seed = str(getattr(self.state, "seed", ""))
        return rank(claims, self.races, seed, position)

    def race_marks(
        self, ordered: list[Claim], winner: Claim, position: int, held_ms: int
    ) -> dict[str, Any]:
        """What the winning command carries into its change: the race event."""
        event = {
            "type": "race",
            "at": position,
            "window": held_ms,
            "winner": winner.seat,
            "claims": [claim_entry(c, self.races, c is winner) for c in ordered],
        }
        return {
            "event": event,
            "claims": [(c.command.pid, c is winner, is_superhuman(c, self.races)) for c in ordered],
        }

    def lost_marks(self, claim: Claim, won: dict[str, Any], held_ms: int) -> dict[str, Any]:
        """What a losing claim's refusal carries: what won, and its own place."""
        own = claim_entry(claim, self.races, True)
        return {"won": won, "race": {**own, "window": held_ms}}

    def _count_race(self, race: dict[str, Any]) -> None:
        for pid, won, superhuman in race["claims"]:
            player = player_by_pid(self.doc, pid)
            if player is None:
                continue
            stats = self._stats(player)
            stats["claims"] += 1
            stats["wins"] += int(won)
            stats["superhuman"] += int(superhuman)

    def _on_timer(self, command: commands.Timer, now_ms: int) -> Step:
        """The room deals the next deal itself, ``nextDealDelay`` s after one ended; a timer
        that a player's nextDeal (or anything else) overtook in the log does nothing."""
        state = self.state
        if (
            self.doc["status"] != PLAYING
            or self.doc.get("pausedAt")
            or state is None
            or state.phase != "dealOver"
            or state.deal != command.deal
        ):
            return Step({"ok": True, "stale": True})
        seat = state.active_seats()[0]  # any seated player may deal on; the room acts
        step = self._apply(seat, {"type": "nextDeal"}, None, now_ms)
        step.public_events.append({"type": "timer", "action": "nextDeal"})
        return step

    def _mark(self, moves: int, entry: dict[str, Any]) -> None:
        if moves not in self.positions:
            action = entry["action"]
            self.positions[moves] = {
                "seq": entry["seq"],
                "type": action.get("type"),
                "seat": entry["seat"],
            }

    def refusal(self, err: engine.EngineError, action: dict[str, Any]) -> RoomError:
        """The room's answer to an action the engine refused; a lost race (``too_late``)
        names the change that won it (``won``: its seq, action type and seat) when the room
        still knows it."""
        detail: dict[str, Any] = {}
        if err.code == "too_late" and self.state is not None:
            at = action.get("at")
            won = self.positions.get(self.state.moves if at is None else at)
            if won is not None:
                detail["won"] = dict(won)
        return RoomError(409, err.code, err.message, detail)

    def _dealt(self, proof: dict[str, Any]) -> None:
        """A deal was dealt from ``proof``: kept (hidden) until the deal ends; the
        contributions collected for it are used up."""
        shuffle = self.doc.setdefault("shuffle", fresh_shuffle())
        shuffle["dealt"] = proof
        shuffle["entropy"] = {}

    def _on_entropy(self, command: commands.Entropy, now_ms: int) -> Step:
        """A seated client's contribution to the next deal's seed (docs/fairness.md)."""
        player = self._player(command.pid)
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

    def _apply(
        self,
        seat: int,
        action: dict[str, Any],
        key: str | None,
        now_ms: int,
        by: str | None = None,
    ) -> Step:
        before = self.state
        proof = None
        dealing = before
        if action.get("type") == "nextDeal" and getattr(before, "phase", None) == "dealOver":
            # The next deal is shuffled from its own seed (committed to, with the clients'
            # contributions), never from anything a finished deal reveals.
            seed, proof = deal_proof(self.doc, before.deal + 1)
            dealing = reseed(before, seed)
        try:
            after, events = engine.apply(dealing, seat, action)
        except engine.EngineError as err:
            raise self.refusal(err, action) from None
        if proof is not None and after.deal != before.deal:
            self._dealt(proof)
        self.state = after
        self._position_ms = now_ms  # a bot's claim on this position counts from here
        if key is not None:
            self._remember(key, self.seq + 1)
        step = Step({"ok": True, "seq": self.seq + 1}, changed=True)
        step.events = list(events)
        entry = {"seq": self.seq + 1, "ts": now_ms, "seat": seat, "action": action}
        if by is not None:
            entry["by"] = by
        if after.deal != before.deal or self.deal_start is None:
            self.doc.pop("ready", None)  # the deal's "ready" votes are spent
            # A new deal began (nextDeal): its log starts from the state just dealt.
            self.deal_start = after.to_json()
            self.deal_actions = []
            self.positions = {}
            step.deal_reset = True
            # The new log carries the room's remembered ids, this action's included.
            step.deal_append = [{"start": self.deal_start, "acks": self._acks_entry()}]
        else:
            self._mark(before.moves, entry)
            self.deal_actions.append(entry)
            # The key lets a writer that takes the room over remember the action's id.
            step.deal_append = [{**entry, "key": key} if key else entry]
        if after.phase in _DEAL_OVER and before.phase not in _DEAL_OVER:
            step.deal_end = self._deal_end(after)
            self.doc["dealOverAt"] = now_ms
            dealt = next((e for e in events if e.get("type") == "dealOver"), None)
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
        if after.phase == "matchOver":
            self.doc["status"] = OVER
            # The next match gets a secret of its own (this one's deals are all revealed).
            dealt = self.doc.get("shuffle", {}).get("dealt")
            self.doc["shuffle"] = {**fresh_shuffle(), "dealt": dealt}
        return step

    def _deal_end(self, state: Any) -> DealRecord:
        proof = self.doc.get("shuffle", {}).get("dealt")
        start = dict(self.deal_start or {})
        if proof is not None and proof.get("deal") == state.deal:
            # How the deal's seed came about, for engine.verify (the deal is over).
            start["shuffle"] = proof
        return DealRecord(
            match_id=self.doc["matchId"],
            deal_number=state.deal,
            start_state=start,
            actions=list(self.deal_actions),
            # Bottle UNO keeps a sip tally and no deal scores.
            scores=None if getattr(state, "deal_scores", None) is None else list(state.deal_scores),
            totals=list(state.totals),
            winner=state.winner,
            match_over=state.match_over,
            seats=[
                {"seat": p["seat"], "playerId": p["pid"], "name": p["name"]}
                for p in self.doc["players"]
            ],
        )


# The handler of every command kind: what the machine does with it.
HANDLERS: dict[type[commands.Command], Callable[[RoomMachine, Any, int], Step]] = {
    commands.Join: RoomMachine._on_join,
    commands.Bot: RoomMachine._on_bot,
    commands.Leave: RoomMachine._on_leave,
    commands.Kick: RoomMachine._on_kick,
    commands.Reseat: RoomMachine._on_reseat,
    commands.Mute: RoomMachine._on_mute,
    commands.Unban: RoomMachine._on_unban,
    commands.Connect: RoomMachine._on_connect,
    commands.Back: RoomMachine._on_back,
    commands.Disconnect: RoomMachine._on_disconnect,
    commands.Watch: RoomMachine._on_watch,
    commands.Unwatch: RoomMachine._on_unwatch,
    commands.Watchers: RoomMachine._on_watchers,
    commands.Settings: RoomMachine._on_settings,
    commands.Start: RoomMachine._on_start,
    commands.Tick: RoomMachine._on_tick,
    commands.Resume: RoomMachine._on_resume,
    commands.Pause: RoomMachine._on_pause,
    commands.Unpause: RoomMachine._on_unpause,
    commands.Claim: RoomMachine._on_claim,
    commands.Action: RoomMachine._on_action,
    commands.Delay: RoomMachine._on_delay,
    commands.Timer: RoomMachine._on_timer,
    commands.Entropy: RoomMachine._on_entropy,
    commands.Unreadable: RoomMachine._on_unreadable,
}


def _merge(step: Step, more: Step) -> None:
    """Fold a further engine transition of the same change into ``step``."""
    step.events.extend(more.events)
    if more.deal_reset:
        step.deal_reset = True
        step.deal_append = list(more.deal_append)
    else:
        step.deal_append.extend(more.deal_append)
    if more.deal_end is not None:
        step.deal_end = more.deal_end
