// A room's socket (/ws/rooms/{roomId}): snapshot + ordered patches -> one view.
//
// The server is authoritative; a session only keeps the latest view it was told about:
// - `snapshot {seq, view}` replaces the view outright;
// - `patch {seq, ops, events}` is applied in `seq` order, each exactly once: older ones
//   (already included) are dropped, early ones wait in a buffer, and a gap that does not
//   fill quickly, or a patch that does not apply, asks the server to resync;
// - a lost socket reconnects with backoff and sends `resume {lastSeq}`;
// - actions carry an id; ones not yet answered are sent again with the same id after a
//   reconnect (the server applies an id at most once).

import { SocketError } from "./errors.js";
import { LiveSocket } from "./live.js";
import { applyPatch } from "./patch.js";

const GAP_WAIT_MS = 1500; // how long an out-of-order patch may wait for the missing ones
const RESEND_WINDOW_MS = 15000; // an action unanswered this long is given up
const RETRY_MS = 1000; // before sending again an action the room could not take yet
// Close codes after which reconnecting cannot help: origin refused (1008), seat given up
// or player removed (4001), the room ended (4002), bad token (4401), no spectators
// (4403), no such room (4404).
const FATAL_CLOSE = new Set([1008, 4001, 4002, 4401, 4403, 4404]);
// Refusals that say "not now" rather than "no": the same id is sent again later.
const RETRIED = new Set(["timeout", "unavailable"]);

let idCounter = 0;
function newActionId() {
  idCounter += 1;
  const random = Math.floor(Math.random() * 2 ** 48).toString(36);
  return `c${Date.now().toString(36)}-${random}-${idCounter}`;
}

function now() {
  return globalThis.performance?.now?.() ?? Date.now();
}

export class RoomSession extends LiveSocket {
  /**
   * Made by `client.connect(roomId, token)` (a seat) or `client.watch(roomId)` (a
   * spectator), which open it; `new RoomSession(...)` alone opens nothing (feed it
   * messages with `handle`).
   */
  constructor(client, roomId, token = null, options = {}) {
    super(client, { fatal: FATAL_CLOSE, backoff: options.backoff });
    this.roomId = roomId;
    this.token = token || null;
    this.view = null;
    this.seq = null; // null until the first snapshot
    this.reconnects = 0;
    this.resendWindowMs = options.resendWindowMs ?? RESEND_WINDOW_MS;
    this.buffer = new Map(); // seq -> patch message that arrived early
    this.pending = new Map(); // action id -> {msg, resolve, reject, timer}
    this.acked = []; // [seq, resolve] of acks whose change the view does not include yet
    this.gapTimer = null;
    this.wantSnapshot = false;
    this.refusal = null; // an error before the first snapshot: why the socket will close
    this.positionSeen = null;
    this.ready = new Promise((resolve, reject) => {
      this.readyResolve = resolve;
      this.readyReject = reject;
    });
    this.ready.catch(() => {}); // rejected for whoever awaits it, not an unhandled one
  }

  path() {
    const room = `/ws/rooms/${encodeURIComponent(this.roomId)}`;
    // `ack=patch`: the ack of this socket's action rides on the patch of its change.
    return this.token ? `${room}?token=${encodeURIComponent(this.token)}&ack=patch` : room;
  }

  /** This socket's seat (`view.you`), null for a spectator or before the first view. */
  get you() {
    return this.view?.you ?? null;
  }

  /** What this seat may send now (`view.legal`). */
  get legal() {
    return Array.isArray(this.view?.legal) ? this.view.legal : [];
  }

  /**
   * Send `action`; resolves with its ack `{ref, seq}` (the view then includes it) and
   * rejects with a SocketError (`code`) when the server refuses it, or with code
   * `unanswered` when no answer came within the resend window. `options.id` sends it with
   * an id of your own (a retry of an id already applied is answered with its first ack).
   */
  act(action, options = {}) {
    if (this.closed) return Promise.reject(new SocketError("closed", "the session is closed"));
    const id = options.id ?? newActionId();
    const known = this.pending.get(id);
    if (known) return known.promise;
    const msg = { type: "action", id, action };
    // Receipt-to-press: how long the player looked at the position this action answers.
    // The server believes it only near its own estimate (docs/fairness.md).
    const seen = this.positionSeen;
    if (seen && action && action.at === seen.moves) {
      const react = Math.round(now() - seen.at);
      if (react >= 0 && react <= 60000) msg.react = react;
    }
    const entry = { msg };
    entry.promise = new Promise((resolve, reject) => {
      entry.resolve = resolve;
      entry.reject = reject;
    });
    entry.timer = setTimeout(
      () => this.#settle(id, null, new SocketError("unanswered", "no answer from the server")),
      this.resendWindowMs,
    );
    this.pending.set(id, entry);
    this.send(msg);
    return entry.promise;
  }

  /** Feed one server message (parsed JSON) as if it came on the socket. */
  handle(msg) {
    switch (msg.type) {
      case "snapshot":
        this.#onSnapshot(msg);
        break;
      case "patch":
        this.#onPatch(msg);
        break;
      case "ack":
        this.#settle(msg.ref, msg, null);
        break;
      case "error":
        this.#onError(msg);
        break;
      case "ping":
        // The server measures this connection's round trip: answer at once.
        this.send({ type: "pong", n: msg.n });
        break;
      case "chat":
      case "reaction":
        // Talk, not a change of the room: no seq, shown as it comes.
        this.emit("chat", msg);
        break;
      default:
        break; // pong, and any type a later v1 adds
    }
  }

  received(msg) {
    this.handle(msg);
  }

