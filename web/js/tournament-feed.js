// A tournament's live socket (/ws/tournaments/{id}, docs/tournaments.md "Live"): a
// `snapshot {seq, tournament, standings}` on connect, then `event {seq, event}` in order.
// Events are taken once each in `seq` order; a gap asks `resume {lastSeq}` (the server
// answers with the missing events or a fresh snapshot), and a lost socket reconnects with
// backoff and resumes from the last event it holds.

import { PROTOCOL, retryDelay, sendJson } from "./protocol.js";

const PING_MS = 20000;
// Close codes after which retrying cannot help: origin refused, no such tournament.
const FATAL_CLOSE = new Set([1008, 4404]);

function feedUrl(tournamentId) {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  return `${scheme}://${location.host}/ws/tournaments/${encodeURIComponent(tournamentId)}`;
}

export class TournamentFeed {
  /**
   * @param {string} tournamentId
   * @param {object} handlers  onSnapshot(tournament, standings, seq), onEvent(event, seq),
   *   onStatus({state, retryIn})
   */
  constructor(tournamentId, handlers = {}) {
    this.tournamentId = tournamentId;
    this.handlers = handlers;
    this.seq = null; // null until the first snapshot
    this.attempt = 0;
    this.closed = false;
    this.ws = null;
    this.retryTimer = null;
    this.pingTimer = null;
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
    const ws = new WebSocket(feedUrl(this.tournamentId), [PROTOCOL]);
    this.ws = ws;
    ws.addEventListener("open", () => {
      if (ws !== this.ws) return;
      this.status("online");
      this.resuming = false;
      if (this.seq !== null) this.send({ type: "resume", lastSeq: this.seq });
      clearInterval(this.pingTimer);
      this.pingTimer = setInterval(() => this.send({ type: "ping" }), PING_MS);
    });
    ws.addEventListener("message", (e) => {
      if (ws === this.ws) this.onMessage(e.data);
    });
    ws.addEventListener("close", (e) => {
      if (ws === this.ws) this.onClose(e);
    });
  }

  close() {
    this.closed = true;
    window.removeEventListener("online", this.wake);
    document.removeEventListener("visibilitychange", this.wake);
    clearTimeout(this.retryTimer);
    clearInterval(this.pingTimer);
    if (this.ws) this.ws.close(1000);
  }

  send(msg) {
    return sendJson(this.ws, msg);
  }

  status(state, extra = {}) {
    this.state = state;
    this.handlers.onStatus?.({ state, ...extra });
  }

  onClose(event) {
    clearInterval(this.pingTimer);
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

  onMessage(raw) {
    let msg;
    try {
      msg = JSON.parse(raw);
    } catch {
      return;
    }
    if (msg.type === "snapshot") {
      this.attempt = 0;
      this.resuming = false;
      this.seq = msg.seq ?? 0;
      this.handlers.onSnapshot?.(msg.tournament, msg.standings || [], this.seq);
    } else if (msg.type === "event") {
      if (this.seq === null || msg.seq <= this.seq) return; // in the snapshot, or a repeat
      if (msg.seq !== this.seq + 1) {
        // A gap: ask once for what is missing (the answer brings it in order, or a
        // snapshot); the events already sent after the gap come again with it.
        if (!this.resuming) this.resuming = this.send({ type: "resume", lastSeq: this.seq });
        return;
      }
      this.resuming = false;
      this.seq = msg.seq;
      this.handlers.onEvent?.(msg.event || {}, this.seq);
    }
  }
}
