// The room's WebSocket (docs/protocol.md): snapshot + ordered patches -> the view.
//
// The server is authoritative; this class only keeps the latest view it was told about:
// - `snapshot {seq, view}` replaces the view outright;
// - `patch {seq, ops, events}` must be applied in `seq` order, each exactly once: older
//   ones (already included) are dropped, early ones wait in a buffer, and a gap that does
//   not fill quickly, or a patch that does not apply, asks the server to resync;
// - a lost socket reconnects with exponential backoff and sends `resume {lastSeq}`;
// - actions carry a client id; ones not yet acknowledged are re-sent with the same id after
//   a reconnect, which the server applies at most once.

import { applyPatch } from "./patch.js";
import { stampEvents } from "./stamp.js";

export const PROTOCOL = "uno.v1";
const BACKOFF_MS = [300, 700, 1500, 3000, 6000, 10000];
const GAP_WAIT_MS = 1500; // how long an out-of-order patch may wait for the missing ones
const PING_MS = 20000;
// No message at all (the server answers every ping) for this long: the socket is dead even
// if the browser has not noticed, as after a phone slept or a network switched.
const SILENCE_MS = 2 * PING_MS + 5000;
const RESEND_WINDOW_MS = 15000; // older unacknowledged actions are dropped, not re-sent
// Close codes after which retrying cannot help: origin refused (1008), seat given up or
// player removed (4001), bad token (4401), no spectators (4403), no such room (4404).
const FATAL_CLOSE = new Set([1008, 4001, 4401, 4403, 4404]);

let idCounter = 0;
function newActionId() {
  idCounter += 1;
  const random = crypto.getRandomValues(new Uint32Array(2));
  return `c${Date.now().toString(36)}-${random[0].toString(36)}${random[1].toString(36)}-${idCounter}`;
}

/** The wait before reconnect attempt `attempt` (0, 1, ...): backoff, with jitter so that
 * a server restart is not met by every client at the same instant. */
export function retryDelay(attempt) {
  const base = BACKOFF_MS[Math.min(attempt, BACKOFF_MS.length - 1)];
  return Math.round(base * (0.75 + Math.random() * 0.5));
}

/** Send `msg` as one JSON text frame if `ws` is open (false: it is not). */
export function sendJson(ws, msg) {
  if (ws && ws.readyState === WebSocket.OPEN) {
    ws.send(JSON.stringify(msg));
    return true;
  }
  return false;
}

// `ack=patch`: the ack of this socket's action rides on the patch of its change (one frame
// fewer per action for the server to send); see onPatch.
export function socketUrl(roomId, token) {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const query = token ? `?token=${encodeURIComponent(token)}&ack=patch` : "";
  return `${scheme}://${location.host}/ws/rooms/${encodeURIComponent(roomId)}${query}`;
}

export class RoomConnection {
  /**
   * @param {string} roomId
   * @param {string|null} token  seat token, or null to watch as a spectator
   * @param {object} handlers  onView(view, seq), onEvents(events, seq), onError(err),
   *   onAck(ack), onStatus({state, retryIn, reason})
   */
  constructor(roomId, token, handlers = {}) {
    this.roomId = roomId;
    this.token = token;
    this.handlers = handlers;
    this.view = null;
    this.seq = null; // null until the first snapshot
    this.buffer = new Map(); // seq -> patch message that arrived early
    this.pending = new Map(); // action id -> {msg, sentAt}
    this.attempt = 0;
    this.closed = false;
    this.ws = null;
    this.gapTimer = null;
    this.retryTimer = null;
    this.pingTimer = null;
    this.wantSnapshot = false;
    this.lastHeard = 0;
    // Back on the network or back to the tab: do not sit out the rest of a backoff.
    this.wake = () => {
      if (!this.closed && this.state === "offline") {
        clearTimeout(this.retryTimer);
        this.connect();
      }
    };
    window.addEventListener("online", this.wake);
    document.addEventListener("visibilitychange", this.wake);
  }

