// The read-only live sockets: the lobby (/ws/lobby) and a tournament
// (/ws/tournaments/{id}). Each starts with a snapshot and then sends numbered changes; a
// change that skips a number, or a reconnect, asks `resume {lastSeq}`, answered with the
// missing changes in order or a fresh snapshot.

import { LiveSocket } from "./live.js";

// Close codes after which retrying cannot help: origin refused, no such tournament.
const FATAL_CLOSE = new Set([1008, 4404]);

function deferred(target) {
  target.ready = new Promise((resolve, reject) => {
    target.readyResolve = resolve;
    target.readyReject = reject;
  });
  target.ready.catch(() => {});
}

function applyChanges(byId, changes) {
  for (const change of changes) {
    if (change.op === "remove") byId.delete(change.roomId);
    else if (change.room) byId.set(change.roomId, change.room);
  }
}

/** `client.lobby()`: the public rooms open to join and the running public games, as
 * `GET /api/rooms` and `GET /api/rooms?status=playing` list them, kept current. Emits
 * `rooms (rooms, changes)` and `playing (playing, changes)` after the snapshot and each
 * change of that list, then `lobby (rooms, playing)` once per snapshot or message. */
export class LobbyFeed extends LiveSocket {
  constructor(client, options = {}) {
    super(client, { fatal: FATAL_CLOSE, backoff: options.backoff });
    this.byId = new Map(); // roomId -> room open to join, oldest first
    this.playingById = new Map(); // roomId -> running game, oldest first
    this.epoch = null;
    this.seq = null;
    this.resuming = false;
    this.live = false; // the socket is open and a snapshot came on it
    deferred(this);
  }

  path() {
    return "/ws/lobby";
  }

  /** The rooms open to join, oldest first. */
  get rooms() {
    return [...this.byId.values()];
  }

  /** The running games, oldest first. */
  get playing() {
    return [...this.playingById.values()];
  }

  opened() {
    this.resuming = false;
    if (this.seq !== null) this.#resume();
  }

  interrupted() {
    this.live = false;
  }

  failed(code, reason) {
    this.live = false;
    this.readyReject(new Error(`the lobby socket closed with ${code} ${reason || ""}`.trim()));
  }

  closing() {
    this.live = false;
    this.readyReject(new Error("closed"));
  }

  #resume() {
    this.resuming = this.send({ type: "resume", lastSeq: this.seq, epoch: this.epoch });
  }

  received(msg) {
    if (msg.type === "snapshot") {
      this.settled();
      this.resuming = false;
      this.live = true;
      this.epoch = msg.epoch;
      this.seq = msg.seq;
      this.byId = new Map((msg.rooms || []).map((room) => [room.roomId, room]));
      this.playingById = new Map((msg.playing || []).map((room) => [room.roomId, room]));
      this.readyResolve(this.rooms);
      this.emit("rooms", this.rooms, null);
      this.emit("playing", this.playing, null);
      this.emit("lobby", this.rooms, this.playing);
    } else if (msg.type === "lobby") {
      if (this.seq === null) return;
      if (msg.epoch === this.epoch && msg.seq <= this.seq) return; // a repeat
      if (msg.epoch !== this.epoch || msg.seq !== this.seq + 1) {
        // Another node's feed, or a gap: the resume's answer brings it in order.
        if (!this.resuming) this.#resume();
        return;
      }
      this.resuming = false;
      this.seq = msg.seq;
      const changes = msg.changes || [];
      const playingChanges = msg.playingChanges || [];
      // Both lists change before anyone hears of it: a game that started leaves `rooms`
      // and enters `playing` in the same message.
      applyChanges(this.byId, changes);
      applyChanges(this.playingById, playingChanges);
      if (changes.length) this.emit("rooms", this.rooms, changes);
      if (playingChanges.length) this.emit("playing", this.playing, playingChanges);
      this.emit("lobby", this.rooms, this.playing);
    } else if (msg.type === "error") {
      this.emit("error", msg);
    }
  }
}

