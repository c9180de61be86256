// The lobby's live socket (/ws/lobby, docs/protocol.md "The lobby socket"): a
// `snapshot {epoch, seq, rooms, playing}` on connect, then `lobby {seq, changes,
// playingChanges}` in order. A gap or a lost socket asks `resume {lastSeq, epoch}` (the
// server answers with the missing changes or a fresh snapshot).

import { PROTOCOL, retryDelay } from "uno-client";

const PING_MS = 20000;

function feedUrl() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  return `${scheme}://${location.host}/ws/lobby`;
}

function applyChanges(list, changes) {
  for (const change of changes || []) {
    if (change.op === "remove") list.delete(change.roomId);
    else if (change.room) list.set(change.roomId, change.room);
  }
}

export class LobbyFeed {
  /** @param {function} onChange  called with ({rooms, playing}) after every change */
  constructor(onChange) {
    this.onChange = onChange;
    this.rooms = new Map(); // open to join
    this.playing = new Map(); // running games, to watch
    this.epoch = null;
    this.seq = null;
    this.attempt = 0;
    this.closed = false;
    this.ws = null;
  }

  get online() {
    return this.ws?.readyState === WebSocket.OPEN && this.seq !== null;
  }

  connect() {
    const ws = new WebSocket(feedUrl(), [PROTOCOL]);
    this.ws = ws;
    ws.addEventListener("open", () => {
      if (ws !== this.ws) return;
      if (this.seq !== null) this.send({ type: "resume", lastSeq: this.seq, epoch: this.epoch });
      clearInterval(this.pingTimer);
      this.pingTimer = setInterval(() => this.send({ type: "ping" }), PING_MS);
    });
    ws.addEventListener("message", (e) => {
      if (ws === this.ws) this.onMessage(e.data);
    });
    ws.addEventListener("close", () => {
      if (ws !== this.ws || this.closed) return;
      clearInterval(this.pingTimer);
      this.attempt += 1;
      this.retryTimer = setTimeout(() => this.connect(), retryDelay(this.attempt));
    });
  }

  send(message) {
    if (this.ws?.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(message));
  }

  onMessage(text) {
    let message;
    try {
      message = JSON.parse(text);
    } catch {
      return;
    }
    if (message.type === "snapshot") {
      this.attempt = 0;
      this.epoch = message.epoch;
      this.seq = message.seq;
      this.rooms = new Map((message.rooms || []).map((r) => [r.roomId, r]));
      this.playing = new Map((message.playing || []).map((r) => [r.roomId, r]));
      this.onChange(this);
    } else if (message.type === "lobby") {
      if (this.seq === null || message.epoch !== this.epoch || message.seq <= this.seq) return;
      if (message.seq !== this.seq + 1) {
        this.send({ type: "resume", lastSeq: this.seq, epoch: this.epoch });
        return;
      }
      this.seq = message.seq;
      applyChanges(this.rooms, message.changes);
      applyChanges(this.playing, message.playingChanges);
      this.onChange(this);
    }
  }

  close() {
    this.closed = true;
    clearInterval(this.pingTimer);
    clearTimeout(this.retryTimer);
    this.ws?.close();
  }
}