  connect() {
    this.closed = false;
    this.status("connecting");
    // The protocol version this client speaks: a server that does not speak it refuses.
    const ws = new WebSocket(socketUrl(this.roomId, this.token), [PROTOCOL]);
    this.ws = ws;
    ws.addEventListener("open", () => this.onOpen(ws));
    ws.addEventListener("message", (e) => this.onMessage(ws, e.data));
    ws.addEventListener("close", (e) => this.onClose(ws, e));
    // "error" is always followed by "close", where the retry happens.
  }

  /** Stop for good (leaving the page or the room). */
  close() {
    this.closed = true;
    window.removeEventListener("online", this.wake);
    document.removeEventListener("visibilitychange", this.wake);
    clearTimeout(this.retryTimer);
    clearTimeout(this.gapTimer);
    clearInterval(this.pingTimer);
    if (this.ws) this.ws.close(1000);
  }

  /** Send an action; returns its client id (the `ref` of its ack or error). */
  sendAction(action) {
    const id = newActionId();
    const msg = { type: "action", id, action };
    // Receipt-to-press: how long the player looked at the position this action answers.
    // The server believes it only near its own estimate (docs/fairness.md).
    const seen = this.positionSeen;
    if (seen && action.at === seen.moves) {
      const react = Math.round(performance.now() - seen.at);
      if (react >= 0 && react <= 60000) msg.react = react;
    }
    this.pending.set(id, { msg, sentAt: Date.now() });
    this.send(msg);
    return id;
  }

  send(msg) {
    return sendJson(this.ws, msg);
  }

  status(state, extra = {}) {
    this.state = state;
    this.handlers.onStatus?.({ state, ...extra });
  }

  onOpen(ws) {
    if (ws !== this.ws) return;
    this.status("online");
    // After a reconnect, ask only for what we missed; the server answers with the
    // missing patches or a fresh snapshot.
    if (this.seq !== null && !this.wantSnapshot) {
      this.send({ type: "resume", lastSeq: this.seq });
    }
    this.wantSnapshot = false;
    const now = Date.now();
    for (const [id, entry] of this.pending) {
      if (now - entry.sentAt > RESEND_WINDOW_MS) this.pending.delete(id);
      else this.send(entry.msg);
    }
    this.lastHeard = Date.now();
    clearInterval(this.pingTimer);
    this.pingTimer = setInterval(() => {
      if (Date.now() - this.lastHeard > SILENCE_MS) this.abandon();
      else this.send({ type: "ping" });
    }, PING_MS);
  }

  // Give up on a silent socket at once: its own close event may take minutes to come.
  abandon() {
    const ws = this.ws;
    if (!ws) return;
    this.onClose(ws, { code: 1006, reason: "silent" });
    this.ws = null;
    ws.close();
  }

  onClose(ws, event) {
    if (ws !== this.ws) return;
    clearInterval(this.pingTimer);
    clearTimeout(this.gapTimer);
    if (this.closed) return;
    if (FATAL_CLOSE.has(event.code)) {
      this.closed = true;
      this.status("failed", { code: event.code, reason: event.reason });
      return;
    }
    const delay = retryDelay(this.attempt);
    this.attempt += 1;
    this.status("offline", { retryIn: delay });
    this.retryTimer = setTimeout(() => this.connect(), delay);
  }

  onMessage(ws, raw) {
    if (ws !== this.ws) return;
    this.lastHeard = Date.now();
    let msg;
    try {
      msg = JSON.parse(raw);
    } catch {
      return; // not ours to crash on
    }
    switch (msg.type) {
      case "snapshot":
        this.onSnapshot(msg);
        break;
      case "patch":
        this.onPatch(msg);
        break;
      case "ack":
        this.onAck(msg);
        break;
      case "error":
        if (msg.ref) this.pending.delete(msg.ref);
        this.handlers.onError?.(msg);
        break;
      case "ping":
        // The server measures this connection's round trip: answer at once.
        this.send({ type: "pong", n: msg.n });
        break;
      case "chat":
      case "reaction":
        // Talk, not a change of the room: no seq, shown as it comes.
        this.handlers.onChat?.(msg);
        break;
      default:
        break; // pong and anything newer
    }
  }