/** `client.tournament(id)`: a tournament as it changes. Emits `snapshot (tournament,
 * standings, seq)`, then `event (event, seq)` per change in order, and `standings (rows)`
 * whenever the standings change. */
export class TournamentFeed extends LiveSocket {
  constructor(client, tournamentId, options = {}) {
    super(client, { fatal: FATAL_CLOSE, backoff: options.backoff });
    this.tournamentId = tournamentId;
    this.tournament = null;
    this.standings = [];
    this.seq = null;
    this.resuming = false;
    deferred(this);
  }

  path() {
    return `/ws/tournaments/${encodeURIComponent(this.tournamentId)}`;
  }

  opened() {
    this.resuming = false;
    if (this.seq !== null) this.#resume();
  }

  failed(code, reason) {
    this.readyReject(new Error(`the tournament socket closed with ${code} ${reason || ""}`.trim()));
  }

  closing() {
    this.readyReject(new Error("closed"));
  }

  #resume() {
    this.resuming = this.send({ type: "resume", lastSeq: this.seq });
  }

  received(msg) {
    if (msg.type === "snapshot") {
      this.settled();
      this.resuming = false;
      this.seq = msg.seq ?? 0;
      this.tournament = msg.tournament;
      this.standings = msg.standings || [];
      this.readyResolve(this.tournament);
      this.emit("snapshot", this.tournament, this.standings, this.seq);
      this.emit("standings", this.standings);
    } else if (msg.type === "event") {
      if (this.seq === null || msg.seq <= this.seq) return; // in the snapshot, or a repeat
      if (msg.seq !== this.seq + 1) {
        // A gap: ask once for what is missing; the events already sent after the gap
        // come again with the answer.
        if (!this.resuming) this.#resume();
        return;
      }
      this.resuming = false;
      this.seq = msg.seq;
      const event = msg.event || {};
      this.emit("event", event, this.seq);
      if (event.type === "standings" && Array.isArray(event.rows)) {
        this.standings = event.rows;
        this.emit("standings", this.standings);
      }
    } else if (msg.type === "error") {
      this.emit("error", msg);
    }
  }
}

// Close codes of the quick-play socket after which retrying cannot help: origin refused,
// no such ticket (unknown, left, or dropped from the queue).
const QUICKPLAY_FATAL = new Set([1008, 4004]);

/** `client.quickplayFeed(ticket)`: a quick-play ticket's wait, kept open (an open socket
 * keeps the ticket in the queue). Emits `queued ({waitedSeconds, searching, gap, waiting,
 * fillSeconds})` every second, then `matched ({roomId, seat, token, name})` once, and closes; `matched` is also a
 * promise of that table (it rejects when the ticket is dropped or the feed closed). */
export class QuickplayFeed extends LiveSocket {
  constructor(client, ticket, options = {}) {
    super(client, { fatal: QUICKPLAY_FATAL, backoff: options.backoff });
    this.ticket = ticket;
    this.match = null;
    this.matched = new Promise((resolve, reject) => {
      this.matchedResolve = resolve;
      this.matchedReject = reject;
    });
    this.matched.catch(() => {});
  }

  path() {
    return `/ws/quickplay?ticket=${encodeURIComponent(this.ticket)}`;
  }

  failed(code, reason) {
    this.matchedReject(new Error(`the quick-play socket closed with ${code} ${reason || ""}`.trim()));
  }

  closing() {
    if (!this.match) this.matchedReject(new Error("closed"));
  }

  received(msg) {
    if (msg.type === "queued") {
      this.settled();
      const { type: _type, ...wait } = msg;
      this.emit("queued", wait);
    } else if (msg.type === "matched") {
      const { type: _type, ...match } = msg;
      this.match = match;
      // The server closes after this: the feed's work is done, nothing to reconnect.
      this.close();
      this.matchedResolve(match);
      this.emit("matched", match);
    }
  }
}