  opened() {
    // After a reconnect, ask only for what was missed; the server answers with the
    // missing patches or a fresh snapshot.
    if (this.seq !== null && !this.wantSnapshot) this.send({ type: "resume", lastSeq: this.seq });
    this.wantSnapshot = false;
    for (const entry of this.pending.values()) this.send(entry.msg);
  }

  interrupted() {
    this.reconnects += 1;
    clearTimeout(this.gapTimer);
  }

  failed(code, reason) {
    const refusal = this.refusal;
    const error = refusal
      ? new SocketError(refusal.code, refusal.message, null, { closeCode: code })
      : new SocketError(`closed_${code}`, reason || `closed with ${code}`, null, { closeCode: code });
    this.#stop(error);
  }

  closing() {
    this.#stop(new SocketError("closed", "the session is closed"));
  }

  #stop(error) {
    clearTimeout(this.gapTimer);
    this.#releaseAcked(true); // applied, whatever the view now shows
    this.readyReject(error);
    for (const id of [...this.pending.keys()]) this.#settle(id, null, error);
  }

  #onSnapshot(msg) {
    this.settled();
    const previous = this.view;
    this.view = msg.view;
    this.seq = msg.seq ?? msg.view?.seq ?? 0;
    this.refusal = null;
    // Buffered patches at or below the snapshot are already in it.
    for (const seq of [...this.buffer.keys()]) if (seq <= this.seq) this.buffer.delete(seq);
    this.#notePosition();
    this.readyResolve(this.view);
    this.emit("view", this.view, [], { seq: this.seq, ts: msg.ts ?? null, snapshot: true, previous });
    this.#drain();
    this.#releaseAcked();
  }

  #onPatch(msg) {
    // A riding ack counts as it arrives, even on a patch not applied (a repeat, or one
    // held for a gap): the copy a resume replays carries none. It is settled after the
    // patch is applied, so that whoever awaits it sees the view with it.
    const ack = typeof msg.ack === "string" ? { type: "ack", ref: msg.ack, seq: msg.seq } : null;
    if (this.seq !== null && msg.seq > this.seq) {
      this.buffer.set(msg.seq, msg);
      this.#drain();
    }
    if (ack) this.#settle(ack.ref, ack, null);
  }

  // Apply buffered patches while they are contiguous; on a gap wait briefly, then resync.
  #drain() {
    while (this.buffer.has(this.seq + 1)) {
      const msg = this.buffer.get(this.seq + 1);
      this.buffer.delete(this.seq + 1);
      const previous = this.view;
      let view;
      try {
        view = applyPatch(previous, msg.ops || []);
      } catch {
        // The view no longer matches the server's: replaying patches onto it cannot
        // help, so start a new socket, which begins with a full snapshot.
        this.#restart();
        return;
      }
      if (view && typeof view === "object") view.seq = msg.seq;
      this.view = view;
      this.seq = msg.seq;
      this.#notePosition();
      const change = { seq: msg.seq, ts: msg.ts ?? null, snapshot: false, previous };
      this.emit("view", view, msg.events || [], change);
    }
    this.#releaseAcked();
    clearTimeout(this.gapTimer);
    if (this.buffer.size > 0) this.gapTimer = setTimeout(() => this.#resync(), GAP_WAIT_MS);
  }

  /** Ask the server for everything after the last good seq (or a fresh snapshot). */
  #resync() {
    clearTimeout(this.gapTimer);
    if (!this.send({ type: "resume", lastSeq: this.seq ?? 0 })) return;
    // If the answer does not bring the view forward, start over with a new socket: a
    // fresh connection always begins with a snapshot.
    const before = this.seq;
    this.gapTimer = setTimeout(() => {
      if (this.seq === before && this.buffer.size > 0) this.#restart();
    }, GAP_WAIT_MS * 2);
  }

  #restart() {
    clearTimeout(this.gapTimer);
    this.buffer.clear();
    this.wantSnapshot = true;
    this.restart();
  }

  /** When the table's position (view.moves) this session shows first arrived. */
  #notePosition() {
    const moves = this.view?.moves;
    if (Number.isInteger(moves) && this.positionSeen?.moves !== moves) {
      this.positionSeen = { moves, at: now() };
    }
  }

  #onError(msg) {
    const error = SocketError.of(msg);
    const entry = error.ref ? this.pending.get(error.ref) : undefined;
    if (entry && RETRIED.has(error.code)) {
      // The room could not take it yet (docs/protocol.md: retry with the same id).
      setTimeout(() => {
        if (this.pending.get(error.ref) === entry) this.send(entry.msg);
      }, RETRY_MS);
      return;
    }
    if (error.code === "rate_limited" && !error.ref) {
      // Dropped unread, so no ref says which: every unanswered action goes again later.
      setTimeout(() => {
        for (const pending of this.pending.values()) this.send(pending.msg);
      }, RETRY_MS);
    }
    if (!error.ref && this.view === null) this.refusal = error; // the socket closes next
    if (entry) this.#settle(error.ref, null, error);
    this.emit("error", error);
  }

  #settle(ref, ack, error) {
    const entry = this.pending.get(ref);
    if (ack) this.emit("ack", ack);
    if (!entry) return;
    this.pending.delete(ref);
    clearTimeout(entry.timer);
    if (error) return entry.reject(error);
    const answer = { ref: ack.ref, seq: ack.seq };
    // An ack frame may come before its patch: `act` resolves once the view includes it.
    if (this.seq !== null && this.seq >= ack.seq) entry.resolve(answer);
    else this.acked.push([ack.seq, () => entry.resolve(answer)]);
  }

  #releaseAcked(all = false) {
    if (!this.acked.length) return;
    const ready = this.acked.filter(([seq]) => all || seq <= this.seq);
    this.acked = this.acked.filter((entry) => !ready.includes(entry));
    for (const [, resolve] of ready) resolve();
  }
}