  onSnapshot(msg) {
    // Only a socket that got as far as a snapshot resets the backoff: one the server
    // accepts and drops at once must not be retried at full speed.
    this.attempt = 0;
    this.view = msg.view;
    this.seq = msg.seq ?? msg.view?.seq ?? 0;
    // Buffered patches at or below the snapshot are already in it.
    for (const seq of [...this.buffer.keys()]) if (seq <= this.seq) this.buffer.delete(seq);
    this.notePosition();
    this.handlers.onView?.(this.view, this.seq, { snapshot: true });
    this.drain();
  }

  /** When the table's position (view.moves) this client shows first arrived. */
  notePosition() {
    const moves = this.view?.moves;
    if (Number.isInteger(moves) && this.positionSeen?.moves !== moves) {
      this.positionSeen = { moves, at: performance.now() };
    }
  }

  onAck(ack) {
    this.pending.delete(ack.ref);
    this.handlers.onAck?.(ack);
  }

  onPatch(msg) {
    // A riding ack counts as it arrives, even on a patch not applied (a repeat, or one
    // held for a gap): the copy a resume replays carries none.
    if (typeof msg.ack === "string") this.onAck({ type: "ack", ref: msg.ack, seq: msg.seq });
    if (this.seq === null || msg.seq <= this.seq) return; // before our snapshot, or a repeat
    this.buffer.set(msg.seq, msg);
    this.drain();
  }

  // Apply buffered patches while they are contiguous; on a gap wait briefly, then resync.
  drain() {
    let changed = false;
    const events = [];
    while (this.buffer.has(this.seq + 1)) {
      const msg = this.buffer.get(this.seq + 1);
      this.buffer.delete(this.seq + 1);
      const before = this.view;
      try {
        this.view = applyPatch(this.view, msg.ops || []);
      } catch (err) {
        // Our view no longer matches the server's: replaying patches onto it cannot
        // help, so start a new socket, which begins with a full snapshot.
        console.warn("patch did not apply, reconnecting for a snapshot", err);
        this.restart();
        return;
      }
      this.seq = msg.seq;
      if (this.view && typeof this.view === "object") this.view.seq = msg.seq;
      const stamped = stampEvents(msg.events || [], before, this.view);
      events.push(...stamped.map((e) => ({ ...e, seq: msg.seq, ts: msg.ts })));
      changed = true;
    }
    if (changed) {
      this.notePosition();
      if (events.length) this.handlers.onEvents?.(events, this.seq);
      this.handlers.onView?.(this.view, this.seq, { snapshot: false });
    }
    clearTimeout(this.gapTimer);
    if (this.buffer.size > 0) {
      this.gapTimer = setTimeout(() => this.resync(), GAP_WAIT_MS);
    }
  }

  /** Ask the server for everything after our last good seq (or a fresh snapshot). */
  resync() {
    clearTimeout(this.gapTimer);
    if (!this.send({ type: "resume", lastSeq: this.seq ?? 0 })) return;
    // If the answer does not bring us forward, start over with a new socket: a fresh
    // connection always begins with a snapshot.
    const before = this.seq;
    this.gapTimer = setTimeout(() => {
      if (this.seq === before && this.buffer.size > 0) this.restart();
    }, GAP_WAIT_MS * 2);
  }

  /** Drop the socket and connect again without `resume`, to get a fresh snapshot. */
  restart() {
    clearTimeout(this.gapTimer);
    this.buffer.clear();
    this.wantSnapshot = true;
    this.attempt = 0;
    if (this.ws) this.ws.close(4999, "resync");
  }
}
