// What every live socket of the package shares (a room session, the lobby feed, a
// tournament feed): the protocol version offered as the subprotocol, reconnection with
// backoff and jitter, liveness pings, close codes after which retrying cannot help, and
// listeners by event name.

export const PROTOCOL = "uno.v1";
const BACKOFF_MS = [300, 700, 1500, 3000, 6000, 10000];
const PING_MS = 20000;
// No message at all (the server answers every ping) for this long: the socket is dead
// even if the platform has not noticed, as after a phone slept or a network switched.
const SILENCE_MS = 2 * PING_MS + 5000;
const OPEN = 1; // WebSocket.OPEN, the same in browsers, React Native and `ws`

/** The wait before reconnect attempt `attempt` (0, 1, ...): backoff, with jitter so that
 * a server restart is not met by every client at the same instant. */
export function retryDelay(attempt, backoff = BACKOFF_MS) {
  const base = backoff[Math.min(attempt, backoff.length - 1)];
  return Math.round(base * (0.75 + Math.random() * 0.5));
}

/** Send `msg` as one JSON text frame if `ws` is open (false: it is not). */
export function sendJson(ws, msg) {
  if (ws && ws.readyState === OPEN) {
    ws.send(JSON.stringify(msg));
    return true;
  }
  return false;
}

/** Listeners by event name; `on` returns the function that removes the listener. */
export class Emitter {
  #listeners = new Map();

  on(type, listener) {
    if (!this.#listeners.has(type)) this.#listeners.set(type, new Set());
    this.#listeners.get(type).add(listener);
    return () => this.off(type, listener);
  }

  off(type, listener) {
    this.#listeners.get(type)?.delete(listener);
  }

  emit(type, ...args) {
    for (const listener of [...(this.#listeners.get(type) || [])]) {
      try {
        listener(...args);
      } catch (err) {
        // A listener's bug must not leave the socket's state half updated: it is
        // reported as an uncaught error once this message has been handled.
        queueMicrotask(() => {
          throw err;
        });
      }
    }
  }
}

// Browsers say when the network or the tab comes back; React Native and Node do not,
// and there the backoff alone brings the socket back.
function onWake(listener) {
  const target = globalThis;
  const doc = globalThis.document;
  if (typeof target.addEventListener === "function") target.addEventListener("online", listener);
  if (doc && typeof doc.addEventListener === "function") doc.addEventListener("visibilitychange", listener);
  return () => {
    if (typeof target.removeEventListener === "function") target.removeEventListener("online", listener);
    if (doc && typeof doc.removeEventListener === "function") doc.removeEventListener("visibilitychange", listener);
  };
}

/**
 * One socket kept open until `close()`: a subclass names its `path()` and handles
 * `opened()`, `received(msg)` and `failed(code, reason)`. Emits `status` with
 * `{state, retryIn?, code?, reason?}`: state `connecting`, `online`, `offline` (waiting
 * `retryIn` ms to reconnect), `failed` (a close after which retrying cannot help);
 * `state` is `closed` after `close()`.
 */
export class LiveSocket extends Emitter {
  constructor(client, { fatal, backoff } = {}) {
    super();
    this.client = client;
    this.fatal = fatal;
    this.backoff = backoff || BACKOFF_MS;
    this.state = "idle";
    this.ws = null;
    this.attempt = 0;
    this.closed = false;
    this.lastHeard = 0;
    this.retryTimer = null;
    this.pingTimer = null;
    this.stopWake = null;
  }

  /** Open the socket (called by the client's `connect`, `watch`, `lobby`, `tournament`). */
  open() {
    this.closed = false;
    this.stopWake ??= onWake(() => {
      if (!this.closed && this.state === "offline") {
        clearTimeout(this.retryTimer);
        this.open();
      }
    });
    this.status("connecting");
    const ws = new this.client.WebSocket(this.client.socketUrl(this.path()), [PROTOCOL]);
    this.ws = ws;
    ws.addEventListener("open", () => this.#onOpen(ws));
    ws.addEventListener("message", (e) => this.#onMessage(ws, e.data));
    ws.addEventListener("close", (e) => this.#onClose(ws, e));
    // An "error" is always followed by a "close", where the retry happens; a listener
    // is still needed, or `ws` in Node throws it.
    ws.addEventListener("error", () => {});
    return this;
  }

  /** Stop for good. */
  close() {
    if (this.closed && this.state === "closed") return;
    this.closed = true;
    this.stopWake?.();
    this.stopWake = null;
    clearTimeout(this.retryTimer);
    clearInterval(this.pingTimer);
    const ws = this.ws;
    this.ws = null;
    if (ws) ws.close(1000);
    this.closing();
    this.state = "closed"; // no `status` event: whoever closed it knows
  }

  /** Cut the socket as a network would (no closing handshake); the session reconnects
   * and resumes. For tests, and for an app that knows its network changed. */
  drop() {
    const ws = this.ws;
    if (!ws) return;
    if (typeof ws.terminate === "function") ws.terminate();
    else this.#abandon();
  }

  /** Send one message (a JSON object); false when the socket is not open. */
  send(msg) {
    return sendJson(this.ws, msg);
  }

  status(state, extra = {}) {
    this.state = state;
    this.emit("status", { state, ...extra });
  }

  /** A subclass calls this on its first full message: only a socket that got as far as
   * a snapshot resets the backoff, so one the server accepts and drops at once is not
   * retried at full speed. */
  settled() {
    this.attempt = 0;
  }

  /** Close this socket and open a new one at once (a fresh snapshot, no resume). */
  restart() {
    this.attempt = 0;
    if (this.ws) this.ws.close(4999, "resync");
  }

  // Hooks for subclasses.
  opened() {}
  received(_msg) {}
  failed(_code, _reason) {}
  closing() {}

  #onOpen(ws) {
    if (ws !== this.ws) return;
    this.status("online");
    this.lastHeard = Date.now();
    clearInterval(this.pingTimer);
    this.pingTimer = setInterval(() => {
      if (Date.now() - this.lastHeard > SILENCE_MS) this.#abandon();
      else this.send({ type: "ping" });
    }, PING_MS);
    this.opened();
  }

  #onMessage(ws, raw) {
    if (ws !== this.ws) return;
    this.lastHeard = Date.now();
    let msg;
    try {
      msg = JSON.parse(typeof raw === "string" ? raw : String(raw));
    } catch {
      return; // not ours to crash on
    }
    if (msg && typeof msg === "object") this.received(msg);
  }

  // Give up on a silent socket at once: its own close event may take minutes to come.
  #abandon() {
    const ws = this.ws;
    if (!ws) return;
    this.#onClose(ws, { code: 1006, reason: "silent" });
    this.ws = null;
    ws.close();
  }

  #onClose(ws, event) {
    if (ws !== this.ws) return;
    this.ws = null;
    clearInterval(this.pingTimer);
    if (this.closed) return;
    if (this.fatal.has(event.code)) {
      this.closed = true;
      this.stopWake?.();
      this.stopWake = null;
      this.status("failed", { code: event.code, reason: event.reason });
      this.failed(event.code, event.reason);
      return;
    }
    this.interrupted();
    const delay = retryDelay(this.attempt, this.backoff);
    this.attempt += 1;
    this.status("offline", { retryIn: delay, code: event.code });
    this.retryTimer = setTimeout(() => this.open(), delay);
  }

  interrupted() {}
}
